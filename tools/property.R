# Runs the property check of tests/testthat/test-property.R on many random
# designs (default 10,000): mla() against the plain-R reference, every shape.
# Usage: Rscript tools/property.R [n_designs] [seed]   (package installed)
suppressPackageStartupMessages(library(mlagreement))
args <- commandArgs(trailingOnly = TRUE)
n_designs <- if (length(args) >= 1) as.integer(args[1]) else 10000L
seed <- if (length(args) >= 2) as.integer(args[2]) else 1L
helpers <- file.path("tests", "testthat", c("helper-reference.R", "helper-data.R",
                                             "helper-property.R"))
for (f in helpers) sys.source(f, envir = globalenv())
set.seed(seed)
shapes <- character(n_designs)
worst <- numeric(n_designs)
started <- Sys.time()
for (i in seq_len(n_designs)) {
  d <- random_property_design()
  shapes[i] <- d$shape
  worst[i] <- property_mismatch(d$array)
}
bad <- !(worst < 1e-12)
cat(sprintf("%d designs (seed %d) in %.0f s; largest difference %.3g; mismatches: %d\n",
            n_designs, seed, as.numeric(difftime(Sys.time(), started, units = "secs")),
            max(worst[is.finite(worst)]), sum(bad)))
print(table(shape = shapes, mismatch = bad))
if (any(bad)) quit(status = 1)

# Limits at scale (issue 18, finding 7): each case runs in its own R process
# under /usr/bin/time -v, which reports the peak resident memory. From the
# package root, with an optimised build in MLA_LIB (see README.md):
#
#   MLA_LIB=/tmp/mla-lib Rscript bench/scale.R          # every case
#   MLA_LIB=/tmp/mla-lib Rscript bench/scale.R boot     # one case
#
# Cases (targets in parentheses):
#   boot       mla_boot(), 50 items x 20,000 annotators x 2 labels, R = 2000 (<= 10 s, <= 1 GB)
#   pairs      annotator_agreement() / agreement_measures() on 2 x 30,000 annotators
#              (4.5e8 pairs): the classed size error (<= 1 s), and pairs = FALSE
#   jaccard    krippendorff_alpha(), Jaccard + MASI, 2 items x 1e5 annotators (<= 0.5 s)
#   labels5000 selected-labels form, 66,498 records over 5,000 labels (2.8 MB input):
#              annotations_long() and Jaccard + MASI alpha
# Prints times (elapsed, from inside the process) and the peak memory of the
# whole process; asserts only what each case must give (classes, sizes).
cases <- c("boot", "pairs", "jaccard", "labels5000")
args <- commandArgs(trailingOnly = TRUE)

if (length(args) == 0L || args[1] != "--case") {
  run <- if (length(args)) args else cases
  for (case in run) {
    out <- system2("/usr/bin/time", c("-v", "Rscript", "bench/scale.R", "--case", case),
                   stdout = TRUE, stderr = TRUE)
    rss <- sub(".*: ", "", grep("Maximum resident set size", out, value = TRUE))
    cat(grep("^(case|  )", out, value = TRUE), sep = "\n")
    cat(sprintf("  peak memory of the process: %.2f GB\n", as.numeric(rss) / 1024^2))
  }
  quit(save = "no")
}

lib <- Sys.getenv("MLA_LIB")
if (nzchar(lib)) library(mlagreement, lib.loc = lib) else pkgload::load_all(".", quiet = TRUE)
elapsed <- function(expr) {
  t0 <- proc.time()[["elapsed"]]
  force(expr)
  proc.time()[["elapsed"]] - t0
}
say <- function(...) cat("  ", sprintf(...), "\n", sep = "")
case <- args[2]
cat("case", case, "\n")
# the first call of a session loads tibble, cli, ... (about 1 s on shared
# cores): a warm-up on a tiny design, so the times are those of the work
tiny <- as_annotations(array(c(0L, 1L, 1L, 1L, 0L, 1L), c(2, 3, 1)))
invisible(krippendorff_alpha(tiny, distance = c("jaccard", "masi")))
invisible(annotator_agreement(tiny))

if (case == "boot") {
  set.seed(1)
  fit <- mla(array(rbinom(50 * 20000 * 2, 1, 0.3), c(50, 20000, 2)))
  t <- elapsed(bs <- mla_boot(fit, R = 2000, threads = 1))
  say("mla_boot(R = 2000), 50 x 20,000 x 2, one thread: %.2f s", t)
  t <- elapsed(se <- jackknife_se(bs))
  say("jackknife_se(): %.2f s", t)
}

if (case == "pairs") {
  set.seed(1)
  x <- as_annotations(array(rbinom(2 * 30000 * 2, 1, 0.3), c(2, 30000, 2)))
  for (f in list(annotator_agreement, agreement_measures)) {
    t <- elapsed(e <- tryCatch(f(x), mlagreement_error_pairs_too_large = identity))
    stopifnot(inherits(e, "mlagreement_error_pairs_too_large"))
    say("%s: %.3f s to the classed error: %s", class(e)[1], t,
        gsub("\n", " ", cli::ansi_strip(conditionMessage(e))))
  }
  t <- elapsed(agr <- annotator_agreement(x, pairs = FALSE))
  say("annotator_agreement(pairs = FALSE): %.2f s, %d annotator rows", t, nrow(agr$annotators))
}

if (case == "jaccard") {
  set.seed(1)
  a <- array(0L, c(2, 1e5, 3))
  a[1, , 1] <- rbinom(1e5, 1, 0.5)
  a[2, , 2] <- 1L
  a[2, 1:100, 3] <- 1L
  x <- as_annotations(a)
  t <- elapsed(r <- krippendorff_alpha(x, distance = c("jaccard", "masi")))
  say("krippendorff_alpha(jaccard, masi), 2 x 1e5 records: %.3f s (alpha %.4f, %.4f)",
      t, r$estimate[1], r$estimate[2])
  t <- elapsed(krippendorff_alpha(x, distance = "hamming"))
  say("the same, Hamming: %.3f s", t)
}

if (case == "labels5000") {
  source(file.path("bench", "bench-utils.R"))
  design <- labels5000_long()
  long <- design$long
  labels <- design$labels
  t <- elapsed(x <- annotations_long(long, item, annotator, label, labels = labels))
  say("annotations_long(), %d rows (%.1f MB) -> %.2f GB object: %.1f s", nrow(long),
      utils::object.size(long) / 2^20, utils::object.size(x) / 2^30, t)
  t <- elapsed(r <- krippendorff_alpha(x, distance = c("jaccard", "masi")))
  say("krippendorff_alpha(jaccard, masi): %.1f s", t)
}

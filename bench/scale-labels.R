# 5,000 labels in the selected-labels form (issue 18, finding 7, last
# bullet): the records layout (a records x labels 0/1 matrix, "before")
# against the sparse records layout (the selected labels of each record,
# "after") on the same data, each in a fresh R process. From the package
# root, with an optimised build in MLA_LIB (see README.md):
#
#   MLA_LIB=/tmp/mla-lib Rscript bench/scale-labels.R
#
# Data: the labels5000 case of bench/scale.R (22,166 items x 3 annotators,
# 1-3 labels per record drawn with exponential weights: 66,498 records,
# about 1.3e5 rows, 2.8 MB). Per layout: object.size(), annotations_long()
# CPU and elapsed time, mla() and Hamming alpha, Jaccard + MASI alpha, and
# the peak resident memory of the process (VmHWM of /proc/self/status).
# Asserts that both layouts give identical numbers.
args <- commandArgs(trailingOnly = TRUE)

if (length(args) == 0L || args[1] != "--layout") {
  run_layout <- function(layout) {
    out <- system2("Rscript", c("bench/scale-labels.R", "--layout", layout), stdout = TRUE, stderr = TRUE)
    cat(grep("^  ", out, value = TRUE), sep = "\n")
    readRDS(file.path(tempdir(), paste0("scale-labels-", layout, ".rds")))
  }
  Sys.setenv(SCALE_LABELS_DIR = tempdir())
  cat("before: records layout (records x labels 0/1 matrix)\n")
  before <- run_layout("records")
  cat("after: sparse records layout\n")
  after <- run_layout("sparse")
  stopifnot(identical(before$numbers, after$numbers))
  cat("identical numbers in both layouts\n")
  ratio <- function(f) sprintf("%-34s %10.3f -> %10.3f  (%.1fx)\n", f, before[[f]], after[[f]],
                               before[[f]] / after[[f]])
  cat("\n", vapply(c("object_mb", "long_cpu_s", "long_elapsed_s", "mla_s", "set_alpha_s",
                     "peak_rss_mb"), ratio, ""), sep = "")
  quit(save = "no")
}

layout <- args[2]
lib <- Sys.getenv("MLA_LIB")
if (nzchar(lib)) library(mlagreement, lib.loc = lib) else pkgload::load_all(".", quiet = TRUE)
# the package picks the sparse layout for this design; the records layout
# is forced by replacing its selection rule (R/annotations-sparse.R)
utils::assignInNamespace("use_sparse_layout", function(...) identical(layout, "sparse"), "mlagreement")
peak_rss_mb <- function() {
  status <- readLines("/proc/self/status")
  as.numeric(gsub("[^0-9]", "", grep("^VmHWM", status, value = TRUE))) / 1024
}
say <- function(...) cat("  ", sprintf(...), "\n", sep = "")

source(file.path("bench", "bench-utils.R"))
design <- labels5000_long()
long <- design$long
labels <- design$labels
rss_input <- peak_rss_mb()

t_long <- system.time(x <- annotations_long(long, item, annotator, label, labels = labels))
say("annotations_long(), %d rows (%.1f MB) -> %s layout, %.1f MB object: %.2f s CPU, %.2f s elapsed",
    nrow(long), utils::object.size(long) / 2^20, x$layout, utils::object.size(x) / 2^20,
    t_long[["user.self"]] + t_long[["sys.self"]], t_long[["elapsed"]])
t_mla <- system.time({
  fit <- mla(x)
  ham <- krippendorff_alpha(x, "hamming")
})[["elapsed"]]
say("mla() + Hamming alpha: %.3f s", t_mla)
t_set <- system.time(set <- krippendorff_alpha(x, distance = c("jaccard", "masi")))[["elapsed"]]
say("krippendorff_alpha(jaccard, masi): %.2f s", t_set)
rss <- peak_rss_mb()
say("peak RSS %.0f MB (input data built: %.0f MB)", rss, rss_input)

saveRDS(list(
  numbers = list(corpus = tidy(fit, "corpus"), label = tidy(fit, "label"), hamming = ham, set = set),
  object_mb = as.numeric(utils::object.size(x)) / 2^20,
  long_cpu_s = t_long[["user.self"]] + t_long[["sys.self"]], long_elapsed_s = t_long[["elapsed"]],
  mla_s = t_mla, set_alpha_s = t_set, peak_rss_mb = rss
), file.path(Sys.getenv("SCALE_LABELS_DIR", tempdir()), paste0("scale-labels-", layout, ".rds")))

# annotations_long() in memory against data.table's grouped sum by (item,
# label) on the same data frame: 1e7 decision rows, 2e5 items x 5 of 1,000
# annotators x 10 labels; integer ids, character ids, and integer ids with a
# factor label column. data.table runs with its default threads
# (getDTthreads(), printed: half the cores, 1 on 2 cores) unless
# MLA_BENCH_DT_THREADS says otherwise. Machine shared: medians of MLA_BENCH_REPS runs
# (default 5), elapsed and CPU (user + system) time; the ratio is what to
# compare (one run, same data).
#   MLA_LIB=/tmp/mla-lib Rscript bench/ingest.R   # an installed (-O2) build
lib <- Sys.getenv("MLA_LIB")
if (nzchar(lib)) library(mlagreement, lib.loc = lib) else pkgload::load_all(quiet = TRUE)
library(data.table)
source("bench/bench-utils.R")
# MLA_BENCH_DT_THREADS=2 compares with data.table on both cores
dt_threads <- Sys.getenv("MLA_BENCH_DT_THREADS")
if (nzchar(dt_threads)) setDTthreads(as.integer(dt_threads))
cat("data.table threads:", getDTthreads(), "\n")

n_items <- as.integer(Sys.getenv("MLA_BENCH_ITEMS", "2e5"))
reps <- as.integer(Sys.getenv("MLA_BENCH_REPS", "5"))
set.seed(1)
ann <- t(vapply(seq_len(n_items), function(i) sample.int(1000L, 5L), integer(5)))
d <- data.frame(
  item = rep(rep(seq_len(n_items), 5L), each = 10L),
  annotator = rep(as.vector(ann), each = 10L),
  label = rep(sprintf("L%02d", 1:10), n_items * 5L),
  value = rbinom(n_items * 50L, 1L, 0.3)
)
d_chr <- transform(d, item = paste0("i", item), annotator = paste0("a", annotator))
d_fct <- transform(d, label = factor(label))

# Median elapsed and CPU seconds of `reps` runs of f().
median_times <- function(f) {
  t <- vapply(seq_len(reps), function(i) {
    gc(FALSE)
    s <- system.time(f())
    c(elapsed = s[["elapsed"]], cpu = s[["user.self"]] + s[["sys.self"]])
  }, numeric(2))
  apply(t, 1, stats::median)
}

report <- function(df, what) {
  dt <- as.data.table(df)
  # alternate the two so both see the same load
  t_dt <- t_mla <- NULL
  for (r in 1:2) {
    t_dt <- rbind(t_dt, median_times(function() dt[, sum(value), by = .(item, label)]))
    t_mla <- rbind(t_mla, median_times(function() annotations_long(df, item, annotator, label, value)))
  }
  t_dt <- apply(t_dt, 2, min)
  t_mla <- apply(t_mla, 2, min)
  ref <- "dt[, sum(value), by = .(item, label)]"
  report_ratio(paste0("annotations_long(), ", what, ", elapsed"), t_mla[["elapsed"]],
               t_dt[["elapsed"]], ref, target = 1)
  report_ratio(paste0("annotations_long(), ", what, ", CPU"), t_mla[["cpu"]], t_dt[["cpu"]],
               ref, target = 1)
}
cat(format(nrow(d), big.mark = ","), "rows\n")
report(d, "integer ids")
report(d_chr, "character ids")
report(d_fct, "integer ids, factor labels")

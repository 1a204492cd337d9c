# annotations_long() in memory against data.table's grouped sum by (item,
# label) on the same data frame: 1e7 decision rows, 2e5 items x 5 of 1,000
# annotators x 10 labels, integer and character ids. Medians of 3 runs; the
# ratio is what to compare (one run, same data, shared cores).
#   MLA_LIB=/tmp/mla-lib Rscript bench/ingest.R   # an installed (-O2) build
lib <- Sys.getenv("MLA_LIB")
if (nzchar(lib)) library(mlagreement, lib.loc = lib) else pkgload::load_all(quiet = TRUE)
library(data.table)
setDTthreads(1)

n_items <- as.integer(Sys.getenv("MLA_BENCH_ITEMS", "2e5"))
set.seed(1)
ann <- t(vapply(seq_len(n_items), function(i) sample.int(1000L, 5L), integer(5)))
d <- data.frame(
  item = rep(rep(seq_len(n_items), 5L), each = 10L),
  annotator = rep(as.vector(ann), each = 10L),
  label = rep(sprintf("L%02d", 1:10), n_items * 5L),
  value = rbinom(n_items * 50L, 1L, 0.3)
)
d_chr <- transform(d, item = paste0("i", item), annotator = paste0("a", annotator))

median_time <- function(f, n = 3) median(vapply(seq_len(n), function(i) system.time(f())[["elapsed"]], 0))

report <- function(df, what) {
  dt <- as.data.table(df)
  t_dt <- median_time(function() dt[, .(x = sum(value), m = .N), by = .(item, label)])
  t_mla <- median_time(function() annotations_long(df, item, annotator, label, value))
  data.frame(ids = what, rows = nrow(df), annotations_long_s = t_mla, data_table_s = t_dt,
             ratio = round(t_mla / t_dt, 2))
}
print(rbind(report(d, "integer"), report(d_chr, "character")), row.names = FALSE)

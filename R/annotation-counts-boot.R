# mla_boot(resample = "items") on a summary needs only each item's (m, x) per
# label, held as two bytes per item x label when they fit (kItemCellLimit).
# Item ids are sorted as annotations_long() sorts them, so `cluster` and
# `strata` name the same items and the replicates equal those on the records
# for the same seed. Resampling annotators needs the records.

# Cells kept: two bytes (m, x) each when no item has more than 255 decisions
# on a label, else 8.
kItemCellLimit <- 5e7

item_cell_matrix <- function(v, cols) {
  v <- v[, cols, drop = FALSE]
  storage.mode(v) <- "integer"
  v
}

# The per-item tables of a summary: list(items, x, m), raw when every m fits
# a byte.
counts_item_cells <- function(s, what = "the bootstrap", arg = "fit", call = rlang::caller_env()) {
  if (!is.null(s$item_cells)) return(s$item_cells)
  if (!is.null(s$db_source)) return(db_item_cells(s$db_source, s, call = call))
  abort_needs_records(what, arg = arg, call = call,
                      what_it_is = "an {.cls annotation_counts} summary without per-item tables")
}

check_item_cell_size <- function(n_items, k, call) {
  if (as.double(n_items) * k <= kItemCellLimit) return(invisible())
  mla_abort(
    c("Per-item results on a summary need each item's counts per label in memory.",
      "x" = "{format_count(n_items)} items x {k} labels is {format_count(as.double(n_items) * k)} cells, above the limit of {format_count(kItemCellLimit)} (100 MB).",
      "i" = "Fit a label subset, or bootstrap a sample of the items."),
    class = "item_cells_too_large", call = call
  )
}

# From in-memory records (as_annotation_counts()); NULL above the limit.
counts_item_cells_memory <- function(a) {
  if (as.double(n_items(a)) * length(a$labels) > kItemCellLimit) return(NULL)
  counts <- item_label_counts(a)
  compact_item_cells(a$items, counts$x, counts$m, item_annotator_counts(a))
}

compact_item_cells <- function(items, x, m, n_records) {
  small <- length(m) == 0 || max(m) <= 255
  pack <- function(v) {
    v <- matrix(as.integer(v), nrow = length(items))
    if (small) storage.mode(v) <- "raw"
    v
  }
  list(items = items, x = pack(x), m = pack(m), n_records = as.integer(n_records))
}

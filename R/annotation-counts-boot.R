# mla_boot(resample = "items", cluster =, strata =) on a sufficient-statistics
# summary (annotation-counts.R). The item bootstrap needs only each item's
# (m, x) per label, the class of the cell (boot_data() in boot.R turns the
# records into exactly these tables): the summary holds them as two bytes
# per item x label when they fit (kItemCellLimit cells), from the records
# (as_annotation_counts()) or from the database when the bootstrap asks
# (annotations-db-boot.R). The item ids are those of the records, sorted as
# annotations_long() sorts them, so `cluster` and `strata` name the same
# items and the replicates equal those of mla_boot() on the records for the
# same seed. Resampling annotators needs the records.

# 5e7 cells: 100 MB as the two bytes (m, x) per item x label that a cell
# takes when no item has more than 255 decisions on a label (8 bytes else).
kItemCellLimit <- 5e7

counts_mla_boot <- function(fit, R, resample, cluster, strata, threads, call = rlang::caller_env()) {
  R <- check_whole(R, min = 2, class = "replicates", call = call)
  resample <- check_choice(resample, c("items", "annotators", "both"), call = call)
  threads <- check_threads(threads, call = call)
  if (resample != "items") {
    mla_abort(
      c("{.arg fit} must be a fit on the annotation records to resample annotators.",
        "x" = "It is a fit on an {.cls annotation_counts} summary, whose per-item tables add up all annotators' decisions.",
        "i" = "A replicate that draws annotators recounts each item from the drawn annotators' records; use {.code resample = \"items\"}, or the records."),
      class = "needs_records", call = call
    )
  }
  cells <- counts_item_cells(fit$annotations, call = call)
  cluster <- check_item_vector(cluster, cells$items, arg = "cluster", call = call)
  strata <- check_item_vector(strata, cells$items, arg = "strata", call = call)
  units <- boot_units(cluster, strata, length(cells$items), call = call)
  check_boot_weights(fit, call = call)
  cols <- fit$label_index
  x <- item_cell_matrix(cells$x, cols)
  m <- item_cell_matrix(cells$m, cols)
  max_m <- max(m)
  data <- list(x = x, m = m, max_m = max_m, n_items = nrow(x), n_labels = ncol(x),
               codes = boot_codes_cpp(x, m), single_label = isTRUE(fit$design$single_label))
  seed <- sample.int(.Machine$integer.max, 2L)
  t <- boot_run(data, units, resample, seed, R, threads)
  new_mla_boot(fit, t, seed, R, resample, units, cluster, strata, threads, engine = data)
}

item_cell_matrix <- function(v, cols) {
  v <- v[, cols, drop = FALSE]
  storage.mode(v) <- "integer"
  v
}

# The per-item tables of a summary: list(items, x, m), x and m items x
# labels (raw when every m fits a byte).
counts_item_cells <- function(s, call = rlang::caller_env()) {
  if (!is.null(s$item_cells)) return(s$item_cells)
  if (!is.null(s$db_source)) return(db_item_cells(s$db_source, s, call = call))
  abort_needs_records("the bootstrap (the summary has no per-item tables)", arg = "fit", call = call)
}

check_item_cell_size <- function(n_items, k, call) {
  if (as.double(n_items) * k <= kItemCellLimit) return(invisible())
  mla_abort(
    c("The item bootstrap on a summary needs each item's counts per label in memory.",
      "x" = "{format_count(n_items)} items x {k} labels is {format_count(as.double(n_items) * k)} cells, above the limit of {format_count(kItemCellLimit)} (100 MB).",
      "i" = "Fit a label subset, or bootstrap a sample of the items."),
    class = "item_cells_too_large", call = call
  )
}

# From in-memory records (as_annotation_counts()); NULL above the limit.
counts_item_cells_memory <- function(a) {
  if (as.double(n_items(a)) * length(a$labels) > kItemCellLimit) return(NULL)
  counts <- item_label_counts(a)
  compact_item_cells(a$items, counts$x, counts$m)
}

compact_item_cells <- function(items, x, m) {
  small <- length(m) == 0 || max(m) <= 255
  pack <- function(v) {
    v <- matrix(as.integer(v), nrow = length(items))
    if (small) storage.mode(v) <- "raw"
    v
  }
  list(items = items, x = pack(x), m = pack(m))
}

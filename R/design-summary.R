# The design in counts, so that a sparse design is never reported as "missing
# data" and a handful of missing decisions is never rounded away. Absences
# told apart: grid cells without a record, records without any decision, and
# missing decisions inside records (in an array the first two are one).

design_counts <- function(x, n_labels = length(label_names(x)), n_decisions = x$n_decisions) {
  n_items <- n_items(x)
  n_annotators <- n_annotators(x)
  grid <- as.double(n_items) * n_annotators
  stored <- stored_records(x)
  annotated <- x$n_records
  dense <- stored == grid && is_dense_layout(x)
  empty <- if (dense) 0 else stored - annotated
  list(
    n_grid = grid,
    n_annotated = annotated,
    n_unassigned = grid - annotated - empty,
    n_empty_records = empty,
    n_missing_decisions = annotated * n_labels - n_decisions,
    n_expected_decisions = (annotated + empty) * n_labels,
    n_decisions = n_decisions,
    n_labels = n_labels
  )
}

# Share of the decisions that assigned records should carry but do not.
design_missing_share <- function(counts) {
  if (counts$n_expected_decisions == 0) return(NA_real_)
  (counts$n_missing_decisions + counts$n_empty_records * counts$n_labels) /
    counts$n_expected_decisions
}

# Share of the items x annotators grid that has a record with decisions.
design_coverage <- function(counts) counts$n_annotated / counts$n_grid

# One or two sentences for print methods and the report.
format_design_counts <- function(counts) {
  coverage <- design_coverage(counts)
  first <- paste0(
    format_count(counts$n_annotated), " of ", format_count(counts$n_grid),
    " item x annotator cells annotated (", format_percent_exact(coverage), ")",
    if (coverage < 0.5) "; a sparse design, not missing data" else ""
  )
  parts <- character()
  if (counts$n_empty_records > 0) {
    parts <- c(parts, paste0(count_noun(counts$n_empty_records, "record"),
                             " without any decision (whole label vector missing)"))
  }
  n_miss <- counts$n_missing_decisions
  parts <- c(parts, paste0(
    format_count(n_miss), " of ", format_count(counts$n_annotated * counts$n_labels),
    " decisions missing inside annotated records",
    if (n_miss > 0) paste0(" (", format_percent_exact(n_miss / (counts$n_annotated * counts$n_labels)), ")") else ""
  ))
  c(first, paste(parts, collapse = "; "))
}

# mla_boot(resample = "annotators" or "both") on a sparse design (`coverage`:
# share of the items x annotators cells of the fit's annotators annotated): a
# note, since annotators are then nearly nested in items and resampling them
# answers another question than on a crossed design.
note_sparse_annotator_resampling <- function(coverage) {
  if (!is.finite(coverage) || coverage >= 0.5) return(invisible())
  cli::cli_inform(
    c("i" = "Resampling annotators on a sparse design: {format_percent_exact(coverage)} of the item x annotator cells are annotated.",
      " " = "Annotators are then nearly nested in items, so the intervals are wide and generalise to new annotators, not only new items; {.code resample = \"items\"} keeps each item's annotators as they are.",
      " " = "Annotator resampling is made for crossed designs, where most annotators see most items."),
    class = "mlagreement_message_sparse_annotators"
  )
}

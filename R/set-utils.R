# Shared plumbing of the set-based measures (krippendorff_alpha() with set
# distances, agreement_measures()): the C++ core reads the records as label
# sets straight from the annotations object, without copying the values.

# Arguments of the set routines of the C++ core: values plus 0-based item and
# annotator ids (empty for the dense layout, whose ids follow from position).
set_core_args <- function(a) {
  v <- annotation_view(a)
  list(
    values = v$values,
    n_labels = v$n_labels,
    item = v$item,
    n_items = v$n_items,
    annotator = v$annotator,
    n_annotators = v$n_annotators
  )
}

# A record with some but not all labels missing is not a label set.
abort_partial_record <- function(a, bad_record, what, hint = NULL, call = rlang::caller_env()) {
  r <- bad_record + 1
  vals <- record_values(a)
  row <- vals[r, ]
  missing <- a$labels[is.na(row)]
  n_partial <- sum(rowSums(is.na(vals)) %in% seq_len(length(a$labels) - 1L))
  i <- record_item(a)[r]
  k <- record_annotator(a)[r]
  mla_abort(
    c("{what} need complete label sets: a record must have a decision on every label or none.",
      "x" = "Item {.val {as.character(a$items[i])}}, annotator {.val {as.character(a$annotators[k])}} has missing decisions on {length(missing)} label{?s} ({format_first(missing)}) but not on the others.",
      "i" = "{n_partial} such record{?s} in all. Whole missing records are fine.",
      hint),
    class = "partial_record", call = call
  )
}


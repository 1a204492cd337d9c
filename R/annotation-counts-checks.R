# The checks of annotation_counts(): each table on its own (columns, counts),
# then against the others, since a contradiction between them gives
# impossible numbers (a negative missing share) rather than an error.

check_table_columns <- function(df, cols, arg = rlang::caller_arg(df), call = rlang::caller_env()) {
  missing <- setdiff(cols, names(df))
  if (length(missing) > 0) {
    mla_abort(c("{.arg {arg}} must have columns {.field {cols}}.",
                "x" = "Missing: {.field {missing}}."),
              class = "counts_table", call = call)
  }
}

check_count_columns <- function(df, cols, arg, call = rlang::caller_env()) {
  for (col in cols) {
    v <- suppressWarnings(as.double(normalise_count(df[[col]])))
    bad <- which(is.na(v) | v < 0 | v != round(v))
    if (length(bad) > 0) {
      mla_abort(c("Column {.field {col}} of {.arg {arg}} must hold whole numbers >= 0.",
                  "x" = "Row {bad[1]} is {.val {format(df[[col]][bad[1]])}}."),
                class = "counts_table", call = call)
    }
  }
}

check_universe_labels <- function(universe, lab, call = rlang::caller_env()) {
  check_label_universe(universe, arg = "universe", call = call)
  universe <- as.character(universe)
  extra <- setdiff(lab, universe)
  if (length(extra) > 0) {
    mla_abort(c("Every label of {.arg labels} must be in {.arg universe}.",
                "x" = "Undeclared: {.val {extra}}."), class = "unknown_label", call = call)
  }
  universe
}

# The labels table against the design: no label is decided more often on an
# item than the item has records. Checked before the tally, whose rows run to
# the largest m.
check_labels_m_within_design <- function(labels, design, call = rlang::caller_env()) {
  m <- normalise_count(labels$m)
  items <- normalise_count(design$n_items)
  top <- max(0, normalise_count(design$n_records)[items > 0])
  over <- which(m >= 1 & m > top)
  if (length(over) > 0) {
    r <- over[1]
    mla_abort(c("{.arg labels} must not count more decisions on an item than {.arg design} gives it records.",
                "x" = "Row {r} (label {.val {as.character(labels$label[r])}}) has {.code m = {m[r]}}; the largest {.field n_records} of {.arg design} is {top}."),
              class = "counts_inconsistent", call = call)
  }
}

# Counted from the top: the items with m or more decisions on a label are at
# most the items with m or more records.
check_labels_items_within_design <- function(labels, tally, universe, design, call = rlang::caller_env()) {
  m <- normalise_count(labels$m)
  j <- match(as.character(labels$label), universe)
  rec <- normalise_count(design$n_records)
  items <- normalise_count(design$n_items)
  rows <- which(m >= 1)
  at_least <- tally$cnt
  for (k in rev(seq_len(nrow(at_least) - 1L))) at_least[k, ] <- at_least[k, ] + at_least[k + 1L, ]
  allowed <- vapply(seq_len(nrow(at_least)), function(k) sum(items[rec >= k]), numeric(1))
  claimed <- at_least[cbind(m[rows], j[rows])]
  over <- rows[claimed > allowed[m[rows]]]
  if (length(over) > 0) {
    r <- over[1]
    mla_abort(c("{.arg labels} must not count more items than {.arg design} has.",
                "x" = "Counting row {r} (label {.val {as.character(labels$label[r])}}, {.code m = {m[r]}}) and the label's rows of larger m, {.arg labels} has {claimed[match(r, rows)]} items with {m[r]} or more decisions on the label; {.arg design} has {allowed[m[r]]} items with {.code n_records >= {m[r]}}."),
              class = "counts_inconsistent", call = call)
  }
}

# The design against the annotators: a record is one annotator's on one item.
check_design_annotators <- function(design, annotators, call = rlang::caller_env()) {
  rec <- normalise_count(design$n_records)
  stored <- normalise_count(design$n_stored)
  items <- normalise_count(design$n_items)
  abort_inconsistent <- function(what, x) {
    mla_abort(c(what, "x" = x), class = "counts_inconsistent", call = call, .envir = parent.frame())
  }
  r <- which(stored < rec)[1]
  if (!is.na(r)) {
    abort_inconsistent("{.arg design} must not have more records with decisions than records ({.field n_stored}).",
                       "Row {r} has {.code n_records = {rec[r]}} and {.code n_stored = {stored[r]}}.")
  }
  n_annotators <- nrow(annotators)
  r <- which(stored > n_annotators & items > 0)[1]
  if (!is.na(r)) {
    abort_inconsistent("{.arg design} must not give an item more records than {.arg annotators} has annotators.",
                       "Row {r} has {.code n_stored = {stored[r]}}; {.arg annotators} has {n_annotators} row{?s}.")
  }
  per_annotator <- normalise_count(annotators$n_records)
  total_items <- sum(items)
  r <- which(per_annotator > total_items)[1]
  if (!is.na(r)) {
    abort_inconsistent("{.arg annotators} must not count more records per annotator than {.arg design} has items.",
                       "Row {r} (annotator {.val {as.character(annotators$annotator[r])}}) has {.code n_records = {per_annotator[r]}}; {.arg design} has {total_items} items.")
  }
  from_design <- sum(rec * items)
  if (sum(per_annotator) != from_design) {
    abort_inconsistent("{.arg annotators} and {.arg design} must count the same records with decisions.",
                       "{.arg annotators} sums {.field n_records} to {sum(per_annotator)}; {.arg design} to {from_design} ({.code sum(n_records * n_items)}).")
  }
}

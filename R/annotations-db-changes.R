# A database summary reads its counts when it is made and its per-item, set
# and annotator-pair tables when they are first asked for. If the table
# changed in between, those tables would mix two states of the data; their
# totals, which they share with the summary's counts, tell (cheaply, from the
# rows already brought back) when they do not describe the same table.

# The totals of summary `x` that its later tables must reproduce.
db_summary_totals <- function(x) {
  t <- x$tally
  m <- seq_len(nrow(t$cnt))
  rec <- x$design$n_records
  items <- x$design$n_items
  paired <- rec >= 2  # no partial records: every record with decisions is a set record
  decisions <- colSums(m * t$cnt)
  positives <- colSums(t$sx)
  list(labels = x$labels, n_items = x$n_items, n_records = x$n_records,
       decisions = decisions, positives = positives,
       decisions_total = sum(decisions), positives_total = sum(positives),
       paired_records = sum((rec * items)[paired]),
       set_pairs = sum((rec * (rec - 1) * items)[paired]),
       set_positives = sum(t$sx[m >= 2, , drop = FALSE]))
}

# Observed totals of each lazily computed table.
db_item_cells_totals <- function(cells) {
  as_counts <- function(v) matrix(as.integer(v), nrow = length(cells$items))
  list(n_items = length(cells$items), n_records = sum(cells$n_records),
       decisions = colSums(as_counts(cells$m)), positives = colSums(as_counts(cells$x)))
}

db_sets_totals <- function(sets) {
  list(paired_records = sum(sets$count), set_positives = sum(sets$count * lengths(sets$sets)),
       set_pairs = sum(sets$pairs$n_pairs))
}

db_pairs_totals <- function(tables) {
  ann <- tables$annotators
  list(decisions_total = sum(ann$n_decisions), positives_total = sum(ann$n_positives),
       paired_records = sum(ann$n_shared_items))
}

db_total_names <- c(
  n_items = "items", n_records = "records with decisions", decisions = "decisions on label",
  positives = "positive decisions on label", decisions_total = "decisions",
  positives_total = "positive decisions",
  paired_records = "records with decisions in items with two or more of them",
  set_pairs = "ordered pairs of set records within items",
  set_positives = "positive decisions of the set records"
)

# The `what` tables just computed (totals `observed`) against the summary's.
db_check_unchanged <- function(src, what, observed, call) {
  expected <- src$expected
  if (is.null(expected)) return(invisible())
  for (name in names(observed)) {
    obs <- as.double(observed[[name]])
    exp <- as.double(expected[[name]])
    bad <- which(obs != exp)[1]
    if (is.na(bad)) next
    count <- db_total_names[[name]]
    n_now <- obs[bad]
    n_then <- exp[bad]
    x <- if (length(exp) > 1) {
      label <- expected$labels[bad]
      "Its {what} tables count {n_now} {count} {.val {label}}; the summary counted {n_then}."
    } else {
      "Its {what} tables count {n_now} {count}; the summary counted {n_then}."
    }
    mla_abort(
      c("The database table changed since the summary was made.",
        "x" = x,
        "i" = "Call {.fn annotations_long} (or {.fn annotations_wide}) again for a summary of the table as it is now, or summarise a copy that does not change."),
      class = "db_table_changed", call = call
    )
  }
  invisible()
}

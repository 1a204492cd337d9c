# Estimators and methods on a summary: mla() and Hamming alpha run the same
# kernels on the same label tables as on the records, so the results are
# equal; item rows and the item bootstrap read the per-item tables.

# mla() on a summary: the label tables' columns are the labels, so a label
# subset is a column subset, exactly what count_labels() returns in memory.
mla_counts <- function(x, baseline, labels, call = rlang::caller_env()) {
  cols <- select_labels(x, labels, call = call)
  t <- label_tally(x)
  tally <- list(cnt = t$cnt[, cols, drop = FALSE], sx = t$sx[, cols, drop = FALSE],
                sdis = t$sdis[, cols, drop = FALSE], item_disagreement = numeric())
  check_estimable(x, tally, call = call)
  fit <- new_mla(x, cols, mla_estimates(tally), tally, baseline)
  d <- x$design
  fit$design$annotators_per_item <- NULL
  fit$design$annotators_per_item_hist <- list(value = d$n_records, n = d$n_items)
  fit$design$n_pairable_items <- sum(d$n_items[d$n_records >= 2])
  if (is_single_label(x) && length(cols) == length(x$labels)) {
    fit <- single_label_corpus(fit, tally)
  }
  fit
}

# Hamming alpha's list(observed, expected, n_items, n_values) from a summary.
counts_alpha_hamming <- function(a, call = rlang::caller_env()) {
  est <- hamming_alpha_estimates(label_tally(a))
  d <- a$design
  pairable <- d$pairable
  if (!any(pairable & d$n_items > 0)) check_pairable(0, call = call)
  list(
    observed = est$observed,
    expected = est$expected,
    n_items = sum(d$n_items[pairable]),
    n_values = sum(d$n_items[pairable] * d$n_records[pairable])
  )
}

# "3 per item" or "2-5 per item, mean 3.40", then how many items have no record.
annotators_per_item_text <- function(d) {
  if (is.null(d$annotators_per_item_hist)) {
    value <- d$annotators_per_item
    n <- rep(1, length(value))
  } else {
    value <- d$annotators_per_item_hist$value
    n <- d$annotators_per_item_hist$n
  }
  n_empty <- sum(n[value == 0])
  keep <- value > 0 & n > 0
  value <- value[keep]
  n <- n[keep]
  text <- if (length(unique(value)) == 1L) paste0(value[1], " per item") else
    paste0(min(value), "-", max(value), " per item, mean ",
           formatC(sum(value * n) / sum(n), digits = 2, format = "f"))
  if (n_empty == 0) return(text)
  paste0(text, "; ", count_noun(n_empty, "item"), " without a record")
}

#' @export
format.annotation_counts <- function(x, ...) {
  check_dots_empty0(...)
  counts <- design_counts_summary(x)
  kind <- if (is_single_label(x)) " (single-label: mutually exclusive categories)" else ""
  source <- switch(x$source, database = "computed in the database",
                   memory = "summarised from records", "from tables")
  cli::cli_format_method({
    cli::cli_text("{.cls annotation_counts} ({source}): {count_noun(n_items(x), 'item')}, ",
                  "{n_annotators(x)} annotator{?s}, {length(x$labels)} label{?s}{kind}")
    for (line in format_design_counts(counts)) cli::cli_text(line)
    cli::cli_text("Labels: {.val {utils::head(x$labels, 8)}}",
                  if (length(x$labels) > 8) " ..." else "")
  })
}

# design_counts() for a summary, from the design histogram.
design_counts_summary <- function(x) {
  k <- length(x$labels)
  grid <- as.double(n_items(x)) * n_annotators(x)
  empty <- x$n_stored_records - x$n_records
  list(
    n_grid = grid,
    n_annotated = x$n_records,
    n_unassigned = grid - x$n_records - empty,
    n_empty_records = empty,
    n_missing_decisions = x$n_records * k - x$n_decisions,
    n_expected_decisions = (x$n_records + empty) * k,
    n_decisions = x$n_decisions,
    n_labels = k
  )
}

#' Tables of an annotation summary
#'
#' The tables of an [annotation_counts()] object, in the form
#' [annotation_counts()] takes them back.
#'
#' @param x An `annotation_counts` object.
#' @param table `"labels"` (per-label tables by number of decisions),
#'   `"design"` (items by records), `"annotators"`, `"sets"` (distinct label
#'   sets of the pairable set records), `"set_pairs"` (ordered pairs of
#'   set records within items), `"annotator_pairs"` or `"pair_labels"` (the
#'   annotator-pair tables of [annotator_agreement()]).
#' @inheritParams mla
#' @return A tibble.
#' @export
#' @examples
#' s <- as_annotation_counts(annotations_long(bias_example, item, annotator, label, value))
#' tidy(s, "labels")
#' tidy(s, "design")
#' @method tidy annotation_counts
tidy.annotation_counts <- function(x, table = c("labels", "design", "annotators", "sets", "set_pairs",
                                                "annotator_pairs", "pair_labels"), ...) {
  check_dots_empty0(...)
  table <- check_choice(table, c("labels", "design", "annotators", "sets", "set_pairs",
                                 "annotator_pairs", "pair_labels"))
  switch(table,
    labels = counts_label_table(x),
    design = x$design,
    annotators = counts_annotator_table(x),
    sets = counts_sets_table(x),
    set_pairs = counts_sets_or_abort(x, "The set tables", rlang::current_env())$pairs,
    annotator_pairs = counts_pairs_or_abort(x, rlang::current_env())$pairs,
    pair_labels = counts_pairs_or_abort(x, rlang::current_env())$labels
  )
}

counts_label_table <- function(x) {
  t <- label_tally(x)
  idx <- which(t$cnt > 0, arr.ind = TRUE)
  idx <- idx[order(idx[, 2], idx[, 1]), , drop = FALSE]
  fast_tibble(
    label = x$labels[idx[, 2]],
    m = as.double(idx[, 1]),
    n_items = t$cnt[idx],
    sum_x = t$sx[idx],
    sum_dis = t$sdis[idx]
  )
}

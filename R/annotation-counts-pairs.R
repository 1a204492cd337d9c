# The annotator-pair tables of a summary, what annotator_agreement() needs
# without the records: the counts pairs.h accumulates, per pair and label
# (sum_positive counts twice the positive of an item decided by one of the
# two), and per annotator.

# list(pairs = tibble(annotator1, annotator2, n_items),
#      labels = tibble(annotator1, annotator2, label, n_both, n_disagree,
#                      n_either, sum_positive),  # rows with n_either > 0
#      annotators = tibble(annotator, n_positives, n_decisions, n_shared_items))
counts_pairs_memory <- function(a) {
  res <- counts_pair_tables_cpp(annotation_view(a))
  ids <- annotator_ids(a)
  k <- length(a$labels)
  cell <- which(res$n1 > 0)
  pair_of <- (cell - 1L) %/% k + 1L
  new_counts_pairs(
    pairs = data.frame(annotator1 = ids[res$a + 1L], annotator2 = ids[res$b + 1L],
                       n_items = res$n_items),
    labels = data.frame(annotator1 = ids[res$a[pair_of] + 1L], annotator2 = ids[res$b[pair_of] + 1L],
                        label = a$labels[(cell - 1L) %% k + 1L], n_both = res$n2[cell],
                        n_disagree = res$dis[cell], n_either = res$n1[cell],
                        sum_positive = res$psum[cell]),
    annotators = data.frame(annotator = ids, n_positives = res$ann_positives,
                            n_decisions = res$ann_decisions,
                            n_shared_items = shared_items_per_annotator(a))
  )
}

new_counts_pairs <- function(pairs, labels, annotators) {
  list(pairs = count_table(pairs, c("annotator1", "annotator2"), "n_items"),
       labels = count_table(labels, c("annotator1", "annotator2", "label"),
                            c("n_both", "n_disagree", "n_either", "sum_positive")),
       annotators = count_table(annotators, "annotator",
                                c("n_positives", "n_decisions", "n_shared_items")))
}

# The pair tables of annotation_counts() from plain tables.
counts_pairs_from_tables <- function(pairs, labels, annotators, call = rlang::caller_env()) {
  if (is.null(pairs) && is.null(labels)) return(NULL)
  if (is.null(pairs) || is.null(labels)) {
    mla_abort("{.arg annotator_pairs} and {.arg pair_labels} must be given together.",
              class = "counts_table", call = call)
  }
  check_data_frame(pairs, call = call)
  check_data_frame(labels, call = call)
  check_table_columns(pairs, c("annotator1", "annotator2", "n_items"), call = call)
  check_table_columns(labels, c("annotator1", "annotator2", "label", "n_both", "n_disagree",
                                "n_either", "sum_positive"), call = call)
  check_table_columns(annotators, c("n_positives", "n_decisions", "n_shared_items"),
                      arg = "annotators", call = call)
  check_count_columns(pairs, "n_items", "annotator_pairs", call = call)
  check_count_columns(labels, c("n_both", "n_disagree", "n_either", "sum_positive"), "pair_labels",
                      call = call)
  new_counts_pairs(pairs, labels, annotators)
}

# annotator_agreement()'s pair sums from a summary's pair tables, through the
# same reduction in C++.
counts_pair_sums <- function(x, call = rlang::caller_env()) {
  pt <- counts_pairs_or_abort(x, call)
  ids <- annotator_ids(x)
  k <- length(x$labels)
  i1 <- match(pt$pairs$annotator1, ids)
  i2 <- match(pt$pairs$annotator2, ids)
  a <- pmin(i1, i2)
  b <- pmax(i1, i2)
  key <- function(u, v) paste(pmin(u, v), pmax(u, v))
  pid <- match(key(match(pt$labels$annotator1, ids), match(pt$labels$annotator2, ids)), key(a, b))
  cell <- (pid - 1) * k + match(pt$labels$label, x$labels)
  mat <- function(col) {
    v <- numeric(length(a) * k)
    v[cell] <- pt$labels[[col]]
    v
  }
  ann <- pt$annotators[match(ids, pt$annotators$annotator), ]
  ann$n_positives[is.na(ann$n_positives)] <- 0  # annotators without decisions
  ann$n_decisions[is.na(ann$n_decisions)] <- 0
  counts_pair_reduce_cpp(as.integer(a - 1L), as.integer(b - 1L), pt$pairs$n_items,
                         mat("n_both"), mat("n_disagree"), mat("n_either"), mat("sum_positive"), k,
                         ann$n_positives, ann$n_decisions, x$annotator_records)
}

counts_shared_items <- function(x, call = rlang::caller_env()) {
  pt <- counts_pairs_or_abort(x, call)
  ann <- pt$annotators
  shared <- ann$n_shared_items[match(annotator_ids(x), ann$annotator)]
  as.integer(ifelse(is.na(shared), 0, shared))
}

counts_pairs_or_abort <- function(x, call) {
  # a database summary runs the pair queries on its table when asked
  if (is.null(x$annotator_pairs) && !is.null(x$db_source)) {
    return(db_pair_tables(x$db_source, x$labels, call = call))
  }
  if (is.null(x$annotator_pairs)) {
    abort_needs_records("annotator agreement (the summary has no annotator-pair tables)",
                        call = call)
  }
  x$annotator_pairs
}

# annotator_agreement()'s corpus chance disagreement from the label tables.
counts_chance_disagreement <- function(x, call = rlang::caller_env()) {
  t <- label_tally(x)
  tally <- list(cnt = t$cnt, sx = t$sx, sdis = t$sdis, item_disagreement = numeric())
  check_estimable(x, tally, call = call)
  mla_estimates(tally)$corpus$w[1]
}

counts_annotator_table <- function(x) {
  out <- fast_tibble(annotator = annotator_ids(x), n_records = x$annotator_records)
  ann <- x$annotator_pairs$annotators
  if (is.null(ann)) return(out)
  cols <- c("n_positives", "n_decisions", "n_shared_items")
  out[cols] <- ann[match(out$annotator, ann$annotator), cols]
  out
}

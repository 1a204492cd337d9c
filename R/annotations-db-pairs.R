# The annotator-pair tables of a database summary in SQL (self-joins on item),
# run when annotator_agreement() asks, not in annotations_long(); so are the
# set and per-item tables. Pairs are ordered (a <> b) in SQL and folded in R,
# so no engine's collation decides which annotator comes first.

# d: the validated lazy table; seen: the labels as stored. An environment, so
# that each table is computed once per summary.
db_source <- function(d, selected, seen) {
  src <- new.env(parent = emptyenv())
  src$query <- d
  src$selected <- selected
  src$seen <- seen
  src
}

# Table `name` of the summary, computed by compute() when first asked; an
# engine error names the `what` tables (the package's own errors pass).
db_cached <- function(src, name, what, call, compute) {
  if (is.null(src[[name]])) {
    src[[name]] <- withCallingHandlers(compute(), error = function(e) {
      if (!inherits(e, "mlagreement_error")) abort_db_query(what, e, call)
    })
  }
  src[[name]]
}

abort_db_query <- function(what, e, call) {
  mla_abort(c("The {what} tables could not be computed in the database.",
              "i" = "The summary runs them on its table when asked; is the connection still open?"),
            parent = e, class = "db_query", call = call)
}

db_sets <- function(src, universe, call = rlang::caller_env()) {
  db_cached(src, "sets", "set", call, function() {
    compute <- if (src$selected) db_selected_sets else db_decision_sets
    sets <- compute(src$query, universe, src$seen)
    if (is.null(sets$partial)) db_check_unchanged(src, "set", db_sets_totals(sets), call)
    sets
  })
}

db_pair_tables <- function(src, universe, call = rlang::caller_env()) {
  db_cached(src, "tables", "annotator-pair", call, function() {
    tables <- db_pairs(src, universe, call)
    db_check_unchanged(src, "annotator-pair", db_pairs_totals(tables), call)
    tables
  })
}

# The records with a decision (selected labels: every record), a temporary
# table that every pair query joins.
db_pairs <- function(src, universe, call) {
  d <- src$query
  rows <- if (src$selected) dplyr::filter(d, !is.na(label)) else dplyr::filter(d, !is.na(value))
  temp <- db_temporary(db_distinct(if (src$selected) d else rows, item, annotator))
  on.exit(temp$drop(), add = TRUE)
  recs <- temp$table
  queries <- if (src$selected) db_selected_pair_queries else db_decision_pair_queries
  q <- queries(rows, recs)
  q$pair_items <- db_count_by(db_join_others(recs), annotator_a, annotator_b, name = "n_items")
  q$shared <- db_count_by(db_pairable_records(recs), annotator, name = "n_shared_items")
  t <- lapply(q, dplyr::collect)
  for (tab in t) {
    for (col in intersect(c("annotator", "annotator_a", "annotator_b"), names(tab))) {
      db_check_collected_ids(tab[[col]], "annotator", call)
    }
  }
  fold_pair_tables(t$pair_items, t$one, t$both, t$annotators, t$shared, src$selected, universe)
}

# Per ordered pair and label: decisions and positives of a on the items b
# annotated (one), and over the items both decided (both).
db_decision_pair_queries <- function(dec, recs) {
  one <- db_join_others(dplyr::select(dec, item, annotator, label, value), recs)
  one <- dplyr::summarise(dplyr::group_by(one, annotator_a, annotator_b, label),
                          n_dec = n(), n_pos = sum(value, na.rm = TRUE), .groups = "drop")
  both <- db_join_others(dplyr::select(dec, item, label, annotator, value_a = value),
                         dplyr::select(dec, item, label, annotator, value_b = value),
                         by = c("item", "label"))
  both <- dplyr::summarise(
    dplyr::group_by(both, annotator_a, annotator_b, label),
    n_both = n(), n_disagree = sum(ifelse(value_a != value_b, 1L, 0L), na.rm = TRUE),
    pos_both = sum(value_a + value_b, na.rm = TRUE), .groups = "drop"
  )
  ann <- dplyr::summarise(dplyr::group_by(dec, annotator), n_decisions = n(),
                          n_positives = sum(value, na.rm = TRUE), .groups = "drop")
  list(one = one, both = both, annotators = ann)
}

# Selected labels: every record decides every label, so both decided wherever
# both annotated; only positives are counted.
db_selected_pair_queries <- function(pos, recs) {
  one <- db_join_others(dplyr::select(pos, item, annotator, label), recs)
  both <- db_join_others(pos, pos, by = c("item", "label"))
  list(one = db_count_by(one, annotator_a, annotator_b, label, name = "n_pos"),
       both = db_count_by(both, annotator_a, annotator_b, label, name = "pos_shared"),
       annotators = dplyr::left_join(db_count_by(recs, annotator, name = "n_records"),
                                     db_count_by(pos, annotator, name = "n_positives"),
                                     by = "annotator"))
}

# Ordered rows (a, b) and (b, a) to one row per unordered pair: with cnt_a,
# pos_a the decisions and positives of a on the pair's items, n1 = cnt_a +
# cnt_b - n2 and sum_positive = 2 pos_a + 2 pos_b - (x_a + x_b over both).
fold_pair_tables <- function(pair_items, one, both, annotators, shared, selected, universe) {
  chr <- id_text
  keep <- chr(pair_items$annotator_a) < chr(pair_items$annotator_b)
  pairs <- data.frame(annotator1 = chr(pair_items$annotator_a)[keep],
                      annotator2 = chr(pair_items$annotator_b)[keep],
                      n_items = normalise_count(pair_items$n_items)[keep])
  k <- length(universe)
  if (selected) {  # every record decides every label
    cells <- data.frame(annotator1 = rep(pairs$annotator1, each = k),
                        annotator2 = rep(pairs$annotator2, each = k),
                        label = rep(universe, nrow(pairs)))
  } else {  # every (unordered pair, label) with a row in `one` (some decision)
    a <- chr(one$annotator_a)
    b <- chr(one$annotator_b)
    cells <- unique(data.frame(annotator1 = ifelse(a < b, a, b), annotator2 = ifelse(a < b, b, a),
                               label = chr(one$label)))
  }
  key <- function(a, b, l) paste(chr(a), chr(b), chr(l), sep = "\r")
  # column `col` of tab's rows (annotator1, annotator2), or (annotator2, annotator1)
  look <- function(tab, col, reverse = FALSE) {
    a <- if (reverse) cells$annotator2 else cells$annotator1
    b <- if (reverse) cells$annotator1 else cells$annotator2
    v <- normalise_count(tab[[col]])[match(key(a, b, cells$label),
                                           key(tab$annotator_a, tab$annotator_b, tab$label))]
    ifelse(is.na(v), 0, v)
  }
  pos <- look(one, "n_pos") + look(one, "n_pos", reverse = TRUE)
  if (selected) {
    n_items <- rep(pairs$n_items, each = k)
    labels <- data.frame(cells, n_both = n_items, n_disagree = pos - 2 * look(both, "pos_shared"),
                         n_either = n_items, sum_positive = pos)
    ann <- data.frame(annotator = chr(annotators$annotator),
                      n_positives = ifelse(is.na(annotators$n_positives), 0,
                                           normalise_count(annotators$n_positives)),
                      n_decisions = normalise_count(annotators$n_records) * k)
  } else {
    n2 <- look(both, "n_both")
    labels <- data.frame(cells, n_both = n2, n_disagree = look(both, "n_disagree"),
                         n_either = look(one, "n_dec") + look(one, "n_dec", reverse = TRUE) - n2,
                         sum_positive = 2 * pos - look(both, "pos_both"))
    ann <- data.frame(annotator = chr(annotators$annotator),
                      n_positives = normalise_count(annotators$n_positives),
                      n_decisions = normalise_count(annotators$n_decisions))
  }
  n_shared <- normalise_count(shared$n_shared_items)[match(ann$annotator, chr(shared$annotator))]
  ann$n_shared_items <- ifelse(is.na(n_shared), 0, n_shared)
  new_counts_pairs(pairs, labels, ann)
}

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

db_sets <- function(src, universe, call = rlang::caller_env()) {
  if (!is.null(src$sets)) return(src$sets)
  src$sets <- tryCatch(
    if (src$selected) db_selected_sets(src$query, universe, src$seen)
    else db_decision_sets(src$query, universe, src$seen),
    error = function(e) abort_db_query("set", e, call)
  )
  src$sets
}

abort_db_query <- function(what, e, call) {
  mla_abort(c("The {what} tables could not be computed in the database.",
              "i" = "The summary runs them on its table when asked; is the connection still open?"),
            parent = e, class = "db_query", call = call)
}

db_pair_tables <- function(src, universe, call = rlang::caller_env()) {
  if (!is.null(src$tables)) return(src$tables)
  src$tables <- tryCatch(
    if (src$selected) db_selected_pairs(src$query, universe) else db_decision_pairs(src$query),
    error = function(e) abort_db_query("annotator-pair", e, call)
  )
}

# Records with a decision, and the ordered pairs of them within items.
db_record_pairs <- function(recs) {
  p <- dplyr::inner_join(dplyr::rename(recs, annotator_a = annotator),
                         dplyr::rename(recs, annotator_b = annotator), by = "item")
  dplyr::filter(p, annotator_a != annotator_b)
}

# Rows joined with the other records of their item (annotator_b): two
# relations, not a join of a join.
db_with_other_records <- function(rows, recs) {
  p <- dplyr::inner_join(dplyr::rename(rows, annotator_a = annotator),
                         dplyr::rename(recs, annotator_b = annotator), by = "item")
  dplyr::filter(p, annotator_a != annotator_b)
}

db_shared_items <- function(recs) {
  items <- dplyr::filter(db_count_by(recs, item, name = "m"), m >= 2L)
  db_count_by(dplyr::inner_join(recs, items, by = "item"), annotator, name = "n_shared_items")
}

db_decision_pairs <- function(d) {
  dec <- dplyr::filter(d, !is.na(value))
  temp <- db_temporary(db_distinct(dec, item, annotator))
  on.exit(temp$drop(), add = TRUE)
  recs <- temp$table
  one <- db_with_other_records(dplyr::select(dec, item, annotator, label, value), recs)
  one <- dplyr::ungroup(dplyr::summarise(dplyr::group_by(one, annotator_a, annotator_b, label),
                                         n_dec = n(), n_pos = sum(value, na.rm = TRUE),
                                         .groups = "drop"))
  d1 <- dplyr::select(dec, item, label, annotator_a = annotator, value_a = value)
  d2 <- dplyr::select(dec, item, label, annotator_b = annotator, value_b = value)
  both <- dplyr::filter(dplyr::inner_join(d1, d2, by = c("item", "label")), annotator_a != annotator_b)
  both <- dplyr::ungroup(dplyr::summarise(
    dplyr::group_by(both, annotator_a, annotator_b, label),
    n_both = n(), n_disagree = sum(ifelse(value_a != value_b, 1L, 0L), na.rm = TRUE),
    pos_both = sum(value_a + value_b, na.rm = TRUE), .groups = "drop"
  ))
  ann <- dplyr::ungroup(dplyr::summarise(dplyr::group_by(dec, annotator), n_decisions = n(),
                                         n_positives = sum(value, na.rm = TRUE), .groups = "drop"))
  fold_pair_tables(
    pair_items = dplyr::collect(db_count_by(db_record_pairs(recs), annotator_a, annotator_b,
                                            name = "n_items")),
    one = dplyr::collect(one), both = dplyr::collect(both),
    annotators = dplyr::collect(ann), shared = dplyr::collect(db_shared_items(recs)),
    selected = FALSE
  )
}

# Selected labels: every record decides every label, so both decided wherever
# both annotated.
db_selected_pairs <- function(d, universe) {
  temp <- db_temporary(db_distinct(d, item, annotator))
  on.exit(temp$drop(), add = TRUE)
  recs <- temp$table
  pos <- dplyr::filter(d, !is.na(label))
  one <- db_with_other_records(dplyr::select(pos, item, annotator, label), recs)
  one <- db_count_by(one, annotator_a, annotator_b, label, name = "n_pos")
  both <- dplyr::inner_join(dplyr::rename(pos, annotator_a = annotator),
                            dplyr::rename(pos, annotator_b = annotator), by = c("item", "label"))
  both <- db_count_by(dplyr::filter(both, annotator_a != annotator_b), annotator_a, annotator_b,
                      label, name = "pos_shared")
  ann <- dplyr::left_join(db_count_by(recs, annotator, name = "n_records"),
                          db_count_by(pos, annotator, name = "n_positives"), by = "annotator")
  fold_pair_tables(
    pair_items = dplyr::collect(db_count_by(db_record_pairs(recs), annotator_a, annotator_b,
                                            name = "n_items")),
    one = dplyr::collect(one), both = dplyr::collect(both),
    annotators = dplyr::collect(ann), shared = dplyr::collect(db_shared_items(recs)),
    selected = TRUE, universe = universe
  )
}

# Ordered rows (a, b) and (b, a) to one row per unordered pair: with cnt_a,
# pos_a the decisions and positives of a on the pair's items, n1 = cnt_a +
# cnt_b - n2 and sum_positive = 2 pos_a + 2 pos_b - (x_a + x_b over both).
fold_pair_tables <- function(pair_items, one, both, annotators, shared, selected, universe = NULL) {
  chr <- function(v) as.character(v)
  keep <- chr(pair_items$annotator_a) < chr(pair_items$annotator_b)
  pairs <- data.frame(annotator1 = chr(pair_items$annotator_a)[keep],
                      annotator2 = chr(pair_items$annotator_b)[keep],
                      n_items = normalise_count(pair_items$n_items)[keep])
  # every (unordered pair, label) with a row in `one` (some decision)
  key <- function(a, b, l) paste(chr(a), chr(b), chr(l), sep = "\r")
  lo <- ifelse(chr(one$annotator_a) < chr(one$annotator_b), chr(one$annotator_a), chr(one$annotator_b))
  hi <- ifelse(chr(one$annotator_a) < chr(one$annotator_b), chr(one$annotator_b), chr(one$annotator_a))
  cells <- unique(data.frame(annotator1 = lo, annotator2 = hi, label = chr(one$label)))
  if (selected) {  # every record decides every label
    cells <- data.frame(annotator1 = rep(pairs$annotator1, each = length(universe)),
                        annotator2 = rep(pairs$annotator2, each = length(universe)),
                        label = rep(universe, nrow(pairs)))
  }
  look <- function(tab, a, b, col) {
    v <- normalise_count(tab[[col]])[match(key(a, b, cells$label),
                                           key(tab$annotator_a, tab$annotator_b, tab$label))]
    ifelse(is.na(v), 0, v)
  }
  pos_a <- look(one, cells$annotator1, cells$annotator2, "n_pos")
  pos_b <- look(one, cells$annotator2, cells$annotator1, "n_pos")
  if (selected) {
    shared_pos <- look(both, cells$annotator1, cells$annotator2, "pos_shared")
    n_items <- pairs$n_items[match(paste(cells$annotator1, cells$annotator2),
                                   paste(pairs$annotator1, pairs$annotator2))]
    labels <- data.frame(cells, n_both = n_items, n_disagree = pos_a + pos_b - 2 * shared_pos,
                         n_either = n_items, sum_positive = pos_a + pos_b)
    ann <- data.frame(annotator = chr(annotators$annotator),
                      n_positives = ifelse(is.na(annotators$n_positives), 0,
                                           normalise_count(annotators$n_positives)),
                      n_decisions = normalise_count(annotators$n_records) * length(universe))
  } else {
    n2 <- look(both, cells$annotator1, cells$annotator2, "n_both")
    labels <- data.frame(cells, n_both = n2,
                         n_disagree = look(both, cells$annotator1, cells$annotator2, "n_disagree"),
                         n_either = look(one, cells$annotator1, cells$annotator2, "n_dec") +
                           look(one, cells$annotator2, cells$annotator1, "n_dec") - n2,
                         sum_positive = 2 * pos_a + 2 * pos_b -
                           look(both, cells$annotator1, cells$annotator2, "pos_both"))
    ann <- data.frame(annotator = chr(annotators$annotator),
                      n_positives = normalise_count(annotators$n_positives),
                      n_decisions = normalise_count(annotators$n_decisions))
  }
  ann$n_shared_items <- normalise_count(shared$n_shared_items)[match(ann$annotator, chr(shared$annotator))]
  ann$n_shared_items[is.na(ann$n_shared_items)] <- 0
  new_counts_pairs(pairs, labels, ann)
}

utils::globalVariables(c("value_a", "value_b", "n_dec", "n_pos", "pos_shared", "n_positives",
                         "n_decisions", "n_shared_items"))

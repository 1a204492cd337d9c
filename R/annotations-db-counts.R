# The GROUP BY queries of annotations_long()/annotations_wide() on a database
# table, whose results are the tables of annotation_counts(); `d` is
# validated, with value as integer 0/1/NULL.

# x (m - x) in 64 bits: m and x fit 32 bits, their product may not.
sql_disagreement <- function() dplyr::sql("CAST(x AS BIGINT) * (m - x)")

# Decisions; seen: the labels as stored; records: db_records() of d, if known.
db_decision_counts <- function(d, universe, seen = universe, single_label = FALSE,
                               records = NULL, call = rlang::caller_env()) {
  q <- lapply(db_decision_queries(d, records), dplyr::collect)
  counts_from_db(q$labels, q$design, q$annotators, universe,
                 db_source(d, selected = FALSE, seen), single_label, call)
}

# The three queries of the summary, lazy (annotation_queries() shows them).
db_decision_queries <- function(d, records = NULL) {
  cells <- db_decision_cells(d)
  label_rows <- dplyr::ungroup(dplyr::summarise(
    dplyr::group_by(dplyr::filter(cells, m > 0L), label, m),
    n_items = n(),
    sum_x = sum(x, na.rm = TRUE),
    sum_dis = sum(!!sql_disagreement(), na.rm = TRUE),
    .groups = "drop"
  ))
  # per item: records with decisions, stored records, and whether some label
  # has two decisions
  if (is.null(records)) records <- db_decision_records(d)
  pair_item <- dplyr::summarise(dplyr::group_by(cells, item), max_m = max(m, na.rm = TRUE),
                                .groups = "drop")
  design <- dplyr::inner_join(db_decision_items(records), pair_item, by = "item")
  design <- dplyr::mutate(design, pairable = ifelse(max_m >= 2L, 1L, 0L))
  design <- dplyr::summarise(dplyr::group_by(design, n_records, n_stored, pairable),
                             n_items = n(), .groups = "drop")
  annotators <- dplyr::summarise(dplyr::group_by(records, annotator),
                                 n_records = sum(dec, na.rm = TRUE), .groups = "drop")
  list(labels = label_rows, design = design, annotators = annotators)
}

# Per (item, label): decisions m and positives x (also the item bootstrap's).
db_decision_cells <- function(d) {
  cells <- dplyr::summarise(
    dplyr::group_by(d, item, label),
    m = sum(ifelse(is.na(value), 0L, 1L), na.rm = TRUE),
    x = sum(value, na.rm = TRUE),
    .groups = "drop"
  )
  dplyr::mutate(cells, x = dplyr::coalesce(x, 0L))
}

# Per record: does it carry a decision (as db_records() with a value).
db_decision_records <- function(d) {
  dplyr::summarise(dplyr::group_by(d, item, annotator),
                   dec = max(ifelse(is.na(value), 0L, 1L), na.rm = TRUE), .groups = "drop")
}

# Per item: records with a decision and stored records.
db_decision_items <- function(records) {
  dplyr::summarise(dplyr::group_by(records, item), n_records = sum(dec, na.rm = TRUE),
                   n_stored = n(), .groups = "drop")
}

# Selected labels (label NULL: annotated, nothing selected): every record
# decides every label, so m is the item's number of records.
db_selected_counts <- function(d, universe, seen = universe, records = NULL,
                               call = rlang::caller_env()) {
  q <- lapply(db_selected_queries(d, records), dplyr::collect)
  m <- normalise_count(q$design$m)
  n_items <- normalise_count(q$design$n_items)
  # every label has a row for every m (labels nobody selected: x = 0)
  grid <- expand.grid(m = m, label = universe, stringsAsFactors = FALSE)
  grid$n_items <- n_items[match(grid$m, m)]
  pos <- q$labels
  hit <- match(paste(grid$label, grid$m), paste(id_text(pos$label), normalise_count(pos$m)))
  grid$sum_x <- ifelse(is.na(hit), 0, normalise_count(pos$sum_x)[hit])
  grid$sum_dis <- ifelse(is.na(hit), 0, normalise_count(pos$sum_dis)[hit])
  design <- data.frame(n_records = m, n_stored = m, pairable = m >= 2, n_items = n_items)
  counts_from_db(grid, design, q$annotators, universe, db_source(d, selected = TRUE, seen),
                 call = call)
}

db_selected_queries <- function(d, records = NULL) {
  q <- db_selected_cells(d, records)
  positives <- dplyr::summarise(
    dplyr::group_by(dplyr::inner_join(q$cells, q$items, by = "item"), label, m),
    sum_x = sum(x, na.rm = TRUE),
    sum_dis = sum(!!sql_disagreement(), na.rm = TRUE),
    .groups = "drop"
  )
  list(labels = positives, design = db_count_by(q$items, m, name = "n_items"),
       annotators = db_count_by(q$records, annotator, name = "n_records"))
}

# Selected labels: the records, records per item (m) and positives per
# (item, label) (x); also the item bootstrap's.
db_selected_cells <- function(d, records = NULL) {
  if (is.null(records)) records <- db_distinct(d, item, annotator)
  records <- dplyr::select(records, item, annotator)
  list(records = records, items = db_count_by(records, item, name = "m"),
       cells = db_count_by(dplyr::filter(d, !is.na(label)), item, label, name = "x"))
}

# Counts of any type from the driver; pairable as 0/1.
counts_from_db <- function(label_rows, design, annotators, universe, db_source,
                           single_label = FALSE, call = rlang::caller_env()) {
  db_check_collected_ids(annotators$annotator, "annotator", call)
  design$pairable <- normalise_count(design$pairable) == 1
  out <- new_annotation_counts(tally_from_table(label_rows, universe), universe, design, annotators,
                               single_label, source = "database", db_source = db_source)
  # what the tables computed later must reproduce (annotations-db-changes.R)
  db_source$expected <- db_summary_totals(out)
  out
}

# As check_selected_shape() in memory: most records selecting every label
# means `value` was forgotten.
db_check_selected_shape <- function(d, universe, proto, used, call, records) {
  k <- length(universe)
  if (k < 2L) return(invisible())
  full <- db_count(dplyr::filter(records, n_sel >= !!k))
  n_rec <- db_count(records)
  share <- full / n_rec
  if (share < 0.9) return(invisible())
  candidates <- setdiff(names(proto), used)
  candidates <- candidates[vapply(proto[candidates], function(v) is.numeric(v) || is.logical(v), TRUE)]
  binary <- candidates[vapply(candidates, function(nm) db_is_binary(d, proto, nm), TRUE)]
  if (length(binary) > 0L) {
    mla_abort(
      c("{.arg value} must be given when {.arg data} has one row per decision.",
        "x" = "{format_percent(share)} of records select every label, and {cli::qty(length(binary))}column{?s} {.field {binary}} hold{?s/} 0/1 values.",
        "i" = "Use {.code value = {binary[1]}}; without it every row counts as a selected label."),
      class = "value_missing", call = call
    )
  }
  if (share == 1) {
    mla_warn(
      c("Every record selects every label, so agreement is perfect by construction.",
        "i" = "If the rows are decisions with a 0/1 column, give it as {.arg value}."),
      class = "all_selected", call = call
    )
  }
  invisible()
}

# Columns of the original table are not in `d` (a projection): a query on the
# value counts of the column alone, on this rare path.
db_is_binary <- function(d, proto, nm) {
  src <- attr(proto, "mla_source")
  if (is.null(src)) return(FALSE)
  v <- rlang::sym(nm)
  if (is.logical(proto[[nm]])) v <- rlang::expr(ifelse(!!v, 1L, 0L))
  s <- db_summary_counts(
    src,
    n0 = sum(ifelse(!!v == 0, 1L, 0L), na.rm = TRUE),
    n1 = sum(ifelse(!!v == 1, 1L, 0L), na.rm = TRUE),
    other = sum(ifelse(!is.na(!!v) & !!v != 0 & !!v != 1, 1L, 0L), na.rm = TRUE)
  )
  s$n0 > 0 && s$n1 > 0 && s$other == 0
}

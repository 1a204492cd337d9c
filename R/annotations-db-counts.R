# The GROUP BY queries of annotations_long()/annotations_wide() on a database
# table, whose results are the tables of annotation_counts(); `d` is
# validated, with value as integer 0/1/NULL.

# x (m - x) in 64 bits: m and x fit 32 bits, their product may not.
sql_disagreement <- function() dplyr::sql("CAST(x AS BIGINT) * (m - x)")

# Decisions; seen: the labels as stored; records: db_records() of d, if known.
db_decision_counts <- function(d, universe, seen = universe, single_label = FALSE,
                               records = NULL) {
  q <- db_decision_queries(d, records)
  counts_from_db(dplyr::collect(q$labels), dplyr::collect(q$design),
                 dplyr::collect(q$annotators), universe, db_source(d, selected = FALSE, seen),
                 single_label = single_label)
}

# The three queries of the summary, lazy (annotation_queries() shows them).
db_decision_queries <- function(d, records = NULL) {
  # per (item, label): decisions m and positives x
  cells <- dplyr::summarise(
    dplyr::group_by(d, item, label),
    m = sum(ifelse(is.na(value), 0L, 1L), na.rm = TRUE),
    x = sum(value, na.rm = TRUE),
    .groups = "drop"
  )
  cells <- dplyr::mutate(cells, x = dplyr::coalesce(x, 0L))
  label_rows <- dplyr::ungroup(dplyr::summarise(
    dplyr::group_by(dplyr::filter(cells, m > 0L), label, m),
    n_items = n(),
    sum_x = sum(x, na.rm = TRUE),
    sum_dis = sum(!!sql_disagreement(), na.rm = TRUE),
    .groups = "drop"
  ))
  # per record: does it carry a decision; per item: records with decisions,
  # stored records, and whether some label has two decisions
  if (is.null(records)) {
    records <- dplyr::summarise(
      dplyr::group_by(d, item, annotator),
      dec = max(ifelse(is.na(value), 0L, 1L), na.rm = TRUE),
      .groups = "drop"
    )
  }
  per_item <- dplyr::summarise(dplyr::group_by(records, item),
                               n_records = sum(dec, na.rm = TRUE), n_stored = n(),
                               .groups = "drop")
  pair_item <- dplyr::summarise(dplyr::group_by(cells, item), max_m = max(m, na.rm = TRUE),
                                .groups = "drop")
  design <- dplyr::inner_join(per_item, pair_item, by = "item")
  design <- dplyr::mutate(design, pairable = ifelse(max_m >= 2L, 1L, 0L))
  design <- dplyr::ungroup(dplyr::summarise(
    dplyr::group_by(design, n_records, n_stored, pairable),
    n_items = n(),
    .groups = "drop"
  ))
  annotators <- dplyr::ungroup(dplyr::summarise(
    dplyr::group_by(records, annotator),
    n_records = sum(dec, na.rm = TRUE),
    .groups = "drop"
  ))
  list(labels = label_rows, design = design, annotators = annotators)
}

# Selected labels (label NULL: annotated, nothing selected): every record
# decides every label, so m is the item's number of records.
db_selected_counts <- function(d, universe, seen = universe, records = NULL) {
  q <- db_selected_queries(d, records)
  positives <- dplyr::collect(q$labels)
  hist <- dplyr::collect(q$design)
  annotators <- dplyr::collect(q$annotators)
  hist$m <- normalise_count(hist$m)
  hist$n_items <- normalise_count(hist$n_items)
  # every label has a row for every m (labels nobody selected: x = 0)
  grid <- expand.grid(m = hist$m, label = universe, stringsAsFactors = FALSE)
  grid$n_items <- hist$n_items[match(grid$m, hist$m)]
  key <- paste(positives$label, normalise_count(positives$m))
  hit <- match(paste(grid$label, grid$m), key)
  grid$sum_x <- ifelse(is.na(hit), 0, normalise_count(positives$sum_x)[hit])
  grid$sum_dis <- ifelse(is.na(hit), 0, normalise_count(positives$sum_dis)[hit])
  design <- data.frame(n_records = hist$m, n_stored = hist$m, pairable = hist$m >= 2,
                       n_items = hist$n_items)
  counts_from_db(grid, design, annotators, universe, db_source(d, selected = TRUE, seen))
}

db_selected_queries <- function(d, records = NULL) {
  if (is.null(records)) records <- db_distinct(d, item, annotator)
  records <- dplyr::select(records, item, annotator)
  items <- db_count_by(records, item, name = "m")
  cells <- db_count_by(dplyr::filter(d, !is.na(label)), item, label, name = "x")
  positives <- dplyr::ungroup(dplyr::summarise(
    dplyr::group_by(dplyr::inner_join(cells, items, by = "item"), label, m),
    sum_x = sum(x, na.rm = TRUE),
    sum_dis = sum(!!sql_disagreement(), na.rm = TRUE),
    .groups = "drop"
  ))
  list(labels = positives, design = db_count_by(items, m, name = "n_items"),
       annotators = db_count_by(records, annotator, name = "n_records"))
}

counts_from_db <- function(label_rows, design, annotators, universe, db_source = NULL,
                           single_label = FALSE) {
  label_rows <- as.data.frame(label_rows)
  for (col in c("m", "n_items", "sum_x", "sum_dis")) {
    label_rows[[col]] <- normalise_count(label_rows[[col]])
  }
  label_rows$label <- as.character(label_rows$label)
  design <- data.frame(n_records = normalise_count(design$n_records),
                       n_stored = normalise_count(design$n_stored),
                       pairable = normalise_count(design$pairable) == 1,
                       n_items = normalise_count(design$n_items))
  annotators <- data.frame(annotator = annotators$annotator,
                           n_records = normalise_count(annotators$n_records))
  new_annotation_counts(
    tally = tally_from_table(label_rows, universe),
    universe = universe,
    design = design,
    annotators = annotators,
    source = "database",
    db_source = db_source,
    single_label = single_label
  )
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
    cli::cli_warn(
      c("Every record selects every label, so agreement is perfect by construction.",
        "i" = "If the rows are decisions with a 0/1 column, give it as {.arg value}."),
      class = "mlagreement_warning_all_selected", call = call
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
  s <- dplyr::collect(dplyr::summarise(
    src,
    n0 = sum(ifelse(!!v == 0, 1L, 0L), na.rm = TRUE),
    n1 = sum(ifelse(!!v == 1, 1L, 0L), na.rm = TRUE),
    other = sum(ifelse(!is.na(!!v) & !!v != 0 & !!v != 1, 1L, 0L), na.rm = TRUE)
  ))
  s <- lapply(s, normalise_count)
  s$n0 > 0 && s$n1 > 0 && s$other == 0
}

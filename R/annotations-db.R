# annotations_long() and annotations_wide() on a dbplyr lazy table: every
# check and aggregation runs in the database; only the summary comes back.
# Portable SQL: integer sums only, no division; x (m - x) cast to BIGINT;
# SUM over no rows coalesced; counts normalised to double after collect();
# no row order, so duplicates = "first"/"last" is refused.

annotations_long_db <- function(data, item, annotator, label, value, labels, duplicates,
                                single_label, value_missing = FALSE, call = rlang::caller_env()) {
  proto <- lazy_prototype(data, call)
  cols <- lazy_columns(proto, call, item = item, annotator = annotator, label = label, value = value)
  check_value_given(value_missing, setdiff(names(proto), cols), call)
  has_value <- !rlang::quo_is_null(value)
  check_bool(single_label, call = call)
  check_db_duplicates(duplicates, call)
  d <- dplyr::select(data, !!!rlang::syms(cols))
  if (db_is_sqlite(d)) db_check_sqlite_ids(d, c("item", "annotator", "label"), call)
  if (has_value) d <- db_binary_value(d, "value", proto[[cols[["value"]]]], call)
  db_check_rows(d, has_value, call)
  universe <- db_label_universe(d, labels, has_value || single_label, call)
  if (has_value) {
    db_check_values(d, "value", c("item", "annotator", "label"), "value", call)
  }
  # single-label categories: one row per record (the record is the key)
  by_label <- has_value || !single_label
  temp <- db_temporary(db_records(d, by_label, has_value))
  on.exit(temp$drop(), add = TRUE)
  records <- temp$table
  if (!has_value && !single_label) db_check_nothing_and_selected(records, call)
  db_check_duplicates(records, if (has_value) "decision" else "row", call)
  seen <- attr(universe, "seen")
  universe <- as.character(universe)
  if (single_label) {
    if (!has_value) d <- db_one_hot(d, universe, seen)  # a NULL category: no decision
    db_check_single_label(d, length(universe), call)
    return(db_decision_counts(d, universe, universe, single_label = TRUE,
                              records = if (has_value) records, call = call))
  }
  if (has_value) {
    db_decision_counts(d, universe, seen, records = records, call = call)
  } else {
    db_check_selected_shape(d, universe, proto, names(cols), call, records)
    db_selected_counts(d, universe, seen, records, call = call)
  }
}

annotations_wide_db <- function(data, item, annotator, labels, duplicates,
                                call = rlang::caller_env()) {
  proto <- lazy_prototype(data, call)
  pos <- select_roles(proto, list(item = item, annotator = annotator, labels = labels),
                      several = "labels", call = call)
  cols <- vapply(pos[c("item", "annotator")], names, "")
  label_cols <- names(pos$labels)
  check_db_duplicates(duplicates, call)
  d <- dplyr::select(data, !!!rlang::syms(cols), !!!rlang::syms(label_cols))
  if (db_is_sqlite(d)) db_check_sqlite_ids(d, c("item", "annotator"), call)
  for (nm in label_cols) d <- db_binary_value(d, nm, proto[[nm]], call)
  db_check_rows(d, FALSE, call, label = FALSE)
  for (nm in label_cols) db_check_values(d, nm, c("item", "annotator"), nm, call)
  db_check_duplicates(db_records(d, by_label = FALSE, has_value = FALSE), "row", call)
  # one long table of decisions: a UNION ALL of one SELECT per label column
  parts <- lapply(label_cols, function(nm) {
    dplyr::transmute(d, item, annotator, label = !!nm, value = !!rlang::sym(nm))
  })
  long <- Reduce(dplyr::union_all, parts)
  db_decision_counts(long, label_cols, label_cols, call = call)
}

# A zero-row local copy of the table: its column names and R types.
lazy_prototype <- function(data, call) {
  if (!rlang::is_installed(c("dplyr", "dbplyr"))) {
    mla_abort("Packages {.pkg dplyr} and {.pkg dbplyr} must be installed for database tables.",
              class = "db_packages", call = call)
  }
  proto <- tryCatch(
    dplyr::collect(utils::head(data, 0L)),
    # a simulated connection (dbplyr::lazy_frame()) runs no query: names only
    error = function(e) {
      if (!inherits(data$src$con, "TestConnection")) stop(e)
      cols <- colnames(data)
      tibble::as_tibble(stats::setNames(rep(list(integer()), length(cols)), cols))
    }
  )
  attr(proto, "mla_source") <- data
  proto
}

# The columns named by quosures (item = quo, ...), one column each and a
# different one per role; a NULL quosure (no value) names none.
lazy_columns <- function(proto, call, ...) {
  vapply(select_roles(proto, list(...), call = call), names, "")  # R/select-roles.R
}

check_db_duplicates <- function(duplicates, call) {
  duplicates <- check_choice(duplicates, c("error", "first", "last"), arg_name = "duplicates",
                             call = call)
  if (duplicates != "error") {
    mla_abort(c("{.arg duplicates} must be {.val error} for a database table.",
                "x" = "Database tables have no row order, so no row is the {.val {duplicates}}.",
                "i" = "Remove the repeats in the database (e.g. keep the latest by a timestamp)."),
              class = "db_unsupported", call = call)
  }
}

# The value column as integer 0/1 in SQL (booleans, or text "0"/"1" after a
# check that no other text occurs).
db_binary_value <- function(d, col, proto_col, call, check = TRUE) {
  if (db_is_sqlite(d)) return(db_sqlite_binary_value(d, col, call, check))  # annotations-db-types.R
  sym <- rlang::sym(col)
  if (is.logical(proto_col)) {
    return(dplyr::mutate(d, !!col := ifelse(!!sym, 1L, 0L)))
  }
  if (is.character(proto_col) || is.factor(proto_col)) {
    abort_db_not_binary(dplyr::filter(d, !is.na(!!sym), !(!!sym %in% c("0", "1"))), col, call)
    return(dplyr::mutate(d, !!col := ifelse(!!sym == "1", 1L, 0L)))
  }
  if (!is.numeric(proto_col)) {
    abort_not_binary(col, "It holds {.cls {class(proto_col)[1]}} values.", class = "value_type", call = call)
  }
  d
}

# The first n rows of q by `order`: the rows an error names.
db_first <- function(q, order, n = 1L) {
  dplyr::collect(utils::head(dplyr::arrange(q, !!!rlang::syms(order)), n))
}

# The one row of a summary as counts: a SUM over no rows is NULL, read as 0.
db_summary_counts <- function(q, ...) {
  s <- dplyr::collect(dplyr::summarise(dplyr::ungroup(q), ...))
  lapply(s, function(v) {
    v <- normalise_count(v)
    replace(v, is.na(v), 0)
  })
}

# Ids or labels read back from the database: a BIGINT that the driver
# returns as doubles (RPostgreSQL) has lost digits beyond 2^53, so distinct
# ids may have become one; refused as in memory (check_id_vector()).
db_check_collected_ids <- function(v, col, call) {
  if (!is.double(v) || is.object(v)) return(invisible(v))
  bad <- which(!is.na(v) & is.finite(v) & abs(v) > 2^53)
  if (length(bad) == 0L) return(invisible(v))
  first <- exact_number(v[bad[1]])
  mla_abort(
    c("Column {.arg {col}} must hold values that doubles store exactly (at most 2^53 in size).",
      "x" = "The database driver returned {length(bad)} value{?s} beyond 2^53 as doubles, first {first}: distinct ids may have become one.",
      "i" = "Cast the column to text in the database (e.g. {.code CAST({col} AS TEXT)}), or use a driver that returns 64-bit integers ({.pkg RPostgres})."),
    class = "id_precision", call = call
  )
}

db_count <- function(q) {
  normalise_count(dplyr::collect(dplyr::summarise(dplyr::ungroup(q), n_rows = n()))$n_rows)
}

# Empty tables, NULL ids and (with decisions) NULL labels, in one query.
db_check_rows <- function(d, has_value, call, label = TRUE) {
  ids <- c("item", "annotator", if (label && has_value) "label")
  checks <- lapply(rlang::syms(ids), function(id) {
    rlang::expr(sum(ifelse(is.na(!!id), 1L, 0L), na.rm = TRUE))
  })
  names(checks) <- paste0("na_", ids)
  s <- db_summary_counts(d, n_rows = n(), !!!checks)
  if (s$n_rows == 0) {
    mla_abort("{.arg data} must have at least one row.", class = "empty", call = call)
  }
  for (id in c("item", "annotator")) {
    n_na <- s[[paste0("na_", id)]]
    if (n_na > 0) {
      others <- setdiff(c("item", "annotator", if (label) "label"), id)
      first <- db_first(dplyr::filter(d, is.na(!!rlang::sym(id))), others)
      mla_abort(
        c("Column {.arg {id}} must not contain {.code NA}.",
          "x" = "{n_na} {.code NULL} id{?s}; first (by {paste(others, collapse = ', ')}): {describe_db_row(first, others)}."),
        class = "na_id", call = call
      )
    }
  }
  if (!is.null(s$na_label) && s$na_label > 0) {
    first <- db_first(dplyr::filter(d, is.na(label)), c("item", "annotator"))
    mla_abort(
      c("Column {.arg label} must not be {.code NA} when {.arg value} is given.",
        "x" = "{s$na_label} row{?s} with label {.code NULL}; first: {describe_db_row(first, c('item', 'annotator'))}.",
        "i" = "A missing decision is a {.code NA} value, not a {.code NA} label."),
      class = "na_label", call = call
    )
  }
}

describe_db_row <- function(row, cols) {
  paste(paste(cols, vapply(cols, function(cl) id_text(row[[cl]][1]), "")), collapse = ", ")
}

# The declared universe, and the check that every label in the table is in it.
db_label_universe <- function(d, labels, has_value, call) {
  seen <- dplyr::collect(db_distinct(d, label))$label
  db_check_collected_ids(seen, "label", call)
  universe <- label_universe(seen, labels, call = call)
  if (!has_value) check_label_names(universe, call = call)
  unknown <- setdiff(id_text(seen[!is.na(seen)]), universe)
  if (length(unknown) > 0) {
    mla_abort(
      c("Every label in column {.arg label} must be in the declared label universe.",
        "x" = "{length(unknown)} undeclared label{?s}: {.val {utils::head(sort(unknown), 5)}}.",
        "i" = "Declare it in {.arg labels}, or drop those rows on purpose."),
      class = "unknown_label", call = call
    )
  }
  structure(universe, seen = seen)  # the labels as stored, for the set codes
}

# Values other than 0, 1 and NULL: counted, and the first one named.
db_check_values <- function(d, col, keys, arg, call) {
  sym <- rlang::sym(col)
  bad <- dplyr::filter(d, !is.na(!!sym), !!sym != 0, !!sym != 1)
  first <- db_first(bad, keys)
  if (nrow(first) == 0) return(invisible())
  n_bad <- db_count(bad)
  abort_not_binary(arg, "{n_bad} invalid value{?s}; first ({describe_db_row(first, keys)}): {.val {format(first[[col]][1], digits = 17)}}.",
                   class = "value", call = call)
}

# Per record (item, annotator): its rows, its distinct keys (a NULL label
# counting as one; 1 when the record is the key) and its decision (dec) or
# non-NULL selected labels (n_sel); materialised once for the duplicate
# check, the design and the annotators.
db_records <- function(d, by_label, has_value) {
  stats <- list(n_rows = quote(n()), n_keys = 1L)
  if (by_label) {
    stats$n_keys <- quote(n_distinct(label) + max(ifelse(is.na(label), 1L, 0L), na.rm = TRUE))
  }
  if (has_value) stats$dec <- quote(max(ifelse(is.na(value), 0L, 1L), na.rm = TRUE))
  if (by_label && !has_value) stats$n_sel <- quote(sum(ifelse(is.na(label), 0L, 1L), na.rm = TRUE))
  dplyr::summarise(dplyr::group_by(d, item, annotator), !!!stats, .groups = "drop")
}

# A repeated key is a record with more rows than keys; its surplus rows are
# each key's rows but one.
db_check_duplicates <- function(records, what, call) {
  reps <- dplyr::filter(records, n_rows > n_keys)
  shown <- db_first(dplyr::select(reps, item, annotator), c("item", "annotator"), 5L)
  if (nrow(shown) == 0) return(invisible())
  s <- db_summary_counts(
    records, n_pairs = sum(ifelse(n_rows > n_keys, 1L, 0L), na.rm = TRUE),
    surplus = sum(n_rows - n_keys, na.rm = TRUE), n_rows = sum(n_rows, na.rm = TRUE)
  )
  n_pairs <- s$n_pairs
  n_surplus <- s$surplus
  surplus <- paste0(format_count(n_surplus), " surplus ", what, if (n_surplus > 1) "s",
                    " (", format_percent_exact(n_surplus / s$n_rows), " of the rows)")
  desc <- paste0("(", id_text(shown$item), ", ", id_text(shown$annotator), ")")
  mla_abort(
    c("Each (item, annotator) pair must appear once in {.arg data}.",
      "x" = "{n_pairs} pair{?s} repeat{?s/}, with {surplus}: {format_first(desc)}.",
      "i" = "Remove the repeats in the database first."),
    class = "duplicates", call = call
  )
}

# As check_nothing_and_selected() in memory: a record with a NULL-label row
# (rows beyond its selected labels) and a selected label.
db_check_nothing_and_selected <- function(records, call) {
  both <- dplyr::filter(records, n_sel > 0L, n_rows > n_sel)
  first <- db_first(both, c("item", "annotator"))
  if (nrow(first) == 0) return(invisible())
  abort_nothing_and_selected(list(item = id_text(first$item), annotator = id_text(first$annotator)),
                             db_count(both), call)
}

# count() leaves all but the last grouping variable (dplyr 1.0.10): ungroup.
db_count_by <- function(q, ..., name) dplyr::ungroup(dplyr::count(q, ..., name = name))

# Distinct rows as a GROUP BY, not SELECT DISTINCT: PostgreSQL may plan a
# parallel DISTINCT that spills to disk far slower (bench/README.md).
db_distinct <- function(q, ...) {
  dplyr::summarise(dplyr::group_by(dplyr::ungroup(q), ...), .groups = "drop")
}

# Rows of `a` joined with the rows of other annotators in `b` on `by`: the
# self-join of every pair and set table (annotator_a, annotator_b).
db_join_others <- function(a, b = a, by = "item") {
  p <- dplyr::inner_join(dplyr::rename(a, annotator_a = annotator),
                         dplyr::rename(b, annotator_b = annotator), by = by)
  dplyr::filter(p, annotator_a != annotator_b)
}

# The records of items with two or more of them, with that number (m).
db_pairable_records <- function(recs) {
  items <- dplyr::filter(db_count_by(recs, item, name = "m"), m >= 2L)
  dplyr::inner_join(recs, items, by = "item")
}

# Per record: its decisions (n_dec) and positives (n_pos).
db_record_decisions <- function(d) {
  dplyr::summarise(dplyr::group_by(d, item, annotator),
                   n_dec = sum(ifelse(is.na(value), 0L, 1L), na.rm = TRUE),
                   n_pos = sum(ifelse(value == 1L, 1L, 0L), na.rm = TRUE), .groups = "drop")
}

# Single-label categories as decisions: one SELECT per category, value 1 for
# the record's category, NULL when it has none.
db_one_hot <- function(d, universe, seen) {
  seen <- seen[!is.na(seen)]
  parts <- lapply(seq_along(universe), function(j) {
    stored <- seen[match(universe[j], id_text(seen))]
    if (is.na(stored)) stored <- universe[j]
    # value before label: transmute() would compare the new label column
    dplyr::transmute(d, item, annotator,
                     value = ifelse(is.na(label), NA_integer_, ifelse(label == !!stored, 1L, 0L)),
                     label = !!universe[j])
  })
  Reduce(dplyr::union_all, parts)
}

db_check_single_label <- function(d, k, call) {
  bad <- dplyr::filter(db_record_decisions(d), n_dec > 0L, n_dec < !!k | n_pos != 1L)
  first <- db_first(bad, c("item", "annotator"))
  if (nrow(first) == 0) return(invisible())
  ids <- list(item = id_text(first$item), annotator = id_text(first$annotator))
  abort_single_label(ids, db_count(bad), normalise_count(first$n_dec), normalise_count(first$n_pos), k, call)
}

# Columns and dbplyr's n() in the dplyr verbs of annotations-db*.R (tidy
# evaluation, not R variables).
utils::globalVariables(c(
  "item", "annotator", "label", "value", "m", "x", "n", "n_rows", "n_keys", "n_sel", "dec",
  "n_records", "n_stored", "pairable", "max_m", "value_a", "value_b", "n_dec", "n_pos",
  "pos_shared", "n_positives", "n_decisions", "n_shared_items", "size", "annotator_a",
  "annotator_b", "size_a", "size_b", "n_shared", "n_values"
))

#' The SQL behind a database summary
#'
#' `annotation_queries()` returns the three aggregation queries that
#' [annotations_long()] runs on a database table, as lazy tables: print them
#' with `dplyr::show_query()`, run them elsewhere, or, for a table of
#' decisions (`value` given), `collect()` them and pass the results to
#' [annotation_counts()]. The queries of a selected-label table (`value =
#' NULL`) count positives only and have other columns (see Value):
#' [annotations_long()] completes them with the records' decisions, which
#' [annotation_counts()] does not. No check is run: this is the SQL for data
#' engineers, not a replacement for [annotations_long()].
#' Cost: none in R: the queries are built lazily and run in the database when
#' collected.
#'
#' @param data A `tbl_lazy` (dbplyr) table.
#' @inheritParams annotations_long
#' @return A list of three lazy tables: `labels` (per label and number of
#'   decisions; for selected-label tables only labels and m with a positive),
#'   `design` (for selected-label tables: items by records, column `m`) and
#'   `annotators`.
#' @export
#' @examplesIf rlang::is_installed(c("dbplyr", "RSQLite"))
#' d <- dbplyr::lazy_frame(item = 1L, annotator = "a", label = "x", value = 1L,
#'                         con = dbplyr::simulate_postgres())
#' q <- annotation_queries(d, item, annotator, label, value)
#' dplyr::show_query(q$labels)
annotation_queries <- function(data, item, annotator, label, value = NULL) {
  check_inherits(data, "tbl_lazy", "dplyr::tbl", class = "db_input")
  call <- rlang::current_env()
  proto <- lazy_prototype(data, call)
  value <- rlang::enquo(value)
  cols <- lazy_columns(proto, call, item = rlang::enquo(item), annotator = rlang::enquo(annotator),
                       label = rlang::enquo(label), value = value)
  if (rlang::quo_is_null(value)) {
    return(db_selected_queries(dplyr::select(data, !!!rlang::syms(cols))))
  }
  d <- dplyr::select(data, !!!rlang::syms(cols))
  db_decision_queries(db_binary_value(d, "value", proto[[cols[["value"]]]], call, check = FALSE))
}

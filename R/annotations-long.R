#' Annotations from a long data frame
#'
#' Builds an [annotations][as_annotations] object from one row per decision or
#' one row per selected label.
#' Cost: a few passes over the rows (the ids are hashed; only the distinct ids
#' are sorted), then the counting pass of [as_annotations()]; a database table
#' is summarised by grouped queries in the database instead.
#'
#' * With `value`, every row is one decision: item, annotator, label and a
#'   0/1/`NA` value. A label with no row for an (item, annotator) record is a
#'   missing decision, never a "not selected".
#' * With `value = NULL`, every row lists one selected label; an
#'   (item, annotator) row whose label is `NA` means "annotated, nothing
#'   selected"; a record with such a row and a selected label is an error
#'   (class `mlagreement_error_na_label`). Every label of the universe that a
#'   record does not list is 0.
#'   Over a large, sparsely used universe only the selected labels are
#'   stored.
#'
#' The label universe is explicit: `labels`, else the levels of a factor
#' `label` column, else the sorted distinct labels. Labels that no one selected
#' still count (they change AC1 and PABAK, paper section 3.7). The universe
#' must not be empty, and a factor `label` must not have an `NA` level.
#' Sorted means in numeric order when every label reads as a finite number,
#' whether the codes are numbers or text (`"2"` before `"10"`, so ordinal
#' alpha and `weights = "ordinal"` rank them as interval and ratio measure
#' them), and in text order otherwise; every constructor and reader sorts a
#' universe this way.
#'
#' @section Multi-select cells:
#' With `label_sep`, one cell of `label` may list several labels, e.g.
#' `"[A]\n[B]"` (CrowdFlower, Figure Eight, Appen), `"A|B"` or `'["A","B"]'`
#' (MTurk batch results). Each cell becomes one row per selected label, then
#' the rules above apply unchanged (the label universe, `labels`,
#' `duplicates`). A cell is read as follows:
#' * `NA` is a label `NA`: annotated, nothing selected.
#' * After trimming white space, an empty cell or `"[]"` is annotated with
#'   nothing selected too.
#' * A JSON array of strings (`'["A", "B"]'`) gives its elements.
#' * Anything else is split at every occurrence of `label_sep` (a fixed
#'   string, not a regular expression); each element is trimmed, loses one
#'   pair of surrounding brackets `[]` or quotes (`""` or `''`), and is
#'   trimmed again. Empty elements (`"A||B"`, a trailing separator) are
#'   dropped with a message that counts them.
#'
#' A label found after splitting that is not in `labels` is the usual error
#' (class `mlagreement_error_unknown_label`), naming the row of `data`.
#'
#' @section Ids, labels and missing values:
#' The same rules hold for every constructor ([annotations_long()],
#' [annotations_wide()], [as_annotations()]):
#' * `NA` is the one missing-decision marker. `NaN` is not missing: it is an
#'   invalid value, refused with the value error (class
#'   `mlagreement_error_value`) wherever it appears, in values, labels, ids,
#'   arrays and categorical matrices.
#' * Ids and labels are matched by value: `1e5`, `100000L` and `"100000"`
#'   are the same id or label, and names made from numbers print in full
#'   (`"100000"`, `"3000000000"`). Double ids beyond 2^53 are refused (they
#'   may already have merged distinct ids: read such ids as text). Ids must
#'   be plain vectors: raw, list and matrix columns are refused.
#'
#' @section Database tables:
#' For a `tbl_lazy` (dbplyr) table `data`, every check runs as a query with
#' the in-memory errors, and the result is an [annotation_counts()] summary
#' read by grouped queries (no record comes back). Its per-item tables (item
#' rows, analytic standard errors, the item bootstrap), set tables (Jaccard
#' and MASI alpha) and annotator-pair tables ([annotator_agreement()]) are
#' queried from the table when first asked for, so the table must not change
#' in between: when their counts differ from the summary's (decisions and
#' positives per label, items, records), they stop with an error of class
#' `mlagreement_error_db_table_changed`; call `annotations_long()` again.
#' A change that leaves all those counts equal goes unseen: summarise a table
#' that does not change (a snapshot) while an annotation tool still writes
#' to it.
#'
#' Per-record queries go to temporary tables when the connection may create
#' them, and stay subqueries otherwise (a read-only connection or
#' transaction); inside a PostgreSQL transaction the attempt runs under a
#' savepoint, so a refused `CREATE TABLE` leaves the transaction usable.
#' Ids and labels that a driver returns as doubles beyond 2^53 (a `BIGINT`
#' read through RPostgreSQL) are refused with the in-memory error (class
#' `mlagreement_error_id_precision`) where they are read: cast the column to
#' text in the database, or use a driver that returns 64-bit integers
#' (RPostgres).
#'
#' @param data A data frame.
#' @param item,annotator,label <[`tidy-select`][tidyselect::language]> One
#'   column each: item ids, annotator ids and labels. Items and annotators
#'   are kept sorted by their ids as stored: numbers in numeric order, text
#'   in text order (`"10"` before `"2"`). That order is the row order of
#'   item tables and what a seed's bootstrap draws and splits follow, so
#'   give ids the same type to get the same draws from two sources.
#' @param value <[`tidy-select`][tidyselect::language]> Column of 0/1/`NA`
#'   decisions, or `NULL` when rows list selected labels. When `data` has a
#'   column named `value`, say which: `value = value` or `value = NULL`.
#' @param labels Declared label universe (character). Labels in the data
#'   outside it are an error.
#' @param single_label `TRUE` when the labels are mutually exclusive
#'   categories and every record selects exactly one of them (a single-label
#'   design: one row per record with its category when `value = NULL`).
#'   [mla()] then reports Fleiss' kappa, Gwet's AC1 and Brennan-Prediger for
#'   `q` categories, and [krippendorff_alpha()] nominal alpha by default. A
#'   row whose label is `NA` is a record without a category (missing); an
#'   empty string `""` is a category (irrCAC reads it as missing). Records
#'   that select no or several categories are an error. With `value = NULL`,
#'   a record on several rows repeats its (item, annotator) pair: `duplicates`
#'   applies, and its error tells exact copies from rows naming different
#'   categories; `"first"` / `"last"` keep one row and say how many conflict.
#' @param threads Number of threads of the counting pass; results do not
#'   depend on it.
#' @param label_sep `NULL`, or the separator (a fixed string such as `"\n"`,
#'   `"|"` or `","`) of cells that list several selected labels, as crowd
#'   platforms export multi-select questions (see Multi-select cells). Only
#'   with `value = NULL`.
#' @param duplicates What to do when an (item, annotator) pair repeats a
#'   decision: `"error"` (default) reports how many pairs repeat, the first
#'   few, and whether the repeats are exact copies or conflict; `"first"` /
#'   `"last"` keep the first / last occurrence in row order, with a message
#'   that counts the conflicting repeats.
#' @return An object of class `annotations`.
#' @family annotation constructors
#' @export
#' @examples
#' fit <- annotations_long(bias_example, item, annotator, label, value)
#' fit
#'
#' selected <- data.frame(
#'   doc = c(1, 1, 1, 2, 2),
#'   coder = c("a", "a", "b", "a", "b"),
#'   tag = c("x", "y", "x", NA, "y")
#' )
#' annotations_long(selected, doc, coder, tag, labels = c("x", "y", "z"))
#'
#' # one cell per record listing the selected labels
#' crowd <- data.frame(doc = c(1, 1, 2, 2), coder = c("a", "b", "a", "b"),
#'                     tags = c("[x]\n[y]", "[x]", "", "[y]\n[z]"))
#' annotations_long(crowd, doc, coder, tags, label_sep = "\n")
annotations_long <- function(data, item, annotator, label, value = NULL, labels = NULL,
                             duplicates = c("error", "first", "last"), single_label = FALSE,
                             threads = mla_threads(), label_sep = NULL) {
  if (inherits(data, "tbl_lazy")) {
    if (!is.null(label_sep)) abort_label_sep_database()
    return(with_db_errors(annotations_long_db(data, rlang::enquo(item), rlang::enquo(annotator),
                                              rlang::enquo(label), rlang::enquo(value), labels,
                                              duplicates, single_label, missing(value)),
                          rlang::current_env()))
  }
  check_data_frame(data)
  duplicates <- check_choice(duplicates, c("error", "first", "last"))
  value_quo <- rlang::enquo(value)
  pos <- select_roles(data, list(item = rlang::enquo(item), annotator = rlang::enquo(annotator),  # R/select-roles.R
                                 label = rlang::enquo(label), value = value_quo))
  used <- c(pos$item, pos$annotator, pos$label)
  check_value_given(missing(value) && is.null(label_sep), names(data)[-used])
  item_col <- data[[used[1]]]
  ann_col <- data[[used[2]]]
  label_col <- data[[used[3]]]
  has_value <- !rlang::quo_is_null(value_quo)
  value_col <- if (has_value) data[[pos$value]]
  check_nonempty_rows(data)
  if (!is.null(label_sep)) {  # R/annotations-long-split.R
    return(annotations_long_split(data, used, has_value, label_sep, labels, duplicates,
                                  single_label, threads))
  }
  if (has_value) {
    return(ingest_decisions(item_col, ann_col, label_col, value_col, labels, duplicates,
                            single_label, threads))
  }
  it <- encode_ids(item_col, "item")
  an <- encode_ids(ann_col, "annotator")
  check_id_vector(label_col, "label", "labels", class = "label_type")
  universe <- label_universe(label_col, labels)
  check_bool(single_label)
  if (!single_label) check_label_names(universe)
  lab <- label_codes(label_col, universe, has_value = FALSE)
  rec <- make_records(it, an)
  k <- length(universe)
  n_rec <- length(rec$item)
  chosen <- !is.na(lab)
  if (!single_label) check_nothing_and_selected(rec, chosen, it, an)
  # single-label: one category per record, so the record is the key
  key <- ifelse(chosen & !single_label, (rec$index - 1) * k + lab, -rec$index)
  # the label tells a single-label record's conflicting repeats from copies
  keep <- chosen & resolve_duplicates(key, rec$index, it, an, duplicates, "row", content = lab)
  if (!single_label) {
    return(annotations_long_selected(rec, lab, keep, it, an, universe, data, names(used),
                                     threads))
  }
  values <- matrix(0L, n_rec, k)
  values[cbind(rec$index[keep], lab[keep])] <- 1L
  values[!(seq_len(n_rec) %in% rec$index[keep]), ] <- NA_integer_
  a <- new_annotations(values, "records", rec$item, rec$annotator, it$keys, an$keys, universe,
                       threads = check_threads(threads))
  mark_single_label(a)
}

# The annotations of a decision table, built by the ingestion kernel, which
# reports the first offending row and its reason and resolves repeats as
# `duplicates` asks; R formats the messages.
ingest_decisions <- function(item_col, ann_col, label_col, value_col, labels, duplicates,
                             single_label, threads, call = rlang::caller_env()) {
  it <- id_coding(item_col, "item", call = call)
  an <- id_coding(ann_col, "annotator", call = call)
  lab <- label_coding(label_col, labels, call = call)
  check_bool(single_label, call = call)
  rows_desc <- function(r) {
    paste0("item ", it$keys[coding_codes(it, r)], ", annotator ", an$keys[coding_codes(an, r)],
           ", label ", lab$universe[coding_codes(lab, r)])
  }
  plain_values <- (is.integer(value_col) || is.double(value_col) || is.logical(value_col)) &&
    !is.object(value_col) && is.null(dim(value_col))
  if (!plain_values) value_col <- binary_values(value_col, "value", rows_desc, call = call)
  out <- ingest_decisions_cpp(it, length(it$keys), an, length(an$keys), lab,
                              length(lab$universe), value_col, duplicates == "last")
  if (out$status == 1L) label_codes(label_col, lab$universe, has_value = TRUE, call = call)
  if (out$status == 2L) abort_invalid_values(value_col, "value", out$count, out$row, rows_desc, call)
  if (out$status == 3L) {
    i <- coding_codes(it)
    a <- coding_codes(an)
    pair <- (i - 1) * length(an$keys) + a  # the record, in record order
    resolve_duplicates((pair - 1) * length(lab$universe) + coding_codes(lab), pair,
                       list(keys = it$keys, codes = i), list(keys = an$keys, codes = a),
                       duplicates, "decision", content = value_col, call = call)
  }
  a <- new_annotations(out$values, "records", out$item, out$annotator, it$keys, an$keys,
                       lab$universe, threads = check_threads(threads, call = call), call = call)
  if (single_label) a <- mark_single_label(a, call = call)
  a
}

# The label column coded against its universe; an NA or undeclared label has
# no code (NA in `pos`).
label_coding <- function(label_col, labels, call = rlang::caller_env()) {
  check_id_vector(label_col, "label", "labels", class = "label_type", call = call)
  fct <- is.factor(label_col)
  d <- if (fct) list(x = label_col, distinct = levels(label_col)) else distinct_coding(label_col)
  universe <- label_universe(if (fct) label_col else d$distinct, labels, call = call)
  list(x = d$x, offset = 0L, pos = match_values(d$distinct, universe), universe = universe)
}

# Positions of the labels in the universe; undeclared labels, and NA labels
# of decision rows, are errors.
label_codes <- function(label_col, universe, has_value, rows = NULL, call = rlang::caller_env()) {
  lab <- if (is.factor(label_col)) {
    match(levels(label_col), universe)[as.integer(label_col)]
  } else {
    match_values(label_col, universe)
  }
  unknown <- !is.na(label_col) & is.na(lab)
  if (any(unknown)) {
    bad <- id_text(unique(label_col[unknown]))
    first <- which(unknown)[1]
    if (!is.null(rows)) first <- rows[first]  # split cells: the row of `data`
    mla_abort(
      c("Every label in column {.arg label} must be in the declared label universe.",
        "x" = "{length(bad)} undeclared label{?s}: {.val {utils::head(bad, 5)}}; first at row {first}.",
        "i" = "Declare it in {.arg labels}, or drop those rows on purpose."),
      class = "unknown_label", call = call
    )
  }
  if (has_value && anyNA(lab)) {
    rows <- which(is.na(lab))
    mla_abort(
      c("Column {.arg label} must not be {.code NA} when {.arg value} is given.",
        "x" = "{length(rows)} row{?s} with label {.code NA}: {format_first(rows)}.",
        "i" = "A missing decision is a {.code NA} value, not a {.code NA} label."),
      class = "na_label", call = call
    )
  }
  lab
}

# A record with an NA-label row ("annotated, nothing selected") and a
# selected label contradicts itself: which row is meant is not ours to guess.
check_nothing_and_selected <- function(rec, chosen, it, an, call = rlang::caller_env()) {
  both <- sort(intersect(rec$index[!chosen], rec$index[chosen]))
  if (length(both) == 0L) return(invisible())
  r <- both[1]
  abort_nothing_and_selected(list(item = id_text(it$keys[rec$item[r]]), annotator = id_text(an$keys[rec$annotator[r]])),
                             length(both), call)
}

# The error of such records (in memory and in a database): the first one
# (`ids`, record_ids()) and how many.
abort_nothing_and_selected <- function(ids, n_both, call) {
  abort_record(ids,
               "A record must not both select labels and have a row with label {.code NA} (annotated, nothing selected).",
               "has both; {n_both} such record{?s} in all",
               hints = c("i" = "Drop the {.code NA}-label rows of records that select labels, or the label rows of records meant to select nothing."),
               class = "na_label", call = call)
}

# Selected-label rows that are really decisions: the 0/1 column given as
# `label`, or `value` forgotten (every record then "selects" every label it
# has a row for, and agreement comes out perfect).
check_label_names <- function(universe, call = rlang::caller_env()) {
  if (length(universe) > 0L && all(universe %in% c("0", "1", "TRUE", "FALSE"))) {
    mla_abort(
      c("Column {.arg label} must hold label names when {.arg value} is {.code NULL}.",
        "x" = "Its values are {.val {universe}}: they look like 0/1 decisions.",
        "i" = "Give the label-name column as {.arg label} and the 0/1 column as {.arg value}."),
      class = "label_shape", call = call
    )
  }
}

# A `value` column that `value =` leaves out would be read as selections, its
# 0s as selected labels: the caller must say which reading is meant.
check_value_given <- function(value_missing, columns, call = rlang::caller_env()) {
  if (!value_missing || !"value" %in% columns) return(invisible())
  mla_abort(c("{.arg value} must be given when {.arg data} has a column {.field value}.",
              "x" = "Without it every row is read as a selected label, a 0 as a selection.",
              "i" = "Give {.code value = value} to read its 0/1 decisions, or {.code value = NULL} when every row is a selected label."),
            class = "value_missing", call = call)
}

check_selected_shape <- function(n_selected, universe, data, used, call = rlang::caller_env()) {
  k <- length(universe)
  if (k < 2L) return(invisible())
  all_selected <- mean(n_selected == k)
  if (all_selected < 0.9) return(invisible())
  candidates <- setdiff(names(data), used)
  binary <- candidates[vapply(candidates, function(nm) is_binary_column(data[[nm]]), logical(1))]
  if (length(binary) > 0L) {
    mla_abort(
      c("{.arg value} must be given when {.arg data} has one row per decision.",
        "x" = "{format_percent(all_selected)} of records select every label, and {cli::qty(length(binary))}column{?s} {.field {binary}} hold{?s/} 0/1 values.",
        "i" = "Use {.code value = {binary[1]}}; without it every row counts as a selected label."),
      class = "value_missing", call = call
    )
  }
  if (all_selected == 1) {
    mla_warn(
      c("Every record selects every label, so agreement is perfect by construction.",
        "i" = "If the rows are decisions with a 0/1 column, give it as {.arg value}."),
      class = "all_selected", call = call
    )
  }
  invisible()
}

is_binary_column <- function(v) {
  if (is.factor(v)) v <- as.character(v)
  if (is.character(v)) v <- suppressWarnings(as.numeric(v))
  if (!(is.numeric(v) || is.logical(v))) return(FALSE)
  u <- unique(v[!is.na(v)])
  length(u) == 2L && all(u %in% c(0, 1))
}

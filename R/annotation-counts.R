# The sufficient-statistics contract (DESIGN.md, "Sufficient statistics"):
# every estimate from it equals the one on the records.

#' Sufficient statistics of an annotation design
#'
#' `annotation_counts()` builds the summary that [mla()] and
#' [krippendorff_alpha()] (`distance = "hamming"`) accept in place of the
#' annotations, from plain tables computed elsewhere (a Spark job, a
#' warehouse query, a parquet export). [annotations_long()] and
#' [annotations_wide()] return the same object for a database table
#' (`tbl_lazy`), and `as_annotation_counts()` summarises an in-memory
#' [annotations][as_annotations] object. Results computed from it equal
#' those on the records.
#' Cost: `annotation_counts()` reads only the tables given, in time
#' proportional to their rows; `as_annotation_counts()` copies the tables the
#' object keeps and makes one pass over its records for the set tables and one
#' over the shared items for the annotator-pair tables.
#'
#' A database table is checked in the database, with the errors of the
#' in-memory adapters. SQLite keeps a type per value, so its values are
#' checked by value: a 0/1 column may hold the numbers 0 and 1 or the text
#' `'0'` and `'1'`, and an id or label column holding both numbers and text
#' (item `1` beside item `'1'`) is refused rather than read as two ids.
#' Errors of the engine (a closed connection, a missing table) have class
#' `mlagreement_error_db_query`, with the engine's message as parent, and no
#' table or statistics are left on the connection.
#'
#' @section The tables:
#' For item \eqn{i} and label \eqn{j}, let \eqn{m_{ij}} be the number of
#' non-missing decisions and \eqn{x_{ij}} the number of positive ones.
#' * `labels`: one row per label and value of \eqn{m \ge 1}{m >= 1} that
#'   occurs, columns `label`, `m`, `n_items` (items with
#'   \eqn{m_{ij} = m}{m_ij = m}), `sum_x` (\eqn{\sum x_{ij}}{sum x_ij} over
#'   those items), `sum_dis` (\eqn{\sum x_{ij}(m - x_{ij})}{sum x_ij (m - x_ij)}).
#'   Labels or values of `m` without a row have no such items. A row with
#'   `m = 0` (items without a decision on the label) adds nothing and is
#'   ignored when its `sum_x` and `sum_dis` are 0; with other sums it is an
#'   error, and so are sums that no `n_items` items with `m` decisions can
#'   give (`sum_x` above `m * n_items`, `sum_dis` outside the range those
#'   items allow, or of the wrong parity: \eqn{x (m - x)}{x (m - x)} is even
#'   when \eqn{m} is odd and has the parity of \eqn{x} when \eqn{m} is
#'   even).
#' * `design`: one row per kind of item, columns `n_records` (records of the
#'   item with at least one decision), `pairable` (`TRUE` when some label of
#'   the item has two or more decisions), `n_items`, and optionally
#'   `n_stored` (records of the item, with or without decisions; default
#'   `n_records`). Items without any decision have `n_records = 0`.
#' * `annotators`: one row per annotator, columns `annotator` and
#'   `n_records` (records with at least one decision).
#' * `sets` (optional, for Jaccard and MASI alpha): the distinct label sets
#'   of the pairable set records (records with a decision on every label, in
#'   items with two or more of them), columns `labels` (the selected labels:
#'   a list column of character vectors, or text joined by `"|"`, `""` for
#'   the empty set) and `n_values` (records with that set). In the text form
#'   a `"|"` or backslash inside a label is preceded by a backslash
#'   (`"pos\\|neg|r"` is the set of `"pos|neg"` and `"r"`), as
#'   `tidy(s, "sets")` writes it; any other backslash is read as it is.
#' * `set_pairs` (with `sets`): the ordered pairs of those records within
#'   items, columns `m` (the item's set records), `size_a`, `size_b` (the two
#'   set sizes), `n_shared` (labels in both) and `n_pairs` (ordered pairs of
#'   records with these values; each item gives \eqn{m (m - 1)}).
#' * `annotator_pairs` (optional, for [annotator_agreement()]): one row per
#'   pair of annotators with decisions on a common item, columns
#'   `annotator1`, `annotator2` and `n_items` (those items).
#' * `pair_labels` (with `annotator_pairs`): per pair and label, over the
#'   pair's common items, columns `annotator1`, `annotator2`, `label`,
#'   `n_both` (items both decided the label on), `n_disagree` (of those, items
#'   they disagree on), `n_either` (items at least one decided it on) and
#'   `sum_positive` (\eqn{x_a + x_b} over the items both decided, plus twice
#'   the positive of the one who decided on the others). Rows with
#'   `n_either = 0` may be left out. The `annotators` table then adds
#'   `n_positives`, `n_decisions` (the annotator's positive and all
#'   decisions) and `n_shared_items` (records with decisions on items with
#'   two or more such records).
#'
#' The tables must agree (an error of class
#' `mlagreement_error_counts_inconsistent` names the row that does not): for
#' every label and \eqn{m}, the items of `labels` with \eqn{m} or more
#' decisions are at most the items of `design` with \eqn{m} or more
#' records, and, for \eqn{m \ge 2}{m >= 2}, at most the `pairable` items
#' with \eqn{m} or more records; a `pairable` row has `n_records >= 2`, and
#' the `pairable` items are at most the (label, item) cells of `labels` with
#' two or more decisions; `n_records <= n_stored` on every `design` row, and `n_stored` is
#' at most the number of annotators; no annotator has more records than
#' there are items, and the `n_records` of `annotators` sum to the records
#' of `design` (\eqn{\sum}{sum} `n_records * n_items`).
#'
#' In SQL, with a table `d(item, annotator, label, value)`:
#' ```
#' -- labels
#' SELECT label, m, COUNT(*) AS n_items, SUM(x) AS sum_x,
#'        SUM(CAST(x AS BIGINT) * (m - x)) AS sum_dis
#' FROM (SELECT item, label, COUNT(value) AS m, COALESCE(SUM(value), 0) AS x
#'       FROM d GROUP BY item, label) c
#' WHERE m > 0 GROUP BY label, m
#' ```
#'
#' The set tables in SQL, with `r(item, annotator, size, code)` the complete
#' records (`code` identifies the set) and `p(item, annotator, label)`
#' their selected labels:
#' ```
#' -- sets: distinct sets of the items with m >= 2 complete records
#' SELECT code, MAX(size) AS size, COUNT(*) AS n_values FROM r
#' WHERE item IN (SELECT item FROM r GROUP BY item HAVING COUNT(*) >= 2)
#' GROUP BY code
#' -- set_pairs: ordered pairs within items, by (m, sizes, shared labels)
#' SELECT m, a.size AS size_a, b.size AS size_b,
#'        COALESCE(s.n_shared, 0) AS n_shared, COUNT(*) AS n_pairs
#' FROM r a JOIN r b ON a.item = b.item AND a.annotator <> b.annotator
#' JOIN (SELECT item, COUNT(*) AS m FROM r GROUP BY item) i ON i.item = a.item
#' LEFT JOIN (SELECT p1.item, p1.annotator AS a1, p2.annotator AS a2,
#'                   COUNT(*) AS n_shared
#'            FROM p p1 JOIN p p2 ON p1.item = p2.item AND p1.label = p2.label
#'             AND p1.annotator <> p2.annotator
#'            GROUP BY p1.item, p1.annotator, p2.annotator) s
#'   ON s.item = a.item AND s.a1 = a.annotator AND s.a2 = b.annotator
#' WHERE m >= 2 GROUP BY m, a.size, b.size, COALESCE(s.n_shared, 0)
#' ```
#'
#' @section What needs the records:
#' Custom distances of two
#' sets `function(a, b)`, single-label distances, bootstrap intervals of
#' [krippendorff_alpha()] (`R > 0`), labels with structure (`label_weights`
#' other than equal, `label_groups`, `label_tree`, except one group of every
#' category of a single-label design, which is its categorical fit),
#' [agreement_measures()] and [mla_boot()] with annotator resampling need
#' per-record data,
#' which the summary does not hold: they stop with an error of class
#' `mlagreement_error_needs_records`. [annotator_agreement()] needs the
#' annotator-pair tables (`annotator_pairs`, `pair_labels`); item-level
#' rows (`tidy(fit, level = "item")`, [augment()][augment.mla]), the
#' analytic standard errors and `mla_boot()` over items, clusters or strata
#' need each item's \eqn{(m, x)} cells, which [as_annotation_counts()] keeps
#' when they fit in memory and a database table computes when they are asked
#' for (a summary from plain tables has none). Jaccard and MASI alpha and custom
#' set-size distances `function(n_a, n_b, n_ab)` need the set tables (and
#' equal the records' results); a design with records that
#' decide some labels but not others has none (the same error as on the
#' records, class `mlagreement_error_partial_record`).
#'
#' @param labels A data frame of per-label tables (see the section below).
#' @param design A data frame, the design histogram.
#' @param annotators A data frame of annotators and their record counts.
#' @param universe The declared label universe (character); default the
#'   labels of `labels` in sorted order (numeric order when every label reads
#'   as a finite number, as in [annotations_long()]). Labels without rows
#'   count as labels without decisions.
#' @param single_label `TRUE` for a single-label design (every record selects
#'   exactly one category, so every label has a decision in every record and
#'   the `sum_x` add up to the records): [mla()] then reports Fleiss' kappa,
#'   AC1 and Brennan-Prediger.
#' @param sets,set_pairs Optional data frames, the set tables (see the
#'   section below); without them Jaccard and MASI alpha need the records.
#' @param annotator_pairs,pair_labels Optional data frames, the annotator-pair
#'   tables (see the section below; `annotators` then needs the columns
#'   `n_positives`, `n_decisions` and `n_shared_items`); without them
#'   [annotator_agreement()] needs the records.
#' @return An `annotations` object without its records, of class
#'   `c("annotation_counts", "annotations")`: every verb accepts it, and the
#'   ones that need the records (item bootstrap of a summary without per-item
#'   tables, subsetting, [as.data.frame()]) say so with an error of class
#'   `mlagreement_error_needs_records`. `is_annotation_counts()` tells a
#'   summary from the records.
#' @family annotation constructors
#' @export
#' @examples
#' a <- annotations_long(bias_example, item, annotator, label, value)
#' s <- as_annotation_counts(a)
#' s
#' all.equal(tidy(mla(s)), tidy(mla(a)))
#'
#' # the same summary from plain tables
#' s2 <- annotation_counts(tidy(s, "labels"), tidy(s, "design"), tidy(s, "annotators"),
#'                         universe = s$labels)
#' tidy(mla(s2))
annotation_counts <- function(labels, design, annotators, universe = NULL,
                              single_label = FALSE, sets = NULL, set_pairs = NULL,
                              annotator_pairs = NULL, pair_labels = NULL) {
  check_not_records(labels)
  check_data_frame(labels)
  check_data_frame(design)
  check_data_frame(annotators)
  check_bool(single_label)
  check_table_columns(labels, c("label", "m", "n_items", "sum_x", "sum_dis"))
  check_table_columns(design, c("n_records", "pairable", "n_items"))
  check_table_columns(annotators, c("annotator", "n_records"))
  check_count_columns(labels, c("m", "n_items", "sum_x", "sum_dis"), "labels")
  check_count_columns(design, c("n_records", "n_items", intersect("n_stored", names(design))),
                      "design")
  check_count_columns(annotators, "n_records", "annotators")
  check_pairable_column(design)
  lab <- id_text(labels$label)
  universe <- if (is.null(universe)) sort_labels(unique(lab[!is.na(lab)])) else check_universe_labels(universe, lab)
  if (is.null(design$n_stored)) design$n_stored <- design$n_records
  # the tables against each other before the tally, whose rows run to the largest m
  check_unique_names(id_text(annotators$annotator), "annotator", arg = "annotators")
  check_design_annotators(design, annotators)
  check_labels_m_within_design(labels, design)
  tally <- tally_from_table(labels, universe)
  check_labels_items_within_design(labels, tally, universe, design)
  check_pairable_within_labels(tally, universe, design)
  if (single_label) check_single_label_tally(tally, universe, design)
  new_annotation_counts(
    tally = tally,
    universe = universe,
    design = design,
    annotators = annotators,
    single_label = single_label,
    sets = counts_sets_from_tables(sets, set_pairs, universe),
    annotator_pairs = counts_pairs_from_tables(annotator_pairs, pair_labels, annotators)
  )
}

# The object, from a tally (max_m x k matrices cnt, sx, sdis) and the design
# and annotator tables (counts of any type: normalise_count()); optional set,
# pair and per-item tables, and for a database the query that computes them
# when asked (`db_source`).
new_annotation_counts <- function(tally, universe, design, annotators, single_label = FALSE,
                                  source = "tables", sets = NULL, annotator_pairs = NULL,
                                  db_source = NULL, item_cells = NULL) {
  design <- fast_tibble(
    n_records = normalise_count(design$n_records),
    n_stored = normalise_count(design$n_stored),
    pairable = as.logical(design$pairable),
    n_items = normalise_count(design$n_items)
  )
  design <- design[order(design$n_records, design$n_stored, design$pairable), ]
  annotators <- fast_tibble(annotator = annotators$annotator,
                            n_records = normalise_count(annotators$n_records))
  annotators <- annotators[order(annotators$annotator), ]
  # the records of the largest item bound every m (as in new_annotations())
  max_m <- max(1, design$n_stored, nrow(tally$cnt))
  tally <- pad_tally(tally, max_m)
  m <- seq_len(max_m)
  structure(
    list(
      labels = universe,
      tally = tally,
      design = design,
      annotators = annotators$annotator,
      n_items = sum(design$n_items),
      n_records = sum(design$n_records * design$n_items),
      n_stored_records = sum(design$n_stored * design$n_items),
      n_decisions = sum(m * tally$cnt),
      annotator_records = annotators$n_records,
      single_label = if (single_label) TRUE else NULL,
      source = source,
      sets = if (is.null(sets$partial)) sets,
      sets_partial = sets$partial,
      annotator_pairs = annotator_pairs,
      db_source = db_source,
      item_cells = item_cells
    ),
    # an `annotations` object without its records: the methods of a summary
    # come first, the shared ones (dim(), print()) are the records'
    class = c("annotation_counts", "annotations")
  )
}

#' @rdname annotation_counts
#' @param x An [annotations][as_annotations] object.
#' @export
as_annotation_counts <- function(x) UseMethod("as_annotation_counts")

#' @export
as_annotation_counts.default <- function(x) {
  check_inherits(x, "annotations", "as_annotations", class = "counts_input")
}

#' @export
as_annotation_counts.annotation_counts <- function(x) x

#' @export
as_annotation_counts.annotations <- function(x) {
  t <- label_tally(x)
  stored <- if (is_dense_layout(x)) x$item_annotators else tabulate(x$item, n_items(x))
  # one row per distinct (n_records, n_stored, pairable), by an exact numeric key
  span <- max(stored) + 1
  key <- (as.double(stored) * span + x$item_annotators) * 2 + (!is.na(t$item_disagreement))
  keys <- sort(unique(key))
  design <- data.frame(n_records = (keys %/% 2) %% span, n_stored = (keys %/% 2) %/% span,
                       pairable = keys %% 2 == 1, n_items = tabulate(match(key, keys), length(keys)))
  new_annotation_counts(
    tally = list(cnt = t$cnt, sx = t$sx, sdis = t$sdis),
    universe = x$labels,
    design = design,
    annotators = data.frame(annotator = x$annotators,
                            n_records = x$annotator_records),
    single_label = is_single_label(x),
    source = "memory",
    sets = counts_sets_memory(x),
    annotator_pairs = counts_pairs_memory(x),
    item_cells = counts_item_cells_memory(x)
  )
}

#' @rdname annotation_counts
#' @export
is_annotation_counts <- function(x) inherits(x, "annotation_counts")

# Per-label tables (label, m, n_items, sum_x, sum_dis) -> max_m x k matrices,
# indexed by (m, label): every row kept has one cell of its own, so no row
# can shift another's statistics.
tally_from_table <- function(labels, universe, call = rlang::caller_env()) {
  j <- match(id_text(labels$label), universe)
  m <- normalise_count(labels$m)
  check_label_rows_placed(labels, j, m, call)
  keep <- m >= 1
  max_m <- max(1, m)
  cnt <- sx <- sdis <- matrix(0, max_m, length(universe))
  idx <- cbind(m[keep], j[keep])
  if (anyDuplicated(idx)) {
    key <- paste0(id_text(labels$label), ", m = ", m)[keep]
    mla_abort(c("{.arg labels} must have one row per (label, m).",
                "x" = "Repeated: {format_first(unique(key[duplicated(idx)]))}."),
              class = "counts_table", call = call)
  }
  cnt[idx] <- normalise_count(labels$n_items)[keep]
  sx[idx] <- normalise_count(labels$sum_x)[keep]
  sdis[idx] <- normalise_count(labels$sum_dis)[keep]
  check_label_sums_possible(labels, keep, m[keep], cnt[idx], sx[idx], sdis[idx], call)
  list(cnt = cnt, sx = sx, sdis = sdis)
}

pad_tally <- function(tally, max_m) {
  pad <- function(t) {
    if (nrow(t) >= max_m) return(t)
    rbind(t, matrix(0, max_m - nrow(t), ncol(t)))
  }
  list(cnt = pad(tally$cnt), sx = pad(tally$sx), sdis = pad(tally$sdis))
}

# Records (a lazy table, an annotations object, item x annotator rows) are
# the most likely wrong input: say which function summarises them.
check_not_records <- function(labels, call = rlang::caller_env()) {
  found <- records_not_table(labels)
  if (is.null(found)) return(invisible())
  mla_abort(c("{.arg labels} must be the per-label table of sufficient statistics.",
              "x" = paste0("It is ", found[["what"]], "."), "i" = found[["hint"]]),
            class = "input_type", call = call)
}

# What such an input is and what to do with it; NULL for anything else.
records_not_table <- function(labels) UseMethod("records_not_table")
records_not_table.default <- function(labels) NULL
records_not_table.annotation_counts <- function(labels) {
  c(what = "already a summary ({.cls annotation_counts})",
    hint = "Pass it to the verbs as it is ({.fn mla}, {.fn krippendorff_alpha}, ...).")
}
records_not_table.tbl_lazy <- function(labels) {
  c(what = "a database table",
    hint = "{.code annotations_long(data, item, annotator, label, value)} summarises a database table in the database.")
}
records_not_table.annotations <- function(labels) {
  c(what = "an annotations object", hint = summarise_annotations_hint)
}
records_not_table.data.frame <- function(labels) {
  if (!all(c("item", "annotator") %in% names(labels))) return(NULL)
  c(what = "a table of annotation records (it has columns {.field item} and {.field annotator})",
    hint = summarise_annotations_hint)
}
summarise_annotations_hint <-
  "{.fn as_annotation_counts} summarises annotations made by {.fn annotations_long} or {.fn as_annotations}."


# Counts as doubles, whatever the driver returned (integer, double, bigint
# as integer64, numeric as character).
normalise_count <- function(v) {
  if (inherits(v, "integer64") || is.character(v)) return(as.numeric(as.character(v)))
  as.double(v)
}

# A table of the summary: `ids` as text, then `counts` as doubles.
count_table <- function(df, ids = character(), counts) {
  cols <- c(lapply(df[ids], id_text), lapply(df[counts], normalise_count))
  tibble::new_tibble(cols, nrow = length(cols[[1]]))
}

abort_needs_records <- function(what, arg = "x", call = rlang::caller_env(),
                                what_it_is = "an {.cls annotation_counts} summary (from a database table or {.fn annotation_counts})") {
  mla_abort(
    c("{.arg {arg}} must hold the annotation records for {what}, not a summary of them.",
      "x" = paste0("It is ", what_it_is, "."),
      "i" = "Read the records with {.fn annotations_long} (a database table after {.fn dplyr::collect})."),
    class = "needs_records", call = call
  )
}

#' @export
as_annotations.annotation_counts <- function(x, ...) {
  abort_needs_records("this analysis", call = rlang::caller_env())
}

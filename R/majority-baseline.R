#' Majority-vote baselines
#'
#' The two majority baselines of the TID-8 benchmark (Deng et al. 2023):
#' `"overall"` predicts the most frequent label of the training annotations
#' for every test annotation; `"individual"` predicts, for each test
#' annotation, the most frequent training label of its annotator. Test
#' annotators with no training annotations (as in an annotator split) get the
#' overall majority label; a message of class
#' `mlagreement_message_unseen_ids` says how many test rows that is, and
#' which annotators. When no test annotator is found in `train`, the ids
#' most likely differ in type or whitespace.
#' Cost: one pass over the training rows to count the labels (per annotator for
#' `"individual"`) and one over the test rows.
#'
#' Ties are broken by first appearance in `train` (row order), as Python's
#' `Counter.most_common()` does in the benchmark's code. The predictions keep
#' the type of the `truth` column of `train` (factor levels included), ready
#' for [annotator_metrics()].
#'
#' @param train,test Data frames of training and test annotations, one label
#'   per row.
#' @param truth <[`tidy-select`][tidyselect::language]> The label column of
#'   `train` (single labels).
#' @param annotator <[`tidy-select`][tidyselect::language]> Annotator id
#'   column, present in both `train` and `test`; needed for
#'   `type = "individual"`, ignored for `"overall"`.
#' @param type `"overall"` or `"individual"`.
#' @inheritParams mla
#' @return `test` with a `.pred` column added.
#' @family annotator evaluation
#' @references
#' Deng, N., Zhang, X. F., Liu, S., Wu, W., Wang, L. and Mihalcea, R. (2023).
#' You Are What You Annotate: Towards Better Models through Annotator
#' Representations. Findings of EMNLP 2023. \doi{10.48550/arXiv.2305.14663}
#' @export
#' @examples
#' train <- data.frame(annotator = c("a", "a", "a", "b", "b"),
#'                     label = c("x", "y", "y", "x", "x"))
#' test <- data.frame(annotator = c("a", "b", "c"), label = c("y", "x", "y"))
#' majority_baseline(train, test, label, annotator, type = "overall")
#' pred <- majority_baseline(train, test, label, annotator, type = "individual")
#' pred
#' annotator_metrics(pred, label, .pred, annotator)
majority_baseline <- function(train, test, truth, annotator = NULL,
                              type = c("overall", "individual"), ...) {
  check_dots_empty0(...)
  type <- check_choice(type, c("overall", "individual"))
  check_data_frame(train)
  check_data_frame(test)
  ann_quo <- rlang::enquo(annotator)
  # the annotator column is checked against truth only where it is used
  roles <- list(truth = rlang::enquo(truth), annotator = if (type == "individual") ann_quo)
  truth_col <- train[[select_roles(train, roles, data_arg = "train")$truth]]
  check_nonempty_rows(train)
  check_label_column(truth_col, "truth")
  if (anyNA(truth_col)) {
    rows <- which(is.na(truth_col))
    mla_abort(
      c("{.arg truth} must not contain missing labels in {.arg train}.",
        "x" = "{length(rows)} {.code NA} label{?s}, at row{?s} {format_first(rows)}."),
      class = "missing_label"
    )
  }
  if (".pred" %in% names(test)) {
    mla_abort(
      c("{.arg test} already has a {.field .pred} column.",
        "i" = "Rename or drop it first; it is never overwritten."),
      class = "column"
    )
  }
  labels <- id_text(truth_col)
  overall <- majority_row(labels, seq_along(labels))
  pick <- rep(overall, nrow(test))
  if (type == "individual") {
    if (rlang::quo_is_null(ann_quo)) {
      mla_abort(
        c("{.arg annotator} must be given for {.code type = \"individual\"}.",
          "i" = "Name the annotator id column present in {.arg train} and {.arg test}."),
        class = "column"
      )
    }
    tr_ann <- select_column(ann_quo, train, "annotator", "train")
    te_ann <- select_column(ann_quo, test, "annotator", "test")
    tr <- encode_ids(tr_ann, "annotator", data_arg = "train")
    encode_ids(te_ann, "annotator", data_arg = "test")
    rows <- split(seq_along(tr$codes), factor(tr$codes, levels = seq_along(tr$keys)))
    best <- vapply(rows, function(r) majority_row(labels, r), integer(1))
    idx <- match_fitted_ids(te_ann, tr$keys, "annotator id", "test", "train",  # R/fitted-ids.R
                            "the overall majority label", labels[overall])
    pick[!is.na(idx)] <- best[idx[!is.na(idx)]]
  }
  test$.pred <- truth_col[pick]
  test
}

# Row (of `rows`) holding the most frequent label; ties by first appearance.
majority_row <- function(labels, rows) {
  v <- labels[rows]
  u <- unique(v)
  counts <- tabulate(match(v, u), nbins = length(u))
  rows[match(u[which.max(counts)], v)]
}

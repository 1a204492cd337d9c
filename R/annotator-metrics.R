#' Exact-match accuracy and macro F1 per annotator
#'
#' Scores predictions of annotator-specific labels the way the TID-8
#' benchmark does (Deng et al. 2023): every annotation is its own example,
#' and the primary metric is exact-match accuracy, with macro F1 next to it.
#' One row covers all annotations (`annotator = "(all)"`); with `annotator`,
#' each annotator also gets a row computed on their own annotations.
#' Cost: one pass over the rows for the overall row and one over each
#' annotator's rows.
#'
#' The recipe is the benchmark's, applied to each set of rows:
#' * accuracy is the share of rows where `estimate` equals `truth`;
#' * the classes are the sorted distinct gold labels (`truth`) of those rows;
#'   a predicted label that never occurs in `truth` is not a class of its
#'   own: it counts as a false negative for the row's gold class only;
#' * per class, precision is \eqn{tp / (tp + fp)} and recall
#'   \eqn{tp / (tp + fn)}, each 0 when its denominator is 0; F1 is
#'   \eqn{2pr / (p + r)}, 0 when \eqn{p + r = 0};
#' * macro F1 is the unweighted mean of F1 over the classes.
#'
#' @section Which classes macro F1 averages over:
#' Conventions differ, and on sparse per-annotator data they give different
#' numbers, so `classes` chooses:
#' * `"truth"` (default): the sorted distinct gold labels of the rows, as the
#'   benchmark's scoring recipe states it.
#' * `"union"`: the distinct labels of `truth` and `estimate` together. This
#'   is what scikit-learn's `f1_score(average = "macro")` does, and the
#'   published TID-8 tables were computed with it: use `"union"` to
#'   reproduce them. A predicted label absent from the gold labels is then a
#'   class with F1 0.
#' * `"levels"`: the declared levels of `truth` (and of `estimate`, when it
#'   is a factor too), so classes no row uses still count with F1 0 (as
#'   scikit-learn's `labels =` argument does).
#'
#' For HS-Brexit, MD-Agreement, Friends QIA and Sentiment, TID-8 uses the
#' sources' own train/dev/test split as its annotation split (every
#' annotator appears in train and test); [annotation_split()] draws such a
#' split for data that come without one.
#'
#' Labels may be character, factor, integer, double or logical. `truth` and
#' `estimate` are compared by value: numbers of different storage types
#' (`1e5` and `100000L`) are the same label, and a factor and a character
#' vector with the same labels compare as expected. A logical label is not a
#' number: `TRUE` is not the label `1`. When no value of `estimate` equals a
#' value of `truth` (such as 0/1 gold labels against `TRUE`/`FALSE`
#' predictions), every row scores as wrong and a warning of class
#' `mlagreement_warning_no_common_labels` names a few values of each.
#'
#' Multi-label annotations (list-columns of label sets) are refused: the
#' recipe's class-wise F1 is defined for one label per row, and the two
#' common multi-label readings (per-label F1 averaged over labels, or each
#' distinct label set as a class) give different numbers. For the second,
#' collapse each set to a string first, e.g.
#' `vapply(sets, function(s) paste(sort(s), collapse = "+"), "")`.
#' Missing `truth` or `estimate` values are an error naming the rows, never
#' dropped.
#'
#' @param data A data frame, one row per annotation.
#' @param truth,estimate <[`tidy-select`][tidyselect::language]> One column
#'   each: the annotator's label (gold) and the predicted label.
#' @param annotator <[`tidy-select`][tidyselect::language]> Optional column of
#'   annotator ids; adds one row per annotator.
#' @param classes Which classes macro F1 averages over: `"truth"` (the
#'   recipe), `"union"` (scikit-learn's default) or `"levels"` (declared
#'   factor levels). See the section below.
#' @inheritParams mla
#' @return A tibble with columns `annotator` (character; `"(all)"` for all
#'   rows, then the annotators in sorted order, or factor-level order),
#'   `n` (annotations), `accuracy` and `macro_f1`.
#' @family annotator evaluation
#' @references
#' Deng, N., Zhang, X. F., Liu, S., Wu, W., Wang, L. and Mihalcea, R. (2023).
#' You Are What You Annotate: Towards Better Models through Annotator
#' Representations. Findings of EMNLP 2023. \doi{10.48550/arXiv.2305.14663}
#' @export
#' @examples
#' preds <- data.frame(
#'   annotator = c("a", "a", "a", "b", "b", "b"),
#'   label = c("pos", "neg", "pos", "neg", "neg", "pos"),
#'   .pred = c("pos", "pos", "pos", "neg", "pos", "pos")
#' )
#' annotator_metrics(preds, label, .pred)
#' annotator_metrics(preds, label, .pred, annotator)
#' annotator_metrics(preds, label, .pred, annotator, classes = "union")
annotator_metrics <- function(data, truth, estimate, annotator = NULL,
                              classes = c("truth", "union", "levels"), ...) {
  check_dots_empty0(...)
  check_data_frame(data)
  classes <- check_choice(classes, c("truth", "union", "levels"))
  pos <- select_roles(data, list(truth = rlang::enquo(truth), estimate = rlang::enquo(estimate),
                                 annotator = rlang::enquo(annotator)))
  truth_col <- data[[pos$truth]]
  est_col <- data[[pos$estimate]]
  ann_col <- if (!is.null(pos$annotator)) data[[pos$annotator]]
  check_nonempty_rows(data)
  check_label_column(truth_col, "truth")
  check_label_column(est_col, "estimate")
  check_no_missing_labels(truth_col, est_col)
  truth_chr <- id_text(truth_col)
  est_chr <- id_text(est_col)
  warn_no_common_labels(truth_chr, est_chr, truth_col, est_col)
  declared <- if (classes == "levels") declared_classes(truth_col, est_col)

  overall <- class_metrics(truth_chr, est_chr, classes, declared)
  out <- tibble::tibble(annotator = "(all)", n = nrow(data),
                        accuracy = overall[["accuracy"]], macro_f1 = overall[["macro_f1"]])
  if (is.null(ann_col)) return(out)

  an <- encode_ids(ann_col, "annotator")
  keys <- id_text(an$keys)
  check_reserved_annotator_ids(keys, "data")
  rows <- split(seq_along(an$codes), factor(an$codes, levels = seq_along(keys)))
  per <- vapply(rows, function(r) class_metrics(truth_chr[r], est_chr[r], classes, declared),
                numeric(2))
  tibble::tibble(
    annotator = c("(all)", keys),
    n = c(nrow(data), lengths(rows, use.names = FALSE)),
    accuracy = c(out$accuracy, unname(per["accuracy", ])),
    macro_f1 = c(out$macro_f1, unname(per["macro_f1", ]))
  )
}

# "(all)" names the row that pools every annotator (here and in
# model_agreement()), so no annotator of `arg` may carry it.
check_reserved_annotator_ids <- function(ids, arg, call = rlang::caller_env()) {
  if (!"(all)" %in% ids) return(invisible())
  mla_abort(
    c("Annotator ids of {.arg {arg}} must not be {.val (all)}.",
      "x" = "{.val (all)} names the row that pools every annotator."),
    class = "reserved_id", call = call
  )
}

# Labels compare by their text, so 0/1 gold labels never equal TRUE/FALSE
# predictions: no estimate equal to any truth value is most likely such a
# mismatch of types or codings, and scores every row wrong.
warn_no_common_labels <- function(truth, estimate, truth_col, est_col, call = rlang::caller_env()) {
  t_vals <- unique(truth)
  e_vals <- unique(estimate)
  if (any(e_vals %in% t_vals)) return(invisible())
  t_shown <- utils::head(t_vals, 3L)
  e_shown <- utils::head(e_vals, 3L)
  t_more <- if (length(t_vals) > 3L) paste0(" and ", length(t_vals) - 3L, " more") else ""
  e_more <- if (length(e_vals) > 3L) paste0(" and ", length(e_vals) - 3L, " more") else ""
  mla_warn(
    c("No value of {.arg estimate} equals a value of {.arg truth}: every row counts as wrong.",
      "x" = "{.arg truth} ({.obj_type_friendly {truth_col}}) has {.val {t_shown}}{t_more}; {.arg estimate} ({.obj_type_friendly {est_col}}) has {.val {e_shown}}{e_more}.",
      "i" = "Logical labels never equal numbers: give both columns one coding (e.g. 0/1 in both, not 0/1 and TRUE/FALSE)."),
    class = "no_common_labels", call = call
  )
}

# Exact match and macro F1 on label keys; `convention` picks the classes.
class_metrics <- function(truth, estimate, convention = "truth", declared = NULL) {
  classes <- switch(convention,
    truth = sort(unique(truth)),
    union = sort(unique(c(truth, estimate))),
    levels = declared
  )
  t_idx <- match(truth, classes)
  e_idx <- match(estimate, classes)
  n_cls <- length(classes)
  hit <- !is.na(e_idx) & t_idx == e_idx
  tp <- tabulate(t_idx[hit], nbins = n_cls)
  predicted <- tabulate(e_idx[!is.na(e_idx)], nbins = n_cls)  # tp + fp
  gold <- tabulate(t_idx, nbins = n_cls)                      # tp + fn
  precision <- ifelse(predicted > 0, tp / pmax(predicted, 1), 0)
  recall <- ifelse(gold > 0, tp / pmax(gold, 1), 0)
  f1 <- ifelse(precision + recall > 0,
               2 * precision * recall / pmax(precision + recall, .Machine$double.xmin), 0)
  c(accuracy = sum(truth == estimate) / length(truth), macro_f1 = sum(f1) / n_cls)
}

# Declared classes for classes = "levels": factor levels of truth and
# estimate, in declared order.
declared_classes <- function(truth, estimate, call = rlang::caller_env()) {
  if (!is.factor(truth)) {
    mla_abort(
      c("{.arg truth} must be a factor when {.code classes = \"levels\"}.",
        "x" = "It is {.obj_type_friendly {truth}}.",
        "i" = "Declare the classes with {.code factor(truth, levels = ...)}."),
      class = "classes", call = call
    )
  }
  unique(c(levels(truth), if (is.factor(estimate)) levels(estimate)))
}


#' Exact-match accuracy and macro F1 per annotator
#'
#' Scores predictions of annotator-specific labels the way the TID-8
#' benchmark does (Deng et al. 2023): every annotation is its own example,
#' and the primary metric is exact-match accuracy, with macro F1 next to it.
#' One row covers all annotations (`annotator = "(all)"`); with `annotator`,
#' each annotator also gets a row computed on their own annotations.
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
#' Labels may be character, factor, integer, double or logical; `truth` and
#' `estimate` are compared by their printed values (`as.character()`), so a
#' factor and a character vector with the same labels compare as expected.
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
#' @param ... Must be empty.
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
annotator_metrics <- function(data, truth, estimate, annotator = NULL, ...) {
  check_dots_empty0(...)
  check_data_frame(data)
  truth_col <- data[[select_columns(rlang::enquo(truth), data, "truth", one = TRUE)]]
  est_col <- data[[select_columns(rlang::enquo(estimate), data, "estimate", one = TRUE)]]
  ann_quo <- rlang::enquo(annotator)
  ann_col <- if (!rlang::quo_is_null(ann_quo)) {
    data[[select_columns(ann_quo, data, "annotator", one = TRUE)]]
  }
  check_nonempty_rows(data)
  check_label_column(truth_col, "truth")
  check_label_column(est_col, "estimate")
  check_no_missing_labels(truth_col, est_col)
  truth_chr <- as.character(truth_col)
  est_chr <- as.character(est_col)

  overall <- class_metrics(truth_chr, est_chr)
  out <- tibble::tibble(annotator = "(all)", n = nrow(data),
                        accuracy = overall[["accuracy"]], macro_f1 = overall[["macro_f1"]])
  if (is.null(ann_col)) return(out)

  an <- encode_ids(ann_col, "annotator")
  keys <- as.character(an$keys)
  if ("(all)" %in% keys) {
    mla_abort(
      c("Annotator ids must not be {.val (all)}.",
        "x" = "{.val (all)} names the row for all annotations."),
      class = "reserved_id"
    )
  }
  rows <- split(seq_along(an$codes), factor(an$codes, levels = seq_along(keys)))
  per <- vapply(rows, function(r) class_metrics(truth_chr[r], est_chr[r]), numeric(2))
  tibble::tibble(
    annotator = c("(all)", keys),
    n = c(nrow(data), lengths(rows, use.names = FALSE)),
    accuracy = c(out$accuracy, unname(per["accuracy", ])),
    macro_f1 = c(out$macro_f1, unname(per["macro_f1", ]))
  )
}

# Exact match and macro F1 of the TID-8 recipe on character labels.
class_metrics <- function(truth, estimate) {
  classes <- sort(unique(truth))
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

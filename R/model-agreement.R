#' A model's agreement with annotators, next to theirs with each other
#'
#' Treats a model as one more annotator and asks whether it agrees with the
#' people as much as the people agree with each other. For every annotator,
#' the model's agreement with that annotator (on the annotator's items that
#' have a prediction) sits next to the annotator's agreement with the other
#' annotators, from [annotator_agreement()].
#'
#' Predictions come either per item (one label vector per item, compared
#' with every annotator of the item) or per (item, annotator), as models of
#' annotator-specific labels produce them (TID-8, Deng et al. 2023); then
#' annotator \eqn{a} is compared with the predictions made for \eqn{a}.
#'
#' The statistics are those of [annotator_agreement()], for the pair
#' (annotator, model): `observed` is the Hamming agreement over the decisions
#' both made, `estimate` the pooled-marginal Multi-Label Agreement of the pair
#' on their shared items (label prevalences pooled from the annotator's and
#' the model's decisions). Rows `comparison = "annotators"` summarise the
#' annotator's pairs with the other annotators (`observed` pooled over those
#' pairs' decisions, `estimate` the mean pair coefficient weighted by shared
#' items), on all items of `x`. The `"(all)"` rows pool every
#' model-annotator pair, and every pair of annotators, the same way.
#' Annotations without a prediction are not compared; `n_decisions` shows
#' how many decisions each value rests on.
#'
#' @param x An `annotations` object, or anything [as_annotations()] takes:
#'   the human annotations.
#' @param predictions A data frame of model predictions.
#' @param item <[`tidy-select`][tidyselect::language]> Item id column of
#'   `predictions` (ids as in `x`).
#' @param annotator <[`tidy-select`][tidyselect::language]> Optional annotator
#'   id column of `predictions`, for annotator-specific predictions.
#' @param labels <[`tidy-select`][tidyselect::language]> Either one column of
#'   predicted labels (single-label: character, factor or integer codes from
#'   the labels of `x`), or one 0/1 column per label of `x`, named as the
#'   labels (multi-label).
#' @param ... Must be empty.
#' @return A tibble with columns `annotator` (`"(all)"` first), `comparison`
#'   (`"model"` or `"annotators"`), `n_decisions`, `observed` and `estimate`.
#' @family annotator evaluation
#' @references
#' Deng, N., Zhang, X. F., Liu, S., Wu, W., Wang, L. and Mihalcea, R. (2023).
#' You Are What You Annotate: Towards Better Models through Annotator
#' Representations. Findings of EMNLP 2023. \doi{10.48550/arXiv.2305.14663}
#' @export
#' @examples
#' ann <- annotations_long(bias_example, item, annotator, label, value)
#' # a "model" that predicts L01 and L03 for every sentence
#' preds <- data.frame(item = rep(1:4, each = 2), label = rep(c("L01", "L03"), 4))
#' wide <- as.data.frame.matrix(table(preds$item, factor(preds$label, levels = ann$labels)))
#' wide$item <- 1:4
#' model_agreement(ann, wide, item, labels = -item)
model_agreement <- function(x, predictions, item, annotator = NULL, labels, ...) {
  check_dots_empty0(...)
  x <- as_annotations(x)
  check_data_frame(predictions)
  item_col <- select_column(rlang::enquo(item), predictions, "item", "predictions")
  ann_quo <- rlang::enquo(annotator)
  per_annotator <- !rlang::quo_is_null(ann_quo)
  ann_col <- if (per_annotator) {
    select_column(ann_quo, predictions, "annotator", "predictions")
  }
  label_pos <- select_columns(rlang::enquo(labels), predictions, "labels", "predictions")
  check_nonempty_rows(predictions)
  pred_values <- prediction_matrix(predictions, label_pos, x$labels, item_col)
  pi <- match_ids(item_col, x$items, "item")
  pa <- if (per_annotator) match_ids(ann_col, x$annotators, "annotator")
  n_ann <- length(x$annotators)
  key <- if (per_annotator) (pi - 1) * n_ann + pa else pi
  dup <- duplicated(key)
  if (any(dup)) {
    what <- if (per_annotator) "(item, annotator) pair" else "item"
    mla_abort(
      c("{.arg predictions} must have one row per {what}.",
        "x" = "{sum(dup)} repeated row{?s}, first at row {which(dup)[1]}."),
      class = "duplicates"
    )
  }
  rec_item <- record_item(x)
  rec_ann <- record_annotator(x)
  rec_key <- if (per_annotator) (rec_item - 1) * n_ann + rec_ann else rec_item
  pred_row <- match(rec_key, key)
  has <- !is.na(pred_row)
  n_rec <- length(rec_item)
  # each record is its own item, shared with its prediction (annotator n_ann + 1)
  values <- rbind(record_values(x), pred_values[pred_row[has], , drop = FALSE])
  sums <- pair_sums_cpp(record_view(values, length(x$labels),
                                    c(seq_len(n_rec), which(has)) - 1L, n_rec,
                                    c(rec_ann, rep(n_ann + 1L, sum(has))) - 1L, n_ann + 1L))
  model_idx <- sums$a + 1L
  ids <- as.character(x$annotators)

  model <- tibble::tibble(
    annotator = ids,
    comparison = "model",
    n_decisions = 0L,
    observed = NA_real_,
    estimate = NA_real_
  )
  model$n_decisions[model_idx] <- as.integer(sums$n_decisions)
  model$observed[model_idx] <- sums$observed
  model$estimate[model_idx] <- sums$estimate

  hs <- annotation_pair_sums(x)
  humans <- tibble::tibble(
    annotator = ids,
    comparison = "annotators",
    n_decisions = as.integer(hs$ann_joint),
    observed = hs$ann_observed,
    estimate = hs$ann_estimate
  )
  all_rows <- tibble::tibble(
    annotator = "(all)",
    comparison = c("model", "annotators"),
    n_decisions = c(sum(as.integer(sums$n_decisions)), sum(as.integer(hs$n_decisions))),
    observed = c(sums$pooled_observed, hs$pooled_observed),
    estimate = c(sums$pooled_estimate, hs$pooled_estimate)
  )
  per <- rbind(model, humans)
  per <- per[order(match(per$annotator, ids), per$comparison == "annotators"), ]
  rbind(all_rows, per)
}

# Predictions as a records x labels 0/1 integer matrix over the labels of x.
prediction_matrix <- function(predictions, label_pos, labels, item_col,
                              call = rlang::caller_env()) {
  wide <- length(label_pos) > 1L || (length(labels) == 1L && names(label_pos) == labels)
  if (!wide) {
    v <- predictions[[label_pos]]
    check_label_column(v, names(label_pos), call = call)
    if (anyNA(v)) {
      rows <- which(is.na(v))
      mla_abort(
        c("Column {.arg {names(label_pos)}} of {.arg predictions} must not be {.code NA}.",
          "x" = "{length(rows)} missing prediction{?s}, at row{?s} {format_first(rows)}."),
        class = "missing_label", call = call
      )
    }
    idx <- match(as.character(v), labels)
    if (anyNA(idx)) {
      bad <- unique(as.character(v)[is.na(idx)])
      mla_abort(
        c("Every predicted label must be a label of {.arg x}.",
          "x" = "Unknown label{?s}: {.val {utils::head(bad, 5)}}.",
          "i" = "First at row {which(is.na(idx))[1]}; labels of {.arg x}: {format_first(labels)}."),
        class = "unknown_label", call = call
      )
    }
    out <- matrix(0L, length(v), length(labels))
    out[cbind(seq_along(v), idx)] <- 1L
    return(out)
  }
  cols <- names(label_pos)
  if (!setequal(cols, labels)) {
    mla_abort(
      c("The label columns of {.arg predictions} must be the labels of {.arg x}.",
        "x" = if (length(setdiff(labels, cols))) "Missing: {format_first(setdiff(labels, cols))}.",
        "x" = if (length(setdiff(cols, labels))) "Not labels of {.arg x}: {format_first(setdiff(cols, labels))}."),
      class = "unknown_label", call = call
    )
  }
  out <- matrix(0L, nrow(predictions), length(labels))
  for (j in seq_along(labels)) {
    v <- predictions[[labels[j]]]
    v <- binary_values(v, labels[j], function(r) paste0("item ", item_col[r]), call = call)
    if (anyNA(v)) {
      rows <- which(is.na(v))
      mla_abort(
        c("Column {.arg {labels[j]}} of {.arg predictions} must not be {.code NA}.",
          "x" = "{length(rows)} missing prediction{?s}, at row{?s} {format_first(rows)}."),
        class = "missing_label", call = call
      )
    }
    out[, j] <- as.integer(v)
  }
  out
}

# Positions of prediction ids among the ids of x; unknown ids are an error.
match_ids <- function(v, keys, what, call = rlang::caller_env()) {
  if (anyNA(v)) {
    rows <- which(is.na(v))
    mla_abort(
      c("Column {.arg {what}} of {.arg predictions} must not contain {.code NA}.",
        "x" = "{length(rows)} {.code NA} id{?s}, at row{?s} {format_first(rows)}."),
      class = "na_id", call = call
    )
  }
  idx <- match(as.character(v), as.character(keys))
  if (anyNA(idx)) {
    bad <- unique(as.character(v)[is.na(idx)])
    mla_abort(
      c("Every {what} in {.arg predictions} must be an {what} of {.arg x}.",
        "x" = "{length(bad)} unknown {what}{?s}: {format_first(bad)}; first at row {which(is.na(idx))[1]}."),
      class = "unknown_id", call = call
    )
  }
  idx
}

#' A model's agreement with annotators, next to theirs with each other
#'
#' Asks whether a model could stand in for the annotators: for every
#' annotator \eqn{a}, the model's predictions for \eqn{a}'s items are
#' compared with the other annotators of those items exactly as \eqn{a}'s
#' own labels are. Both rows of an annotator therefore estimate the same
#' quantity on the same items and against the same partners: a model that
#' copies an annotator's labels gets that annotator's coefficient, and a
#' model is never better than the humans by construction.
#' Cost: one match of the prediction rows to the records, then the
#' annotator-pair pass of [annotator_agreement()] over the records and two
#' copies of the predicted ones.
#'
#' Predictions come either per item (one label vector per item, standing in
#' for every annotator of the item) or per (item, annotator), as models of
#' annotator-specific labels produce them (TID-8, Deng et al. 2023); then the
#' prediction made for \eqn{a} stands in for \eqn{a}.
#'
#' For annotator \eqn{a}, on the items where \eqn{a} has a prediction:
#' * `comparison = "model"`: the predictions against every other annotator
#'   \eqn{b \ne a} of those items;
#' * `comparison = "annotators"`: \eqn{a}'s labels against the same
#'   annotators on the same items.
#'
#' `observed` is the Hamming agreement over the decisions compared
#' (`n_decisions` of them), and `estimate` the agreement against the corpus
#' baseline, \eqn{1 - (1 - \mathrm{observed}) / (1 - A_e)} with \eqn{A_e}
#' the pooled-marginal chance agreement of [mla()] on the human annotations,
#' as in [annotator_agreement()]. The `"(all)"` rows pool every annotator's
#' comparisons; an annotator of `x` may therefore not have the id `"(all)"`
#' (an error of class `mlagreement_error_reserved_id`). Annotations without
#' a prediction are not compared. Prediction rows that compare nothing are
#' counted, by reason, in one message of class
#' `mlagreement_message_unmatched_predictions`: an (item, annotator) pair
#' that is not a record of `x`, a record or item without a decision in `x`,
#' or an item no other annotator of `x` decided. When no row matches a
#' record with a decision, `x` most likely is not the data the predictions
#' are for (e.g. the training split, with predictions for the test split).
#'
#' On a single-label design (`single_label = TRUE`), `observed` is on the
#' category scale of [mla()]'s \eqn{A_o}: the share of comparisons (one
#' record against another) that choose the same category, and `n_decisions`
#' counts these comparisons. `estimate` is the same on either scale, with
#' \eqn{A_e} Fleiss' chance agreement \eqn{\sum_k p_k^2}.
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
#' @inheritParams mla
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
  check_reserved_annotator_ids(id_text(x$annotators), "x")  # R/annotator-metrics.R
  check_data_frame(predictions)
  pos <- select_roles(predictions, list(item = rlang::enquo(item), annotator = rlang::enquo(annotator),
                                        labels = rlang::enquo(labels)),
                      several = "labels", data_arg = "predictions")
  item_col <- predictions[[pos$item]]
  ann_col <- if (!is.null(pos$annotator)) predictions[[pos$annotator]]
  label_pos <- pos$labels
  check_nonempty_rows(predictions)
  pred_values <- prediction_matrix(predictions, label_pos, label_names(x), item_col)
  decided <- record_has_decision(x)  # R/annotation-generics.R
  stand_in_rows(x, pred_values, prediction_row_of_records(x, item_col, ann_col, decided), decided)
}

# Each record's row of `predictions` (NA where it has none): by item, or by
# (item, annotator) pair when `ann_col` is given; a repeated key is refused.
prediction_row_of_records <- function(x, item_col, ann_col, decided, call = rlang::caller_env()) {
  n_ann <- length(x$annotators)
  item_idx <- match_ids(item_col, item_ids(x), "item", call = call)
  key <- item_idx
  rec_key <- record_item(x)
  if (!is.null(ann_col)) {
    key <- (key - 1) * n_ann + match_ids(ann_col, x$annotators, "annotator", call = call)
    rec_key <- (rec_key - 1) * n_ann + record_annotator(x)
  }
  dup <- which(duplicated(key))
  if (length(dup) > 0L) {
    r <- dup[1]
    what <- if (is.null(ann_col)) "item" else "(item, annotator) pair"
    shown <- if (is.null(ann_col)) id_text(item_col[r]) else paste0("(", id_text(item_col[r]), ", ", id_text(ann_col[r]), ")")
    mla_abort(c("{.arg predictions} must have one row per {what}.",
                "x" = "Row {r} repeats {what} {.val {shown}}; {length(dup)} repeated row{?s} in all."),
              class = "duplicates", call = call)
  }
  inform_uncompared_predictions(x, key, rec_key, decided, item_idx, item_col, ann_col)
  match(rec_key, key)
}

# Prediction rows that compare nothing, counted by reason in one message: a
# prediction for a record `x` does not hold (a test split's, with `x` the
# training split) would otherwise vanish from the result.
inform_uncompared_predictions <- function(x, key, rec_key, decided, item_idx, item_col, ann_col) {
  no_record <- is.na(match(key, rec_key))
  no_decision <- !no_record & is.na(match(key, rec_key[decided]))
  if (is.null(ann_col)) {  # per item: no record and no decision are one reason
    no_decision <- no_decision | no_record
    no_record <- rep(FALSE, length(key))
  }
  # the other annotators of the item: none with a decision, nothing to compare
  alone <- !no_record & !no_decision & item_annotator_counts(x)[item_idx] < 2L
  skipped <- which(no_record | no_decision | alone)
  if (length(skipped) == 0L) return(invisible())
  n <- length(skipped)
  n_rows <- length(key)
  n_record <- sum(no_record)
  n_decision <- sum(no_decision)
  n_alone <- sum(alone)
  shown <- if (is.null(ann_col)) id_text(item_col[utils::head(skipped, 3L)]) else
    paste0("(", id_text(item_col[utils::head(skipped, 3L)]), ", ", id_text(ann_col[utils::head(skipped, 3L)]), ")")
  none <- n_record + n_decision == n_rows
  whose <- if (is.null(ann_col)) "whose item has" else "whose record has"
  cli::cli_inform(
    c(stats::setNames(paste0("{n} of {n_rows} row{?s} of {.arg predictions} {cli::qty(n)}{?was/were} ",
                             "not compared (first: {.val {shown}}):"), if (none) "!" else "i"),
      "*" = if (n_record > 0) "{n_record} with no record of {.arg x} for {cli::qty(n_record)}{?its/their} (item, annotator) pair",
      "*" = if (n_decision > 0) paste0("{n_decision} ", whose, " no decision in {.arg x}"),
      "*" = if (n_alone > 0) "{n_alone} on items that no other annotator of {.arg x} decided",
      "i" = if (none) paste0("This is likely a split or id mismatch: {.arg x} must hold the annotations ",
                             "the predictions are for, with the other annotations of their items ",
                             "(for predictions on a test split, all annotations, not the training split).")),
    class = "mlagreement_message_unmatched_predictions"
  )
}

# For every annotator a, two stand-ins on a's records that have a
# prediction: the model (annotator n + a) and a copy of a's own labels
# (annotator 2n + a). Pairs of a stand-in with a human b != a are the
# comparisons of the model, and of a, with the others on the same items.
stand_in_rows <- function(x, pred_values, pred_row, decided) {
  n_ann <- n_annotators(x)
  rec_item <- record_item(x)
  rec_ann <- record_annotator(x)
  human <- record_values(x)
  has <- which(!is.na(pred_row) & decided)
  values <- rbind(human, pred_values[pred_row[has], , drop = FALSE], human[has, , drop = FALSE])
  view <- record_view(values, length(label_names(x)),
                      c(rec_item, rec_item[has], rec_item[has]) - 1L, n_items(x),
                      c(rec_ann, n_ann + rec_ann[has], 2L * n_ann + rec_ann[has]) - 1L, 3L * n_ann)
  sums <- pair_sums_checked(view)
  # a < b in the pair sums: a human (0-based < n_ann), b a stand-in
  stand_in <- sums$b - ifelse(sums$b >= 2L * n_ann, 2L * n_ann, n_ann)
  use <- sums$a < n_ann & sums$b >= n_ann & stand_in != sums$a
  kind <- ifelse(sums$b >= 2L * n_ann, "annotators", "model")
  w <- corpus_chance_disagreement(x)
  ids <- id_text(x$annotators)
  rows <- expand.grid(comparison = c("model", "annotators"), annotator = seq_len(n_ann),
                      stringsAsFactors = FALSE)
  agree <- decisions <- numeric(nrow(rows))
  for (r in seq_len(nrow(rows))) {
    sel <- use & stand_in + 1L == rows$annotator[r] & kind == rows$comparison[r]
    agree[r] <- sum(sums$agree[sel])
    decisions[r] <- sum(sums$n_decisions[sel])
  }
  all_agree <- c(sum(agree[rows$comparison == "model"]), sum(agree[rows$comparison == "annotators"]))
  all_dec <- c(sum(decisions[rows$comparison == "model"]),
               sum(decisions[rows$comparison == "annotators"]))
  observed <- ifelse(c(all_dec, decisions) > 0, c(all_agree, agree) / c(all_dec, decisions), NA_real_)
  on_category_scale(x, tibble::tibble(  # R/single-label.R
    annotator = c("(all)", "(all)", ids[rows$annotator]),
    comparison = c("model", "annotators", rows$comparison),
    n_decisions = as.integer(c(all_dec, decisions)),
    observed = observed,
    estimate = corpus_baseline_estimate(observed, 1, w, 1)
  ))
}

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
    idx <- match_values(v, labels)
    if (anyNA(idx)) {
      bad <- id_text(unique(v[is.na(idx)]))
      mla_abort(
        c("Every predicted label must be a label of {.arg x}.",
          "x" = "Unknown {cli::qty(length(bad))}label{?s}: {.val {utils::head(bad, 5)}}.",
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
  check_no_na_ids(v, what, "predictions", call = call)
  check_id_vector(v, what, call = call)
  idx <- match_values(v, keys)
  if (anyNA(idx)) {
    bad <- id_text(unique(v[is.na(idx)]))
    mla_abort(
      c("Every {what} in {.arg predictions} must be an {what} of {.arg x}.",
        "x" = "{length(bad)} unknown {what}{cli::qty(length(bad))}{?s}: {format_first(bad)}; first at row {which(is.na(idx))[1]}."),
      class = "unknown_id", call = call
    )
  }
  idx
}

#' Predict an annotator's label on an item from an annotator model
#'
#' The probability that annotator \eqn{a} gives label value (or category)
#' \eqn{y} on item \eqn{i} is \eqn{\sum_z P(z \mid \mathrm{data}_i)
#' \pi_a[z, y]}: the item's posterior from the fit, passed through the
#' annotator's own error rates. Items the fit has not seen (or without
#' decisions on a label) use the prevalence instead of a posterior; a
#' message of class `mlagreement_message_unseen_ids` says how many rows of
#' `newdata` have an item id the fit has not seen (when none is seen, the
#' ids most likely differ in type or whitespace). An
#' annotator without decisions on a label in the fit (without any, for
#' single-label data or `pool_labels = TRUE`) has no error rates there: the
#' prediction is `NA`. As a
#' baseline for per-annotator evaluation (TID-8, [annotator_metrics()]),
#' fit the model on the training annotations (e.g. [annotation_split()])
#' and predict the held-out ones: a fit that saw an annotation uses it.
#'
#' @param object An [annotator_model()] fit.
#' @param newdata A data frame with columns `item` and `annotator` (ids of
#'   the fit; an item the fit has not seen is allowed, a missing id is not)
#'   and, for multi-label data, optionally `label`.
#' @param type `"class"` (the most probable value: 0/1, or the category) or
#'   `"prob"` (probabilities).
#' @inheritParams mla
#' @return Single-label data: the predicted categories (a character
#'   vector), or with `type = "prob"` a matrix rows x categories.
#'   Multi-label data: with a `label` column one value per row; without, a
#'   matrix rows x labels (of 0/1 or of P(selected)).
#' @family annotator evaluation
#' @export
#' @examples
#' set.seed(3)
#' x <- simulate_annotations(100, 5, 3, prevalence = 0.4, scenario = "noisy", error = 0.1)
#' fit <- annotator_model(x)
#' predict(fit, data.frame(item = c("i001", "i002"), annotator = "a01", label = "L01"),
#'         type = "prob")
#' predict(fit, data.frame(item = "i003", annotator = c("a01", "a02")))
predict.mla_annotator_model <- function(object, newdata, type = c("class", "prob"), ...) {
  check_dots_empty0(...)
  type <- check_choice(type, c("class", "prob"))
  check_data_frame(newdata)
  ids <- prediction_ids(object, newdata)
  if (object$single_label) return(predict_categories(object, ids, type))
  if (is.null(ids$label)) {
    probs <- vapply(seq_along(object$labels), function(j) {
      predict_binary(object, ids$item, ids$annotator, rep(j, length(ids$item)))
    }, numeric(length(ids$item)))
    probs <- matrix(probs, ncol = length(object$labels), dimnames = list(NULL, object$labels))
  } else {
    probs <- predict_binary(object, ids$item, ids$annotator, ids$label)
  }
  if (type == "prob") probs else (probs >= 0.5) + 0L
}

# P(annotator says 1) on (item, label) index vectors; item NA: not in the fit.
predict_binary <- function(object, item, annotator, label) {
  prior <- object$prevalence[2, label]
  post <- rep(NA_real_, length(item))
  known <- !is.na(item)
  post[known] <- object$posterior[cbind(item[known], label[known])]
  post[is.na(post)] <- prior[is.na(post)]
  g <- if (object$pooled) 1L else label
  sens <- object$confusion[cbind(annotator, 2L, 2L, g)]
  fp <- object$confusion[cbind(annotator, 1L, 2L, g)]
  post * sens + (1 - post) * fp
}

predict_categories <- function(object, ids, type) {
  q <- length(object$labels)
  post <- matrix(object$prevalence[, 1], length(ids$item), q, byrow = TRUE)
  seen <- !is.na(ids$item) & object$item_n[pmax(ids$item, 1L), 1] > 0
  post[seen, ] <- object$posterior[ids$item[seen], , drop = FALSE]
  conf <- object$confusion[, , , 1]
  dim(conf) <- dim(object$confusion)[1:3]
  probs <- t(vapply(seq_along(ids$item), function(r) {
    as.vector(post[r, ] %*% conf[ids$annotator[r], , ])
  }, numeric(q)))
  dim(probs) <- c(length(ids$item), q)
  colnames(probs) <- object$labels
  if (type == "prob") return(probs)
  object$labels[max.col(probs, ties.method = "first")]
}

# Index vectors of newdata's items (NA when unseen), annotators and labels.
prediction_ids <- function(object, newdata, call = rlang::caller_env()) {
  needed <- c("item", "annotator")
  missing <- setdiff(needed, names(newdata))
  if (length(missing) > 0L) {
    mla_abort(c("{.arg newdata} must have columns {.val {needed}}.",
                "x" = "It has no {.val {missing}} column{?s}."), class = "newdata", call = call)
  }
  for (what in c(needed, if (!object$single_label) intersect("label", names(newdata)))) {
    check_no_na_ids(newdata[[what]], what, "newdata", call = call)
  }
  annotator <- match(id_text(newdata$annotator), object$annotators)
  if (anyNA(annotator)) {
    bad <- unique(id_text(newdata$annotator)[is.na(annotator)])
    mla_abort(c("Annotators in {.arg newdata} must be annotators of the fit.",
                "x" = "Unknown: {.val {format_first(bad)}}."), class = "newdata", call = call)
  }
  label <- NULL
  if ("label" %in% names(newdata) && !object$single_label) {
    label <- match(id_text(newdata$label), object$labels)
    if (anyNA(label)) {
      bad <- unique(id_text(newdata$label)[is.na(label)])
      mla_abort(c("Labels in {.arg newdata} must be labels of the fit.",
                  "x" = "Unknown: {.val {format_first(bad)}}."), class = "newdata", call = call)
    }
  }
  prior <- if (object$single_label) "the category prevalences" else "the label prevalences"
  item <- match_fitted_ids(newdata$item, object$items, "item id", "newdata", "object",  # R/fitted-ids.R
                           paste(prior, "instead of an item posterior"))
  list(item = item, annotator = annotator, label = label)
}

#' @export
print.mla_annotator_model <- function(x, ...) {
  cat(format(x, ...), sep = "\n")
  invisible(x)
}

#' @export
format.mla_annotator_model <- function(x, ...) {
  kind <- if (x$single_label) "multi-class (single-label)" else if (x$pooled) "pooled over labels" else "per label"
  status <- if (x$converged) "converged" else "did not converge"
  worst <- annotator_ranking(x)
  worst <- worst[seq_len(min(5L, nrow(worst))), , drop = FALSE]
  cli::cli_format_method({
    cli::cli_text("{.cls mla_annotator_model}: {x$model} Dawid-Skene model, {kind}")
    cli::cli_text("{format_count(length(x$items))} items, {format_count(length(x$annotators))} ",
                  "annotators, {length(x$labels)} label{?s}, {format_count(x$n_decisions)} decisions")
    cli::cli_text("EM {status} after {x$iterations} iteration{?s}; log-likelihood ",
                  "{format(x$trace[length(x$trace)], nsmall = 2)}")
    cli::cli_text("Lowest spammer scores |sensitivity + specificity - 1| (0 = spammer, 1 = perfect), ",
                  "mean over labels weighted by decisions:")
    for (r in seq_len(nrow(worst))) {
      cli::cli_text("  {worst$annotator[r]}: {format_fixed(worst$spammer_score[r], 3)} ",
                    "({format_count(worst$n[r])} decisions)")
    }
  })
}

# One score per annotator: the decision-weighted mean of the spammer score
# over labels (or categories), lowest first.
annotator_ranking <- function(x) {
  rows <- tidy(x, level = "annotators")
  rows <- rows[!is.na(rows$spammer_score), , drop = FALSE]
  w <- if (x$single_label) rep(1, nrow(rows)) else rows$n
  score <- tapply(rows$spammer_score * w, rows$annotator, sum) / tapply(w, rows$annotator, sum)
  n <- tapply(rows$n, rows$annotator, if (x$single_label) max else sum)
  out <- tibble::tibble(annotator = names(score), n = as.integer(n[names(score)]),
                        spammer_score = as.vector(score))
  out[order(out$spammer_score, out$annotator), , drop = FALSE]
}

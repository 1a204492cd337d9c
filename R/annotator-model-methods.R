#' Tidy, glance and augment an annotator model
#'
#' Tables of an [annotator_model()] fit.
#'
#' `tidy(level = "annotators")`: one row per annotator and label (one per
#' annotator with `pool_labels = TRUE`, label `"(pooled)"`; per category for
#' single-label data) with `n` (the annotator's decisions there; for
#' single-label data a decision is one record's category choice, so `n` is
#' the annotator's records, the same for every category),
#' `sensitivity`, `specificity` (under `"one-coin"` the sensitivity is the
#' accuracy, and so is the specificity for multi-label data; for
#' single-label data with \eqn{q} categories the specificity is
#' \eqn{1 - (1 - \mathrm{accuracy}) / (q - 1)}, see [annotator_model()]),
#' `spammer_score` \eqn{|\alpha + \beta - 1|} and their standard errors
#' (`*_se`, see [annotator_model()]); annotators without decisions on a
#' label have `NA` estimates. `conf.int = TRUE` adds `*_low` and `*_high`.
#' `level = "items"`: the posterior probability that each item's true value
#' is 1 (multi-label) or each category (single-label), with the item's
#' decisions `n`; `NA` for an item without decisions on that label.
#' `level = "labels"`: the prevalence of each label (or category) with its
#' standard error. `level = "confusion"`: every annotator's probability of
#' each `response` given each `truth` (0/1, or the categories); `NA` where
#' the annotator has no decisions on the label (no decisions at all, for
#' single-label data or `pool_labels = TRUE`).
#'
#' @param x An `mla_annotator_model` fit.
#' @param level The table: `"annotators"`, `"items"`, `"labels"` or
#'   `"confusion"`.
#' @param conf.int Add Wald intervals.
#' @param threshold `augment()`: the posterior probability from which a
#'   label is part of an item's posterior label set.
#' @inheritParams mla
#' @inheritParams tidy.mla
#' @return A tibble. `glance()`: one row with `model`, `pooled`, `logLik`,
#'   `df` (free parameters that enter the likelihood: not those of an
#'   annotator on a label without their decisions, nor the prevalence of a
#'   label nobody decided), `iterations`, `converged`, `n_items`,
#'   `n_annotators`, `n_labels`, `n_decisions` (counted as `n`:
#'   one per record for single-label data, one per record and label for
#'   multi-label data).
#'   `augment()`: one row per
#'   item with its decisions `.n` and the posterior labels: `.labels` (a
#'   list of the labels with posterior at least `threshold`) for
#'   multi-label data, `.class` and its `.probability` for single-label data.
#' @name tidy.mla_annotator_model
#' @export
#' @examples
#' set.seed(2)
#' x <- simulate_annotations(150, 5, 3, prevalence = 0.3, scenario = "noisy",
#'                           error = c(0.05, 0.1, 0.1, 0.2, 0.5))
#' fit <- annotator_model(x)
#' tidy(fit, conf.int = TRUE)
#' tidy(fit, level = "items")
#' augment(fit)
tidy.mla_annotator_model <- function(x, level = c("annotators", "items", "labels", "confusion"),
                                     conf.int = FALSE, conf.level = 0.95, ...) {
  check_dots_empty0(...)
  level <- check_choice(level, c("annotators", "items", "labels", "confusion"))
  check_bool(conf.int)
  check_conf_level(conf.level)
  switch(level,
    annotators = model_annotator_rows(x, conf.int, conf.level),
    items = model_item_rows(x),
    labels = model_label_rows(x, conf.int, conf.level),
    confusion = model_confusion_rows(x)
  )
}

model_annotator_rows <- function(x, conf.int, conf.level) {
  rows <- if (x$single_label) single_label_annotator_rows(x) else binary_annotator_rows(x)
  rows$spammer_score <- abs(rows$sensitivity + rows$specificity - 1)
  rows$spammer_score_se <- sqrt(rows$var_s + rows$var_p + 2 * rows$cov)
  rows$sensitivity_se <- sqrt(rows$var_s)
  rows$specificity_se <- sqrt(rows$var_p)
  out <- tibble::tibble(annotator = rows$annotator, label = rows$label, n = rows$n,
                        sensitivity = rows$sensitivity, sensitivity_se = rows$sensitivity_se,
                        specificity = rows$specificity, specificity_se = rows$specificity_se,
                        spammer_score = rows$spammer_score,
                        spammer_score_se = rows$spammer_score_se)
  if (!conf.int) return(out)
  z <- stats::qnorm(1 - (1 - conf.level) / 2)
  for (v in c("sensitivity", "specificity")) {
    ci <- logit_interval(out[[v]], out[[paste0(v, "_se")]], z)
    out[[paste0(v, "_low")]] <- ci$low
    out[[paste0(v, "_high")]] <- ci$high
  }
  out$spammer_score_low <- pmax(0, out$spammer_score - z * out$spammer_score_se)
  out$spammer_score_high <- pmin(1, out$spammer_score + z * out$spammer_score_se)
  out
}

# Wald interval for a probability on the logit scale.
logit_interval <- function(p, se, z) {
  half <- z * se / (p * (1 - p))
  list(low = stats::plogis(stats::qlogis(p) - half), high = stats::plogis(stats::qlogis(p) + half))
}

binary_annotator_rows <- function(x) {
  n_ann <- length(x$annotators)
  n_groups <- length(x$groups)
  n <- group_decisions(x$annotator_n, x$pooled)
  cov <- x$covariance$annotators
  if (is.null(cov)) cov <- array(NA_real_, c(n_ann, 3L, n_groups))
  has <- as.vector(n) > 0
  na_if_none <- function(v) ifelse(has, v, NA_real_)
  list(
    annotator = rep(x$annotators, n_groups), label = rep(x$groups, each = n_ann),
    n = as.integer(as.vector(n)),
    sensitivity = na_if_none(as.vector(x$confusion[, 2, 2, ])),
    specificity = na_if_none(as.vector(x$confusion[, 1, 1, ])),
    var_s = na_if_none(as.vector(cov[, 1, ])), var_p = na_if_none(as.vector(cov[, 2, ])),
    cov = na_if_none(as.vector(cov[, 3, ]))
  )
}

# Per category k: sensitivity pi[k, k], one-versus-rest specificity, and
# their (co)variances from single_label_covariance().
single_label_annotator_rows <- function(x) {
  q <- length(x$labels)
  n_ann <- length(x$annotators)
  p <- x$prevalence[, 1]
  conf <- x$confusion[, , , 1, drop = TRUE]
  if (n_ann == 1L) dim(conf) <- c(1L, q, q)
  sens <- vapply(seq_len(q), function(k) conf[, k, k], numeric(n_ann))
  spec <- vapply(seq_len(q), function(k) {
    rest <- setdiff(seq_len(q), k)
    as.vector((1 - matrix(conf[, rest, k], n_ann)) %*% p[rest]) / sum(p[rest])
  }, numeric(n_ann))
  n <- x$annotator_n[, 1]
  has <- rep(n > 0, q)
  na_if_none <- function(v) ifelse(has, as.vector(v), NA_real_)
  cov <- x$covariance$annotators  # [annotator, (var sens, var spec, cov), category]
  if (is.null(cov)) cov <- array(NA_real_, c(n_ann, 3L, q))
  list(annotator = rep(x$annotators, q), label = rep(x$labels, each = n_ann),
       n = as.integer(rep(n, q)), sensitivity = na_if_none(sens), specificity = na_if_none(spec),
       var_s = na_if_none(cov[, 1, ]), var_p = na_if_none(cov[, 2, ]), cov = na_if_none(cov[, 3, ]))
}

model_item_rows <- function(x) {
  n_items <- length(x$items)
  cols <- x$labels
  n <- if (x$single_label) rep(x$item_n[, 1], length(cols)) else as.vector(x$item_n)
  tibble::tibble(item = rep(x$items, length(cols)), label = rep(cols, each = n_items),
                 n = as.integer(n), posterior = as.vector(x$posterior))
}

model_label_rows <- function(x, conf.int, conf.level) {
  prev <- if (x$single_label) x$prevalence[, 1] else x$prevalence[2, ]
  se <- if (is.null(x$covariance)) rep(NA_real_, length(prev)) else sqrt(x$covariance$prevalence)
  n_items <- if (x$single_label) rep(sum(x$item_n[, 1] > 0), length(prev)) else colSums(x$item_n > 0)
  prev[n_items == 0] <- NA_real_  # a label nobody decided has no estimate
  out <- tibble::tibble(label = x$labels, n_items = as.integer(n_items),
                        prevalence = prev, std.error = se)
  if (!conf.int) return(out)
  ci <- logit_interval(prev, se, stats::qnorm(1 - (1 - conf.level) / 2))
  out$conf.low <- ci$low
  out$conf.high <- ci$high
  out
}

model_confusion_rows <- function(x) {
  q <- dim(x$confusion)[2]
  classes <- if (x$single_label) x$labels else c("0", "1")
  d <- dim(x$confusion)
  tibble::tibble(
    annotator = rep(x$annotators, times = q * q * d[4]),
    label = rep(x$groups, each = d[1] * q * q),
    truth = rep(rep(classes, each = d[1]), times = q * d[4]),
    response = rep(rep(classes, each = d[1] * q), times = d[4]),
    probability = as.vector(x$confusion)
  )
}

#' @rdname tidy.mla_annotator_model
#' @export
glance.mla_annotator_model <- function(x, ...) {
  check_dots_empty0(...)
  q <- nrow(x$prevalence)
  per_annotator <- if (x$model == "one-coin") 1L else q * (q - 1L)
  # only parameters that enter the likelihood: of annotators and labels with decisions
  df <- sum(group_decisions(x$annotator_n, x$pooled) > 0) * per_annotator +
    sum(colSums(x$item_n) > 0) * (q - 1L)
  tibble::tibble(
    model = x$model, pooled = x$pooled, logLik = x$trace[length(x$trace)], df = as.integer(df),
    iterations = x$iterations, converged = x$converged, n_items = length(x$items),
    n_annotators = length(x$annotators), n_labels = length(x$labels),
    n_decisions = x$n_decisions
  )
}

#' @rdname tidy.mla_annotator_model
#' @export
augment.mla_annotator_model <- function(x, threshold = 0.5, ...) {
  check_dots_empty0(...)
  threshold <- check_number_in(threshold)
  n <- as.integer(if (x$single_label) x$item_n[, 1] else rowSums(x$item_n))
  if (x$single_label) {
    best <- max.col(replace(x$posterior, is.na(x$posterior), -1), ties.method = "first")
    has <- n > 0
    return(tibble::tibble(
      item = x$items, .n = n, .class = ifelse(has, x$labels[best], NA_character_),
      .probability = ifelse(has, x$posterior[cbind(seq_along(best), best)], NA_real_)
    ))
  }
  chosen <- !is.na(x$posterior) & x$posterior >= threshold
  labels <- lapply(seq_along(x$items), function(i) x$labels[chosen[i, ]])
  tibble::tibble(item = x$items, .n = n, .labels = labels)
}

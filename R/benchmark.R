#' Benchmark agreement coefficients against a verbal scale
#'
#' Places each coefficient on the Landis-Koch, Fleiss or Altman scale with
#' Gwet's probabilistic method, which accounts for the coefficient's
#' standard error instead of reading the point estimate alone.
#' Cost: a truncated normal probability per coefficient and benchmark interval;
#' no data are read.
#'
#' For a coefficient \eqn{\hat\kappa} with standard error \eqn{s}, the
#' coefficient is taken to be normal, truncated to \eqn{[-1, 1]}; the
#' membership probability of the benchmark interval \eqn{(l, u]} is
#' \deqn{P(l, u) = \frac{\Phi((\hat\kappa - l)/s) - \Phi((\hat\kappa - u)/s)}
#'   {\Phi((\hat\kappa + 1)/s) - \Phi((\hat\kappa - 1)/s)}.}
#' The intervals are taken from the top of the scale down and their
#' probabilities added up; the benchmark reached is the first interval
#' whose cumulative probability is at least `conf.level` (Gwet 2014,
#' chapter 6). These are the numbers of irrCAC's `landis.koch.bf()`,
#' `fleiss.bf()` and `altman.bf()` (which print them rounded to 5
#' decimals).
#'
#' The scales (lower bound of each interval):
#' * `"landis-koch"`: Almost Perfect 0.8, Substantial 0.6, Moderate 0.4,
#'   Fair 0.2, Slight 0, Poor -1 (Landis and Koch 1977);
#' * `"fleiss"`: Excellent 0.75, Intermediate to Good 0.4, Poor -1
#'   (Fleiss 1981);
#' * `"altman"`: Very Good 0.8, Good 0.6, Moderate 0.4, Fair 0.2, Poor -1
#'   (Altman 1991).
#'
#' The standard errors are those `fit` reports: the analytic ones of
#' [tidy()][tidy.mla] with `conf.int = TRUE` (Gwet's linearisation) for an
#' [mla()] fit, the replicates' standard deviation for an [mla_boot()]
#' bootstrap (no bootstrap interval is computed), or a column `std.error` of
#' a data frame. Rows without a positive standard error (undefined
#' coefficients, perfect agreement) are left out, with a message saying how
#' many. An estimate outside \eqn{[-1, 1]}, where the scales are defined, is
#' an error.
#'
#' @param fit An [mla()] fit, an [mla_boot()] bootstrap, or a data frame
#'   with numeric columns `estimate` and `std.error` (one row per
#'   coefficient; its `term`, `label` and `baseline` columns, when present,
#'   name the rows).
#' @param scale `"landis-koch"` (default), `"fleiss"` or `"altman"`.
#' @param conf.level The cumulative probability a benchmark must reach.
#' @param level For a fit or bootstrap: `"corpus"` (default) or `"label"`
#'   coefficients.
#' @inheritParams mla
#' @return A tibble with one row per coefficient and benchmark interval:
#'   the coefficient's key columns (`term`, and `label`, `baseline` when
#'   `fit` has them), `estimate`, `std.error`, `scale`, `benchmark` (the
#'   interval's name), `lower`, `upper`, `probability` (membership
#'   probability), `cumulative` (cumulative probability from the top of the
#'   scale) and `reached` (`TRUE` on the one interval reached at
#'   `conf.level`).
#' @family clinical coefficients
#' @references
#' Gwet, K. L. (2014). Handbook of Inter-Rater Reliability (4th ed.),
#' chapter 6. Advanced Analytics.
#'
#' Landis, J. R. and Koch, G. G. (1977). The measurement of observer
#' agreement for categorical data. Biometrics, 33(1), 159-174.
#' \doi{10.2307/2529310}
#'
#' Fleiss, J. L. (1981). Statistical Methods for Rates and Proportions
#' (2nd ed.). Wiley.
#'
#' Altman, D. G. (1991). Practical Statistics for Medical Research.
#' Chapman and Hall.
#' @export
#' @examples
#' fit <- mla(annotations_long(bias_example, item, annotator, label, value))
#' bm <- mla_benchmark(fit)
#' bm[bm$reached, c("term", "estimate", "std.error", "benchmark", "cumulative")]
#' mla_benchmark(fit, scale = "fleiss", conf.level = 0.9)
#' # any estimate with a standard error
#' mla_benchmark(data.frame(term = "kappa", estimate = 0.68, std.error = 0.08))
mla_benchmark <- function(fit, scale = c("landis-koch", "fleiss", "altman"),
                          conf.level = 0.95, level = c("corpus", "label"), ...) {
  check_dots_empty0(...)
  scale <- check_choice(scale, c("landis-koch", "fleiss", "altman"))
  check_conf_level(conf.level)
  level <- check_choice(level, c("corpus", "label"))
  rows <- benchmark_rows(fit, level)
  rows <- usable_benchmark_rows(rows)
  bench <- benchmark_scale(scale)
  n_rows <- nrow(rows)
  n_int <- nrow(bench)
  est <- rep(rows$estimate, each = n_int)
  se <- rep(rows$std.error, each = n_int)
  lower <- rep(bench$lower, times = n_rows)
  upper <- rep(bench$upper, times = n_rows)
  truncation <- stats::pnorm((est + 1) / se) - stats::pnorm((est - 1) / se)
  prob <- (stats::pnorm((est - lower) / se) - stats::pnorm((est - upper) / se)) / truncation
  row_id <- rep(seq_len(n_rows), each = n_int)
  cumulative <- stats::ave(prob, row_id, FUN = cumsum)
  # the first interval from the top whose cumulative probability reaches the level
  first <- stats::ave(cumulative >= conf.level, row_id, FUN = function(r) {
    hit <- which(r)[1L]
    if (is.na(hit)) hit <- length(r)  # rounding below 1 on the last interval
    seq_along(r) == hit
  })
  keys <- rows[intersect(c("term", "label", "baseline"), names(rows))]
  keys <- keys[rep(seq_len(n_rows), each = n_int), , drop = FALSE]
  tibble::new_tibble(c(
    as.list(keys),
    list(estimate = est, std.error = se, scale = rep(scale, length(est)),
         benchmark = rep(bench$benchmark, times = n_rows), lower = lower, upper = upper,
         probability = prob, cumulative = cumulative, reached = as.logical(first))
  ), nrow = length(est))
}

# The scales, top interval first (irrCAC's landis.koch, fleiss, altman).
benchmark_scale <- function(scale) {
  switch(scale,
    "landis-koch" = data.frame(
      benchmark = c("Almost Perfect", "Substantial", "Moderate", "Fair", "Slight", "Poor"),
      lower = c(0.8, 0.6, 0.4, 0.2, 0, -1), upper = c(1, 0.8, 0.6, 0.4, 0.2, 0)
    ),
    "fleiss" = data.frame(
      benchmark = c("Excellent", "Intermediate to Good", "Poor"),
      lower = c(0.75, 0.4, -1), upper = c(1, 0.75, 0.4)
    ),
    "altman" = data.frame(
      benchmark = c("Very Good", "Good", "Moderate", "Fair", "Poor"),
      lower = c(0.8, 0.6, 0.4, 0.2, -1), upper = c(1, 0.8, 0.6, 0.4, 0.2)
    )
  )
}

# Coefficient rows with `estimate` and `std.error` from what `fit` is.
benchmark_rows <- function(fit, level, call = rlang::caller_env()) {
  UseMethod("benchmark_rows")
}
benchmark_rows.mla <- function(fit, level, call = rlang::caller_env()) {
  generics::tidy(fit, level = level, conf.int = TRUE)
}
benchmark_rows.mla_boot <- function(fit, level, call = rlang::caller_env()) {
  out <- generics::tidy(fit$fit, level = level, conf.int = FALSE)
  out$std.error <- boot_std_error(fit, which(fit$stats$level == level))  # R/boot-methods.R
  out
}
benchmark_rows.data.frame <- function(fit, level, call = rlang::caller_env()) {
  for (col in c("estimate", "std.error")) {
    if (!is.numeric(fit[[col]])) {
      mla_abort(
        c("{.arg fit} must have a numeric column {.field {col}}.",
          "x" = if (is.null(fit[[col]])) "It has no such column." else "It is {.obj_type_friendly {fit[[col]]}}.",
          "i" = "Columns: {.field {utils::head(names(fit), 10)}}."),
        class = "benchmark_input", call = call
      )
    }
  }
  if (is.null(fit$term)) fit$term <- as.character(seq_len(nrow(fit)))
  fit
}
benchmark_rows.default <- function(fit, level, call = rlang::caller_env()) {
  mla_abort(
    c("{.arg fit} must be an {.cls mla} fit, an {.cls mla_boot} bootstrap or a data frame with {.field estimate} and {.field std.error}.",
      "x" = "It is {.obj_type_friendly {fit}}."),
    class = "benchmark_input", call = call
  )
}

# Rows whose coefficient and standard error are defined; the others are
# reported. The scales and the truncation are defined on [-1, 1], so an
# estimate outside it is an error, not a benchmark.
usable_benchmark_rows <- function(rows, call = rlang::caller_env()) {
  outside <- which(is.finite(rows$estimate) & abs(rows$estimate) > 1 + 1e-9)
  if (length(outside)) {
    row <- outside[1]
    term <- rows$term[row]
    estimate <- rows$estimate[row]
    n_outside <- length(outside)
    mla_abort(
      c("{.arg fit} must have estimates between -1 and 1: the benchmark scales are defined on that range.",
        "x" = "Row {row} ({.val {term}}) has estimate {.val {estimate}}.",
        "i" = if (n_outside > 1) "{n_outside} rows are outside that range."),
      class = "benchmark_input", call = call
    )
  }
  ok <- is.finite(rows$estimate) & is.finite(rows$std.error) & rows$std.error > 0
  if (!any(ok)) {
    mla_abort(
      c("{.arg fit} must have a coefficient with a positive standard error.",
        "x" = "None of its {nrow(rows)} row{?s} has one."),
      class = "benchmark_input", call = call
    )
  }
  if (!all(ok)) {
    dropped <- rows$term[!ok]
    cli::cli_inform(c(
      "i" = "{sum(!ok)} of {nrow(rows)} coefficient row{?s} without a positive standard error left out: {.val {utils::head(dropped, 5)}}{if (length(dropped) > 5) ' ...' else ''}."
    ))
  }
  rows[ok, , drop = FALSE]
}

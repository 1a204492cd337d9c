#' Intraclass correlation coefficients for numeric ratings
#'
#' The six intraclass correlations of Shrout and Fleiss (1979) and McGraw
#' and Wong (1996) from the mean squares of the items x annotators ANOVA,
#' with their F tests and exact (one-way, consistency) or Satterthwaite
#' (agreement) intervals: the numbers of `irr::icc()` and `psych::ICC()`.
#'
#' With \eqn{n} items, \eqn{k} annotators and the mean squares for items
#' \eqn{MS_R}, annotators \eqn{MS_C}, residual \eqn{MS_E} and within items
#' \eqn{MS_W}:
#' * one-way (`ICC1`): \eqn{(MS_R - MS_W) / (MS_R + (k - 1) MS_W)};
#' * two-way agreement (`ICC2`, ICC(A,1)):
#'   \eqn{(MS_R - MS_E) / (MS_R + (k - 1) MS_E + k (MS_C - MS_E) / n)};
#' * two-way consistency (`ICC3`, ICC(C,1)):
#'   \eqn{(MS_R - MS_E) / (MS_R + (k - 1) MS_E)};
#' * `unit = "average"` (`ICC1k`, `ICC2k`, `ICC3k`): the reliability of
#'   the mean of the \eqn{k} ratings, \eqn{(MS_R - MS_W) / MS_R},
#'   \eqn{(MS_R - MS_E) / (MS_R + (MS_C - MS_E) / n)} and
#'   \eqn{(MS_R - MS_E) / MS_R}.
#'
#' `statistic` is the F statistic of \eqn{H_0: \rho = 0}
#' (\eqn{MS_R / MS_W} one-way, \eqn{MS_R / MS_E} two-way) with degrees of
#' freedom `df1`, `df2`. The interval of the two-way agreement coefficients
#' uses Satterthwaite's degrees of freedom computed from the single-rater
#' estimate, for both units (McGraw and Wong 1996; `psych::ICC()`); the
#' average-unit interval is then the Spearman-Brown transform of the
#' single-rater one. `irr::icc()` computes those degrees of freedom for
#' `unit = "average"` from the average-unit estimate, so its `ICC(A,k)`
#' interval differs slightly; every other number is the same.
#'
#' @section Ratings:
#' `x` is one of
#' * a numeric matrix or a data frame of numeric columns, items x
#'   annotators, `NA` for a missing rating (the layout of `irr::icc()`);
#' * a long data frame, one row per rating, with `item`, `annotator` and
#'   `value` columns;
#' * a single-label `annotations` object whose categories are numbers
#'   (codes `1:5`, as [krippendorff_alpha()]'s interval metric reads them):
#'   each record's rating is the value of the category it selects.
#'
#' @section Missing ratings:
#' The ANOVA needs every annotator's rating of an item. Items that lack a
#' rating are left out, with a message saying how many items and ratings
#' were dropped; an error says so when fewer than two complete items
#' remain. (This is `irr::icc()`'s `na.omit()`, made visible.)
#'
#' @param x Ratings: see the section Ratings.
#' @param model `"oneway"` (annotators are not the same across items) and/or
#'   `"twoway"` (the same annotators rate every item).
#' @param type `"agreement"` (absolute agreement) and/or `"consistency"`
#'   (annotator means may differ); the one-way model has only agreement.
#' @param unit `"single"` (one annotator's rating) and/or `"average"` (the
#'   mean of the \eqn{k} ratings).
#' @param conf.level Confidence level of the intervals.
#' @param item,annotator,value <[`tidy-select`][tidyselect::language]> For a
#'   long data frame: the item, annotator and numeric rating columns.
#' @param ... Must be empty.
#' @return A tibble with one row per requested coefficient (by default all
#'   six): `term` (Shrout and Fleiss' name: `ICC1`, `ICC2`, `ICC3`,
#'   `ICC1k`, `ICC2k`, `ICC3k`), `model`, `type`, `unit`, `estimate`,
#'   `statistic` (F), `df1`, `df2`, `p.value`, `conf.low`, `conf.high`,
#'   `n_items` and `n_annotators` (those the ANOVA used).
#' @family clinical coefficients
#' @references
#' Shrout, P. E. and Fleiss, J. L. (1979). Intraclass correlations: uses in
#' assessing rater reliability. Psychological Bulletin, 86(2), 420-428.
#' \doi{10.1037/0033-2909.86.2.420}
#'
#' McGraw, K. O. and Wong, S. P. (1996). Forming inferences about some
#' intraclass correlation coefficients. Psychological Methods, 1(1), 30-46.
#' \doi{10.1037/1082-989X.1.1.30}
#' @export
#' @examples
#' ratings <- cbind(r1 = c(9, 6, 8, 7, 10, 6), r2 = c(2, 1, 4, 1, 5, 2),
#'                  r3 = c(5, 3, 6, 2, 6, 4), r4 = c(8, 2, 8, 6, 9, 7))
#' icc(ratings)
#' icc(ratings, model = "twoway", type = "agreement", unit = "single")
#' # long data
#' long <- data.frame(item = rep(1:6, 4), rater = rep(1:4, each = 6),
#'                    score = as.vector(ratings))
#' icc(long, item = item, annotator = rater, value = score)
icc <- function(x, model = c("oneway", "twoway"), type = c("agreement", "consistency"),
                unit = c("single", "average"), conf.level = 0.95, item = NULL,
                annotator = NULL, value = NULL, ...) {
  check_dots_empty0(...)
  check_columns_named(x, list(model = rlang::enquo(model), type = rlang::enquo(type),
                              unit = rlang::enquo(unit), conf.level = rlang::enquo(conf.level)), "icc")
  model <- check_choice(model, c("oneway", "twoway"), multiple = TRUE)
  type <- check_choice(type, c("agreement", "consistency"), multiple = TRUE)
  unit <- check_choice(unit, c("single", "average"), multiple = TRUE)
  check_conf_level(conf.level)
  if (identical(model, "oneway") && identical(type, "consistency")) {
    mla_abort(
      c("{.arg type} {.val consistency} needs {.code model = \"twoway\"}.",
        "x" = "The one-way model has no annotator effect to hold constant."),
      class = "icc_type"
    )
  }
  y <- rating_matrix(x, rlang::enquo(item), rlang::enquo(annotator), rlang::enquo(value))
  y <- complete_rating_items(y)
  ms <- icc_mean_squares(y)
  grid <- expand.grid(unit = unit, type = type, model = model, stringsAsFactors = FALSE)
  grid <- grid[!(grid$model == "oneway" & grid$type == "consistency"), c("model", "type", "unit")]
  rows <- lapply(seq_len(nrow(grid)), function(r) {
    icc_row(ms, grid$model[r], grid$type[r], grid$unit[r], conf.level)
  })
  out <- do.call(rbind, lapply(rows, as.data.frame))
  if (anyNA(out$estimate)) {
    cli::cli_warn(c("The intraclass correlations are undefined: the ratings do not vary.",
                    "i" = "Their rows are {.code NA}."))
  }
  tibble::new_tibble(c(
    list(term = icc_term(grid$model, grid$type, grid$unit)),
    as.list(grid), as.list(out),
    list(n_items = rep(ms$n, nrow(grid)), n_annotators = rep(ms$k, nrow(grid)))
  ), nrow = nrow(grid))
}

icc_term <- function(model, type, unit) {
  base <- ifelse(model == "oneway", "ICC1", ifelse(type == "agreement", "ICC2", "ICC3"))
  paste0(base, ifelse(unit == "average", "k", ""))
}

# Mean squares of the complete items x annotators matrix `y`, from centred
# sums (one pass for the row and column means, one for the squares).
icc_mean_squares <- function(y) {
  n <- nrow(y)
  k <- ncol(y)
  grand <- mean(y)
  row_dev <- rowMeans(y) - grand
  col_dev <- colMeans(y) - grand
  ss_total <- sum((y - grand)^2)
  ss_rows <- k * sum(row_dev^2)
  ss_cols <- n * sum(col_dev^2)
  ss_within <- ss_total - ss_rows
  ss_error <- max(ss_within - ss_cols, 0)
  list(n = n, k = k, msr = ss_rows / (n - 1), msw = ss_within / (n * (k - 1)),
       msc = ss_cols / (k - 1), mse = ss_error / ((n - 1) * (k - 1)))
}

# One coefficient with its F test and interval (McGraw and Wong 1996,
# tables 4-8, with rho_0 = 0).
icc_row <- function(ms, model, type, unit, conf.level) {
  n <- ms$n
  k <- ms$k
  alpha <- 1 - conf.level
  msr <- ms$msr
  denom <- if (model == "oneway") ms$msw else ms$mse
  f <- msr / denom
  df1 <- n - 1
  df2 <- if (model == "oneway") n * (k - 1) else (n - 1) * (k - 1)
  p <- stats::pf(f, df1, df2, lower.tail = FALSE)
  if (type == "agreement" && model == "twoway") {
    single <- (msr - ms$mse) / (msr + (k - 1) * ms$mse + k * (ms$msc - ms$mse) / n)
    est <- if (unit == "single") single else (msr - ms$mse) / (msr + (ms$msc - ms$mse) / n)
    bounds <- agreement_bounds(ms, single, alpha)
    if (unit == "average") bounds <- spearman_brown(bounds, k)
  } else {
    est <- if (unit == "single") (msr - denom) / (msr + (k - 1) * denom) else (msr - denom) / msr
    f_low <- f / stats::qf(1 - alpha / 2, df1, df2)
    f_up <- f * stats::qf(1 - alpha / 2, df2, df1)
    bounds <- if (unit == "single") {
      c((f_low - 1) / (f_low + k - 1), (f_up - 1) / (f_up + k - 1))
    } else {
      c(1 - 1 / f_low, 1 - 1 / f_up)
    }
  }
  undefined <- !is.finite(est)
  defined_or_na <- function(v) if (undefined || !is.finite(v)) NA_real_ else v
  list(estimate = defined_or_na(est), statistic = defined_or_na(f), df1 = df1,
       df2 = defined_or_na(df2), p.value = defined_or_na(p),
       conf.low = defined_or_na(bounds[1]), conf.high = defined_or_na(bounds[2]))
}

# Interval of ICC(A,1): Satterthwaite's v from the estimate (McGraw and
# Wong 1996, table 7).
agreement_bounds <- function(ms, rho, alpha) {
  n <- ms$n
  k <- ms$k
  a <- k * rho / (n * (1 - rho))
  b <- 1 + k * rho * (n - 1) / (n * (1 - rho))
  v <- (a * ms$msc + b * ms$mse)^2 /
    ((a * ms$msc)^2 / (k - 1) + (b * ms$mse)^2 / ((n - 1) * (k - 1)))
  f_low <- stats::qf(1 - alpha / 2, n - 1, v)
  f_up <- stats::qf(1 - alpha / 2, v, n - 1)
  pooled <- k * ms$msc + (k * n - k - n) * ms$mse
  c(n * (ms$msr - f_low * ms$mse) / (f_low * pooled + n * ms$msr),
    n * (f_up * ms$msr - ms$mse) / (pooled + n * f_up * ms$msr))
}

spearman_brown <- function(r, k) k * r / (1 + (k - 1) * r)

# Items with a rating from every annotator; the others are reported.
complete_rating_items <- function(y, call = rlang::caller_env()) {
  if (ncol(y) < 2L) {
    mla_abort(c("{.arg x} must have ratings from at least 2 annotators.",
                "x" = "It has {ncol(y)}."), class = "icc_design", call = call)
  }
  complete <- rowSums(is.na(y)) == 0L
  if (sum(complete) < 2L) {
    mla_abort(
      c("{.arg x} must have at least 2 items rated by all {ncol(y)} annotators.",
        "x" = "{sum(complete)} of {nrow(y)} item{?s} {?is/are} complete."),
      class = "icc_design", call = call
    )
  }
  if (!all(complete)) {
    n_ratings <- sum(!is.na(y[!complete, , drop = FALSE]))
    cli::cli_inform(c("i" = paste0(
      "{sum(!complete)} of {nrow(y)} item{?s} without a rating from every annotator left out ",
      "({n_ratings} rating{?s}); the ANOVA uses the {sum(complete)} complete item{?s}."
    )))
  }
  y[complete, , drop = FALSE]
}

#' Intraclass correlation coefficients for numeric ratings
#'
#' The six intraclass correlations of Shrout and Fleiss (1979) and McGraw
#' and Wong (1996) from the mean squares of the items x annotators ANOVA,
#' with their F tests and exact (one-way, consistency) or Satterthwaite
#' (agreement) intervals: the numbers of `irr::icc()` and `psych::ICC()`.
#' Cost: one pass over the ratings for the sums of squares.
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
#' @section Designs and missing ratings:
#' The one-way model treats each item's ratings as a group: it uses every
#' rating, whoever gave it, so items may be rated by different annotators
#' (a crowd) and by different numbers of them. With \eqn{n_i} ratings of
#' item \eqn{i}, \eqn{N} in all, \eqn{k} in the formulas is
#' \eqn{k_0 = (N - \sum n_i^2 / N) / (n - 1)} (Donner 1986), which is the
#' number of ratings per item when it is the same for every item; the F
#' test has \eqn{n - 1} and \eqn{N - n} degrees of freedom and the interval
#' is the balanced one with \eqn{k_0} (`ICC::ICCest()`'s `"THD"` interval,
#' approximate when the \eqn{n_i} differ). On a complete matrix these are
#' the numbers of `irr::icc()`; on a matrix with missing ratings `irr`
#' drops the incomplete items first, so its one-way rows differ.
#'
#' The two-way model needs every annotator's rating of an item: items that
#' lack a rating are left out, with a message saying how many items and
#' ratings were dropped (`irr::icc()`'s `na.omit()`, made visible), and an
#' error says so when fewer than two complete items remain. When `model` is
#' not given and the design is not crossed, the one-way rows are returned
#' with a message instead of that error.
#'
#' @param x Ratings: see the section Ratings.
#' @param model `"oneway"` (annotators are not the same across items) and/or
#'   `"twoway"` (the same annotators rate every item).
#' @param type `"agreement"` (absolute agreement) and/or `"consistency"`
#'   (annotator means may differ); the one-way model has only agreement.
#' @param unit `"single"` (one annotator's rating) and/or `"average"` (the
#'   mean of the \eqn{k} ratings).
#' @param item,annotator,value <[`tidy-select`][tidyselect::language]> For a
#'   long data frame: the item, annotator and numeric rating columns.
#' @inheritParams mla
#' @inheritParams tidy.mla
#' @return A tibble with one row per requested coefficient (by default all
#'   six): `term` (Shrout and Fleiss' name: `ICC1`, `ICC2`, `ICC3`,
#'   `ICC1k`, `ICC2k`, `ICC3k`), `model`, `type`, `unit`, `estimate`,
#'   `statistic` (F), `df1`, `df2`, `p.value`, `conf.low`, `conf.high`,
#'   `n_items` and `n_annotators` (those the ANOVA used) and
#'   `ratings_per_item` (\eqn{k}, or \eqn{k_0} above).
#' @family clinical coefficients
#' @references
#' Shrout, P. E. and Fleiss, J. L. (1979). Intraclass correlations: uses in
#' assessing rater reliability. Psychological Bulletin, 86(2), 420-428.
#' \doi{10.1037/0033-2909.86.2.420}
#'
#' McGraw, K. O. and Wong, S. P. (1996). Forming inferences about some
#' intraclass correlation coefficients. Psychological Methods, 1(1), 30-46.
#' \doi{10.1037/1082-989X.1.1.30}
#'
#' Donner, A. (1986). A review of inference procedures for the intraclass
#' correlation coefficient in the one-way random effects model.
#' International Statistical Review, 54(1), 67-82.
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
#' # a crowd: each item rated by three of twenty annotators (one-way only)
#' set.seed(1)
#' crowd <- data.frame(item = rep(1:30, each = 3),
#'                     annotator = as.vector(replicate(30, sample(20, 3))),
#'                     score = rep(rnorm(30), each = 3) + rnorm(90, sd = 0.5))
#' icc(crowd, item = item, annotator = annotator, value = score)
icc <- function(x, model = c("oneway", "twoway"), type = c("agreement", "consistency"),
                unit = c("single", "average"), conf.level = 0.95, item = NULL,
                annotator = NULL, value = NULL, ...) {
  check_dots_empty0(...)
  model_given <- !missing(model)
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
  r <- rating_table(x, rlang::enquo(item), rlang::enquo(annotator), rlang::enquo(value))
  grid <- expand.grid(unit = unit, type = type, model = model, stringsAsFactors = FALSE)
  grid <- grid[!(grid$model == "oneway" & grid$type == "consistency"), c("model", "type", "unit")]
  ms <- list(oneway = if ("oneway" %in% model) icc_oneway_mean_squares(r),
             twoway = if ("twoway" %in% model) {
               icc_twoway_mean_squares(r, optional = !model_given && "oneway" %in% grid$model)
             })
  if (is.null(ms$twoway)) grid <- grid[grid$model == "oneway", , drop = FALSE]
  rows <- lapply(seq_len(nrow(grid)), function(g) {
    icc_row(ms[[grid$model[g]]], grid$model[g], grid$type[g], grid$unit[g], conf.level)
  })
  out <- do.call(rbind, lapply(rows, as.data.frame))
  if (anyNA(out$estimate)) {
    mla_warn(c("The intraclass correlations are undefined: the ratings do not vary.",
               "i" = "Their rows are {.code NA}."), class = "undefined")
  }
  used <- ms[grid$model]
  tibble::new_tibble(c(
    list(term = icc_term(grid$model, grid$type, grid$unit)),
    as.list(grid), as.list(out),
    list(n_items = vapply(used, `[[`, integer(1), "n", USE.NAMES = FALSE),
         n_annotators = vapply(used, `[[`, integer(1), "n_annotators", USE.NAMES = FALSE),
         ratings_per_item = vapply(used, function(m) as.double(m$k), double(1), USE.NAMES = FALSE))
  ), nrow = nrow(grid))
}

icc_term <- function(model, type, unit) {
  base <- ifelse(model == "oneway", "ICC1", ifelse(type == "agreement", "ICC2", "ICC3"))
  paste0(base, ifelse(unit == "average", "k", ""))
}

# Mean squares of the two-way model from the complete items x annotators
# matrix (centred sums). `optional`: the model was not asked for by name, so
# a design that is not crossed drops the two-way rows with a message.
icc_twoway_mean_squares <- function(r, optional, call = rlang::caller_env()) {
  n_complete <- length(complete_items(r))
  if (optional && (n_complete < 2L || length(r$annotators) < 2L)) {
    cli::cli_inform(c("i" = paste0(
      "Only the one-way rows: the two-way model needs at least 2 items rated by all ",
      "{length(r$annotators)} annotator{?s} ({n_complete} of {length(r$items)} items are)."
    )))
    return(NULL)
  }
  y <- complete_rating_matrix(r, call = call, hint = c(
    "i" = "The one-way model ({.code model = \"oneway\"}) takes items rated by different annotators."
  ))
  n <- nrow(y)
  k <- ncol(y)
  grand <- mean(y)
  ss_total <- sum((y - grand)^2)
  ss_rows <- k * sum((rowMeans(y) - grand)^2)
  ss_cols <- n * sum((colMeans(y) - grand)^2)
  ss_error <- max(ss_total - ss_rows - ss_cols, 0)
  list(n = n, k = k, n_annotators = k, msr = ss_rows / (n - 1), msc = ss_cols / (k - 1),
       mse = ss_error / ((n - 1) * (k - 1)))
}

# Mean squares of the one-way model from every rating: items are the groups
# and their annotators need not be the same, nor equal in number. With n_i
# ratings of item i (N in all), k is Donner's (1986) k0 =
# (N - sum(n_i^2) / N) / (n - 1), which is k when every item has k ratings.
icc_oneway_mean_squares <- function(r, call = rlang::caller_env()) {
  n_i <- tabulate(r$item, length(r$items))
  rated <- n_i > 0L
  n <- sum(rated)
  N <- length(r$value)
  if (n < 2L || N - n < 1L) {
    mla_abort(
      c("{.arg x} must have ratings of at least 2 items, one of them rated at least twice.",
        "x" = "It has {N} rating{?s} of {n} item{?s}."),
      class = "icc_design", call = call
    )
  }
  if (n < length(r$items)) {
    cli::cli_inform(c("i" = "{length(r$items) - n} of {length(r$items)} item{?s} without any rating left out."))
  }
  item_mean <- rowsum(r$value, r$item)[, 1] / n_i[rated]  # rows by item code
  grand <- mean(r$value)
  within <- r$value - item_mean[match(r$item, which(rated))]
  ss_rows <- sum(n_i[rated] * (item_mean - grand)^2)
  list(n = n, k = (N - sum(n_i^2) / N) / (n - 1), n_annotators = length(unique(r$annotator)),
       n_ratings = N, msr = ss_rows / (n - 1), msw = sum(within^2) / (N - n))
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
  df2 <- if (model == "oneway") as.double(ms$n_ratings - n) else (n - 1) * (k - 1)
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

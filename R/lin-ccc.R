#' Lin's concordance correlation coefficient for two annotators
#'
#' How closely two annotators' numeric ratings fall on the line of identity
#' (Lin 1989): the product of their Pearson correlation (precision) and a
#' bias-correction factor (accuracy) that shrinks with differences in their
#' means and spreads.
#' Cost: one pass over the paired ratings.
#'
#' With means \eqn{\bar x, \bar y}, variances \eqn{s_x^2, s_y^2} and
#' covariance \eqn{s_{xy}} (divisor \eqn{n}),
#' \deqn{\rho_c = \frac{2 s_{xy}}{s_x^2 + s_y^2 + (\bar x - \bar y)^2}
#'   = r \, C_b.}
#' The interval is Lin's, on Fisher's \eqn{z = \operatorname{atanh}(\rho_c)}
#' with the asymptotic variance (Lin 1989, corrected 2000)
#' \deqn{\sigma_z^2 = \frac{1}{n - 2}\left[\frac{(1 - r^2)\rho_c^2}{(1 - \rho_c^2) r^2}
#'   + \frac{2 \rho_c^3 (1 - \rho_c) u^2}{r (1 - \rho_c^2)^2}
#'   - \frac{\rho_c^4 u^4}{2 r^2 (1 - \rho_c^2)^2}\right],
#'   \quad u = \frac{\bar x - \bar y}{\sqrt{s_x s_y}},}
#' back-transformed with \eqn{\tanh}. Items without both ratings are left
#' out with a message (see [icc()], section Designs and missing ratings).
#'
#' @inheritParams icc
#' @inheritSection icc Ratings
#' @param x Ratings of exactly two annotators (see Ratings).
#' @return A one-row tibble: `estimate` (\eqn{\rho_c}), `conf.low`,
#'   `conf.high`, `pearson` (\eqn{r}), `bias_correction` (\eqn{C_b}),
#'   `location_shift` (\eqn{u}), `scale_shift` (\eqn{s_x / s_y}),
#'   `n_items`.
#' @family clinical coefficients
#' @references
#' Lin, L. I.-K. (1989). A concordance correlation coefficient to evaluate
#' reproducibility. Biometrics, 45(1), 255-268. \doi{10.2307/2532051}
#'
#' Lin, L. I.-K. (2000). A note on the concordance correlation coefficient.
#' Biometrics, 56(1), 324-325.
#' @export
#' @examples
#' set.seed(1)
#' truth <- rnorm(40, 50, 10)
#' ratings <- cbind(a = truth + rnorm(40, 0, 3), b = truth + 2 + rnorm(40, 0, 3))
#' lin_ccc(ratings)
lin_ccc <- function(x, conf.level = 0.95, item = NULL, annotator = NULL, value = NULL, ...) {
  check_dots_empty0(...)
  check_columns_named(x, list(conf.level = rlang::enquo(conf.level)), "lin_ccc")
  check_conf_level(conf.level)
  r <- rating_table(x, rlang::enquo(item), rlang::enquo(annotator), rlang::enquo(value))
  if (length(r$annotators) != 2L) {
    mla_abort(c("{.arg x} must have ratings from exactly 2 annotators.",
                "x" = "It has {length(r$annotators)}.", "i" = "Use {.fn icc} for more annotators."),
              class = "icc_design")
  }
  y <- complete_rating_matrix(r)
  n <- nrow(y)
  if (n < 3L) {
    mla_abort(c("{.arg x} must have at least 3 items rated by both annotators.",
                "x" = "It has {n}."), class = "icc_design")
  }
  a <- y[, 1]
  b <- y[, 2]
  ma <- mean(a)
  mb <- mean(b)
  va <- sum((a - ma)^2) / n
  vb <- sum((b - mb)^2) / n
  cov_ab <- sum((a - ma) * (b - mb)) / n
  rho <- 2 * cov_ab / (va + vb + (ma - mb)^2)
  r <- cov_ab / sqrt(va * vb)
  u <- (ma - mb) / sqrt(sqrt(va * vb))
  var_z <- ((1 - r^2) * rho^2 / ((1 - rho^2) * r^2) +
              2 * rho^3 * (1 - rho) * u^2 / (r * (1 - rho^2)^2) -
              rho^4 * u^4 / (2 * r^2 * (1 - rho^2)^2)) / (n - 2)
  half <- stats::qnorm(1 - (1 - conf.level) / 2) * sqrt(var_z)
  defined <- is.finite(rho) && is.finite(var_z) && var_z >= 0
  tibble::tibble(
    estimate = if (is.finite(rho)) rho else NA_real_,
    conf.low = if (defined) tanh(atanh(rho) - half) else NA_real_,
    conf.high = if (defined) tanh(atanh(rho) + half) else NA_real_,
    pearson = if (is.finite(r)) r else NA_real_,
    bias_correction = if (is.finite(r)) rho / r else NA_real_,
    location_shift = u,
    scale_shift = sqrt(va / vb),
    n_items = n
  )
}

#' Closed-form agreement of the paper's generators (Figure 1)
#'
#' Infinite-population values of observed agreement, chance agreement and
#' the three Multi-Label Agreement coefficients for the `"independent"` and
#' `"noisy"` generators of [simulate_annotations()], as functions of the
#' prevalence \eqn{p}. These are the curves of the paper's Figure 1. Labels
#' are exchangeable here, so the values hold for one label and for the corpus
#' when all labels share the prevalence.
#' Cost: closed forms; no data are read.
#'
#' @details
#' With \eqn{q} the marginal probability that an annotator selects the label
#' and \eqn{A_o} the probability that two annotators agree:
#' * `"independent"`: \eqn{q = p}, \eqn{A_o = p^2 + (1-p)^2};
#' * `"noisy"` (flip probability \eqn{\varepsilon}): \eqn{q = \varepsilon +
#'   p(1 - 2\varepsilon)}, \eqn{A_o = (1-\varepsilon)^2 + \varepsilon^2}.
#'
#' The baselines are evaluated at \eqn{q}: \eqn{A_e^{(F)} = q^2 + (1-q)^2},
#' \eqn{A_e^{(AC1)} = 2q(1-q)}, \eqn{A_e^{(PB)} = 1/2}, and the coefficient is
#' \eqn{(A_o - A_e) / (1 - A_e)}. The pooled-marginal coefficient of the
#' independent generator is 0 for every \eqn{0 < p < 1} (its baseline matches
#' the generator); where \eqn{A_e = 1} the coefficient is `NA`.
#'
#' Finite samples differ from these values by the sampling variation of the
#' prevalence estimate (the pooled coefficient of independent draws is
#' slightly negative on average, of order \eqn{-1/(nN)}).
#'
#' @param prevalence Probabilities \eqn{p} in \[0, 1\] at which to evaluate
#'   the curves. Default: a grid from 0.01 to 0.99.
#' @param error Flip probability \eqn{\varepsilon} of the noisy generator,
#'   one number in \[0, 1\].
#' @return A tibble of class `mla_analytic` with one row per generator,
#'   prevalence and baseline: `generator` (`"independent"`, `"noisy"`),
#'   `prevalence`, `baseline` (`"fleiss"`, `"ac1"`, `"pabak"`), `observed`,
#'   `expected`, `estimate`. [autoplot()][autoplot.mla_analytic] draws
#'   Figure 1.
#' @family simulation
#' @references
#' Menzner, T. and Leidner, J. L. (2026). Multi-Label Agreement: A Flexible
#' Framework for Inter-Annotator Reliability. Preprint, section 4, Figure 1.
#' @export
#' @examples
#' analytic_agreement(c(0.2, 0.5, 0.8))
#'
#' # AC1 of independent coders at 5 % prevalence
#' a <- analytic_agreement(0.05)
#' a[a$generator == "independent" & a$baseline == "ac1", ]
analytic_agreement <- function(prevalence = seq(0.01, 0.99, by = 0.01), error = 0.1) {
  p <- check_probabilities(prevalence, length(prevalence), "element",
                           class = "analytic_argument")
  error <- check_number_in(error, class = "analytic_argument")
  gen <- list(
    independent = list(q = p, observed = p^2 + (1 - p)^2),
    noisy = list(q = error + p * (1 - 2 * error),
                 observed = rep((1 - error)^2 + error^2, length(p)))
  )
  rows <- lapply(names(gen), function(g) {
    q <- gen[[g]]$q
    expected <- cbind(fleiss = q^2 + (1 - q)^2, ac1 = 2 * q * (1 - q), pabak = 0.5)
    observed <- gen[[g]]$observed
    tibble::tibble(
      generator = g,
      prevalence = rep(p, times = 3L),
      baseline = rep(baseline_names, each = length(p)),
      observed = rep(observed, times = 3L),
      expected = as.vector(expected),
      estimate = as.vector(coefficient_or_na(observed, expected))
    )
  })
  tibble::new_tibble(do.call(rbind, rows), class = "mla_analytic")
}

# (A_o - A_e) / (1 - A_e), NA where the chance agreement is 1.
coefficient_or_na <- function(observed, expected) {
  out <- (observed - expected) / (1 - expected)
  out[!(expected < 1)] <- NA_real_
  out
}

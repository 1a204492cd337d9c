#' Simulate multi-label annotations from the paper's generators
#'
#' Draws an `items x annotators x labels` array of 0/1 decisions from one of
#' the four controlled generators of the paper's section 4 and returns it as
#' an [annotations][as_annotations()] object. All randomness comes from R's
#' random number generator, so [set.seed()] makes every call reproducible.
#' Cost: about one random draw per decision (plus one per item and label for
#' the truth), then the counting pass of [as_annotations()].
#'
#' @section The generators (paper section 4):
#' First a hidden ground-truth vector is drawn for every item: label \eqn{j}
#' is set with probability \eqn{p_j} (`prevalence`), independently over items
#' and labels. Then each annotator \eqn{c} produces a decision
#' \eqn{\ell_{c,i,j}} for each item \eqn{i} and label \eqn{j}:
#'
#' * `"perfect"`: every annotator copies the ground truth, so
#'   \eqn{A_o = 1}.
#' * `"noisy"` (the paper's "high agreement"): every decision is the ground
#'   truth flipped, independently, with probability \eqn{\varepsilon}
#'   (`error`). Two annotators agree with probability
#'   \eqn{(1-\varepsilon)^2 + \varepsilon^2} and the marginal positive rate is
#'   \eqn{q = \varepsilon + p(1 - 2\varepsilon)} (see [analytic_agreement()]).
#' * `"independent"`: annotators ignore the ground truth and draw each
#'   decision from \eqn{\mathrm{Bernoulli}(p_j)}, so any agreement is implied
#'   by the marginals and the pooled-marginal coefficient is about 0.
#' * `"minimum"`: minimum feasible agreement. For every item-label pair
#'   \eqn{a_j = \max(1, \min(n - 1, \lfloor p_j n + 0.5 \rfloor))} of the
#'   \eqn{n} annotators, chosen at random, assign 1 and the others 0. Every
#'   item then has the same count \eqn{a_j}, so the observed agreement equals
#'   the conditional floor of eq. 7 exactly.
#'
#' The ground truth is drawn in every scenario (also where it is not used),
#' as in the paper, and is returned as the `"truth"` attribute.
#'
#' @section Beyond the paper (its section 7):
#' * **Annotator-specific error rates**: `error` may give one flip
#'   probability \eqn{\varepsilon_c} per annotator (`"noisy"` only).
#' * **Annotator bias** (annotator-specific marginals): `bias` gives one
#'   shift \eqn{b_c} per annotator on the logit scale. Annotator \eqn{c}
#'   selects a label with probability
#'   \eqn{\mathrm{logit}^{-1}(\mathrm{logit}(\pi) + b_c)}, where \eqn{\pi} is
#'   the probability of the unbiased generator:
#'   \eqn{t(1-\varepsilon_c) + (1-t)\varepsilon_c} for `"noisy"` (\eqn{t} the
#'   ground truth) and \eqn{p_j} for `"independent"`. \eqn{b_c > 0} makes
#'   annotator \eqn{c} select labels more often than the others. Bias is only
#'   defined for these two scenarios.
#' * **Correlated labels**: `correlation` \eqn{\rho \in [0, 1]} is the
#'   correlation of a Gaussian copula with one latent factor per label vector.
#'   Label \eqn{j} of a vector is set when
#'   \eqn{\sqrt{\rho} Z + \sqrt{1-\rho} E_j < \Phi^{-1}(p_j)}, with \eqn{Z}
#'   shared by all labels of the vector and \eqn{E_j} independent standard
#'   normal. Each label keeps its prevalence \eqn{p_j} exactly; labels of the
#'   same vector are positively dependent (tetrachoric correlation \eqn{\rho}).
#'   The vector is the ground truth of an item (`"perfect"`, `"noisy"`) or
#'   each annotator's own vector (`"independent"`, where annotators stay
#'   independent of each other). Hamming-based agreement ignores such
#'   dependence (paper section 3.1); set-based measures do not.
#'   `"minimum"` fixes every count and takes no correlation.
#'
#' @param n_items,n_annotators,n_labels Numbers of items (\eqn{N}),
#'   annotators (\eqn{n}, at least 2) and labels (\eqn{k}).
#' @param prevalence Probability \eqn{p_j} that a label is set in the hidden
#'   ground truth: one number for all labels or one per label, in \[0, 1\].
#' @param scenario The generator: `"perfect"`, `"noisy"`, `"independent"` or
#'   `"minimum"`.
#' @param error Flip probability \eqn{\varepsilon} of the `"noisy"`
#'   generator: one number, or one per annotator. Ignored by the other
#'   scenarios.
#' @inheritParams mla
#' @param bias Logit shift of each annotator's probability of selecting a
#'   label: one number or one per annotator. Default 0 (no bias).
#' @param correlation Latent correlation \eqn{\rho} between the labels of one
#'   vector, in \[0, 1\]. Default 0 (independent labels, as in the paper).
#' @return An [annotations][as_annotations()] object with items `i01`...,
#'   annotators `a01`... and labels `L01`... (zero-padded to a common width,
#'   at least two digits). Attributes:
#'   `"truth"`, the items x labels 0/1 ground-truth matrix, and
#'   `"simulation"`, a list of the generator's parameters.
#' @family simulation
#' @references
#' Menzner, T. and Leidner, J. L. (2026). Multi-Label Agreement: A Flexible
#' Framework for Inter-Annotator Reliability. Preprint, section 4.
#' @export
#' @examples
#' set.seed(1)
#' x <- simulate_annotations(50, 4, 6, prevalence = 0.2, scenario = "noisy")
#' tidy(mla(x))
#'
#' # minimum feasible agreement: observed agreement equals the floor
#' y <- simulate_annotations(50, 4, 6, prevalence = 0.2, scenario = "minimum")
#' tidy(mla(y))[, c("baseline", "observed", "floor_observed")]
#'
#' # one careless annotator, one who over-selects, correlated labels
#' z <- simulate_annotations(50, 4, 6, prevalence = c(.1, .1, .3, .3, .5, .5),
#'                           scenario = "noisy", error = c(.05, .05, .05, .3),
#'                           bias = c(0, 0, 1, 0), correlation = 0.5)
#' glance(mla(z))
simulate_annotations <- function(n_items, n_annotators, n_labels, prevalence,
                                 scenario = c("perfect", "noisy", "independent", "minimum"),
                                 error = 0.1, ..., bias = 0, correlation = 0) {
  check_dots_empty0(...)
  scenario <- check_choice(scenario, scenario_names)
  n_items <- check_whole(n_items, min = 1, class = "simulation_argument")
  n_annotators <- check_whole(n_annotators, min = 2, class = "simulation_argument")
  n_labels <- check_whole(n_labels, min = 1, class = "simulation_argument")
  check_simulation_size(n_items, n_annotators, n_labels)
  if (missing(prevalence)) {
    mla_abort(
      c("{.arg prevalence} must be given.",
        "i" = "It is the probability that a label is set in the hidden ground truth: one value, or one per label ({n_labels}), e.g. {.code prevalence = 0.3}."),
      class = "simulation_argument"
    )
  }
  prevalence <- check_probabilities(prevalence, n_labels, "label")
  error <- check_probabilities(error, n_annotators, "annotator")
  bias <- check_bias(bias, n_annotators, scenario)
  correlation <- check_correlation(correlation, scenario)
  sim <- simulate_array(n_items, n_annotators, n_labels, prevalence, scenario,
                        error, bias, correlation)
  dimnames(sim$values) <- list(
    pad_names("i", n_items), pad_names("a", n_annotators), pad_names("L", n_labels)
  )
  dimnames(sim$truth) <- dimnames(sim$values)[c(1L, 3L)]
  out <- as_annotations(sim$values)
  attr(out, "truth") <- sim$truth
  attr(out, "simulation") <- list(
    scenario = scenario, prevalence = prevalence, error = error, bias = bias,
    correlation = correlation
  )
  out
}

# The generators on validated arguments: the integer array and the truth.
simulate_array <- function(N, n, k, prevalence, scenario, error, bias, correlation) {
  p_cell <- rep(prevalence, each = N)                     # items x labels, column-major
  truth <- latent_uniform(N, k, correlation) < p_cell
  storage.mode(truth) <- "integer"
  truth <- matrix(truth, N, k)
  values <- switch(
    scenario,
    perfect = rep_annotators(truth, n),
    noisy = {
      t <- rep_annotators(truth, n)
      u <- stats::runif(N * n * k)
      e <- if (all(error == error[1])) error[1] else rep(rep(error, each = N), times = k)
      if (all(bias == 0)) {
        as.integer(t != (u < e))                          # flip with probability e
      } else {
        draw(biased(t * (1 - e) + (1 - t) * e, bias, N, k), u)
      }
    },
    independent = {
      prob <- rep(prevalence, each = N * n)
      u <- latent_uniform(N * n, k, correlation)
      draw(biased(prob, bias, N, k), u)
    },
    minimum = minimum_array(N, n, k, prevalence)
  )
  list(values = array(values, c(N, n, k)), truth = truth)
}

# Uniforms for `rows` label vectors x k labels, dependent within a row
# through a one-factor Gaussian copula with correlation rho.
latent_uniform <- function(rows, k, rho) {
  if (rho == 0) return(matrix(stats::runif(rows * k), rows, k))
  z <- stats::rnorm(rows)
  e <- matrix(stats::rnorm(rows * k), rows, k)
  stats::pnorm(sqrt(rho) * z + sqrt(1 - rho) * e)
}

# The ground truth copied for each annotator: items x annotators x labels.
rep_annotators <- function(truth, n) {
  as.vector(truth[rep.int(seq_len(nrow(truth)), n), , drop = FALSE])
}

# Logit shift of each annotator's selection probability.
biased <- function(prob, bias, N, k) {
  if (all(bias == 0)) return(prob)
  b <- rep(rep(bias, each = N), times = k)
  stats::plogis(stats::qlogis(prob) + b)
}

draw <- function(prob, u) as.integer(u < prob)

# a_j of the n annotators, chosen at random per item-label cell, assign 1.
minimum_array <- function(N, n, k, prevalence) {
  a <- pmax(1, pmin(n - 1, floor(prevalence * n + 0.5)))
  cells <- N * k
  u <- stats::runif(n * cells)
  ord <- order(rep(seq_len(cells), each = n), u, method = "radix")
  rank <- integer(n * cells)
  rank[ord] <- rep.int(seq_len(n), cells)
  chosen <- rank <= rep(a, each = n * N)                  # n x (N * k), cell = i + N * j
  dec <- array(as.integer(chosen), c(n, N, k))
  as.integer(aperm(dec, c(2L, 1L, 3L)))
}

pad_names <- function(prefix, n) {
  sprintf(paste0(prefix, "%0", max(2L, nchar(n)), "d"), seq_len(n))
}

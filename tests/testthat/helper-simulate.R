# Slow, obviously correct plain-R references for the simulation tests.

# Corpus MLA of a complete dense array items x annotators x labels, straight
# from the paper's formulas (eqs. 1-5): pairwise Hamming agreement per item,
# pooled prevalences, the three baselines.
ref_mla_corpus <- function(arr) {
  N <- dim(arr)[1]; n <- dim(arr)[2]; k <- dim(arr)[3]
  pairs <- utils::combn(n, 2)
  item_ao <- vapply(seq_len(N), function(i) {
    mean(apply(pairs, 2, function(pr) mean(arr[i, pr[1], ] == arr[i, pr[2], ])))
  }, numeric(1))
  ao <- mean(item_ao)
  p <- vapply(seq_len(k), function(j) mean(arr[, , j]), numeric(1))
  ae <- c(fleiss = mean(p^2 + (1 - p)^2), ac1 = mean(2 * p * (1 - p)), pabak = 0.5)
  list(observed = ao, expected = ae, estimate = (ao - ae) / (1 - ae),
       floor_observed = ref_floor(arr))
}

# Eq. 7: positives spread as evenly as possible over items, per label.
ref_floor <- function(arr) {
  N <- dim(arr)[1]; n <- dim(arr)[2]; k <- dim(arr)[3]
  f <- function(x) choose(x, 2) + choose(n - x, 2)
  mean(vapply(seq_len(k), function(j) {
    T <- sum(arr[, , j]); m <- T %/% N; t <- T - m * N
    ((N - t) * f(m) + t * f(m + 1)) / (N * choose(n, 2))
  }, numeric(1)))
}

# Probability that two labels of one vector are both set under the one-factor
# Gaussian copula, by numerical integration over the shared factor.
ref_joint_positive <- function(p1, p2, rho) {
  integrand <- function(z) {
    stats::pnorm((stats::qnorm(p1) - sqrt(rho) * z) / sqrt(1 - rho)) *
      stats::pnorm((stats::qnorm(p2) - sqrt(rho) * z) / sqrt(1 - rho)) * stats::dnorm(z)
  }
  stats::integrate(integrand, -Inf, Inf, rel.tol = 1e-10)$value
}

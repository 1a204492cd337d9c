# Slow, obviously correct plain-R references for the simulation tests.

# Probability that two labels of one vector are both set under the one-factor
# Gaussian copula, by numerical integration over the shared factor.
ref_joint_positive <- function(p1, p2, rho) {
  integrand <- function(z) {
    stats::pnorm((stats::qnorm(p1) - sqrt(rho) * z) / sqrt(1 - rho)) *
      stats::pnorm((stats::qnorm(p2) - sqrt(rho) * z) / sqrt(1 - rho)) * stats::dnorm(z)
  }
  stats::integrate(integrand, -Inf, Inf, rel.tol = 1e-10)$value
}

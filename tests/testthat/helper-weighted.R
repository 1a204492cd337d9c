# Plain-R reference of the weighted single-label coefficients (Gwet 2014,
# chapter 3 and 5; the formulas of irrCAC's fleiss.kappa.raw(),
# gwet.ac1.raw() and bp.coeff.raw() with weights), written out item by item.
# X: items x categories counts; W: weights; v: item multiplicities.
ref_weighted <- function(X, W, v = rep(1, nrow(X))) {
  r <- rowSums(X)
  pairable <- r >= 2 & v > 0
  pa_i <- vapply(seq_len(nrow(X)), function(i) {
    if (r[i] < 2) return(NA_real_)
    (sum(W * outer(X[i, ], X[i, ])) - r[i]) / (r[i] * (r[i] - 1))
  }, numeric(1))
  pa <- sum(v[pairable] * pa_i[pairable]) / sum(v[pairable])
  pe <- ref_chance_categories(ref_prevalence(X, r, v), W)
  unname((pa - pe) / (1 - pe))
}

# Gwet's linearised variance of the three weighted coefficients.
ref_weighted_se <- function(X, W) {
  q <- ncol(X)
  keep <- rowSums(X) >= 1
  X <- X[keep, , drop = FALSE]
  n <- nrow(X)
  r <- rowSums(X)
  n2 <- sum(r >= 2)
  est <- ref_weighted(X, W)
  u <- X / r
  pi <- ref_prevalence(X, r)
  pe <- ref_chance_categories(pi, W)
  pa_i <- ifelse(r >= 2, (rowSums((X %*% W) * X) - r) / pmax(r * (r - 1), 1), 0)
  pe_i <- cbind(u %*% (W %*% pi), sum(W) / (q * (q - 1)) * (u %*% (1 - pi)), pe[3])
  vapply(1:3, function(b) {
    obs <- (n / n2) * ifelse(r >= 2, pa_i - pe[b], 0) / (1 - pe[b])
    term <- obs - 2 * (1 - est[b]) * (pe_i[, b] - pe[b]) / (1 - pe[b])
    if (b == 3) term <- obs
    sqrt(sum((term - est[b])^2) / (n * (n - 1)))
  }, numeric(1))
}

# The bounds irrCAC prints, "(0.544,1)", as numbers.
parse_irrcac_ci <- function(ci) {
  parts <- strsplit(gsub("[()]", "", ci), ",")
  cbind(as.numeric(vapply(parts, `[`, "", 1)), as.numeric(vapply(parts, `[`, "", 2)))
}

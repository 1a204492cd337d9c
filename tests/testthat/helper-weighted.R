# Plain-R reference of the weighted single-label coefficients (Gwet 2014,
# chapter 3 and 5; the formulas of irrCAC's fleiss.kappa.raw(),
# gwet.ac1.raw() and bp.coeff.raw() with weights), written out item by item.
# X: items x categories counts; W: weights; v: item multiplicities.
ref_weighted <- function(X, W, v = rep(1, nrow(X))) {
  q <- ncol(X)
  r <- rowSums(X)
  rated <- r >= 1 & v > 0
  pairable <- r >= 2 & v > 0
  pa_i <- vapply(seq_len(nrow(X)), function(i) {
    if (r[i] < 2) return(NA_real_)
    (sum(W * outer(X[i, ], X[i, ])) - r[i]) / (r[i] * (r[i] - 1))
  }, numeric(1))
  pa <- sum(v[pairable] * pa_i[pairable]) / sum(v[pairable])
  u <- X / pmax(r, 1)
  pi <- colSums(v[rated] * u[rated, , drop = FALSE]) / sum(v[rated])
  pe <- c(sum(W * outer(pi, pi)), sum(W) * sum(pi * (1 - pi)) / (q * (q - 1)), sum(W) / q^2)
  (pa - pe) / (1 - pe)
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
  pi <- colMeans(u)
  pe <- c(sum(W * outer(pi, pi)), sum(W) * sum(pi * (1 - pi)) / (q * (q - 1)), sum(W) / q^2)
  pa_i <- ifelse(r >= 2, (rowSums((X %*% W) * X) - r) / pmax(r * (r - 1), 1), 0)
  pe_i <- cbind(u %*% (W %*% pi), sum(W) / (q * (q - 1)) * (u %*% (1 - pi)), pe[3])
  vapply(1:3, function(b) {
    obs <- (n / n2) * ifelse(r >= 2, pa_i - pe[b], 0) / (1 - pe[b])
    term <- obs - 2 * (1 - est[b]) * (pe_i[, b] - pe[b]) / (1 - pe[b])
    if (b == 3) term <- obs
    sqrt(sum((term - est[b])^2) / (n * (n - 1)))
  }, numeric(1))
}

# irrCAC's three weighted coefficients on a raw ratings matrix (data frame
# rows: coefficients) and the weights it used.
irrcac_weighted <- function(m, w, categ = NULL) {
  args <- list(m, weights = w)
  if (!is.null(categ)) args$categ.labels <- categ
  rbind(do.call(irrCAC::fleiss.kappa.raw, args)$est,
        do.call(irrCAC::gwet.ac1.raw, args)$est,
        do.call(irrCAC::bp.coeff.raw, args)$est)
}

# The bounds irrCAC prints, "(0.544,1)", as numbers.
parse_irrcac_ci <- function(ci) {
  parts <- strsplit(gsub("[()]", "", ci), ",")
  cbind(as.numeric(vapply(parts, `[`, "", 1)), as.numeric(vapply(parts, `[`, "", 2)))
}

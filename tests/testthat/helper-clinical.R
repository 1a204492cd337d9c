# Plain-R references for annotator_bias(), icc() and lin_ccc(): textbook
# formulas written out on small complete designs, one loop at a time.

# Cochran's Q (Cochran 1950) of an items x annotators 0/1 matrix.
ref_cochran_q <- function(m) {
  k <- ncol(m)
  col_tot <- colSums(m)
  row_tot <- rowSums(m)
  n_pos <- sum(m)
  q <- (k - 1) * (k * sum(col_tot^2) - n_pos^2) / (k * n_pos - sum(row_tot^2))
  c(statistic = q, p.value = stats::pchisq(q, k - 1, lower.tail = FALSE))
}

# Classical Wald standard error of a paired difference p1 - p2 (Agresti
# 2013, section 11.1) from the discordant counts b, c of n pairs.
ref_paired_se <- function(x1, x2) {
  n <- length(x1)
  b <- sum(x1 == 1 & x2 == 0)
  c <- sum(x1 == 0 & x2 == 1)
  sqrt(((b + c) - (b - c)^2 / n) / n^2)
}

# Conger's kappa by its definition: chance agreement is the mean over
# annotator pairs of sum_k p_ak p_bk (each annotator's own marginals).
ref_conger_binary <- function(m) {
  k <- ncol(m)
  p <- colMeans(m)
  pairs <- utils::combn(k, 2)
  observed <- mean(apply(pairs, 2, function(ab) mean(m[, ab[1]] == m[, ab[2]])))
  chance <- mean(apply(pairs, 2, function(ab) p[ab[1]] * p[ab[2]] + (1 - p[ab[1]]) * (1 - p[ab[2]])))
  (observed - chance) / (1 - chance)
}

# Mean squares of the two-way ANOVA without interaction, from stats::lm().
ref_icc_mean_squares <- function(y) {
  d <- data.frame(v = as.vector(y), item = factor(rep(seq_len(nrow(y)), ncol(y))),
                  rater = factor(rep(seq_len(ncol(y)), each = nrow(y))))
  two <- stats::anova(stats::lm(v ~ item + rater, data = d))
  one <- stats::anova(stats::lm(v ~ item, data = d))
  list(msr = two["item", "Mean Sq"], msc = two["rater", "Mean Sq"],
       mse = two["Residuals", "Mean Sq"], msw = one["Residuals", "Mean Sq"])
}

# One-way ICC(1) and ICC(1,k) of ratings `v` grouped by `item`, possibly
# unbalanced: mean squares from stats::lm(), k0 of Donner (1986), and the
# F interval with k0 (Shrout and Fleiss 1979, case 1).
ref_icc_oneway <- function(v, item, conf.level = 0.95) {
  fit <- stats::anova(stats::lm(v ~ factor(item)))
  msb <- fit[1, "Mean Sq"]
  msw <- fit[2, "Mean Sq"]
  df <- fit$Df
  n_i <- as.vector(table(item))
  k0 <- (sum(n_i) - sum(n_i^2) / sum(n_i)) / (length(n_i) - 1)
  f <- msb / msw
  q <- 1 - (1 - conf.level) / 2
  f_low <- f / stats::qf(q, df[1], df[2])
  f_up <- f * stats::qf(q, df[2], df[1])
  list(single = c((msb - msw) / (msb + (k0 - 1) * msw), (f_low - 1) / (f_low + k0 - 1),
                  (f_up - 1) / (f_up + k0 - 1)),
       average = c((msb - msw) / msb, 1 - 1 / f_low, 1 - 1 / f_up),
       f = f, df = df, k0 = k0)
}

# Lin's (1989, 2000) variance of the concordance correlation itself; the
# z-transform variance is this over (1 - rho^2)^2 (delta method).
ref_ccc <- function(a, b) {
  n <- length(a)
  sa <- sqrt(mean((a - mean(a))^2))
  sb <- sqrt(mean((b - mean(b))^2))
  r <- stats::cor(a, b)
  rho <- 1 - mean((a - b)^2) / (sa^2 + sb^2 + (mean(a) - mean(b))^2)
  u <- (mean(a) - mean(b)) / sqrt(sa * sb)
  var_rho <- ((1 - r^2) * rho^2 * (1 - rho^2) / r^2 + 2 * rho^3 * (1 - rho) * u^2 / r -
                rho^4 * u^4 / (2 * r^2)) / (n - 2)
  list(estimate = rho, var_z = var_rho / (1 - rho^2)^2)
}

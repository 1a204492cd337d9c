# Plain-R references for the bootstrap (slow, obviously correct).

# True pooled-marginal coefficient of the noisy generator.
boot_sim_truth <- function(p, error) {
  A <- (1 - error)^2 + error^2
  q <- error + p * (1 - 2 * error)
  Ae <- ref_chance(q)[, "fleiss"]
  (A - Ae) / (1 - Ae)
}

# The finite replicates of statistic s of as_boot(bs) output `b`, widened as
# confint() widens them when annotators are resampled: deviations from t0
# times t_df / z at `level` (df: the object's interval df, checked on its own
# in test-boot-ci.R). Items resampled: the replicates as they are.
widened_boot <- function(b, bs, s, level = 0.95) {
  fin <- is.finite(bs$t[, s])
  df <- if (bs$resample == "items") Inf else mlagreement:::annotator_interval_df(bs)
  widen <- stats::qt((1 + level) / 2, df) / stats::qnorm((1 + level) / 2)
  t <- b$t[fin, , drop = FALSE]
  t0 <- matrix(b$t0, nrow(t), ncol(t), byrow = TRUE)
  b$t <- t0 + (t - t0) * matrix(widen, nrow(t), ncol(t), byrow = TRUE)
  b$R <- sum(fin)
  b
}

# The 300 x 4 x 6 test design, with a few missing decisions.
boot_fixture <- function(seed = 11) {
  withr::with_seed(seed, random_design(300, 4, 6, prevalence = 0.3, error = 0.1, n_missing = 150,
                                       names = TRUE))
}

# Annotator bootstrap reference: annotator a appears aw[a] times, item i
# iw[i] times; ordered pairs of copies of the same original annotator are not
# pairs. Enumerates the pairs explicitly.
ref_annotator_stats <- function(arr, aw, iw = rep(1L, dim(arr)[1])) {
  n <- dim(arr)[1]
  k <- dim(arr)[3]
  ids <- rep(seq_len(dim(arr)[2]), aw)
  p <- d <- numeric(k)
  pairable <- logical(k)
  for (j in seq_len(k)) {
    dis <- c()
    x <- m <- numeric(n)
    for (i in seq_len(n)) {
      v <- arr[i, ids, j]
      id <- ids[!is.na(v)]
      v <- v[!is.na(v)]
      x[i] <- sum(v)
      m[i] <- length(v)
      if (length(v) == 0) next
      distinct <- outer(id, id, "!=")
      if (!any(distinct)) next
      disagree <- outer(v, v, "!=") & distinct
      dis <- c(dis, rep(sum(disagree) / sum(distinct), iw[i]))
    }
    p[j] <- ref_prevalence(x, m, iw)
    pairable[j] <- length(dis) > 0
    d[j] <- if (pairable[j]) mean(dis) else NA
  }
  ref_coefficients(p, d, pairable)
}

# The bootstrap of test-boot-methods.R and test-autoplot-boot.R.
boot_methods_fixture <- function() {
  withr::with_seed(31, mla_boot(mla(boot_fixture()), R = 199))
}

# Bootstraps of tiny designs (the worked example's 4 items) in tests of
# equalities, not of coverage: mla_boot()'s warning about too few items is
# muffled, every other condition passes.
without_few_items_warning <- function(code) {
  withCallingHandlers(code, mlagreement_warning_few_items = function(w) invokeRestart("muffleWarning"))
}

# Plots of small bootstraps whose intervals the test does not judge: the
# interval warnings (undefined, constant or extreme replicates) are muffled,
# every other condition passes.
without_interval_warnings <- function(code) {
  muffle <- function(w) invokeRestart("muffleWarning")
  withCallingHandlers(code, mlagreement_warning_boot_na = muffle,
                      mlagreement_warning_boot_constant = muffle,
                      mlagreement_warning_boot_extreme = muffle)
}

# Speed and memory of mla() on dense data, measured in one run against
# (1) one base-R sum() over the same array (a single pass over the input),
# (2) irrCAC's fleiss.kappa.raw() looped over the labels.
# Run: Rscript bench/mla.R  (after `make install`). Prints ratios. Times are
# medians of repeated runs; CPU time (user + system) is reported next to
# elapsed time because elapsed time suffers when other work shares the cores.
suppressPackageStartupMessages(library(mlagreement))

timing <- function(fun, times = 7) {
  t <- vapply(seq_len(times), function(i) {
    st <- system.time(fun())
    c(elapsed = st[["elapsed"]], cpu = st[["user.self"]] + st[["sys.self"]])
  }, numeric(2))
  apply(t, 1, stats::median)
}

set.seed(1)
N <- 5e5; n <- 5; k <- 20
arr <- array(as.integer(stats::runif(N * n * k) < 0.2), c(N, n, k))
input_mb <- as.numeric(utils::object.size(arr)) / 2^20
cat(sprintf("dense %g x %d x %d integer array (%.0f MB)\n", N, n, k, input_mb))

t_sum <- timing(function() sum(arr))
cat(sprintf("  sum():               elapsed %.3f s, cpu %.3f s\n", t_sum[1], t_sum[2]))
for (threads in 1:2) {
  options(mlagreement.threads = threads)
  t_mla <- timing(function() mla(arr))
  cat(sprintf("  mla(), %d thread%s:    elapsed %.3f s, cpu %.3f s; ratio to sum(): elapsed %.2f, cpu %.2f (target <= 2)\n",
              threads, if (threads > 1) "s" else " ", t_mla[1], t_mla[2],
              t_mla[1] / t_sum[1], t_mla[2] / t_sum[2]))
}
options(mlagreement.threads = 1)

# Extra peak memory of mla() beyond its input: gc()'s "max used" after a reset.
invisible(gc(reset = TRUE))
before <- sum(gc()[, 2])
fit <- mla(arr)
peak <- sum(gc()[, 6])
extra_mb <- peak - before
cat(sprintf("  extra peak memory %.1f MB = %.2f x input (target <= 0.75)\n",
            extra_mb, extra_mb / input_mb))
rm(fit)

# Against irrCAC (pure R, one label at a time) on the first 1e5 items.
if (requireNamespace("irrCAC", quietly = TRUE)) {
  N2 <- 1e5
  small <- arr[seq_len(N2), , , drop = FALSE]
  frames <- lapply(seq_len(k), function(j) as.data.frame(small[, , j]))
  t_irr <- timing(function() for (j in seq_len(k)) irrCAC::fleiss.kappa.raw(frames[[j]]), times = 1)
  t_mla2 <- timing(function() mla(small))
  options(mlagreement.threads = 2)
  t_mla2_2 <- timing(function() mla(small))
  options(mlagreement.threads = 1)
  f_irr <- vapply(frames, function(f) irrCAC::fleiss.kappa.raw(f)$est$coeff.val, numeric(1))
  lab <- tidy(mla(small), level = "label")
  f_mla <- lab$estimate[lab$baseline == "fleiss"]
  cat(sprintf("irrCAC::fleiss.kappa.raw over %d labels, %g x %d: elapsed %.2f s; mla(): %.4f s (1 thread), %.4f s (2 threads); speed-up %.0fx / %.0fx (target >= 100)\n",
              k, N2, n, t_irr[1], t_mla2[1], t_mla2_2[1], t_irr[1] / t_mla2[1],
              t_irr[1] / t_mla2_2[1]))
  # What a user with the array would write: slice and convert each label too.
  t_irr_user <- timing(function() {
    for (j in seq_len(k)) irrCAC::fleiss.kappa.raw(as.data.frame(small[, , j]))
  }, times = 1)
  cat(sprintf("  including the per-label slicing and as.data.frame(): %.2f s; speed-up %.0fx / %.0fx\n",
              t_irr_user[1], t_irr_user[1] / t_mla2[1], t_irr_user[1] / t_mla2_2[1]))
  cat(sprintf("  max |difference| of label coefficients vs irrCAC (which rounds to 5 dp): %.2g\n",
              max(abs(f_irr - f_mla))))
}

# Speed and memory of mla() on dense data, measured in one run against
# (1) one base-R sum() over the same array (a single pass over the input),
# (2) irrCAC's fleiss.kappa.raw() looped over the labels.
# Run: Rscript bench/mla.R  (after installing the package). Prints ratios.
suppressPackageStartupMessages(library(mlagreement))

median_time <- function(expr, times = 5) {
  f <- function() system.time(eval.parent(substitute(expr), 2))[["elapsed"]]
  stats::median(vapply(seq_len(times), function(i) {
    system.time(force(expr()))[["elapsed"]]
  }, numeric(1)))
}
time_it <- function(fun, times = 5) {
  stats::median(vapply(seq_len(times), function(i) system.time(fun())[["elapsed"]], numeric(1)))
}

set.seed(1)
N <- 5e5; n <- 5; k <- 20
arr <- array(as.integer(stats::runif(N * n * k) < 0.2), c(N, n, k))
input_mb <- as.numeric(utils::object.size(arr)) / 2^20

t_sum <- time_it(function() sum(arr))
t_mla <- time_it(function() mla(arr))
cat(sprintf("dense %g x %d x %d integer array (%.0f MB)\n", N, n, k, input_mb))
cat(sprintf("  sum():  %.3f s\n  mla():  %.3f s\n  ratio mla/sum = %.2f (target <= 2)\n",
            t_sum, t_mla, t_mla / t_sum))

# Extra peak memory of mla() beyond its input: gc()'s "max used" after a reset.
invisible(gc(reset = TRUE))
before <- sum(gc()[, 2])
fit <- mla(arr)
peak <- sum(gc()[, 6])
extra_mb <- peak - before
cat(sprintf("  extra peak memory %.1f MB = %.2f x input (target <= 0.75)\n",
            extra_mb, extra_mb / input_mb))
rm(fit)

# Against irrCAC on a smaller design (irrCAC is pure R, per label).
if (requireNamespace("irrCAC", quietly = TRUE)) {
  N2 <- 2e4
  small <- arr[seq_len(N2), , , drop = FALSE]
  t_irr <- time_it(function() {
    for (j in seq_len(k)) irrCAC::fleiss.kappa.raw(as.data.frame(small[, , j]))
  }, times = 1)
  t_mla2 <- time_it(function() mla(small), times = 5)
  f_irr <- vapply(seq_len(k), function(j) {
    irrCAC::fleiss.kappa.raw(as.data.frame(small[, , j]))$est$coeff.val
  }, numeric(1))
  lab <- tidy(mla(small), level = "label")
  f_mla <- lab$estimate[lab$baseline == "fleiss"]
  cat(sprintf("irrCAC::fleiss.kappa.raw over %d labels, %g x %d: %.3f s; mla(): %.4f s; speed-up %.0fx (target >= 100)\n",
              k, N2, n, t_irr, t_mla2, t_irr / t_mla2))
  cat(sprintf("  max |difference| of label coefficients vs irrCAC (rounded to 5 dp there): %.2g\n",
              max(abs(f_irr - f_mla))))
}

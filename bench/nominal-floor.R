# The eq. 7 floor of nominal variables (nominal_floor.h) through mla() on
# single-label crowd designs: mla() and the kernel's single-label estimates
# with the floor (single_label_estimates_cpp()), medians of 5 runs.
# Run from the package root: Rscript bench/nominal-floor.R
suppressMessages(library(mlagreement)); set.seed(1)
run <- function(N, A, q, missing) {
  cats <- letters[seq_len(q)]
  m <- matrix(sample(cats, N * A, TRUE, prob = seq_len(q)), N)
  if (missing > 0) m[matrix(runif(N * A) < missing, N)] <- NA
  m[rowSums(!is.na(m)) == 0, 1] <- "a"
  a <- as_annotations(m)
  f <- mla(a); t_fit <- median(replicate(5, system.time(mla(a))[["elapsed"]]))
  t_est <- median(replicate(5, system.time(mlagreement:::single_label_estimates_cpp(a$tally$cnt, a$tally$sx, a$tally$sdis))[["elapsed"]]))
  cat(sprintf("%g items x %d, %d categories, %.0f%% missing (%d distinct m): mla() %.1f ms, of which estimates+floor %.1f ms; floor %s\n",
              N, A, q, 100 * missing, length(unique(rowSums(!is.na(m)))), 1000 * t_fit, 1000 * t_est,
              format(f$corpus$floor_observed[1], digits = 6)))
}
run(1e5, 5, 5, 0); run(1e5, 20, 10, 0.5); run(1e5, 50, 20, 0.5); run(2e4, 100, 5, 0.5)

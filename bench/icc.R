# icc() against psych::ICC() on 1e5 items x 5 annotators (issue 26: at
# least 20x faster). Run from the package root with the package installed,
# e.g. R CMD INSTALL --library=/tmp/lib . && R_LIBS=/tmp/lib Rscript bench/icc.R
# psych::ICC()'s default (lmer = TRUE) fits the crossed random-effects
# model with lme4; its lmer = FALSE path (aov() with one dummy column per
# item) cannot hold 1e5 items, so it is timed at 2,000. Both ratios come
# from the same run. Prints times and ratios; no assertions.
suppressPackageStartupMessages(library(mlagreement))
source(file.path("bench", "bench-utils.R"))

set.seed(20261202)
ratings <- function(n, k = 5) {
  truth <- stats::rnorm(n)
  sapply(seq_len(k), function(j) truth + 0.2 * j + stats::rnorm(n, 0, 0.8))
}

y <- ratings(1e5)
t_ours <- timeit(icc(y), times = 5)
if (requireNamespace("psych", quietly = TRUE) && requireNamespace("lme4", quietly = TRUE)) {
  t_psych <- timeit(suppressMessages(psych::ICC(y)), times = 1)
  report_ratio("icc(), 1e5 x 5, all six rows vs psych::ICC() (lmer)", t_ours, t_psych,
               "psych", target = 1 / 20)
  cat(sprintf("  speed-up %.0fx (target >= 20x)\n", t_psych / t_ours))
  # same numbers: estimates agree to the REML optimiser's tolerance
  ref <- suppressMessages(psych::ICC(y))$results
  ours <- icc(y)
  cat(sprintf("  largest |ICC difference| vs psych (lmer): %.2e\n",
              max(abs(ours$estimate[match(ref$type, ours$term)] - ref$ICC))))
}
if (requireNamespace("psych", quietly = TRUE)) {
  small <- ratings(2000)
  t_small <- timeit(icc(small), times = 5)
  t_aov <- timeit(suppressMessages(psych::ICC(small, lmer = FALSE)), times = 1)
  report_ratio("icc(), 2000 x 5 vs psych::ICC(lmer = FALSE) (aov)", t_small, t_aov,
               "psych", target = 1 / 20)
  cat(sprintf("  speed-up %.0fx (target >= 20x)\n", t_aov / t_small))
}
if (requireNamespace("irr", quietly = TRUE)) {
  t_irr <- timeit(irr::icc(y, "twoway", "agreement"), times = 3)
  t_one <- timeit(icc(y, "twoway", "agreement", "single"), times = 5)
  report_ratio("icc(), 1e5 x 5, ICC(A,1) vs irr::icc()", t_one, t_irr, "irr")
}

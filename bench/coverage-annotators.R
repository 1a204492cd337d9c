# Coverage of tidy(fit, annotators = "fixed" | "random") intervals and of
# the two-way bootstrap (mla_boot(resample = "both"), percentile, widened
# by t / z with Satterthwaite's df) for the
# population value when the annotators are a sample from a population of
# heterogeneous annotators (sensitivity ~ U(0.6, 0.95), specificity ~
# U(0.7, 0.98)), fresh items and annotators in every study.
# Rscript bench/coverage-annotators.R [studies]
suppressMessages(library(mlagreement))
args <- commandArgs(TRUE)
n_studies <- if (length(args) > 0) as.integer(args[1]) else 300L
prevalence <- 0.3
k <- 4L
# population value of the pooled-marginal MLA (equal prevalence on every label)
es <- mean(c(0.6, 0.95))
et <- mean(c(0.7, 0.98))
agree <- prevalence * (es^2 + (1 - es)^2) + (1 - prevalence) * (et^2 + (1 - et)^2)
p <- prevalence * es + (1 - prevalence) * (1 - et)
chance <- p^2 + (1 - p)^2
truth_value <- (agree - chance) / (1 - chance)

study <- function(n_items, n_ann) {
  truth <- matrix(stats::rbinom(n_items * k, 1, prevalence), n_items, k)
  sens <- stats::runif(n_ann, 0.6, 0.95)
  spec <- stats::runif(n_ann, 0.7, 0.98)
  arr <- array(0L, c(n_items, n_ann, k))
  for (a in seq_len(n_ann)) {
    arr[, a, ] <- matrix(stats::rbinom(n_items * k, 1, ifelse(truth == 1, sens[a], 1 - spec[a])),
                         n_items, k)
  }
  fit <- mla(arr)
  fixed <- tidy(fit)[1, ]
  random <- suppressMessages(tidy(fit, annotators = "random"))[1, ]
  both <- suppressWarnings(confint(mla_boot(fit, R = 300, resample = "both"), "fleiss",
                                   type = "perc"))
  c(fixed = fixed$conf.low <= truth_value && truth_value <= fixed$conf.high,
    random = random$conf.low <= truth_value && truth_value <= random$conf.high,
    both = both[1, 1] <= truth_value && truth_value <= both[1, 2],
    estimate = fixed$estimate)
}

set.seed(20261202)
cat(sprintf("population value %.4f, %d studies per setting\n", truth_value, n_studies))
for (setting in list(c(100, 8), c(100, 12), c(50, 8), c(100, 4))) {
  res <- t(replicate(n_studies, study(setting[1], setting[2])))
  cov <- colMeans(res[, 1:3])
  mc <- sqrt(cov * (1 - cov) / n_studies)
  cat(sprintf("items %3d, annotators %2d: fixed %.3f (%.3f), random %.3f (%.3f), two-way bootstrap %.3f (%.3f), mean estimate %.4f\n",
              setting[1], setting[2], cov[1], mc[1], cov[2], mc[2], cov[3], mc[3], mean(res[, 4])))
}

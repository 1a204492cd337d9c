# Coverage of the 95% intervals in small studies (issue 25, item 3): 300
# studies per setting of the noisy generator (simulate_annotations()), 10 and
# 20 items, 4 and 8 annotators, 5 labels of prevalence 0.1, 0.3 and 0.5,
# flip probability 0.1. Each study gets the analytic t interval
# (tidy(conf.int = TRUE)) and the percentile, basic, normal and BCa intervals
# of mla_boot(R = 999); each is checked against the population value of
# analytic_agreement(). Coverage with its Monte-Carlo SE sqrt(c (1 - c) / S)
# over the S studies with an interval, and the share of studies without one.
# Run from the package root with an installed build:
#   R_LIBS=/tmp/lib nice Rscript bench/coverage-small.R
# Writes bench/coverage-small.csv; asserts nothing.
library(mlagreement)
options(cli.progress_show_after = Inf)

n_studies <- as.integer(Sys.getenv("MLA_COVERAGE_STUDIES", "300"))
settings <- expand.grid(n_items = c(10L, 20L), n_annotators = c(4L, 8L),
                        prevalence = c(0.1, 0.3, 0.5))
error <- 0.1
types <- c("analytic t", "perc", "basic", "norm", "bca")

one_study <- function(n, J, p, truth) {
  x <- simulate_annotations(n, J, 5, prevalence = p, scenario = "noisy", error = error)
  fit <- mla(x)
  out <- matrix(NA, length(truth), length(types), dimnames = list(names(truth), types))
  width <- out
  an <- tidy(fit)
  ci <- list(`analytic t` = cbind(an$conf.low, an$conf.high))
  bs <- suppressWarnings(mla_boot(fit, R = 999))
  for (type in types[-1]) {
    ci[[type]] <- suppressWarnings(confint(bs, names(truth), type = type))
  }
  for (type in types) {
    lim <- ci[[type]]
    out[, type] <- lim[, 1] <= truth & truth <= lim[, 2]
    width[, type] <- lim[, 2] - lim[, 1]
  }
  list(hit = out, width = width)
}

set.seed(2025)
started <- proc.time()[["elapsed"]]
rows <- list()
for (s in seq_len(nrow(settings))) {
  st <- settings[s, ]
  truth <- with(analytic_agreement(st$prevalence, error), estimate[generator == "noisy"])
  names(truth) <- c("fleiss", "ac1", "pabak")
  res <- lapply(seq_len(n_studies), function(i) one_study(st$n_items, st$n_annotators, st$prevalence, truth))
  hits <- simplify2array(lapply(res, `[[`, "hit"))       # coefficients x types x studies
  widths <- simplify2array(lapply(res, `[[`, "width"))
  for (b in names(truth)) for (type in types) {
    h <- hits[b, type, ]
    defined <- !is.na(h)
    cov <- mean(h[defined])
    rows[[length(rows) + 1L]] <- data.frame(
      n_items = st$n_items, n_annotators = st$n_annotators, prevalence = st$prevalence,
      baseline = b, type = type, studies = sum(defined), no_interval = mean(!defined),
      coverage = cov, mc_se = sqrt(cov * (1 - cov) / sum(defined)),
      mean_width = mean(widths[b, type, ][defined])
    )
  }
  cat(sprintf("setting %d of %d done (%.0f s)\n", s, nrow(settings),
              proc.time()[["elapsed"]] - started))
}
result <- do.call(rbind, rows)
utils::write.csv(result, "bench/coverage-small.csv", row.names = FALSE)

# Summary: coverage of each interval type by number of items, over all
# settings and baselines (mean, range), for the primary baseline (Fleiss).
summ <- aggregate(coverage ~ n_items + type + baseline, result,
                  function(v) c(mean = mean(v), min = min(v), max = max(v)))
print(summ[summ$baseline == "fleiss", ])
cat(sprintf("Total: %.0f s\n", proc.time()[["elapsed"]] - started))

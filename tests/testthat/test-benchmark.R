irrcac_bf <- list("landis-koch" = "landis.koch.bf", fleiss = "fleiss.bf", altman = "altman.bf")

# irrCAC's cumulative probabilities (strings rounded to 5 decimals).
# (irrCAC keeps its scales as data sets, which its functions read by name.)
irrcac_cumulative <- function(scale, coeff, se) {
  env <- new.env(parent = asNamespace("irrCAC"))
  utils::data(list = c("landis.koch", "fleiss", "altman"), package = "irrCAC", envir = env)
  fn <- getExportedValue("irrCAC", irrcac_bf[[scale]])
  environment(fn) <- env
  as.numeric(fn(coeff, se)$CumProb)
}

test_that("cumulative probabilities equal irrCAC's three .bf functions", {
  skip_if_not_installed("irrCAC")
  cases <- data.frame(term = c("a", "b", "c", "d", "e"),
                      estimate = c(0.6562, 0.4418, 0.05, -0.2, 0.91),
                      std.error = c(0.16, 0.05, 0.2, 0.1, 0.03))
  for (scale in names(irrcac_bf)) {
    bm <- mla_benchmark(cases, scale = scale)
    for (r in seq_len(nrow(cases))) {
      ours <- bm[bm$term == cases$term[r], ]
      ref <- irrcac_cumulative(scale, cases$estimate[r], cases$std.error[r])
      expect_equal(round(ours$cumulative, 5), ref, tolerance = 1e-12)
      expect_lt(max(abs(ours$probability - diff(c(0, ours$cumulative)))), 1e-12)
      # Gwet's rule: the first interval from the top reaching 95%
      expect_identical(which(ours$reached), which(ref >= 0.95)[1])
    }
  }
})

test_that("the interval names and bounds are irrCAC's scales", {
  skip_if_not_installed("irrCAC")
  one <- data.frame(estimate = 0.5, std.error = 0.1)
  tables <- list("landis-koch" = c("interp.LK", "lb.LK", "ub.LK"),
                 fleiss = c("interp.FL", "lb.FL", "ub.FL"), altman = c("interp.AL", "lb.AL", "ub.AL"))
  data_name <- c("landis-koch" = "landis.koch", fleiss = "fleiss", altman = "altman")
  for (scale in names(tables)) {
    env <- new.env()
    utils::data(list = data_name[[scale]], package = "irrCAC", envir = env)
    ref <- env[[data_name[[scale]]]]
    bm <- mla_benchmark(one, scale = scale)
    expect_identical(bm$benchmark, as.character(ref[[tables[[scale]][1]]]))
    expect_identical(bm$lower, ref[[tables[[scale]][2]]])
    expect_identical(bm$upper, ref[[tables[[scale]][3]]])
  }
})

test_that("an mla fit is benchmarked on its analytic standard errors (irrCAC data)", {
  skip_if_not_installed("irrCAC")
  ratings <- irrcac_fixture("data")$cac.raw4raters
  fit <- mla(as_annotations(as.matrix(ratings)))
  rows <- tidy(fit, conf.int = TRUE)
  bm <- mla_benchmark(fit, scale = "altman", conf.level = 0.9)
  expect_identical(unique(bm$term), rows$term)
  for (b in rows$term) {
    r <- rows[rows$term == b, ]
    ref <- irrcac_cumulative("altman", r$estimate, r$std.error)
    expect_equal(round(bm$cumulative[bm$term == b], 5), ref, tolerance = 1e-12)
    expect_identical(which(bm$reached[bm$term == b]), which(ref >= 0.9)[1])
  }
  # Fleiss' kappa and its SE are irrCAC's own, so is the benchmark
  fk <- irrCAC::fleiss.kappa.raw(ratings)$est
  ours <- rows[rows$baseline == "fleiss", ]
  expect_equal(round(ours$std.error, 5), fk$coeff.se, tolerance = 1e-12)
  expect_equal(bm[bm$term == "fleiss", c("term", "estimate", "std.error", "benchmark")],
               mla_benchmark(ours, scale = "altman", conf.level = 0.9)[, c("term", "estimate", "std.error", "benchmark")])
})

test_that("label rows and bootstrap fits work; rows without an SE are reported", {
  fit <- mla(annotations_long(bias_example, item, annotator, label, value))
  lab <- tidy(fit, level = "label")
  expect_message(bm <- mla_benchmark(fit, level = "label"), "left out")
  usable <- is.finite(lab$std.error) & lab$std.error > 0
  expect_identical(unique(bm$term), lab$term[usable])
  expect_true(all(tapply(bm$reached, bm$term, sum) == 1))
  withr::local_seed(1)
  boot <- mla_boot(mla(simulate_annotations(40, 4, 3, prevalence = 0.3, scenario = "noisy")), R = 50)
  bb <- suppressWarnings(mla_benchmark(boot))
  ref <- suppressWarnings(tidy(boot))
  expect_equal(unique(bb$std.error), ref$std.error)
})

test_that("errors are classed and name the argument", {
  expect_snapshot(error = TRUE, mla_benchmark(list(1)))
  expect_snapshot(error = TRUE, mla_benchmark(data.frame(estimate = 0.5)))
  expect_mla_error(mla_benchmark(data.frame(estimate = 0.5, std.error = NA_real_)),
                   "benchmark_input")
  expect_mla_error(mla_benchmark(data.frame(estimate = 0.5, std.error = 0.1), scale = "cicchetti"),
                   "arg")
  expect_mla_error(mla_benchmark(data.frame(estimate = 0.5, std.error = 0.1), conf.level = 1),
                   "conf_level")
})

test_that("estimates outside [-1, 1] are refused, naming the row", {
  err <- expect_mla_snapshot(
    mla_benchmark(data.frame(term = c("a", "b"), estimate = c(0.5, 5), std.error = c(0.1, 0.001))),
    "benchmark_input"
  )
  expect_match(conditionMessage(err), "Row 2", fixed = TRUE)
  expect_mla_error(mla_benchmark(data.frame(estimate = -1.2, std.error = 0.1)), "benchmark_input")
  # the ends of the range are benchmarks
  top <- mla_benchmark(data.frame(estimate = 1, std.error = 0.1))
  expect_identical(top$benchmark[top$reached], "Almost Perfect")
})

test_that("a bootstrap is benchmarked on its replicates' SD, without interval warnings", {
  withr::local_seed(3)
  x <- simulate_annotations(40, 3, 4, prevalence = c(0.3, 0.3, 0, 0.5), scenario = "noisy",
                            error = c(0.1, 0.1, 0))
  bo <- mla_boot(mla(x), R = 300)
  # only the message about the constant label's row, which has no SE
  expect_no_warning(bm <- suppressMessages(mla_benchmark(bo, level = "label")))
  ref <- suppressWarnings(tidy(bo, level = "label"))
  ref_sd <- apply(bo$t[, bo$stats$level == "label", drop = FALSE], 2, sd, na.rm = TRUE)
  expect_equal(ref$std.error, unname(ref_sd))
  usable <- is.finite(ref$std.error) & ref$std.error > 0
  expect_equal(bm$std.error[bm$reached], ref$std.error[usable])
  expect_identical(unique(bm$term), ref$term[usable])
})

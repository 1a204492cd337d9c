# mla_sample_size() (R/sample-size.R).

test_that("the noisy generator's error reproduces the target agreement", {
  for (b in baseline_names) {
    e <- noisy_error_for(0.6, c(0.2, 0.4), b)
    an <- analytic_agreement(c(0.2, 0.4), error = e)
    an <- an[an$generator == "noisy" & an$baseline == b, ]
    ae <- mean(an$expected)
    expect_equal((an$observed[1] - ae) / (1 - ae), 0.6, tolerance = 1e-9)
  }
})

test_that("the answer follows the 1/sqrt(n) scaling and is reproducible", {
  res <- withr::with_seed(1, mla_sample_size(0.05, 0.3, 3, 4, agreement = 0.7, pilot = 2000))
  expect_named(res, c("baseline", "agreement", "error", "half_width", "conf.level",
                      "std.error_pilot", "n_items"))
  n <- res$n_items
  expect_lte(stats::qt(0.975, n - 1) * res$std.error_pilot * sqrt(2000 / n), 0.05)
  expect_gt(stats::qt(0.975, n - 2) * res$std.error_pilot * sqrt(2000 / (n - 1)), 0.05)
  expect_identical(withr::with_seed(1, mla_sample_size(0.05, 0.3, 3, 4, 0.7, pilot = 2000)), res)
  half <- withr::with_seed(1, mla_sample_size(0.1, 0.3, 3, 4, 0.7, pilot = 2000))
  expect_lt(abs(half$n_items / n - 1 / 4), 0.02)
  expect_snapshot(error = TRUE, mla_sample_size(0.05, 0.3, 3, 4, agreement = 1))
  expect_snapshot(error = TRUE, mla_sample_size(0, 0.3, 3, 4, agreement = 0.5))
})

test_that("simulated studies of the recommended size have the target half-width", {
  skip_on_cran()
  withr::local_seed(71)
  res <- mla_sample_size(0.04, c(0.1, 0.3, 0.5), 4, 3, agreement = 0.65, baseline = "ac1")
  widths <- vapply(seq_len(100), function(s) {
    a <- simulate_annotations(res$n_items, 4, 3, prevalence = c(0.1, 0.3, 0.5),
                              scenario = "noisy", error = res$error)
    cor <- tidy(mla(a))
    c(half = (cor$conf.high[2] - cor$conf.low[2]) / 2, estimate = cor$estimate[2])
  }, numeric(2))
  expect_lt(abs(mean(widths["half", ]) / 0.04 - 1), 0.05)
  expect_lt(abs(mean(widths["estimate", ]) - 0.65), 0.01)
})

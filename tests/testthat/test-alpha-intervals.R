# Bootstrap intervals of krippendorff_alpha(R > 0) (R/alpha-intervals.R).

test_that("the unit-weight replicate is the point estimate", {
  withr::local_seed(61)
  for (missing in c("none", "records", "cells")) {
    a <- as_annotations(random_design(30, 4, 5, missing = missing))
    counts <- item_label_counts(a)
    pair <- counts$m >= 2L
    one <- matrix(1, 1, nrow(counts$x))
    est <- hamming_alpha_from_sums(
      one %*% ifelse(pair, counts$m, 0), one %*% ifelse(pair, counts$x, 0),
      one %*% ifelse(pair, 2 * counts$x * (counts$m - counts$x) / pmax(counts$m - 1, 1), 0))
    expect_equal(est, krippendorff_alpha(a, "hamming")$estimate, tolerance = 1e-12)
  }
})

test_that("replicates are alpha on resampled items", {
  withr::local_seed(62)
  arr <- random_design(25, 3, 4, missing = "cells")
  a <- as_annotations(arr)
  reps <- withr::with_seed(1, hamming_alpha_replicates(a, 3))
  withr::with_seed(1, {
    for (b in 1:3) {
      idx <- sample.int(25, 25, replace = TRUE)
      ref <- krippendorff_alpha(as_annotations(arr[idx, , , drop = FALSE]), "hamming")$estimate
      expect_equal(reps[b], ref, tolerance = 1e-12)
    }
  })
})

test_that("R > 0 adds std.error and a percentile interval, reproducibly", {
  withr::local_seed(63)
  a <- as_annotations(random_design(40, 4, 3))
  res <- withr::with_seed(2, krippendorff_alpha(a, "hamming", R = 200, conf.level = 0.9))
  expect_named(res, c("distance", "observed_disagreement", "expected_disagreement", "estimate",
                      "n_items", "n_values", "std.error", "conf.low", "conf.high"))
  reps <- withr::with_seed(2, hamming_alpha_replicates(a, 200))
  expect_identical(res$std.error, stats::sd(reps))
  expect_identical(c(res$conf.low, res$conf.high),
                   boot_interval(reps, res$estimate, 0.9, "perc")$ci)
  expect_identical(withr::with_seed(2, krippendorff_alpha(a, "hamming", R = 200, conf.level = 0.9,
                                                          threads = 2)), res)
  expect_false(identical(withr::with_seed(3, krippendorff_alpha(a, "hamming", R = 200)), res))
  expect_named(krippendorff_alpha(a, "hamming"), names(res)[1:6])
})

test_that("Jaccard and MASI rows get NA intervals with a warning", {
  withr::local_seed(64)
  a <- as_annotations(random_design(20, 3, 3))
  expect_warning(res <- krippendorff_alpha(a, R = 20), class = "mlagreement_warning_no_interval")
  expect_false(is.na(res$std.error[res$distance == "hamming"]))
  expect_true(all(is.na(res$conf.low[res$distance != "hamming"])))
  expect_snapshot(error = TRUE, krippendorff_alpha(a, "hamming", R = -1))
  expect_snapshot(error = TRUE, krippendorff_alpha(a, "hamming", R = 10, conf.level = 1))
})

test_that("the bootstrap SE of binary alpha is close to irrCAC's analytic SE", {
  skip_if_not_installed("irrCAC")
  skip_on_cran()
  withr::local_seed(65)
  a <- simulate_annotations(600, 4, 1, prevalence = 0.3, scenario = "noisy", error = 0.15)
  res <- krippendorff_alpha(a, "hamming", R = 1000)
  ratings <- as.array(a)[, , 1]
  ref <- irrCAC::krippen.alpha.raw(ratings, categ.labels = c(0, 1))$est
  expect_equal(res$estimate, ref$coeff.val, tolerance = 1e-5)
  expect_lt(abs(res$std.error / ref$coeff.se - 1), 0.15)
})

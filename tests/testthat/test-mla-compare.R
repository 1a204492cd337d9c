# mla_compare() (R/mla-compare.R): paired and independent item bootstraps of
# the difference between two fits.

compare_fixture <- function(seed = 41) {
  withr::with_seed(seed, simulate_annotations(50, 6, 4, prevalence = c(0.2, 0.3, 0.4, 0.5),
                                              scenario = "noisy", error = 0.15))
}

test_that("two identical groups differ by 0, with an interval containing 0", {
  x <- compare_fixture()
  fit <- mla(x[, 1:3, ])
  # constant differences: no zero-width interval and no p-value
  expect_mla_warning(cmp <- withr::with_seed(1, mla_compare(fit, fit, R = 199)), "boot_constant")
  expect_s3_class(cmp, "mla_compare")
  expect_named(cmp, c("baseline", "estimate_a", "estimate_b", "difference", "conf.low",
                      "conf.high", "p.value"))
  expect_identical(cmp$baseline, baseline_names)
  expect_identical(cmp$difference, c(0, 0, 0))
  expect_true(attr(cmp, "paired"))
  # same seed, same items: every replicate draws the same items for a and b
  expect_identical(unname(attr(cmp, "replicates")), matrix(0, 199, 3))
  expect_identical(cmp$conf.low, rep(NA_real_, 3))
  expect_identical(cmp$conf.high, rep(NA_real_, 3))
  expect_identical(cmp$p.value, rep(NA_real_, 3))
  ind <- withr::with_seed(1, mla_compare(fit, fit, R = 199, paired = FALSE))
  expect_false(attr(ind, "paired"))
  expect_true(all(ind$conf.low < 0 & ind$conf.high > 0))
})

test_that("paired replicates are the two fits' mla_boot() replicates with one seed", {
  x <- compare_fixture()
  a <- mla(x[, 1:3, ])
  b <- mla(x[, 4:6, ])
  cmp <- withr::with_seed(2, mla_compare(a, b, R = 99))
  seed <- attr(cmp, "seeds")[[1]]
  expect_identical(attr(cmp, "seeds")[[2]], seed)
  # mla_boot() draws its seed with sample.int(): replay the same seed
  boot_with_seed <- function(fit) {
    withr::with_seed(2, mla_boot(fit, R = 99))
  }
  ba <- boot_with_seed(a)
  bb <- boot_with_seed(b)
  expect_identical(ba$seed, seed)
  expect_identical(unname(attr(cmp, "replicates")),
                   unname(ba$t[, 1:3] - bb$t[, 1:3]))
  expect_identical(cmp$estimate_a, tidy(a)$estimate)
  expect_identical(cmp$difference, tidy(a)$estimate - tidy(b)$estimate)
  d <- attr(cmp, "replicates")[, "fleiss"]
  expect_identical(cmp$p.value[1],
                   min(1, 2 * min((1 + sum(d <= 0)) / 100, (1 + sum(d >= 0)) / 100)))
  expect_identical(c(cmp$conf.low[1], cmp$conf.high[1]),
                   boot_interval(d, cmp$difference[1], 0.95, "perc")$ci)
})

test_that("pairing uses the common items, in the same order", {
  x <- compare_fixture()
  a <- mla(x[1:40, 1:3, ])
  b <- mla(x[50:11, 4:6, ])  # items 11-40 shared, in another order
  cmp <- withr::with_seed(3, mla_compare(a, b, R = 50))
  common <- as.character(x$items[11:40])
  expect_identical(unname(attr(cmp, "n_items")), c(30L, 30L))
  expect_identical(cmp$estimate_a, tidy(mla(x[common, 1:3, ]))$estimate)
  expect_identical(cmp$estimate_b, tidy(mla(x[common, 4:6, ]))$estimate)
  ind <- withr::with_seed(3, mla_compare(a, b, R = 50, paired = FALSE))
  expect_identical(ind$estimate_a, tidy(a)$estimate)
  expect_identical(unname(attr(ind, "n_items")), c(40L, 40L))
  expect_false(identical(attr(ind, "seeds")[[1]], attr(ind, "seeds")[[2]]))
})

test_that("a paired comparison is more precise than an independent one on the same items", {
  x <- compare_fixture(44)
  # two groups sharing two annotators: strongly correlated over items
  a <- mla(x[, 1:3, ])
  b <- mla(x[, c(1, 2, 4), ])
  width <- function(cmp) cmp$conf.high - cmp$conf.low
  pair <- withr::with_seed(4, mla_compare(a, b, R = 400))
  ind <- withr::with_seed(4, mla_compare(a, b, R = 400, paired = FALSE))
  expect_identical(pair$difference, ind$difference)
  expect_true(all(width(pair) < width(ind)))
})

test_that("reproducible under set.seed() and identical for 1 and 2 threads", {
  x <- compare_fixture()
  a <- mla(x[, 1:3, ])
  b <- mla(x[, 4:6, ])
  one <- withr::with_seed(5, mla_compare(a, b, R = 100, threads = 1))
  two <- withr::with_seed(5, mla_compare(a, b, R = 100, threads = 2))
  expect_identical(one, two)
  expect_identical(withr::with_seed(5, mla_compare(a, b, R = 100)), one)
  expect_false(identical(withr::with_seed(6, mla_compare(a, b, R = 100)), one))
})

test_that("single-label fits stay single-label when paired", {
  withr::local_seed(7)
  codes <- matrix(sample(c("x", "y", "z"), 40 * 4, replace = TRUE), 40, 4)
  codes[, 2] <- ifelse(stats::runif(40) < 0.6, codes[, 1], codes[, 2])
  a <- mla(as_annotations(codes[, 1:2]))
  b <- mla(as_annotations(codes[, 3:4]))
  cmp <- mla_compare(a, b, R = 50)
  expect_identical(cmp$estimate_a, tidy(a)$estimate)
  expect_identical(cmp$estimate_b, tidy(b)$estimate)
})

test_that("print() and autoplot() show the comparison", {
  x <- compare_fixture()
  cmp <- withr::with_seed(8, mla_compare(mla(x[, 1:3, ]), mla(x[, 4:6, ]), R = 50))
  expect_output(print(cmp), "paired item bootstrap")
  skip_if_not_installed("ggplot2")
  p <- ggplot2::autoplot(cmp)
  expect_s3_class(p, "ggplot")
  pts <- ggplot2::layer_data(p, 3)
  expect_equal(sort(pts$x), sort(cmp$difference))
})

test_that("mla_compare() refuses what it cannot compare", {
  x <- compare_fixture()
  a <- mla(x[, 1:3, ])
  expect_snapshot(error = TRUE, mla_compare(a, tidy(a)))
  expect_snapshot(error = TRUE, mla_compare(a, mla(x[, 4:6, ], labels = x$labels[1:2])))
  other <- mla(as_annotations(array(rbinom(60, 1, 0.5), c(5, 3, 4),
                                    dimnames = list(paste0("z", 1:5), NULL, x$labels))))
  expect_snapshot(error = TRUE, mla_compare(a, other, paired = TRUE))
  expect_snapshot(error = TRUE, mla_compare(a, a, R = 1))
})

test_that("conditions without enough items to vary are refused, few items warned about", {
  x <- compare_fixture()
  a <- mla(x[, 1:3, ])
  one <- mla(x[1, 4:6, ])
  expect_mla_snapshot(mla_compare(a, one, R = 50, paired = FALSE), "compare_items")
  expect_mla_error(mla_compare(one, a, R = 50, paired = FALSE), "compare_items")
  # one item with two decisions among single-decision items cannot vary either
  sparse <- x[1:6, 4:6, ]
  arr <- as.array(sparse)
  arr[2:6, 2:3, ] <- NA
  expect_mla_error(mla_compare(a, mla(arr), R = 50, paired = FALSE), "compare_items")
  expect_warning(withr::with_seed(2, mla_compare(a, mla(x[1:8, 4:6, ]), R = 50, paired = FALSE)),
                 "8 items", class = "mlagreement_warning_few_items")
})

test_that("a multi-label fit is not paired with a single-label fit on the same names", {
  withr::local_seed(9)
  codes <- matrix(sample(c("x", "y", "z"), 30 * 3, replace = TRUE), 30, 3,
                  dimnames = list(paste0("i", 1:30), paste0("a", 1:3)))
  single <- mla(as_annotations(codes))
  arr <- array(stats::rbinom(30 * 3 * 3, 1, 0.4), c(30, 3, 3),
               dimnames = list(paste0("i", 1:30), paste0("a", 1:3), c("x", "y", "z")))
  multi <- mla(as_annotations(arr))
  expect_identical(single$labels, multi$labels)  # the names alone would match
  err <- expect_mla_error(mla_compare(multi, single, R = 50), "compare_labels")
  expect_match(conditionMessage(err), "single-label", fixed = TRUE)
  expect_mla_error(mla_compare(single, multi, R = 50, paired = FALSE), "compare_labels")
})

test_that("label weights that differ by a common factor are one structure", {
  withr::local_seed(1)
  x <- simulate_annotations(60, 6, 4, prevalence = 0.3, scenario = "noisy")
  u <- c(L01 = 2, L02 = 1, L03 = 0.5, L04 = 1)
  a <- mla(x[, 1:3, ], label_weights = u)
  b <- mla(x[, 4:6, ], label_weights = 3 * u)
  cmp <- withr::with_seed(4, mla_compare(a, b, R = 50))
  # the same comparison as with the same weights on both sides
  same <- withr::with_seed(4, mla_compare(a, mla(x[, 4:6, ], label_weights = u), R = 50))
  expect_equal(cmp$estimate_b, same$estimate_b, tolerance = 1e-12)
  expect_equal(cmp$difference, same$difference, tolerance = 1e-12)
  expect_equal(cmp$conf.low, same$conf.low, tolerance = 1e-12)
  # different weights: the label whose normalised weight differs most, both values
  c_ <- mla(x[, 4:6, ], label_weights = c(L01 = 2, L02 = 1, L03 = 1, L04 = 1))
  err <- expect_mla_error(mla_compare(a, c_, R = 50), "compare_structure")
  expect_match(conditionMessage(err), "\"L03\" is 0.111 in `a`, 0.2 in `b` (the largest of 4 differences)",
               fixed = TRUE)
})

test_that("a refusal of different label weights names the label and its two weights", {
  withr::local_seed(1)
  x <- simulate_annotations(60, 6, 4, prevalence = 0.3, scenario = "noisy")
  a <- mla(x[, 1:3, ], label_weights = c(L03 = 0.5))
  b <- mla(x[, 4:6, ], label_weights = c(L03 = 0.25))
  expect_mla_snapshot(mla_compare(a, b, R = 50), "compare_structure")
})

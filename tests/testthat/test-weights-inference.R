# Standard errors, intervals, tests and bootstrap replicates of the weighted
# single-label coefficients (weighted Fleiss kappa, AC2, weighted
# Brennan-Prediger), against irrCAC (fixtures/irrcac.rds: irrCAC's results on
# irrCAC's and irr's data sets and one with holes) and the plain-R reference.

test_that("weighted standard errors, intervals and p-values equal irrCAC for every weight", {
  sets <- irrcac_fixture("inference_sets")
  cases <- irrcac_fixture("weighted_inference")
  # every set with every weight, but ratio weights where a category is 0
  # (irrCAC's are 0 / 0 on the diagonal there)
  expect_length(cases, 5 * 7 - 1)
  for (case in cases) {
    m <- sets[[case$set]]
    w <- case$scheme
    what <- paste(case$set, w)
    td <- tidy(mla(m, weights = w), conf.int = TRUE)
    ref <- case$est
    expect_identical(round(td$estimate, 5), ref$coeff.val, label = what)
    expect_identical(round(td$std.error, 5), ref$coeff.se, label = what)
    ci <- parse_irrcac_ci(ref$conf.int)
    expect_identical(round(td$conf.low, 3), ci[, 1], label = what)
    expect_identical(round(td$conf.high, 3), ci[, 2], label = what)
    # irrCAC prints the one-sided 1 - pt(); ours is two-sided
    one_sided <- ifelse(td$statistic > 0, td$p.value / 2, 1 - td$p.value / 2)
    expect_equal(one_sided, ref$p.value, tolerance = 1e-8, label = what)
  }
})

test_that("weighted standard errors equal the plain-R reference, and identity weights the unweighted ones", {
  withr::local_seed(8)
  m <- matrix(sample(1:4, 50 * 6, replace = TRUE), 50, 6)
  m[sample(length(m), 60)] <- NA
  m[3, ] <- NA  # an item nobody rated
  X <- item_label_counts(as_annotations(m))$x
  for (w in c(setdiff(weight_schemes, "identity"), "custom")) {
    W <- if (w == "custom") {
      matrix(c(1, .5, 0, 0, .5, 1, .5, 0, 0, .5, 1, .9, 0, 0, .9, 1), 4)
    } else {
      mla(m, weights = w)$weights$matrix
    }
    td <- tidy(mla(m, weights = W), conf.int = TRUE)
    expect_equal(td$std.error, ref_weighted_se(X, unname(W)), tolerance = 1e-12, label = w)
    expect_equal(td$estimate, ref_weighted(X, unname(W)), tolerance = 1e-12, label = w)
  }
  plain <- tidy(mla(m), conf.int = TRUE)
  identity <- tidy(mla(m, weights = diag(4)), conf.int = TRUE)
  for (col in c("estimate", "std.error", "conf.low", "conf.high", "p.value")) {
    expect_equal(identity[[col]], plain[[col]], tolerance = 1e-12, label = col)
  }
  # the label rows stay the unweighted category-versus-rest coefficients
  expect_equal(tidy(mla(m, weights = "quadratic"), level = "label"),
               tidy(mla(m), level = "label"), tolerance = 1e-12)
})

test_that("item bootstrap replicates of a weighted fit are the weighted coefficients of the engines' draws", {
  withr::local_seed(4)
  m <- matrix(sample(1:5, 40 * 4, replace = TRUE), 40, 4)
  m[sample(length(m), 25)] <- NA
  fit <- mla(m, weights = "quadratic")
  X <- item_label_counts(fit$annotations)$x
  W <- unname(fit$weights$matrix)
  for (args in list(list(), list(cluster = rep(1:20, each = 2)),
                    list(strata = rep(c("a", "b"), 20)))) {
    bs <- withr::with_seed(9, do.call(mla_boot, c(list(fit, R = 30), args)))
    expect_equal(unname(bs$t0[1:3]), tidy(fit)$estimate)
    w <- cpp_boot_draws(bs)$item
    for (b in seq_len(30)) {
      expect_equal(unname(bs$t[b, 1:3]), ref_weighted(X, W, w[, b]), tolerance = 1e-12)
    }
    # the label columns are those of the unweighted fit with the same draws
    plain <- withr::with_seed(9, do.call(mla_boot, c(list(mla(m), R = 30), args)))
    expect_identical(bs$t[, -(1:3)], plain$t[, -(1:3)])
  }
  # identity weights given as a matrix: the unweighted replicates
  eye <- withr::with_seed(2, mla_boot(mla(m, weights = diag(5)), R = 40))
  plain <- withr::with_seed(2, mla_boot(mla(m), R = 40))
  expect_equal(eye$t, plain$t, tolerance = 1e-12)
})

test_that("the jackknife, BCa and as_boot() of a weighted fit use the weighted coefficients", {
  withr::local_seed(6)
  m <- matrix(sample(1:4, 30 * 4, replace = TRUE), 30, 4)
  m[sample(length(m), 10)] <- NA
  fit <- mla(m, weights = "linear")
  X <- item_label_counts(fit$annotations)$x
  W <- unname(fit$weights$matrix)
  bs <- withr::with_seed(1, mla_boot(fit, R = 200))
  loo <- t(vapply(seq_len(nrow(X)), function(i) ref_weighted(X[-i, , drop = FALSE], W), numeric(3)))
  se <- sqrt((nrow(X) - 1) / nrow(X) * colSums(sweep(loo, 2, colMeans(loo))^2))
  expect_equal(jackknife_se(bs)$jackknife_se, se, tolerance = 1e-10)
  ci <- confint(bs, "fleiss", type = "bca")
  expect_true(all(is.finite(unlist(ci))))
  expect_equal(unname(as_boot(bs)$t0[1:3]), tidy(fit)$estimate)
})

test_that("weighted fits refuse annotator resampling and compare with their weights", {
  withr::local_seed(7)
  m <- matrix(sample(1:4, 30 * 4, replace = TRUE), 30, 4)
  fit <- mla(m, weights = "quadratic")
  expect_mla_error(mla_boot(fit, R = 10, resample = "annotators"), "boot_weights")
  expect_mla_error(mla_boot(fit, R = 10, resample = "both"), "boot_weights")
  other <- mla(matrix(sample(1:4, 30 * 4, replace = TRUE), 30, 4), weights = "quadratic")
  cmp <- withr::with_seed(3, mla_compare(fit, other, R = 50))
  expect_equal(cmp$difference[1], tidy(fit)$estimate[1] - tidy(other)$estimate[1])
})

test_that("mla_compare() refuses fits with different category weights", {
  withr::local_seed(2)
  m <- matrix(sample(1:4, 20 * 3, replace = TRUE), 20, 3)
  expect_mla_error(mla_compare(mla(m, weights = "linear"), mla(m), R = 10), "compare_weights")
  expect_mla_error(mla_compare(mla(m, weights = "linear"), mla(m, weights = "quadratic"), R = 10),
                   "compare_weights")
})

test_that("ratio weights with a category at 0 keep a unit diagonal", {
  m <- irrcac_fixture("inference_sets")$raw5obser
  W <- mla(m, weights = "ratio")$weights$matrix
  expect_identical(unname(diag(W)), rep(1, 4))
  values <- 0:3
  ref <- 1 - outer(values, values, function(a, b) ifelse(a == b, 0, ((a - b) / (a + b))^2)) /
    ((3 - 0) / (3 + 0))^2
  expect_equal(unname(W), ref, tolerance = 1e-15)
  X <- item_label_counts(mla(m)$annotations)$x
  expect_equal(tidy(mla(m, weights = "ratio"))$std.error, ref_weighted_se(X, ref), tolerance = 1e-12)
})

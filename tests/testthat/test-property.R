# Property tests: random designs of every shape against the plain-R
# reference, and invariances of the estimators. tools/property.R runs the
# same check on 10,000 designs.

test_that("mla() equals the reference on 1,000 random designs of every shape", {
  withr::local_seed(20261130)
  worst <- vapply(seq_len(test_size(1000, 100)), function(i) {
    d <- random_property_design(property_shapes[(i %% length(property_shapes)) + 1])
    property_mismatch(d$array)
  }, numeric(1))
  expect_true(all(is.finite(worst)))
  expect_lt(max(worst), 1e-12)
})

invariance_design <- function() {
  arr <- random_design(15, 4, 5, missing = "cells", miss_rate = 0.2)
  dimnames(arr) <- list(paste0("item", 1:15), paste0("ann", 1:4), paste0("lab", 1:5))
  arr
}

# conf.int = FALSE: duplicating items changes the standard errors, not the fit
expect_same_fit <- function(a, b, tolerance = 1e-13, conf.int = FALSE) {
  expect_equal(tidy(a, conf.int = conf.int), tidy(b, conf.int = conf.int), tolerance = tolerance)
  la <- tidy(a, level = "label", conf.int = conf.int)
  lb <- tidy(b, level = "label", conf.int = conf.int)
  expect_equal(la[order(la$baseline, la$label), ], lb[order(lb$baseline, lb$label), ],
               tolerance = tolerance, ignore_attr = TRUE)
}

test_that("permuting items, annotators or labels changes nothing", {
  withr::local_seed(31)
  arr <- invariance_design()
  base <- mla(as_annotations(arr))
  expect_same_fit(mla(as_annotations(arr[sample(15), , ])), base)
  expect_same_fit(mla(as_annotations(arr[, sample(4), ])), base)
  expect_same_fit(mla(as_annotations(arr[, , sample(5)])), base)
  perm <- arr[sample(15), sample(4), sample(5)]
  fit <- mla(as_annotations(perm))
  expect_same_fit(fit, base, conf.int = TRUE)
  it_a <- tidy(fit, level = "item")
  it_b <- tidy(base, level = "item")
  expect_equal(it_a[order(it_a$baseline, it_a$item), ], it_b[order(it_b$baseline, it_b$item), ],
               tolerance = 1e-13, ignore_attr = TRUE)
})

test_that("duplicating the whole item set leaves every coefficient unchanged", {
  withr::local_seed(32)
  for (missing in c("none", "records", "cells")) {
    arr <- random_design(12, 4, 4, missing = missing)
    twice <- array(NA_integer_, c(24, 4, 4))
    twice[1:12, , ] <- arr
    twice[13:24, , ] <- arr
    expect_same_fit(mla(as_annotations(twice)), mla(as_annotations(arr)))
  }
})

test_that("renaming ids changes nothing", {
  withr::local_seed(33)
  arr <- invariance_design()
  renamed <- arr
  dimnames(renamed) <- list(paste0("x", 101:115), c("w", "z", "y", "v"), LETTERS[1:5])
  a <- mla(as_annotations(arr))
  b <- mla(as_annotations(renamed))
  expect_identical(tidy(a), tidy(b))
  la <- tidy(a, level = "label")
  lb <- tidy(b, level = "label")
  keys <- c("term", "label")  # the label names differ by construction
  expect_identical(la[setdiff(names(la), keys)], lb[setdiff(names(lb), keys)])
  expect_identical(tidy(a, level = "item")[-1], tidy(b, level = "item")[-1])
})

# Exact values for a complete design from integer counts: with T positives
# and S = sum_i x_i (n - x_i) over N items and n annotators, every label
# coefficient is a ratio of integers that doubles hold exactly here.
exact_label_coefficients <- function(T, S, N, n) {
  nN <- n * N
  c(
    fleiss = ((n - 1) * T * (nN - T) - S * nN) / ((n - 1) * T * (nN - T)),
    ac1 = ((n - 1) * (T^2 + (nN - T)^2) - 2 * S * nN) / ((n - 1) * (T^2 + (nN - T)^2)),
    pabak = (n * (n - 1) * N - 4 * S) / (n * (n - 1) * N)
  )
}

test_that("extreme prevalence keeps full relative precision (exact arithmetic)", {
  N <- 250000
  n <- 4
  arr <- array(0L, c(N, n, 3))
  arr[7, 2, 1] <- 1L                 # one positive among a million decisions
  arr[, , 2] <- 1L
  arr[11, 3, 2] <- 0L                # positive everywhere but once
  withr::with_seed(5, arr[, , 3] <- matrix(stats::rbinom(N * n, 1, 0.001), N, n))
  fit <- mla(as_annotations(arr))
  lab <- tidy(fit, level = "label")
  S <- apply(arr, 3, function(s) { x <- rowSums(s); sum(x * (n - x)) })
  T <- apply(arr, 3, sum)
  for (j in 1:3) {
    exact <- exact_label_coefficients(T[j], S[j], N, n)
    got <- lab$estimate[lab$label == paste0("label_", j)]
    expect_equal(got, unname(exact), tolerance = 1e-12)
  }
  # the extreme labels are exactly -1 / (4N - 1) under the pooled baseline
  expect_equal(lab$estimate[1:2], rep(-1 / (4 * N - 1), 2), tolerance = 1e-12)
  # only one arrangement of their positives exists, so the floor is the estimate
  expect_equal(lab$floor[1:2], lab$estimate[1:2], tolerance = 1e-12)
  # corpus: a ratio of integer sums over labels
  nN <- n * N
  num <- (n - 1) * sum(T * (nN - T)) - nN * sum(S)
  den <- (n - 1) * sum(T * (nN - T))
  expect_equal(tidy(fit)$estimate[1], num / den, tolerance = 1e-12)
})

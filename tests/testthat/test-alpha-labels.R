# krippendorff_alpha(level = "label") (R/alpha-labels.R): the binary alpha
# of each label, checked against irr::kripp.alpha() (fixtures/irr.rds) and a plain-R nominal
# alpha, with intervals checked against resampled designs.

# Nominal alpha of an items x coders matrix (NA missing), Krippendorff (2011):
# coincidences of the pairable values.
plain_nominal_alpha <- function(ratings) {
  values <- sort(unique(c(ratings[!is.na(ratings)])))
  o <- matrix(0, length(values), length(values))
  for (i in seq_len(nrow(ratings))) {
    v <- ratings[i, !is.na(ratings[i, ])]
    m <- length(v)
    if (m < 2) next
    for (u in seq_len(m)) for (w in seq_len(m)[-u]) {
      o[match(v[u], values), match(v[w], values)] <- o[match(v[u], values), match(v[w], values)] + 1 / (m - 1)
    }
  }
  n_c <- rowSums(o)
  n <- sum(n_c)
  1 - (n - 1) * (n - sum(diag(o))) / (n^2 - sum(n_c^2))
}

test_that("each label's alpha is nominal alpha of its 0/1 column", {
  # random_design(40, 4, 5, missing = "cells") under seed 71, with irr's values
  fx <- irr_fixture("alpha_labels")
  arr <- fx$array
  res <- krippendorff_alpha(arr, "hamming", level = "label")
  expect_named(res, c("term", "label", "distance", "observed_disagreement",
                      "expected_disagreement", "estimate", "n_items", "n_values"))
  labels <- as.character(as_annotations(arr)$labels)
  expect_identical(res$label, labels)
  expect_identical(res$term, paste0(labels, ":hamming"))
  ref <- vapply(seq_len(5), function(j) plain_nominal_alpha(arr[, , j]), numeric(1))
  expect_equal(res$estimate, ref, tolerance = 1e-12)
  expect_equal(res$n_values, vapply(1:5, function(j) {
    m <- rowSums(!is.na(arr[, , j]))
    sum(m[m >= 2])
  }, numeric(1)))
  expect_equal(res$estimate, fx$value, tolerance = 1e-12)
  # one label: the label row is the corpus value
  one <- arr[, , 2, drop = FALSE]
  expect_equal(krippendorff_alpha(one, "hamming", level = "label")$estimate,
               krippendorff_alpha(one, "hamming")$estimate, tolerance = 1e-14)
})

test_that("a summary gives the label rows from its label tables; intervals need the records", {
  fx <- irr_fixture("alpha_labels")
  a <- as_annotations(fx$array)
  s <- as_annotation_counts(a)
  plain <- annotation_counts(tidy(s, "labels"), tidy(s, "design"), tidy(s, "annotators"),
                             universe = s$labels)
  for (summary in list(s, plain)) {
    res <- krippendorff_alpha(summary, level = "label")
    expect_identical(res, krippendorff_alpha(a, level = "label"))
    expect_equal(res$estimate, fx$value, tolerance = 1e-12)  # irr::kripp.alpha()
    expect_mla_error(krippendorff_alpha(summary, level = "label", R = 20), "needs_records")
  }
  expect_mla_snapshot(krippendorff_alpha(s, level = "label", R = 20), "needs_records")
})

test_that("label intervals come from resampled items, SEs from leave-one-item-out", {
  skip_on_cran()
  withr::local_seed(72)
  arr <- random_design(30, 4, 3, missing = "cells")
  res <- withr::with_seed(5, krippendorff_alpha(arr, "hamming", R = 40, conf.level = 0.8,
                                                level = "label"))
  seed <- withr::with_seed(5, sample.int(.Machine$integer.max, 2L))
  w <- cpp_harness()$boot_draws(0L, 30L, 0L, integer(0), 30L, 0:29, c(0L, 30L), seed, 40L)$item
  reps <- t(vapply(1:40, function(b) {
    krippendorff_alpha(arr[rep(1:30, w[, b]), , , drop = FALSE], "hamming", level = "label")$estimate
  }, numeric(3)))
  for (j in 1:3) {
    ci <- boot_interval(reps[, j], res$estimate[j], 0.8, "perc")$ci
    expect_equal(c(res$conf.low[j], res$conf.high[j]), ci, tolerance = 1e-12)
    pairable <- which(rowSums(!is.na(arr[, , j])) >= 2)
    loo <- vapply(pairable, function(i) {
      krippendorff_alpha(arr[-i, , , drop = FALSE], "hamming", level = "label")$estimate[j]
    }, numeric(1))
    g <- length(pairable)
    expect_equal(res$std.error[j], sqrt((g - 1) / g * sum((loo - mean(loo))^2)), tolerance = 1e-10)
  }
  expect_identical(withr::with_seed(5, krippendorff_alpha(arr, "hamming", R = 40, conf.level = 0.8,
                                                          level = "label", threads = 2)), res)
})

test_that("single-label nominal data give one row per category", {
  codes <- matrix(c("a", "b", "a", "a", "b", "b", "c", "a", "c", NA, "c", "c"), 4, 3)
  res <- krippendorff_alpha(codes, level = "label")
  one_hot <- as.array(as_annotations(codes))
  expect_equal(res$estimate, vapply(1:3, function(j) plain_nominal_alpha(one_hot[, , j]), 1),
               tolerance = 1e-12)
})

test_that("label level refuses set distances and warns on undefined labels", {
  arr <- array(c(1L, 1L, 1L, 1L, 0L, 1L, 0L, 1L), c(2, 2, 2))
  expect_mla_snapshot(krippendorff_alpha(arr, "jaccard", level = "label"), "alpha_level")
  expect_mla_error(krippendorff_alpha(arr, level = "items"))
  expect_mla_warning(res <- krippendorff_alpha(arr, level = "label"), "undefined")
  expect_true(is.na(res$estimate[1]))
  expect_false(is.na(res$estimate[2]))
})

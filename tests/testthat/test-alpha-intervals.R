# Intervals of krippendorff_alpha(R > 0) (R/alpha-intervals.R,
# inst/include/mlagreement/set_boot.h), checked against krippendorff_alpha() itself
# on resampled and leave-one-out designs built in plain R.

dice <- function(n_a, n_b, n_ab) ifelse(n_a + n_b == 0, 0, 1 - 2 * n_ab / (n_a + n_b))
interval_distances <- list("hamming", "jaccard", "masi", dice = dice)

# The per-item summaries krippendorff_alpha(R > 0) builds for `distance`.
alpha_design <- function(a, distance = interval_distances) {
  specs <- resolve_distances(distance, a, use_default = FALSE)
  out <- krippendorff_alpha(a, distance)
  alpha_item_design(a, specs, interval_kinds(out, a, specs))
}

# The item multiplicities of mla_boot(resample = "items") (n_items x R),
# from the C++ test harness.
item_draws <- function(n_items, seed, R) {
  cpp_harness()$boot_draws(0L, n_items, 0L, integer(0), n_items, seq_len(n_items) - 1L,
                           c(0L, n_items), seed, R)$item
}

# Whole records missing (set distances need complete label sets) and items
# left with fewer than two records.
records_missing_design <- function(n, A, k, rate = 0.3) {
  arr <- random_design(n, A, k)
  gone <- matrix(stats::runif(n * A) < rate, n, A)
  gone[1, ] <- TRUE  # an item without records
  gone[2, -1] <- TRUE  # an item with one record
  for (c in seq_len(A)) arr[gone[, c], c, ] <- NA
  arr
}

test_that("the unit-weight sums give the point estimates", {
  withr::local_seed(61)
  arr <- records_missing_design(30, 4, 5)
  a <- as_annotations(arr)
  design <- alpha_design(a)
  n_s <- tabulate(design$rec_set + 1L, design$sets$n_sets)
  quad <- vapply(design$D, function(D) sum(n_s * (D %*% n_s)), numeric(1))
  est <- alpha_from_design_sums(design, matrix(colSums(design$terms), 1), matrix(quad, 1))
  expect_equal(drop(est), krippendorff_alpha(a, interval_distances)$estimate, tolerance = 1e-12)
})

test_that("each replicate is alpha on the resampled items", {
  skip_on_cran()
  withr::local_seed(62)
  for (arr in list(random_design(25, 3, 4), records_missing_design(25, 4, 6))) {
    a <- as_annotations(arr)
    seed <- c(11L, 12L)
    reps <- alpha_replicates(alpha_design(a), seed, 6)
    w <- item_draws(25L, seed, 6L)
    for (b in 1:6) {
      idx <- rep(seq_len(25), w[, b])
      ref <- krippendorff_alpha(as_annotations(arr[idx, , , drop = FALSE]), interval_distances)
      expect_equal(reps[b, ], ref$estimate, tolerance = 1e-12)
    }
  }
})

test_that("the kernel's sums equal W'terms and n_b' D n_b for every replicate", {
  # R = 77 leaves 1-2 replicates per stream (padded lanes), R = 700 puts
  # 10-11 in a stream (two blocks of lanes, the second partly padded)
  withr::local_seed(67)
  a <- as_annotations(records_missing_design(40, 4, 5))
  design <- alpha_design(a)
  st <- design$sets
  counts <- matrix(0, nrow(design$terms), st$n_sets)  # items x distinct sets
  counts[cbind(rep(seq_len(nrow(counts)), diff(st$start)), st$set + 1L)] <- st$count
  seed <- c(5L, 6L)
  for (R in c(77L, 700L)) {
    w <- item_draws(40L, seed, R)
    n_b <- crossprod(counts, w)  # sets x R
    quad <- vapply(design$D, function(D) colSums(n_b * (D %*% n_b)), numeric(R))
    for (threads in 1:2) {
      res <- alpha_boot_sums(design$terms, st, design$D, seed, R, threads)
      expect_equal(res$sums, crossprod(w, design$terms), tolerance = 1e-13, ignore_attr = TRUE)
      expect_equal(res$quad, quad, tolerance = 1e-13, ignore_attr = TRUE)
    }
  }
})

test_that("single-label nominal replicates are alpha on the resampled items", {
  skip_on_cran()
  withr::local_seed(66)
  codes <- matrix(sample(c("a", "b", "c", NA), 40 * 4, TRUE, c(0.4, 0.3, 0.2, 0.1)), 40, 4)
  seed <- c(3L, 4L)
  reps <- alpha_replicates(alpha_design(as_annotations(codes), "nominal"), seed, 5)
  w <- item_draws(40L, seed, 5L)
  for (b in 1:5) {
    ref <- krippendorff_alpha(codes[rep(seq_len(40), w[, b]), , drop = FALSE], "nominal")
    expect_equal(reps[b, 1], ref$estimate, tolerance = 1e-12)
  }
})

test_that("the jackknife SE is leave-one-item-out alpha", {
  withr::local_seed(63)
  arr <- records_missing_design(20, 4, 5)
  a <- as_annotations(arr)
  se <- alpha_jackknife_se(alpha_design(a))
  n_records <- apply(!is.na(arr[, , 1]), 1, sum)
  pairable <- which(n_records >= 2)
  loo <- t(vapply(pairable, function(i) {
    krippendorff_alpha(as_annotations(arr[-i, , , drop = FALSE]), interval_distances)$estimate
  }, numeric(4)))
  g <- length(pairable)
  ref <- apply(loo, 2, function(t) sqrt((g - 1) / g * sum((t - mean(t))^2)))
  expect_equal(se, ref, tolerance = 1e-10)
})

test_that("R > 0 adds std.error and a percentile interval, reproducibly", {
  withr::local_seed(64)
  a <- as_annotations(random_design(40, 4, 3))
  res <- withr::with_seed(2, krippendorff_alpha(a, interval_distances, R = 200, conf.level = 0.9))
  expect_named(res, c("distance", "observed_disagreement", "expected_disagreement", "estimate",
                      "n_items", "n_values", "std.error", "conf.low", "conf.high"))
  design <- alpha_design(a)
  reps <- alpha_replicates(design, withr::with_seed(2, sample.int(.Machine$integer.max, 2L)), 200)
  expect_identical(res$std.error, alpha_jackknife_se(design))
  for (h in 1:4) {
    expect_identical(c(res$conf.low[h], res$conf.high[h]),
                     boot_interval(reps[, h], res$estimate[h], 0.9, "perc")$ci)
  }
  expect_true(all(res$conf.low < res$estimate & res$estimate < res$conf.high))
  expect_identical(withr::with_seed(2, krippendorff_alpha(a, interval_distances, R = 200,
                                                          conf.level = 0.9, threads = 2)), res)
  expect_false(identical(withr::with_seed(3, krippendorff_alpha(a, interval_distances, R = 200)), res))
  expect_named(krippendorff_alpha(a, "hamming"), names(res)[1:6])
})

test_that("distances without an interval get NA with a warning", {
  withr::local_seed(65)
  a <- as_annotations(random_design(20, 3, 3))
  any_overlap <- function(a, b) as.numeric(length(intersect(a, b)) == 0 && length(c(a, b)) > 0)
  expect_mla_warning(res <- krippendorff_alpha(a, list("jaccard", overlap = any_overlap), R = 50), "no_interval")
  expect_equal(is.na(res$conf.high), c(FALSE, TRUE))
})

test_that("bad R and conf.level, and distance matrices beyond 1 GB, are refused", {
  a <- as_annotations(random_design(20, 3, 3))
  expect_snapshot(error = TRUE, krippendorff_alpha(a, "hamming", R = -1))
  expect_snapshot(error = TRUE, krippendorff_alpha(a, "hamming", R = 10, conf.level = 1))
  expect_snapshot(error = TRUE, check_distance_memory(12000, 2, call = NULL))
  expect_mla_error(check_distance_memory(12000, 1, call = NULL), "alpha_boot_memory")
  expect_silent(check_distance_memory(11000, 1, call = NULL))
  expect_mla_snapshot(krippendorff_alpha(a, "hamming", R = 1), "replicates")
  expect_mla_error(krippendorff_alpha(a, "hamming", R = 1, level = "label"), "replicates")
})

test_that("the jackknife SE of binary alpha is close to irrCAC's analytic SE", {
  skip_on_cran()
  # simulate_annotations(600, 4, 1, prevalence = 0.3, scenario = "noisy",
  # error = 0.15) under seed 65, with irrCAC's alpha (data-raw/fixtures-irrcac.R)
  fx <- irrcac_fixture("alpha_jackknife")
  withr::local_seed(65)
  res <- krippendorff_alpha(fx$array, "hamming", R = 200)
  ref <- fx$est
  expect_equal(res$estimate, ref$coeff.val, tolerance = 1e-5)
  expect_lt(abs(res$std.error / ref$coeff.se - 1), 0.05)
})

# Krippendorff's (2011) coincidence form in plain R: numeric codes (items x
# coders, NA missing), categories the sorted distinct values.
ref_category_alpha <- function(codes, metric) {
  cats <- sort(unique(stats::na.omit(as.vector(codes))))
  q <- length(cats)
  o <- matrix(0, q, q)
  for (i in seq_len(nrow(codes))) {
    v <- match(codes[i, !is.na(codes[i, ])], cats)
    m <- length(v)
    if (m < 2) next
    for (a in seq_len(m)) for (b in seq_len(m)) if (a != b) o[v[a], v[b]] <- o[v[a], v[b]] + 1 / (m - 1)
  }
  nc <- rowSums(o)
  n <- sum(nc)
  delta <- matrix(0, q, q)
  for (c in seq_len(q)) for (k in seq_len(q)) {
    delta[c, k] <- switch(metric,
      ordinal = (sum(nc[min(c, k):max(c, k)]) - (nc[c] + nc[k]) / 2)^2,
      interval = (cats[c] - cats[k])^2,
      ratio = ((cats[c] - cats[k]) / (cats[c] + cats[k]))^2
    )
  }
  diag(delta) <- 0
  1 - (sum(o * delta) / n) / (sum(outer(nc, nc) * delta) / (n * (n - 1)))
}

category_codes <- function(n, seed) {
  withr::with_seed(seed, {
    truth <- sample(c(1, 2, 3, 5), n, TRUE, c(0.3, 0.3, 0.25, 0.15))
    codes <- matrix(truth, n, 4)
    noise <- matrix(stats::runif(n * 4) < 0.3, n, 4)
    codes[noise] <- sample(c(1, 2, 3, 5), sum(noise), TRUE)
    codes[sample(length(codes), 0.1 * length(codes))] <- NA
    codes
  })
}

test_that("the plain-R coincidence reference gives Krippendorff's published values", {
  expect_equal(vapply(c("ordinal", "interval", "ratio"), function(m) ref_category_alpha(krippendorff_nominal(), m), 0),
               c(ordinal = 0.815, interval = 0.849, ratio = 0.797), tolerance = 1e-3)
})

test_that("ordinal, interval and ratio replicates are alpha on the resampled items", {
  skip_on_cran()
  codes <- category_codes(40, seed = 67)
  a <- as_annotations(codes)
  seed <- c(5L, 6L)
  w <- item_draws(40L, seed, 6L)
  for (metric in c("ordinal", "interval", "ratio")) {
    cat <- category_alpha_inputs(a, metric)
    reps <- category_alpha_boot_cpp(cat$counts, cat$metric, cat$values, seed, 6L)
    for (b in 1:6) {
      expect_equal(reps[b], ref_category_alpha(codes[rep(seq_len(40), w[, b]), , drop = FALSE], metric),
                   tolerance = 1e-12)
    }
  }
})

test_that("ordinal, interval and ratio alpha get a jackknife SE and a percentile interval", {
  codes <- category_codes(30, seed = 68)
  metrics <- c("ordinal", "interval", "ratio")
  seed <- withr::with_seed(4, sample.int(.Machine$integer.max, 2L))
  res <- withr::with_seed(4, krippendorff_alpha(codes, metrics, R = 300, conf.level = 0.9))
  a <- as_annotations(codes)
  pairable <- which(rowSums(!is.na(codes)) >= 2)
  for (h in seq_along(metrics)) {
    expect_equal(res$estimate[h], ref_category_alpha(codes, metrics[h]), tolerance = 1e-12)
    loo <- vapply(pairable, function(i) ref_category_alpha(codes[-i, , drop = FALSE], metrics[h]), 0)
    g <- length(loo)
    expect_equal(res$std.error[h], sqrt((g - 1) / g * sum((loo - mean(loo))^2)), tolerance = 1e-10)
    cat <- category_alpha_inputs(a, metrics[h])
    reps <- category_alpha_boot_cpp(cat$counts, cat$metric, cat$values, seed, 300L)
    expect_identical(c(res$conf.low[h], res$conf.high[h]),
                     boot_interval(reps, res$estimate[h], 0.9, "perc")$ci)
  }
  expect_true(all(res$conf.low < res$estimate & res$estimate < res$conf.high))
  expect_identical(withr::with_seed(4, krippendorff_alpha(codes, metrics, R = 300, conf.level = 0.9,
                                                          threads = 2)), res)
})

test_that("interval and ratio alpha SEs are close to irrCAC's analytic SEs", {
  skip_if_not_installed("irrCAC")
  skip_on_cran()
  codes <- category_codes(400, seed = 69)
  res <- withr::with_seed(5, krippendorff_alpha(codes, c("interval", "ratio"), R = 200))
  # Krippendorff's interval and ratio metrics are irrCAC's quadratic and ratio
  # disagreement weights up to a constant factor, which alpha does not see
  for (h in 1:2) {
    ref <- irrCAC::krippen.alpha.raw(codes, weights = c("quadratic", "ratio")[h])$est
    expect_equal(res$estimate[h], ref$coeff.val, tolerance = 1e-5)
    expect_lt(abs(res$std.error[h] / ref$coeff.se - 1), 0.1)
  }
})

test_that("interval and ratio alpha equal irrCAC's quadratic and ratio weights on the values", {
  skip_if_not_installed("irrCAC")
  withr::local_seed(71)
  for (case in 1:6) {
    values <- sort(sample(1:12, sample(3:6, 1)))
    codes <- matrix(sample(values, 30 * 4, TRUE), 30, 4)
    if (case > 3) codes[stats::runif(length(codes)) < 0.25] <- NA
    codes <- codes[rowSums(!is.na(codes)) > 0, , drop = FALSE]
    res <- krippendorff_alpha(codes, c("interval", "ratio"))
    for (h in 1:2) {
      ref <- irrCAC::krippen.alpha.raw(as.data.frame(codes), weights = c("quadratic", "ratio")[h])$est
      expect_lte(abs(res$estimate[h] - ref$coeff.val), 5e-6 + 1e-12)
      expect_equal(res$estimate[h], ref_category_alpha(codes, res$distance[h]), tolerance = 1e-12)
    }
  }
})

test_that("constant replicates and too few items are reported", {
  perfect <- matrix(rep(c(1, 2, 3), 10), 30, 3)
  expect_mla_warning(res <- withr::with_seed(1, krippendorff_alpha(perfect, c("nominal", "interval"), R = 50)), "boot_constant")
  expect_true(all(is.na(c(res$conf.low, res$conf.high))))
  one <- matrix(c(1, 2, 1, NA, NA, 2), 3, 2)
  expect_mla_snapshot(krippendorff_alpha(one, "nominal", R = 20), "boot_items")
  codes <- category_codes(8, seed = 70)
  expect_warning(withr::with_seed(1, krippendorff_alpha(codes, "ordinal", R = 50)), "8 items",
                 class = "mlagreement_warning_few_items")
})

test_that("two items are refused for alpha intervals: their jackknife SE is 0 by construction", {
  withr::local_seed(1)
  two <- as_annotations(array(stats::runif(2 * 4 * 5) < 0.4, c(2, 4, 5)))
  # each leave-one-out alpha is that of one item, the same number for any data
  for (i in 1:2) {
    other <- as_annotations(array(stats::runif(4 * 5) < 0.4, c(1, 4, 5)))
    expect_equal(krippendorff_alpha(two[i, , ], "hamming")$estimate,
                 krippendorff_alpha(other, "hamming")$estimate, tolerance = 1e-12)
  }
  err <- expect_mla_error(krippendorff_alpha(two, "jaccard", R = 50), "boot_items")
  expect_match(conditionMessage(err), "at least 3", fixed = TRUE)
  expect_mla_error(krippendorff_alpha(two, "hamming", R = 50, level = "label"), "boot_items")
  three <- as_annotations(array(stats::runif(3 * 4 * 5) < 0.4, c(3, 4, 5)))
  res <- suppressWarnings(krippendorff_alpha(three, "hamming", R = 50))
  expect_gt(res$std.error, 0)
})

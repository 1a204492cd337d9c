# Standard errors and intervals of percent agreement and of positive /
# negative specific agreement (R/share-inference.R,
# inst/include/mlagreement/agreement_shares.h), against irrCAC's
# pa.coeff.raw() and plain-R references.

# Items x labels x and m of a dense 0/1/NA array.
ref_xm <- function(arr) {
  list(x = apply(arr, c(1, 3), function(v) sum(v == 1, na.rm = TRUE)),
       m = apply(arr, c(1, 3), function(v) sum(!is.na(v))))
}

# Delta-method SE of specific agreement sum a / sum b over the label's rated
# items, written from the ratio-estimator formula.
ref_specific_se <- function(x, m, positive = TRUE) {
  y <- if (positive) x else m - x
  keep <- m >= 1
  pair <- m >= 2
  a <- ifelse(pair, y * (y - 1), 0)[keep]
  b <- ifelse(pair, y * (m - 1), 0)[keep]
  r <- sum(a) / sum(b)
  n <- length(a)
  z <- n * (a - r * b) / sum(b)
  c(estimate = r, se = sqrt(sum(z^2) / (n * (n - 1))))
}

missing_array <- function(n, A, k, seed) {
  withr::with_seed(seed, {
    arr <- as.array(simulate_annotations(n, A, k, prevalence = 0.3, scenario = "noisy", error = 0.15))
    arr[sample(length(arr), 0.1 * length(arr))] <- NA
    arr[1, -1, ] <- NA  # an item with one decision per label
    arr
  })
}

test_that("percent agreement SEs and intervals equal irrCAC's pa.coeff.raw()", {
  skip_if_not_installed("irrCAC")
  withr::local_seed(4)
  codes <- matrix(sample(c("a", "b", "c", NA), 50 * 4, TRUE, c(0.4, 0.3, 0.2, 0.1)), 50, 4)
  codes[1, ] <- c("a", NA, NA, NA)
  fit <- mla(codes)
  ref <- irrCAC::pa.coeff.raw(codes)$est
  cor <- tidy(fit)
  expect_equal(cor$observed, rep(ref$coeff.val, 3), tolerance = 1e-12)
  expect_equal(cor$observed.std.error, rep(ref$coeff.se, 3), tolerance = 1e-4)
  expect_equal(c(cor$observed.conf.low[1], cor$observed.conf.high[1]),
               as.vector(parse_irrcac_ci(ref$conf.int)), tolerance = 1e-3)
  # a label row is percent agreement on the label's 0/1 column
  lab <- tidy(fit, level = "label")
  for (j in 1:3) {
    col <- ifelse(is.na(codes), NA, (codes == c("a", "b", "c")[j]) * 1)
    r <- irrCAC::pa.coeff.raw(col)$est
    row <- lab[lab$label == c("a", "b", "c")[j] & lab$baseline == "fleiss", ]
    expect_equal(row$observed, r$coeff.val, tolerance = 1e-12)
    expect_equal(row$observed.std.error, r$coeff.se, tolerance = 1e-4)
  }
  # weighted percent agreement
  num <- matrix(sample(c(1, 2, 3, NA), 50 * 4, TRUE, c(0.4, 0.3, 0.2, 0.1)), 50, 4)
  for (w in c("linear", "quadratic")) {
    r <- irrCAC::pa.coeff.raw(num, weights = w)$est
    tw <- tidy(mla(num, weights = w))
    expect_equal(tw$observed[1], r$coeff.val, tolerance = 1e-12)
    expect_equal(tw$observed.std.error[1], r$coeff.se, tolerance = 1e-4)
  }
})

test_that("multi-label percent agreement SE is Gwet's linearisation over items", {
  arr <- missing_array(60, 4, 5, seed = 5)
  xm <- ref_xm(arr)
  cor <- tidy(mla(arr))
  ref <- ref_corpus_pa_se(xm$x, xm$m)
  expect_equal(cor$observed[1], unname(ref["estimate"]), tolerance = 1e-12)
  expect_equal(cor$observed.std.error, rep(unname(ref["se"]), 3), tolerance = 1e-12)
  half <- stats::qt(0.975, sum(rowSums(xm$m >= 1) > 0) - 1) * ref[["se"]]
  expect_equal(cor$observed.conf.low[1], ref[["estimate"]] - half, tolerance = 1e-12)
  # the same cells from the records layout (x/m tables) and the dense codes
  dn <- dimnames(arr)
  long <- expand.grid(item = dn[[1]], annotator = dn[[2]], label = dn[[3]], stringsAsFactors = FALSE)
  long$value <- as.vector(arr)
  long <- long[!is.na(long$value), ]
  expect_equal(tidy(mla(annotations_long(long, item, annotator, label, value)))$observed.std.error,
               cor$observed.std.error, tolerance = 1e-12)
})

test_that("multi-label percent agreement SE holds over chunks of one m and of several", {
  # codes of 2048 items a chunk: the first two complete (summed by class from
  # the x nibbles), the third with missing cells, an odd last one; odd labels
  withr::local_seed(6)
  n <- 3 * 2048 + 7
  arr <- array(stats::rbinom(n * 4 * 5, 1, 0.3), c(n, 4, 5))
  third <- 4097:6144
  arr[third, , ][sample(length(third) * 20, 3000)] <- NA
  xm <- ref_xm(arr)
  ref <- ref_corpus_pa_se(xm$x, xm$m)
  cor <- tidy(mla(arr))
  expect_false(is.null(as_annotations(arr)$cells))
  expect_equal(cor$observed[1], unname(ref["estimate"]), tolerance = 1e-12)
  expect_equal(cor$observed.std.error, rep(unname(ref["se"]), 3), tolerance = 1e-12)
  complete <- tidy(mla(arr[1:4096, , ]))
  xm <- ref_xm(arr[1:4096, , ])
  expect_equal(complete$observed.std.error[1], ref_corpus_pa_se(xm$x, xm$m)[["se"]], tolerance = 1e-12)
})

test_that("specific agreement SEs are the delta method of a ratio of item sums", {
  arr <- missing_array(80, 5, 4, seed = 6)
  xm <- ref_xm(arr)
  lab <- tidy(mla(arr), level = "label")
  expect_named(lab, c("term", "label", "baseline", "prevalence", "observed", "expected", "estimate",
                      "weight", "floor", "positive_agreement", "negative_agreement", "note",
                      "std.error", "statistic", "p.value", "conf.low", "conf.high",
                      "observed.std.error", "observed.conf.low", "observed.conf.high",
                      "positive_agreement.std.error", "positive_agreement.conf.low",
                      "positive_agreement.conf.high", "negative_agreement.std.error",
                      "negative_agreement.conf.low", "negative_agreement.conf.high"))
  for (j in 1:4) {
    rows <- lab[lab$label == dimnames(arr)[[3]][j], ]
    pos <- ref_specific_se(xm$x[, j], xm$m[, j], TRUE)
    neg <- ref_specific_se(xm$x[, j], xm$m[, j], FALSE)
    expect_equal(rows$positive_agreement, rep(pos[["estimate"]], 3), tolerance = 1e-12)
    expect_equal(rows$positive_agreement.std.error, rep(pos[["se"]], 3), tolerance = 1e-12)
    expect_equal(rows$negative_agreement.std.error, rep(neg[["se"]], 3), tolerance = 1e-12)
    n <- sum(xm$m[, j] >= 1)
    expect_equal(rows$positive_agreement.conf.low[1],
                 pos[["estimate"]] - stats::qt(0.975, n - 1) * pos[["se"]], tolerance = 1e-12)
    expect_equal(rows$negative_agreement.conf.high[1],
                 min(1, neg[["estimate"]] + stats::qt(0.975, n - 1) * neg[["se"]]), tolerance = 1e-12)
  }
  expect_named(tidy(mla(arr), conf.int = FALSE, level = "label"), names(lab)[1:12])
})

test_that("item bootstrap replicates of specific agreement use mla_boot()'s draws", {
  arr <- missing_array(30, 4, 3, seed = 7)
  bs <- withr::with_seed(8, mla_boot(mla(arr), R = 7))
  w <- cpp_boot_draws(bs)$item
  for (b in seq_len(7)) {
    idx <- rep(seq_len(30), w[, b])
    xm <- ref_xm(arr[idx, , , drop = FALSE])
    ref <- c(vapply(1:3, function(j) ref_specific_se(xm$x[, j], xm$m[, j], TRUE)[["estimate"]], 0),
             vapply(1:3, function(j) ref_specific_se(xm$x[, j], xm$m[, j], FALSE)[["estimate"]], 0))
    expect_equal(boot_specific(bs)$t[b, ], ref, tolerance = 1e-12)
  }
  # the leave-one-item-out values behind BCa
  data <- boot_engine_data(bs)
  jack <- specific_jack_cpp(data$x, data$m, bs$units$unit_start, bs$units$unit_items)
  xm <- ref_xm(arr[-5, , , drop = FALSE])
  expect_equal(jack[5, 2], ref_specific_se(xm$x[, 2], xm$m[, 2], TRUE)[["estimate"]], tolerance = 1e-12)
})

test_that("bootstrap and analytic specific agreement SEs agree on a large sample", {
  skip_on_cran()
  a <- withr::with_seed(9, simulate_annotations(800, 4, 2, prevalence = 0.3, scenario = "noisy",
                                                error = 0.15))
  fit <- mla(a)
  bs <- withr::with_seed(10, mla_boot(fit, R = 1000))
  boot_lab <- tidy(bs, level = "label", type = "perc")
  an <- tidy(fit, level = "label")
  for (col in c("positive_agreement.std.error", "negative_agreement.std.error")) {
    expect_lt(max(abs(boot_lab[[col]] / an[[col]] - 1)), 0.1)
  }
  expect_true(all(boot_lab$positive_agreement.conf.low < boot_lab$positive_agreement &
                    boot_lab$positive_agreement < boot_lab$positive_agreement.conf.high))
  # BCa uses the specific jackknife too
  bca <- tidy(bs, level = "label", type = "bca")
  expect_false(anyNA(bca$positive_agreement.conf.low))
  expect_false(identical(bca$positive_agreement.conf.low, boot_lab$positive_agreement.conf.low))
  # annotator resampling draws no specific agreement
  ba <- withr::with_seed(11, mla_boot(fit, R = 60, resample = "annotators"))
  expect_true(all(is.na(tidy(ba, level = "label", type = "perc")$positive_agreement.std.error)))
})

test_that("a zero standard error gives no interval, with a note", {
  perfect <- matrix(rep(c(1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2), 3), 12, 3)
  fit <- mla(perfect)
  cor <- tidy(fit)
  expect_equal(cor$std.error, rep(0, 3))
  expect_true(all(is.na(c(cor$conf.low, cor$conf.high, cor$statistic, cor$p.value))))
  expect_match(cor$note, "standard error 0", fixed = TRUE)
  expect_true(all(is.na(c(cor$observed.conf.low, cor$observed.conf.high))))
  lab <- tidy(fit, level = "label")
  expect_true(all(is.na(lab$positive_agreement.conf.low)))
  expect_equal(lab$positive_agreement.std.error, rep(0, nrow(lab)))
  # an existing note keeps its text
  expect_equal(zero_se_note(c("a", NA, NA), c(0, 0, 0.1)),
               c("a; standard error 0 (every item's influence term equals the estimate): no interval",
                 "standard error 0 (every item's influence term equals the estimate): no interval", NA))
})

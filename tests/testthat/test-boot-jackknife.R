# The leave-one-annotator-out values behind jackknife_se(), BCa and as_boot()
# after annotator resampling, computed without a J x J matrix, against plain
# refits of mla() on the data without each annotator.

# The coefficients of a refit, in the order of the bootstrap's statistics.
refit_stats <- function(x, labels = NULL) {
  fit <- if (is.null(labels)) mla(x) else mla(x, labels = labels)
  c(fit$corpus$estimate, fit$label$estimate)
}

expect_jackknife_refits <- function(bs, refit_without) {
  jack <- boot_jack_values(bs)
  drawn <- bs$engine$annotator_names
  expect_identical(dim(jack), c(length(drawn), length(bs$t0)))
  for (a in seq_along(drawn)) {
    expect_equal(unname(jack[a, ]), unname(refit_without(drawn[a])), tolerance = 1e-12,
                 label = paste("leaving out", drawn[a]))
  }
}

test_that("multi-label dense designs: leave-one-annotator-out equals refits without the annotator", {
  arr <- withr::with_seed(3, random_design(60, 7, 4, prevalence = 0.3, error = 0.15, n_missing = 80,
                                           names = TRUE))
  bs <- withr::with_seed(1, mla_boot(mla(arr), R = 5, resample = "annotators"))
  expect_jackknife_refits(bs, function(a) refit_stats(arr[, dimnames(arr)[[2]] != a, , drop = FALSE]))
  # every baseline is there: 3 corpus + 3 per label
  expect_identical(length(bs$t0), 3L * (1L + 4L))
})

test_that("records layout, a label subset and an annotator without decisions", {
  arr <- withr::with_seed(8, random_design(40, 6, 5, prevalence = 0.4, error = 0.2, n_missing = 60,
                                           names = TRUE))
  arr[, 6, 1:2] <- NA  # annotator 6 has no decisions on the fit's labels
  df <- as.data.frame.table(arr, responseName = "value", stringsAsFactors = FALSE)
  names(df)[1:3] <- c("item", "annotator", "label")
  df <- df[!is.na(df$value), ]
  df <- df[sample.int(nrow(df)), ]  # records in no particular order
  labels <- dimnames(arr)[[3]]
  long <- function(d) annotations_long(d, item, annotator, label, value, labels = labels)
  x <- long(df)
  expect_false(is_dense_layout(x))
  keep <- labels[1:2]
  bs <- withr::with_seed(1, mla_boot(mla(x, labels = keep), R = 5, resample = "annotators"))
  expect_identical(length(bs$engine$annotator_names), 5L)
  expect_jackknife_refits(bs, function(a) refit_stats(long(df[df$annotator != a, ]), labels = keep))
  # the same values from the plain-R pair enumeration of the bootstrap
  jack <- boot_jack_values(bs)
  for (a in 1:5) {
    expect_equal(unname(jack[a, ]), ref_annotator_stats(arr[, 1:5, 1:2], as.integer(seq_len(5) != a)),
                 tolerance = 1e-12)
  }
})

test_that("single-label designs: leave-one-rater-out equals refits without the rater", {
  codes <- withr::with_seed(4, matrix(sample(c("a", "b", "c", NA), 50 * 6, replace = TRUE,
                                             prob = c(0.5, 0.25, 0.15, 0.1)), 50, 6))
  colnames(codes) <- paste0("r", 1:6)
  cats <- c("a", "b", "c", "d")  # "d" is never chosen
  fit <- mla(as_annotations(codes, labels = cats))
  expect_true(isTRUE(fit$design$single_label))
  bs <- withr::with_seed(1, mla_boot(fit, R = 5, resample = "annotators"))
  expect_jackknife_refits(bs, function(a) {
    refit_stats(as_annotations(codes[, colnames(codes) != a, drop = FALSE], labels = cats))
  })
})

test_that("the annotator jackknife feeds jackknife_se() and BCa with the refits' values", {
  arr <- withr::with_seed(5, random_design(40, 5, 3, prevalence = 0.3, error = 0.1, n_missing = 30,
                                           names = TRUE))
  bs <- withr::with_seed(2, mla_boot(mla(arr), R = 50, resample = "annotators"))
  loo <- t(vapply(1:5, function(a) refit_stats(arr[, -a, , drop = FALSE]), numeric(12)))
  se <- apply(loo, 2, function(v) sqrt(4 / 5 * sum((v - mean(v))^2)))
  expect_equal(jackknife_se(bs)$jackknife_se, se[1:3], tolerance = 1e-12)
  expect_equal(jackknife_se(bs, level = "label")$jackknife_se, se[-(1:3)], tolerance = 1e-12)
  expect_identical(boot_jack_values(bs, threads = 1), boot_jack_values(bs, threads = 2))
})

# Results never depend on the number of threads.
#
# The parallel code paths are the dense counting pass (item chunks of 2048,
# each tallied by the thread that owns it, also over a subset of labels), the
# records-layout counting pass (labels in parallel) and its tally of the x/m
# tables (item chunks of 4096). The designs below are large enough to give
# every thread several chunks, with and without missing decisions.

fit_with_threads <- function(make, threads, labels = NULL) {
  withr::local_options(mlagreement.threads = threads)
  a <- make()
  fit <- mla(a, labels = labels)
  list(
    annotations = a,
    counts = mlagreement:::item_label_counts(a),  # recounted with `threads` for arrays
    corpus = tidy(fit, level = "corpus"),
    label = tidy(fit, level = "label"),
    item = tidy(fit, level = "item"),
    glance = glance(fit),
    design = fit$design
  )
}

expect_same_across_threads <- function(make, labels = NULL) {
  one <- fit_with_threads(make, 1L, labels)
  two <- fit_with_threads(make, 2L, labels)
  expect_identical(two$counts, one$counts)
  expect_identical(two$annotations$tally, one$annotations$tally)
  expect_identical(two$annotations, one$annotations)
  expect_identical(two$corpus, one$corpus)
  expect_identical(two$label, one$label)
  expect_identical(two$item, one$item)
  expect_identical(two$glance, one$glance)
  expect_identical(two$design, one$design)
  invisible(one)
}

test_that("the thread count only changes the thread count, not the results", {
  skip_if_one_thread()
  withr::local_seed(71)
  complete <- random_design(5000, 4, 3)
  cells <- random_design(5000, 4, 3, missing = "cells")
  records <- random_design(5000, 5, 3, missing = "records")

  # dense layout, with the label table tallied in the counting pass
  expect_same_across_threads(function() as_annotations(complete))
  expect_same_across_threads(function() as_annotations(cells))
  one <- expect_same_across_threads(function() as_annotations(records))
  expect_lt(one$glance$coverage, 1)
  # logical and double storage take the same paths with other value codes
  expect_same_across_threads(function() as_annotations(cells == 1L))
  expect_same_across_threads(function() as_annotations(array(as.double(cells), dim(cells))))
  # label subsets count only their labels' columns
  expect_same_across_threads(function() as_annotations(cells), labels = c("label_3", "label_1"))

  # records layout
  expect_same_across_threads(function() {
    annotations_long(as_long(complete), item, annotator, label, value)
  })
  long <- expect_same_across_threads(function() {
    annotations_long(as_long(cells), item, annotator, label, value)
  })
  expect_identical(long$annotations$layout, "records")
  expect_same_across_threads(function() {
    annotations_long(as_long(records), item, annotator, label, value)
  }, labels = c("L2", "L3"))
})

test_that("threads give the same results as the plain-R reference", {
  skip_if_one_thread()
  withr::local_seed(72)
  arr <- random_design(4200, 3, 2, missing = "cells")
  withr::local_options(mlagreement.threads = 2L)
  a <- as_annotations(arr)
  expect_identical(item_x(a), apply(arr, c(1, 3), function(v) sum(v, na.rm = TRUE)))
  expect_identical(item_m(a), apply(arr, c(1, 3), function(v) sum(!is.na(v))))
  ref <- ref_mla(arr, floors = FALSE)
  fit <- mla(a)
  expect_equal(tidy(fit)$observed, rep(ref$corpus_observed, 3), tolerance = 1e-12)
  expect_equal(tidy(fit)$estimate, unname(ref$corpus_estimate), tolerance = 1e-12)
  items <- tidy(fit, level = "item")
  expect_equal(items$observed[items$baseline == "fleiss"], ref$item_observed,
               tolerance = 1e-12)
})

test_that("the first invalid value is reported whatever the thread count", {
  skip_if_one_thread()
  arr <- array(0L, c(6000, 3, 2))
  arr[5000, 2, 1] <- 2L  # in the second thread's chunks
  arr[10, 3, 2] <- 7L    # in the first thread's chunks, later label
  arr[4500, 1, 2] <- 5L
  err <- function(threads) {
    withr::local_options(mlagreement.threads = threads)
    tryCatch(as_annotations(arr), mlagreement_error_value = conditionMessage)
  }
  msg <- err(1L)
  expect_match(msg, "5000", fixed = TRUE)
  expect_identical(err(2L), msg)
  err_long <- function(threads) {
    withr::local_options(mlagreement.threads = threads)
    values <- matrix(as.integer(arr), ncol = 2)
    tryCatch(
      new_annotations(values, "records", rep(1:6000, 3), rep(1:3, each = 6000),
                      1:6000, 1:3, c("L1", "L2")),
      mlagreement_error_value = conditionMessage
    )
  }
  expect_identical(err_long(2L), err_long(1L))
  expect_match(err_long(1L), "5000", fixed = TRUE)
})

test_that("mla_threads() follows the option and check_threads() caps it", {
  withr::local_options(mlagreement.threads = NULL)
  expect_identical(mla_threads(), 1L)
  withr::local_options(mlagreement.threads = 2)
  expect_identical(mla_threads(), min(2L, max_threads_cpp()))
  withr::local_options(mlagreement.threads = 1e6)
  expect_identical(mla_threads(), max_threads_cpp())
  expect_identical(check_threads(1), 1L)
  expect_identical(check_threads(1e6), max_threads_cpp())
  expect_identical(check_threads(.Machine$integer.max), max_threads_cpp())
  expect_gte(max_threads_cpp(), 1L)
  for (bad in list(0, -1, 1.5, NA_real_, NA_integer_, c(1, 2), "2", TRUE, NULL)) {
    expect_mla_error(check_threads(bad), "threads")
  }
  withr::local_options(mlagreement.threads = "2")
  expect_mla_error(mla_threads(), "threads")
})

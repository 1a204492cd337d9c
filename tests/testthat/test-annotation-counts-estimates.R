# Estimates of a sufficient-statistics summary (R/annotation-counts-estimates.R):
# mla(), Hamming alpha and tidy() of a summary equal those of the records it
# summarises; print() and format() show the design.

test_that("a summary of the records gives the records' estimates", {
  withr::local_seed(140)
  for (design in database_designs(test_size(24, 6))) {
    a <- as_annotations(design$array)
    expect_same_estimates(as_annotation_counts(a), a)
    long <- array_long(design$array)
    b <- annotations_long(long, item, annotator, label, value)
    expect_same_estimates(as_annotation_counts(b), b)
  }
})

test_that("single-label summaries report the categorical coefficients", {
  codes <- matrix(c("a", "a", "b", NA, "b", "b", "a", "c", "c", "c", "a", "b"), nrow = 4)
  a <- as_annotations(codes)
  s <- as_annotation_counts(a)
  expect_equal(tidy(mla(s), conf.int = FALSE), tidy(mla(a), conf.int = FALSE), tolerance = 1e-12)
  expect_equal(krippendorff_alpha(s, "hamming"), krippendorff_alpha(a, "hamming"),
               tolerance = 1e-12)
})

test_that("a summary and its fit print the design", {
  s <- as_annotation_counts(bias_annotations())
  fit <- mla(s)
  expect_snapshot(s)
  expect_snapshot(fit)
})

# 3 items x 3 annotators x 2 labels in long form: five records, of which
# (3, b) has no decision and (2, c) misses one.
sparse_long <- function() {
  data.frame(item = rep(c(1, 1, 2, 2, 3), each = 2),
             annotator = rep(c("a", "b", "a", "c", "b"), each = 2),
             label = rep(c("x", "y"), 5),
             value = c(1, 0, 1, 1, 0, 0, 1, NA, NA, NA))
}

test_that("design_counts() tells unassigned cells, empty records and missing decisions apart", {
  counts <- design_counts(annotations_long(sparse_long(), item, annotator, label, value))
  expect_identical(counts[c("n_grid", "n_annotated", "n_unassigned", "n_empty_records",
                            "n_missing_decisions", "n_expected_decisions", "n_decisions")],
                   list(n_grid = 9, n_annotated = 4, n_unassigned = 4, n_empty_records = 1,
                        n_missing_decisions = 1, n_expected_decisions = 10, n_decisions = 7))
  # one empty record (2 decisions) and one missing decision, of 5 records x 2 labels
  expect_equal(design_missing_share(counts), 3 / 10)
  expect_equal(design_coverage(counts), 4 / 9)
  expect_identical(format_design_counts(counts), c(
    "4 of 9 item x annotator cells annotated (44.4%); a sparse design, not missing data",
    paste("1 record without any decision (whole label vector missing);",
          "1 of 8 decisions missing inside annotated records (12.5%)")
  ))
})

test_that("in an array an all-missing record counts as not assigned", {
  arr <- array(c(1L, 0L, 1L, NA, 1L, NA, NA, NA), c(2, 2, 2))
  counts <- design_counts(as_annotations(arr))
  expect_identical(counts[c("n_grid", "n_annotated", "n_unassigned", "n_empty_records",
                            "n_missing_decisions", "n_decisions")],
                   list(n_grid = 4, n_annotated = 3, n_unassigned = 1, n_empty_records = 0,
                        n_missing_decisions = 2, n_decisions = 4))
  expect_identical(format_design_counts(counts), c(
    "3 of 4 item x annotator cells annotated (75.0%)",
    "2 of 6 decisions missing inside annotated records (33.3%)"
  ))
  expect_identical(design_missing_share(list(n_expected_decisions = 0)), NA_real_)
})

# Helpers of the mla-report template (R/report-helpers.R), called directly:
# the report's parameters (label universe, distances), the complete records
# the set distances need, and the sentence and table helpers.

test_that("report helpers: label universes with commas, distances, complete records", {
  expect_null(report_label_universe(""))
  expect_null(report_label_universe(NULL))
  expect_identical(report_label_universe("a, b ,c"), c("a", "b", "c"))
  expect_identical(report_label_universe(c("pain, chest", "fever")), c("pain, chest", "fever"))
  path <- withr::local_tempfile(fileext = ".txt")
  writeLines(c("pain, chest", "", "fever "), path)
  expect_identical(report_label_universe(path), c("pain, chest", "fever"))
  expect_identical(report_distances("masi, hamming"), c("masi", "hamming"))
  expect_error(report_distances("cosine"), class = "mlagreement_error")
  arr <- array(c(1L, 0L, 1L, 1L, 0L, 0L, NA, 1L), c(2, 2, 2))
  rec <- report_complete_records(as_annotations(arr))
  expect_equal(c(rec$n_records, rec$n_partial, rec$n_complete), c(4, 1, 3))
  expect_equal(rec$annotations$n_records, 3)
  expect_identical(rec$annotations$labels, as_annotations(arr)$labels)
  expect_identical(report_count(1, "record"), "1 record")
  expect_identical(report_count(1200, "record"), "1,200 records")
  expect_identical(report_name_list(letters[1:3], 2), "a, b and 1 more")
})

test_that("report helpers: NA and whole-vector parameters, no partial or no complete records", {
  expect_null(report_label_universe(NA))
  expect_null(report_label_universe("   "))
  expect_identical(report_distances(c("jaccard", "hamming")), c("jaccard", "hamming"))
  expect_mla_error(report_distances(c("hamming", "cosine")))
  # no partial record: the annotations come back unchanged
  x <- as_annotations(array(c(1L, 0L, 1L, 1L, 0L, 0L, 1L, 1L), c(2, 2, 2)))
  rec <- report_complete_records(x)
  expect_equal(c(rec$n_records, rec$n_partial, rec$n_complete), c(4, 0, 4))
  expect_identical(rec$annotations, x)
  # every record partial: no annotations for the set distances
  arr <- array(c(1L, 0L, 1L, 1L, NA, NA, NA, NA), c(2, 2, 2))
  rec <- report_complete_records(as_annotations(arr))
  expect_equal(c(rec$n_records, rec$n_partial, rec$n_complete), c(4, 4, 0))
  expect_null(rec$annotations)
  # the complete records keep their values: a record of item 2, annotator 1
  arr <- array(c(1L, 0L, 1L, 1L, 0L, 1L, NA, 0L), c(2, 2, 2))
  rec <- report_complete_records(as_annotations(arr))
  expect_identical(rec$n_complete, 3L)
  kept <- as.array(rec$annotations)
  expect_identical(unname(kept[2, 1, ]), c(0L, 1L))
  expect_true(all(is.na(kept[1, 2, ])))
})

test_that("report helpers: counts, name lists and the universe's order", {
  expect_identical(report_count(0, "record"), "0 records")
  expect_identical(report_count(2, "category", "categories"), "2 categories")
  expect_identical(report_name_list(c("x", "y")), "x, y")
  expect_identical(report_name_list(1:14), "1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 and 2 more")
  tab <- data.frame(label = c("b", "c", "a"), estimate = c(2, 3, 1))
  out <- report_universe_order(tab, c("a", "b", "c"))
  expect_identical(out$label, c("a", "b", "c"))
  expect_identical(out$estimate, c(1, 2, 3))
  # labels outside the universe go last, one row stays a data frame
  expect_identical(report_universe_order(tab, c("c", "a"))$label, c("c", "a", "b"))
  expect_identical(report_universe_order(tab[1, , drop = FALSE], "b"), tab[1, , drop = FALSE])
})

# The item bootstrap of a sufficient-statistics summary
# (R/annotation-counts-boot.R): from the per-item (m, x) tables it keeps, the
# replicates equal those on the records for the same seed; resampling
# annotators needs the records.

test_that("the item bootstrap of a summary equals the records'", {
  withr::local_seed(142)
  for (design in database_designs(12)) {
    a <- as_annotations(design$array)
    fit_a <- mla(a)
    fit_s <- mla(as_annotation_counts(a))
    n <- length(a$items)
    cluster <- paste0("c", rep(seq_len(ceiling(n / 2)), each = 2)[seq_len(n)])
    strata <- ifelse(seq_len(n) <= n / 2, "s1", "s2")
    strata <- strata[match(cluster, cluster)]
    for (args in list(list(), list(cluster = cluster), list(cluster = cluster, strata = strata))) {
      seed <- sample.int(1e6, 1)
      boot <- function(fit) {
        without_few_items_warning(withr::with_seed(seed, do.call(mla_boot, c(list(fit, R = 20), args))))
      }
      b_a <- boot(fit_a)
      b_s <- boot(fit_s)
      expect_identical(b_s$t, b_a$t)
    }
  }
})

test_that("the bootstrap of a summary resamples items only, from per-item tables", {
  a <- bias_annotations()
  s <- as_annotation_counts(a)
  fit <- mla(s)
  expect_mla_snapshot(mla_boot(fit, R = 5, resample = "annotators"), "needs_records")
  expect_mla_error(mla_boot(fit, R = 5, resample = "both"), "needs_records")
  # plain tables have no per-item tables
  s2 <- annotation_counts(tidy(s, "labels"), tidy(s, "design"), tidy(s, "annotators"),
                          universe = a$labels)
  expect_mla_error(mla_boot(mla(s2), R = 5), "needs_records")
})

test_that("per-item tables are bytes while every count fits one, refused above the limit", {
  items <- c("i1", "i2", "i3")
  x <- matrix(c(0, 2, 1, 3, 0, 1), 3)
  m <- matrix(c(2, 2, 3, 3, 1, 2), 3)
  small <- mlagreement:::compact_item_cells(items, x, m, c(3, 3, 3))
  expect_identical(typeof(small$m), "raw")
  expect_identical(matrix(as.integer(small$x), 3), matrix(as.integer(x), 3))
  expect_identical(matrix(as.integer(small$m), 3), matrix(as.integer(m), 3))
  m[2, 2] <- 300
  big <- mlagreement:::compact_item_cells(items, x, m, c(3, 3, 3))
  expect_identical(typeof(big$m), "integer")
  expect_identical(big$m[2, 2], 300L)
  expect_identical(big$items, items)
  # the summary of the records keeps them: per item and label, the positive
  # and the non-missing decisions
  cells <- as_annotation_counts(bias_annotations())$item_cells
  by <- list(bias_example$item, bias_example$label)
  ref_x <- unname(tapply(bias_example$value, by, sum))
  ref_m <- unname(tapply(!is.na(bias_example$value), by, sum))
  expect_identical(matrix(as.integer(cells$x), nrow(cells$x)), ref_x)
  expect_identical(matrix(as.integer(cells$m), nrow(cells$m)), ref_m)
  limit <- mlagreement:::kItemCellLimit
  expect_null(mlagreement:::check_item_cell_size(limit / 10, 10, NULL))
  expect_mla_error(mlagreement:::check_item_cell_size(limit / 10 + 1, 10, NULL),
                   "item_cells_too_large")
})

# Brute force: every item, every ordered pair of different records.
ref_substitution <- function(a) {
  v <- mlagreement:::record_values(a)
  v[is.na(v)] <- 0
  item <- mlagreement:::record_item(a)
  k <- length(a$labels)
  out <- matrix(0, k, k)
  for (i in unique(item)) {
    rows <- which(item == i)
    for (r in rows) for (q in rows) if (r != q) out <- out + outer(v[r, ], v[q, ])
  }
  out
}

test_that("the substitution table matches the brute force (dense, records, single-label)", {
  withr::local_seed(8)
  arr <- random_set_design(30, 4, 5, p = 0.3, missing_records = 0.2, missing_cells = 0.05)
  a <- as_annotations(arr)
  sub <- label_substitution(a)
  expect_equal(unname(sub$count), ref_substitution(a), tolerance = 1e-12)
  expect_equal(dimnames(sub$count), list(a$labels, a$labels))
  expect_true(isSymmetric(unname(sub$count)))
  long <- annotations_long(bias_example, item, annotator, label, value)
  expect_equal(unname(label_substitution(long)$count), ref_substitution(long), tolerance = 1e-12)
  codes <- matrix(sample(c("pos", "neg", "neu"), 60, replace = TRUE), 20, 3)
  codes[1, 1] <- NA
  s1 <- label_substitution(codes)
  # single-label: the table is the coincidence matrix times (m - 1)
  expect_equal(sum(s1$count), sum(s1$n_pairs))
  expect_equal(rowSums(s1$share), rep(1, 3), ignore_attr = TRUE)
})

test_that("tidy() and autoplot() give the long table and a heat map", {
  codes <- matrix(c("a", "a", "b", "b", "b", "a", "c", "c", "a", "b", "c", "c"), nrow = 4)
  sub <- label_substitution(codes)
  td <- tidy(sub)
  expect_named(td, c("label1", "label2", "count", "share"))
  expect_equal(nrow(td), 9)
  expect_equal(levels(td$label1), c("a", "b", "c"))
  expect_equal(td$count[td$label1 == "a" & td$label2 == "b"], sub$count["a", "b"])
  expect_output(print(sub), "mla_substitution")
  skip_if_not_installed("ggplot2")
  p <- ggplot2::autoplot(sub)
  expect_s3_class(p, "ggplot")
  expect_equal(nrow(ggplot2::layer_data(p)), 9)
  expect_s3_class(ggplot2::autoplot(sub, fill = "count"), "ggplot")
  expect_mla_error(ggplot2::autoplot(sub, fill = "x"))
})

test_that("a design without pairs is an error", {
  one <- matrix(c("a", NA, NA, "b"), 2)
  expect_mla_error(label_substitution(one), "unpairable")
})

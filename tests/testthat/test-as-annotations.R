test_that("logical, integer and double arrays agree and the array is not copied", {
  withr::local_seed(8)
  arr <- random_design(10, 3, 4, missing = "cells")
  a_int <- as_annotations(arr)
  storage.mode(arr) <- "double"
  a_dbl <- as_annotations(arr)
  a_lgl <- as_annotations(arr == 1)
  expect_identical(tidy(mla(a_int)), tidy(mla(a_dbl)))
  expect_identical(tidy(mla(a_int)), tidy(mla(a_lgl)))
  skip_if_not(capabilities("profmem"))
  big <- array(0L, c(2000, 5, 20))
  copies <- utils::capture.output({
    tracemem(big)
    fit <- mla(as_annotations(big))
    untracemem(big)
  })
  expect_identical(copies, character())
  expect_equal(tidy(fit)$estimate[2:3], c(1, 1))
})

test_that("categorical matrices are one-hot encoded over the declared labels", {
  codes <- matrix(c("a", "a", "b", NA, "b", "c"), nrow = 3,
                  dimnames = list(c("x", "y", "z"), c("r1", "r2")))
  a <- as_annotations(codes, labels = c("a", "b", "c", "d"))
  expect_equal(a$labels, c("a", "b", "c", "d"))
  expect_equal(dim(a), c(3L, 2L, 4L))
  expect_equal(item_x(a)[, 4], c(0L, 0L, 0L))
  expect_equal(item_m(a)[, 1], c(1L, 2L, 2L))
  expect_equal(a$item_annotators, c(1L, 2L, 2L))
  expect_equal(as_annotations(codes)$labels, c("a", "b", "c"))
  expect_identical(as_annotations(a), a)
})

test_that("constructors take the counting pass's threads and give the same object", {
  withr::local_seed(44)
  arr <- random_design(3000, 4, 3, missing = "cells")
  expect_identical(as_annotations(arr, threads = 2), as_annotations(arr, threads = 1))
  long <- ref_long(array(arr, dim(arr),
                               dimnames = list(seq_len(3000), paste0("a", 1:4), paste0("L", 1:3))))
  long$item <- as.integer(long$item)
  expect_identical(annotations_long(long, item, annotator, label, value, threads = 2),
                   annotations_long(long, item, annotator, label, value, threads = 1))
  expect_mla_error(as_annotations(arr, threads = 0), "threads")
  expect_mla_error(annotations_wide(data.frame(i = 1, a = 1, x = 1), i, a, x, threads = "a"))
})

# Catalogue of bad inputs to the foundation's entry points. Every one must be
# a classed "mlagreement_error" whose message names the argument and the
# offending position; none may crash or return a result.

long_ok <- data.frame(item = c(1, 1, 2, 2), coder = c("a", "b", "a", "b"),
                      label = c("x", "x", "x", "x"), value = c(1, 0, 1, 1))

test_that("bad arrays and matrices are classed errors", {
  bad_value <- array(0L, c(2, 2, 2), dimnames = list(c("s1", "s2"), c("A", "B"), c("x", "y")))
  bad_value[2, 1, 2] <- 2L
  expect_mla_snapshot(as_annotations(bad_value))
  expect_mla_error(as_annotations(bad_value), "value")
  inf_value <- array(0, c(2, 2, 1))
  inf_value[1, 2, 1] <- Inf
  expect_mla_snapshot(as_annotations(inf_value))
  expect_mla_error(as_annotations(inf_value), "value")
  neg_value <- array(0, c(2, 2, 1))
  neg_value[2, 2, 1] <- -1
  expect_mla_error(as_annotations(neg_value), "value")
  expect_mla_snapshot(as_annotations(array("1", c(2, 2, 2))))
  expect_mla_error(as_annotations(array("1", c(2, 2, 2))), "value_type")
  expect_mla_snapshot(as_annotations(array(0L, c(2, 2, 2, 2))))
  expect_mla_error(as_annotations(array(0L, c(2, 2, 2, 2))), "dimensions")
  expect_mla_snapshot(as_annotations(list(1, 2)))
  expect_mla_error(as_annotations(list(1, 2)), "input_type")
  expect_mla_error(as_annotations(NULL), "input_type")
  expect_mla_snapshot(as_annotations(long_ok))
  expect_mla_snapshot(as_annotations(array(0L, c(0, 2, 2))))
  expect_mla_error(as_annotations(array(0L, c(0, 2, 2))), "empty")
  dup_names <- array(0L, c(2, 2, 1), dimnames = list(c("s", "s"), NULL, NULL))
  expect_mla_snapshot(as_annotations(dup_names))
  expect_mla_error(as_annotations(dup_names), "duplicate_name")
  na_names <- array(0L, c(2, 2, 1), dimnames = list(NULL, c("A", NA), NULL))
  expect_mla_error(as_annotations(na_names), "na_id")
  codes <- matrix(c("a", "b", "q", "a"), 2)
  expect_mla_snapshot(as_annotations(codes, labels = c("a", "b")))
  expect_mla_error(as_annotations(codes, labels = c("a", "b")), "unknown_label")
  expect_mla_snapshot(as_annotations(matrix(c(1, 2.5, 1, 2), 2)))
  expect_mla_error(as_annotations(matrix(c(1, 2.5, 1, 2), 2)), "value")
  expect_mla_error(as_annotations(matrix(NA_character_, 2, 2)), "empty")
  expect_mla_error(as_annotations(matrix(1:4, 2), labels = list("a")), "labels")
  expect_mla_error(as_annotations(array(0L, c(2, 2, 2)), "extra"), "dots")
})

test_that("bad long and wide data frames are classed errors", {
  expect_mla_snapshot(annotations_long(as.matrix(long_ok), item, coder, label, value))
  expect_mla_error(annotations_long(as.matrix(long_ok), item, coder, label, value), "input_type")
  expect_mla_snapshot(annotations_long(long_ok, item, rater, label, value))
  expect_mla_error(annotations_long(long_ok, item, rater, label, value), "column")
  expect_mla_snapshot(annotations_long(long_ok, c(item, coder), coder, label, value))
  na_item <- long_ok
  na_item$item[3] <- NA
  expect_mla_snapshot(annotations_long(na_item, item, coder, label, value))
  expect_mla_error(annotations_long(na_item, item, coder, label, value), "na_id")
  na_coder <- long_ok
  na_coder$coder[c(2, 4)] <- NA
  expect_mla_error(annotations_long(na_coder, item, coder, label, value), "na_id")
  chr_value <- long_ok
  chr_value$value <- c("yes", "no", "yes", "yes")
  expect_mla_snapshot(annotations_long(chr_value, item, coder, label, value))
  expect_mla_error(annotations_long(chr_value, item, coder, label, value), "value_type")
  half <- long_ok
  half$value[4] <- 0.5
  expect_mla_snapshot(annotations_long(half, item, coder, label, value))
  expect_mla_error(annotations_long(half, item, coder, label, value), "value")
  nan_value <- long_ok
  nan_value$value[2] <- NaN
  expect_mla_error(annotations_long(nan_value, item, coder, label, value), "value")
  expect_mla_snapshot(
    annotations_long(long_ok, item, coder, label, value, labels = c("y", "z")))
  expect_mla_error(annotations_long(long_ok, item, coder, label, value, labels = "y"),
                   "unknown_label")
  na_label <- long_ok
  na_label$label[1] <- NA
  expect_mla_snapshot(annotations_long(na_label, item, coder, label, value))
  expect_mla_error(annotations_long(na_label, item, coder, label, value), "na_label")
  repeated <- rbind(long_ok, long_ok[c(1, 3), ])
  expect_mla_snapshot(annotations_long(repeated, item, coder, label, value))
  expect_mla_error(annotations_long(repeated, item, coder, label, value), "duplicates")
  expect_mla_snapshot(
    annotations_long(long_ok, item, coder, label, value, duplicates = "keep"))
  expect_mla_error(annotations_long(long_ok, item, coder, label, value, duplicates = "keep"),
                   "arg")
  expect_mla_snapshot(annotations_long(long_ok[0, ], item, coder, label, value))
  expect_mla_error(annotations_long(long_ok[0, ], item, coder, label, value), "empty")
  list_ids <- long_ok
  list_ids$item <- I(as.list(list_ids$item))
  expect_mla_error(annotations_long(list_ids, item, coder, label, value), "id_type")

  wide <- data.frame(item = c(1, 1), coder = c("a", "b"), x = c(1, 0), y = c("1", "no"))
  expect_mla_snapshot(annotations_wide(wide, item, coder, c(x, y)))
  expect_mla_error(annotations_wide(wide, item, coder, c(x, y)), "value_type")
  expect_mla_snapshot(annotations_wide(wide, item, coder, starts_with("z")))
  expect_mla_error(annotations_wide(wide, item, coder, starts_with("z")), "column")
  wide2 <- data.frame(item = c(1, 1), coder = c("a", "b"), x = c(1, 3))
  expect_mla_snapshot(annotations_wide(wide2, item, coder, x))
  expect_mla_error(annotations_wide(wide2, item, coder, x), "value")
})

test_that("designs on which nothing can be estimated are classed errors", {
  one_annotator <- array(c(1L, 0L, 1L, 1L), c(2, 1, 2))
  expect_mla_snapshot(mla(one_annotator))
  expect_mla_error(mla(one_annotator), "one_annotator")
  no_pairs <- array(NA_integer_, c(2, 2, 1))
  no_pairs[1, 1, 1] <- 1L
  no_pairs[2, 2, 1] <- 0L
  expect_mla_snapshot(mla(no_pairs))
  expect_mla_error(mla(no_pairs), "no_pairs")
  all_missing <- array(NA, c(3, 3, 2))
  expect_mla_snapshot(mla(all_missing))
  expect_mla_error(mla(all_missing), "no_data")
  a <- as_annotations(array(c(1L, 0L, 1L, 1L), c(2, 2, 1)))
  expect_mla_snapshot(mla(a, baseline = "cohen"))
  expect_mla_error(mla(a, baseline = "cohen"), "arg")
  expect_mla_error(mla(a, baseline = c("ac1", "pabak")), "arg")
  expect_mla_snapshot(mla(a, labels = c("label_1", "joy")))
  expect_mla_error(mla(a, labels = c("label_1", "joy")), "unknown_label")
  expect_mla_error(mla(a, "fleiss", NULL, "extra"), "dots")
  fit <- mla(a)
  expect_mla_snapshot(tidy(fit, level = "annotator"))
  expect_mla_error(tidy(fit, level = "annotator"), "arg")
  expect_mla_error(tidy(fit, extra = 1), "dots")
  withr::local_options(mlagreement.threads = 0)
  expect_mla_snapshot(mla_threads())
  expect_mla_error(mla_threads(), "threads")
})

test_that("every warning of the package goes through mla_warn(): class mlagreement_warning", {
  ns <- asNamespace("mlagreement")
  fns <- Filter(is.function, mget(ls(ns, all.names = TRUE), envir = ns))
  warns <- vapply(fns, function(f) {
    any(grepl("cli_warn|rlang::warn\\(|(^|[^_.[:alnum:]])warning\\(", deparse(body(f))))
  }, logical(1))
  expect_identical(names(fns)[warns], "mla_warn")
  expect_mla_warning(icc(matrix(1, 4, 3)), "undefined")
})

test_that("the at-least-2-annotators check counts annotators with decisions on the labels analysed", {
  arr <- array(c(1L, 0L, 1L, 1L, 0L, 1L, 0L, 1L, 1L, NA, NA, NA), c(3, 2, 2),
               dimnames = list(NULL, c("a1", "a2"), c("A", "B")))
  expect_s3_class(mla(arr), "mla")
  expect_mla_error(mla(arr, labels = "B"), "one_annotator")
  expect_error(mla(arr, labels = "B"), "It has 1")
})

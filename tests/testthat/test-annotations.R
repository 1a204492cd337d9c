test_that("array, long, selected-label and wide inputs give identical results", {
  withr::local_seed(5)
  arr <- random_design(12, 4, 5, missing = "records")
  dimnames(arr) <- list(sprintf("i%02d", 1:12), paste0("a", 1:4), paste0("L", 1:5))
  fit_arr <- mla(as_annotations(arr))

  idx <- which(!is.na(arr), arr.ind = TRUE)
  long <- data.frame(
    item = sprintf("i%02d", idx[, 1]), annotator = paste0("a", idx[, 2]),
    label = paste0("L", idx[, 3]), value = arr[idx]
  )
  long <- long[sample(nrow(long)), ]
  fit_long <- mla(annotations_long(long, item, annotator, label, value))

  sel <- long[long$value == 1, c("item", "annotator", "label")]
  records <- unique(long[c("item", "annotator")])
  empty <- records[!paste(records$item, records$annotator) %in% paste(sel$item, sel$annotator), ]
  if (nrow(empty) > 0) sel <- rbind(sel, data.frame(empty, label = NA))
  fit_sel <- mla(annotations_long(sel, item, annotator, label, labels = paste0("L", 1:5)))

  wide <- stats::reshape(long, idvar = c("item", "annotator"), timevar = "label",
                         direction = "wide")
  names(wide) <- sub("^value\\.", "", names(wide))
  fit_wide <- mla(annotations_wide(wide, item, annotator, dplyr_free_cols <- paste0("L", 1:5)))

  for (fit in list(fit_long, fit_sel, fit_wide)) {
    expect_identical(tidy(fit), tidy(fit_arr))
    expect_identical(tidy(fit, level = "label"), tidy(fit_arr, level = "label"))
    expect_identical(tidy(fit, level = "item"), tidy(fit_arr, level = "item"))
    expect_identical(glance(fit), glance(fit_arr))
  }
})

test_that("sparse designs do not allocate a dense items x annotators array", {
  withr::local_seed(1)
  n_rec <- 3000
  long <- data.frame(
    item = rep(seq_len(n_rec / 3), each = 3),
    annotator = sample.int(2000, n_rec, replace = TRUE) * 10 + rep(1:3, n_rec / 3),
    label = "a", value = stats::rbinom(n_rec, 1, 0.3)
  )
  a <- annotations_long(long, item, annotator, label, value)
  expect_equal(nrow(a$values), n_rec)
  expect_equal(a$layout, "records")
  expect_true(utils::object.size(a) < 1e6)
})

test_that("dense arrays keep label tables; their item x label tables are recounted", {
  withr::local_seed(5)
  arr <- random_design(300, 4, 5, missing = "cells")
  a <- as_annotations(arr)
  expect_null(a$counts)  # not stored: 40% of the input for a 5-annotator array
  counts <- mlagreement:::item_label_counts(a)
  expect_identical(counts$x, apply(arr, c(1, 3), function(v) sum(v, na.rm = TRUE)))
  expect_identical(counts$m, apply(arr, c(1, 3), function(v) sum(!is.na(v))))
  # the records layout keeps the tables its pass builds anyway
  long <- annotations_long(as.data.frame.table(arr, responseName = "value"),
                           Var1, Var2, Var3, value)
  expect_identical(unname(long$counts$x), unname(counts$x))
  expect_identical(unname(long$counts$m), unname(counts$m))
  expect_identical(long$tally, a$tally)
})

test_that("annotation_view() is the zero-copy bundle the core reads", {
  arr <- array(c(1L, 0L, NA, 1L, 1L, 0L, 0L, 1L), c(2, 2, 2))
  a <- as_annotations(arr)
  v <- annotation_view(a)
  expect_identical(v$values, arr)
  expect_identical(v$item, integer())
  expect_identical(v$annotator, integer())
  expect_identical(v$label_cols, integer())
  expect_identical(c(v$n_items, v$n_annotators, v$n_labels), c(2L, 2L, 2L))
  expect_identical(annotation_view(a, 2)$label_cols, 1L)
  long <- data.frame(item = c("i1", "i1", "i2"), annotator = c("x", "y", "x"),
                     label = c("p", "q", "p"))
  b <- annotations_long(long, item, annotator, label)
  vb <- annotation_view(b)
  expect_identical(vb$item, as.integer(record_item(b) - 1L))
  expect_identical(vb$annotator, as.integer(record_annotator(b) - 1L))
  expect_identical(dim(record_values(b)), c(3L, 2L))
})

test_that("threads reach the counting pass of mla() and leave results unchanged", {
  set.seed(4)
  arr <- array(as.integer(runif(3000 * 4 * 3) < 0.3), c(3000, 4, 3))
  one <- mla(arr, threads = 1)
  two <- mla(arr, threads = 2)
  expect_identical(tidy(two, level = "label"), tidy(one, level = "label"))
  expect_identical(tidy(mla(arr, labels = c("label_1", "label_3"), threads = 2)),
                   tidy(mla(arr, labels = c("label_1", "label_3"), threads = 1)))
  expect_mla_error(mla(arr, threads = 0), "threads")
})

test_that("the annotator bootstrap reads a label subset in place", {
  set.seed(8)
  arr <- array(as.integer(runif(30 * 5 * 4) < 0.4), c(30, 5, 4))
  arr[sample(length(arr), 60)] <- NA
  arr[, 5, 2:3] <- NA  # annotator 5 has decisions only on labels 1 and 4
  keep <- c("label_2", "label_3")
  sub <- mla(as_annotations(arr), labels = keep)
  direct <- mla(as_annotations(arr[, , 2:3, drop = FALSE]))
  t_sub <- withr::with_seed(1, mla_boot(sub, R = 40, resample = "annotators"))$t
  t_direct <- withr::with_seed(1, mla_boot(direct, R = 40, resample = "annotators"))$t
  expect_identical(unname(t_sub), unname(t_direct))
})

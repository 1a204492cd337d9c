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

test_that("ConvAbuse types match the data set's documented numbers", {
  a <- annotations_long(convabuse_types, item, annotator, label, value)
  expect_equal(dim(a), c(4185L, 8L, 7L))
  expect_equal(a$n_records, 12411)
  expect_equal(table(a$item_annotators)[["3"]], 2445L)
  fit <- mla(a)
  # a sparse design, not missing data: 12,411 of 33,480 cells annotated and
  # every annotated record complete
  g <- glance(fit)
  expect_identical(g$missing_share, 0)
  expect_equal(g$coverage, 12411 / (4185 * 8))
  expect_identical(c(g$n_unassigned, g$n_empty_records, g$n_missing_decisions),
                   c(4185 * 8 - 12411, 0, 0))
  # the data README's prevalences are pooled shares of positive decisions
  pooled <- colSums(item_x(a)) / colSums(item_m(a))
  expect_equal(round(mean(pooled), 6), 0.014630)
  expect_equal(round(pooled, 5),
               c(0.00105, 0.00661, 0.02643, 0.00218, 0.02151, 0.04432, 0.00032))
  expect_equal(round(tidy(fit)$observed[1], 6), 0.987649)
  lab <- tidy(fit, level = "label")
  fl <- lab[lab$baseline == "fleiss", ]
  # the coefficients use Gwet's item-averaged prevalence
  expect_equal(fl$prevalence, colMeans(item_x(a) / item_m(a)), tolerance = 1e-12)
  expect_equal(round(fl$estimate, 4),
               c(0.2750, 0.5570, 0.3281, 0.7587, 0.6440, 0.6725, -0.0003))
})

test_that("repeated ConvAbuse annotations are reported, and 'first' undoes them", {
  full <- rbind(convabuse_types, convabuse_repeats[names(convabuse_types)])
  err <- expect_error(annotations_long(full, item, annotator, label, value),
                      class = "mlagreement_error_duplicates")
  expect_match(conditionMessage(err), "345 pairs repeat, with 2,499 surplus decisions")
  expect_match(conditionMessage(err), "re-annotations")
  expect_message(
    first <- annotations_long(full, item, annotator, label, value, duplicates = "first"),
    "dropped 2,499 surplus decisions", class = "mlagreement_message_duplicates")
  main <- annotations_long(convabuse_types, item, annotator, label, value)
  expect_identical(tidy(mla(first), level = "label"), tidy(mla(main), level = "label"))
  expect_identical(item_x(first), item_x(main))
  last <- suppressMessages(
    annotations_long(full, item, annotator, label, value, duplicates = "last"))
  expect_false(identical(item_x(last), item_x(main)))
})

test_that("wide duplicates keep the first or last row", {
  wide <- data.frame(item = c(1, 1, 1, 2, 2), coder = c("a", "b", "a", "a", "b"),
                     x = c(1, 1, 0, 0, 0), y = c(0, 1, 1, 0, 1))
  expect_error(annotations_wide(wide, item, coder, c(x, y)),
               class = "mlagreement_error_duplicates")
  expect_message(first <- annotations_wide(wide, item, coder, c(x, y), duplicates = "first"),
                 "dropped 1 surplus row", class = "mlagreement_message_duplicates")
  last <- suppressMessages(annotations_wide(wide, item, coder, c(x, y), duplicates = "last"))
  expect_equal(item_x(first)[1, ], c(2L, 1L))
  expect_equal(item_x(last)[1, ], c(1L, 2L))
})

test_that("labels never selected stay in the universe", {
  sel <- data.frame(item = c(1, 1, 2, 2), coder = c("a", "b", "a", "b"),
                    tag = factor(c("x", "x", NA, "y"), levels = c("x", "y", "z")))
  a <- annotations_long(sel, item, coder, tag)
  expect_equal(a$labels, c("x", "y", "z"))
  expect_equal(item_m(a)[, 3], c(2L, 2L))
  expect_equal(item_x(a)[, 3], c(0L, 0L))
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

test_that("ids are encoded alike by counting (compact ranges) and by hashing", {
  withr::local_seed(9)
  arr <- random_design(60, 4, 3, missing = "records")
  long <- as_long(arr)
  compact <- annotations_long(long, item, annotator, label, value)
  # the same ids spread over a range far wider than the data: hashed
  spread_ids <- long
  spread_ids$item <- spread_ids$item * 1000000L - 2000000000L
  spread_ids$annotator <- spread_ids$annotator + 1000000000L
  spread <- annotations_long(spread_ids, item, annotator, label, value)
  expect_identical(spread$items, compact$items * 1000000L - 2000000000L)
  expect_identical(spread$annotators, compact$annotators + 1000000000L)
  for (field in c("values", "item", "annotator", "tally", "counts", "n_records")) {
    expect_identical(spread[[field]], compact[[field]])
  }
  # ids as doubles and as characters take the hashing path too
  dbl <- long
  dbl$item <- as.double(dbl$item)
  expect_identical(annotations_long(dbl, item, annotator, label, value)$tally, compact$tally)
  # a sparse design: 50 items x 2000 annotators, 3 annotators per item
  items <- rep(1:50, each = 3)
  coders <- as.vector(replicate(50, sample.int(2000, 3)))
  sparse <- expand.grid(rec = seq_along(items), label = c("a", "b", "c"))
  sparse$item <- items[sparse$rec]
  sparse$coder <- coders[sparse$rec]
  sparse$value <- rbinom(nrow(sparse), 1, 0.4)
  a <- annotations_long(sparse, item, coder, label, value)
  dense <- array(NA_integer_, c(50, 2000, 3), dimnames = list(NULL, NULL, c("a", "b", "c")))
  dense[cbind(sparse$item, sparse$coder, as.integer(sparse$label))] <- sparse$value
  expect_equal(tidy(mla(a), level = "label"), tidy(mla(dense), level = "label"),
               tolerance = 1e-12, ignore_attr = TRUE)
  expect_identical(a$annotators, sort(unique(coders)))
})

test_that("ids that restart in every split are diagnosed as colliding, not as repeats", {
  set.seed(3)
  split_a <- annotations_long_data(simulate_annotations(30, 4, 3, prevalence = 0.3,
                                                        scenario = "noisy"))
  split_b <- annotations_long_data(simulate_annotations(30, 4, 3, prevalence = 0.3,
                                                        scenario = "noisy"))
  pooled <- rbind(cbind(split = "train", split_a), cbind(split = "test", split_b))
  err <- expect_error(annotations_long(pooled, item, annotator, label, value),
                      class = "mlagreement_error_duplicates")
  expect_match(conditionMessage(err), "ids probably collide")
  expect_no_match(conditionMessage(err), "keep one annotation per pair")
  # following "first" anyway is loud about what it drops
  expect_warning(annotations_long(pooled, item, annotator, label, value, duplicates = "first"),
                 "50.0% of the rows", class = "mlagreement_warning_duplicates")
  # the fix the message suggests gives every annotation
  pooled$item <- paste(pooled$split, pooled$item)
  fixed <- annotations_long(pooled, item, annotator, label, value)
  expect_identical(dim(fixed), c(60L, 4L, 3L))
  # a genuine re-annotation (one annotator, one item) is not called a collision
  redo <- rbind(split_a, transform(split_a[split_a$item == split_a$item[1] &
                                             split_a$annotator == split_a$annotator[1], ],
                                   value = 1L - value))
  err <- expect_error(annotations_long(redo, item, annotator, label, value),
                      class = "mlagreement_error_duplicates")
  expect_match(conditionMessage(err), "re-annotations")
})

test_that("decision tables given without value, or with 0/1 as labels, are refused", {
  d <- annotations_long_data(simulate_annotations(20, 3, 4, prevalence = 0.4))
  err <- expect_error(annotations_long(d, item, annotator, label),
                      class = "mlagreement_error_value_missing")
  expect_match(conditionMessage(err), "value = value", fixed = TRUE)
  expect_error(annotations_long(d, item, annotator, value),
               class = "mlagreement_error_label_shape")
  # character 0/1 values (as CSV and JSON readers give them) convert exactly
  chr <- d
  chr$value <- as.character(chr$value)
  expect_identical(annotations_long(chr, item, annotator, label, value),
                   annotations_long(d, item, annotator, label, value))
  chr$value[5] <- "No"
  expect_error(annotations_long(chr, item, annotator, label, value),
               class = "mlagreement_error_value_type")
  # a real selected-labels table where everyone picks everything only warns
  all_picked <- expand.grid(item = 1:3, annotator = c("a", "b"), label = c("x", "y"))
  expect_warning(annotations_long(all_picked, item, annotator, label),
                 class = "mlagreement_warning_all_selected")
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
  expect_error(mla(arr, threads = 0), class = "mlagreement_error_threads")
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

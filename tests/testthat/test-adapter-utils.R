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
  err <- expect_mla_error(annotations_long(pooled, item, annotator, label, value), "duplicates")
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
  err <- expect_mla_error(annotations_long(redo, item, annotator, label, value), "duplicates")
  expect_match(conditionMessage(err), "re-annotations")
})

test_that("repeated ConvAbuse annotations are reported, and 'first' undoes them", {
  full <- rbind(convabuse_types, convabuse_repeats[names(convabuse_types)])
  err <- expect_mla_error(annotations_long(full, item, annotator, label, value), "duplicates")
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

test_that("exact re-submissions are copies, not colliding ids, even on one-annotator items", {
  withr::local_seed(1)
  many <- expand.grid(item = 1:20, coder = c("a", "b", "c"), label = c("x", "y"),
                      stringsAsFactors = FALSE)
  many$value <- stats::rbinom(nrow(many), 1, 0.4)
  single <- expand.grid(item = 21:23, coder = "a", label = c("x", "y"), stringsAsFactors = FALSE)
  single$value <- c(1, 0, 0, 1, 1, 1)
  long <- function(d, ...) annotations_long(d, item, coder, label, value, ...)
  # items 21-23 have one annotator, who submitted the same answer twice
  again <- rbind(many, single, single)
  err <- expect_mla_error(long(again), "duplicates")
  expect_match(conditionMessage(err), "exact copies")
  expect_no_match(conditionMessage(err), "collide")
  expect_no_warning(expect_message(first <- long(again, duplicates = "first"),
                                   "dropped 6 surplus decisions",
                                   class = "mlagreement_message_duplicates"))
  expect_identical(first, long(rbind(many, single)))
  # a file pooled twice repeats every item as a whole, every decision the same
  err <- expect_mla_error(long(rbind(many, many)), "duplicates")
  expect_match(conditionMessage(err), "exact copies")
  # the one annotator changing their answers conflicts, still without a collision
  redo <- rbind(many, single, transform(single, value = 1 - value))
  err <- expect_mla_error(long(redo), "duplicates")
  expect_match(conditionMessage(err), "all 3 repeated pairs differ (6 repeated decisions changed)",
               fixed = TRUE)
  expect_no_match(conditionMessage(err), "collide")
})

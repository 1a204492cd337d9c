split_fixture <- function(seed = 31) {
  set.seed(seed)
  n_ann <- 12
  sizes <- c(1, 2, 3, sample(4:40, n_ann - 3, replace = TRUE))
  d <- do.call(rbind, lapply(seq_len(n_ann), function(a) {
    items <- sample(200, sizes[a])
    # two label rows per annotation (long multi-label layout)
    data.frame(item = rep(items, each = 2), annotator = paste0("r", a),
               label = rep(c("x", "y"), sizes[a]), value = rbinom(2 * sizes[a], 1, 0.3))
  }))
  d$row_id <- seq_len(nrow(d))
  d
}

test_that("annotation_split() keeps rows, annotations and annotators together", {
  d <- split_fixture()
  set.seed(1)
  s <- annotation_split(d, item, annotator, prop = 0.7)
  expect_named(s, c("train", "test"))
  # no row lost or duplicated, order kept
  expect_equal(sort(c(s$train$row_id, s$test$row_id)), d$row_id)
  expect_false(is.unsorted(s$train$row_id))
  # every test annotator is in train; the one-annotation annotator stays in train
  expect_true(all(s$test$annotator %in% s$train$annotator))
  expect_true("r1" %in% s$train$annotator)
  expect_false("r1" %in% s$test$annotator)
  # both rows of an annotation go to the same side
  key <- function(x) paste(x$item, x$annotator)
  expect_length(intersect(key(s$train), key(s$test)), 0)
  # per annotator: ceiling(0.3 n) annotations in test
  n <- table(unique(d[c("item", "annotator")])$annotator)
  n_test <- table(factor(unique(s$test[c("item", "annotator")])$annotator, levels = names(n)))
  expect_equal(as.vector(n_test), as.vector(pmin(ceiling(round(0.3 * n, 9)), n - 1)))
  expect_silent(check_split(s$train, s$test, annotator))
})

test_that("the test share is near 1 - prop and splits are reproducible", {
  set.seed(2)
  d <- data.frame(item = rep(1:500, 4), annotator = rep(1:4, each = 500))
  s <- annotation_split(d, item, annotator, prop = 0.8)
  expect_equal(nrow(s$test) / nrow(d), 0.2, tolerance = 0.01)
  set.seed(99)
  a <- annotation_split(d, item, annotator)
  set.seed(99)
  b <- annotation_split(d, item, annotator)
  expect_identical(a, b)
  set.seed(99)
  a <- annotator_split(d, annotator)
  set.seed(99)
  expect_identical(annotator_split(d, annotator), a)
})

test_that("annotator_split() divides the annotators and check_split() warns", {
  d <- split_fixture()
  set.seed(3)
  s <- annotator_split(d, annotator, prop = 0.7)
  expect_equal(sort(c(s$train$row_id, s$test$row_id)), d$row_id)
  expect_length(intersect(s$train$annotator, s$test$annotator), 0)
  expect_equal(length(unique(s$test$annotator)), ceiling(0.3 * 12))
  expect_mla_warning(missing <- check_split(s$train, s$test, annotator), "unseen_annotators")
  expect_setequal(missing, unique(s$test$annotator))
  fixed <- list(train = d[d$annotator %in% c("r1", "r2"), ],
                test = d[d$annotator %in% c("r2", "r3", "r4"), ])
  expect_snapshot(check_split(fixed$train, fixed$test, annotator))
})

test_that("split errors", {
  d <- split_fixture()
  expect_mla_snapshot(annotation_split(d, item, annotator, prop = 1))
  expect_mla_error(annotation_split(d, item, annotator, prop = 1), "prop")
  expect_mla_snapshot(annotation_split(d, item, annotator, prop = "half"))
  expect_mla_snapshot(annotation_split(d[0, ], item, annotator))
  expect_mla_error(annotation_split(d[0, ], item, annotator), "empty")
  expect_mla_snapshot(annotation_split(d, item, coder))
  expect_mla_error(annotation_split(d, item, coder), "column")
  d$annotator[c(3, 8)] <- NA
  expect_mla_snapshot(annotation_split(d, item, annotator))
  expect_mla_error(annotation_split(d, item, annotator), "na_id")
  one <- data.frame(item = 1:3, annotator = "a")
  expect_mla_snapshot(annotator_split(one, annotator))
  expect_mla_error(annotator_split(one, annotator), "one_annotator")
  expect_mla_snapshot(check_split(one, "test", annotator))
  expect_mla_error(check_split(one, "test", annotator), "input_type")
  expect_mla_snapshot(annotation_split(one, item, annotator, 0.5, 1))
  expect_mla_snapshot(check_split(one, one[-2], annotator))
  expect_mla_error(check_split(one, one[-2], annotator), "column")
})

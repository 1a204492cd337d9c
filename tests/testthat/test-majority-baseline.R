baseline_fixture <- function() {
  list(
    train = data.frame(
      annotator = c("a", "b", "a", "c", "b", "a", "c", "d"),
      label = c("x", "y", "y", "z", "y", "y", "x", "x")
    ),
    # overall counts: x 3, y 4 -> y? (x 3: rows 1, 7, 8; y 4; z 1) -> y
    test = data.frame(annotator = c("a", "b", "c", "d", "e"),
                      label = c("x", "y", "z", "x", "y"))
  )
}

test_that("majority baselines reproduce hand-computed predictions", {
  f <- baseline_fixture()
  overall <- majority_baseline(f$train, f$test, label, type = "overall")
  expect_equal(overall$.pred, rep("y", 5))
  expect_message(ind <- majority_baseline(f$train, f$test, label, annotator, type = "individual"),
                 class = "mlagreement_message_unseen_ids")
  # a: x y y -> y; b: y y -> y; c: z x (tie) -> z, seen first; d: x; e unseen -> overall y
  expect_equal(ind$.pred, c("y", "y", "z", "x", "y"))
  expect_equal(ind[names(f$test)], f$test)
  # overall tie goes to the label seen first in train
  tie <- data.frame(label = c("q", "p", "p", "q"))
  expect_equal(majority_baseline(tie, tie, label)$.pred, rep("q", 4))
})

test_that("baselines agree with a Counter.most_common() transcription on random data", {
  set.seed(41)
  train <- data.frame(annotator = sample(letters[1:8], 300, TRUE),
                      label = sample(c("u", "v", "w"), 300, TRUE, prob = c(0.4, 0.35, 0.25)))
  test <- data.frame(annotator = sample(letters[1:10], 100, TRUE))
  expect_message(ind <- majority_baseline(train, test, label, annotator, type = "individual"),
                 class = "mlagreement_message_unseen_ids")
  overall <- ref_most_frequent(train$label)
  expected <- vapply(test$annotator, function(a) {
    if (a %in% train$annotator) ref_most_frequent(train$label[train$annotator == a]) else overall
  }, character(1), USE.NAMES = FALSE)
  expect_equal(ind$.pred, expected)
})

test_that("predictions keep the label type and feed annotator_metrics()", {
  f <- baseline_fixture()
  f$train$label <- factor(f$train$label, levels = c("z", "y", "x", "w"))
  ind <- suppressMessages(majority_baseline(f$train, f$test, label, annotator, type = "individual"))
  expect_s3_class(ind$.pred, "factor")
  expect_equal(levels(ind$.pred), c("z", "y", "x", "w"))
  res <- annotator_metrics(ind, label, .pred, annotator)
  expect_equal(res$accuracy[1], mean(as.character(ind$.pred) == ind$label))
  f$train$label <- c(1L, 2L, 2L, 3L, 2L, 2L, 1L, 1L)
  expect_type(majority_baseline(f$train, f$test, label)$.pred, "integer")
})

test_that("majority_baseline() errors", {
  f <- baseline_fixture()
  expect_mla_snapshot(majority_baseline(f$train, f$test, label, type = "individual"))
  expect_mla_error(majority_baseline(f$train, f$test, label, type = "individual"), "column")
  expect_mla_snapshot(majority_baseline(f$train, f$test, label, type = "random"))
  bad <- f$train
  bad$label[c(2, 5)] <- NA
  expect_mla_snapshot(majority_baseline(bad, f$test, label))
  expect_mla_error(majority_baseline(bad, f$test, label), "missing_label")
  done <- f$test
  done$.pred <- "x"
  expect_mla_snapshot(majority_baseline(f$train, done, label))
  expect_mla_snapshot(majority_baseline(f$train, f$test[-1], label, annotator,
                                                  type = "individual"))
  expect_mla_error(majority_baseline(f$train, f$test[-1], label, annotator, type = "individual"),
                   "column")
  expect_mla_snapshot(majority_baseline(f$train[0, ], f$test, label))
  expect_mla_snapshot(majority_baseline(list(), f$test, label))
  expect_mla_error(majority_baseline(list(), f$test, label), "input_type")
  sets <- f$train
  sets$label <- as.list(sets$label)
  expect_mla_snapshot(majority_baseline(sets, f$test, label))
})

# The conditions `code` signals of class `class`, muffled.
unseen_messages <- function(code) {
  msgs <- list()
  withCallingHandlers(code, mlagreement_message_unseen_ids = function(m) {
    msgs[[length(msgs) + 1L]] <<- m
    invokeRestart("muffleMessage")
  })
  msgs
}

test_that("test annotators not seen in train get the overall majority, with one message saying how many", {
  f <- baseline_fixture()
  f$test <- f$test[c(1:5, 5, 5), ]
  msgs <- unseen_messages(ind <- majority_baseline(f$train, f$test, label, annotator, type = "individual"))
  expect_length(msgs, 1L)
  text <- cli::ansi_strip(conditionMessage(msgs[[1]]))
  expect_match(text, "3 of 7 rows of `test` have annotator ids not seen in `train` (\"e\")", fixed = TRUE)
  expect_match(text, "the overall majority label \"y\"", fixed = TRUE)
  expect_identical(ind$.pred[5:7], rep("y", 3))
  # every test annotator seen: no message; "overall" matches no ids
  expect_length(unseen_messages(majority_baseline(f$train, f$test[1:4, ], label, annotator,
                                                  type = "individual")), 0L)
  expect_length(unseen_messages(majority_baseline(f$train, f$test, label, annotator)), 0L)
})

test_that("no test annotator seen in train: the message says it is likely an id mismatch", {
  train <- data.frame(lab = c("a", "b", "a", "c", "b", "a", "c", "c"),
                      ann = c("1", "1", "1", "2", "2", "2", "3", "3"))
  test <- data.frame(lab = c("a", "b", "c"), ann = c("1 ", "2 ", "3 "))
  msgs <- unseen_messages(pred <- majority_baseline(train, test, lab, ann, type = "individual"))
  expect_length(msgs, 1L)
  expect_identical(pred$.pred, rep("a", 3))
  text <- cli::ansi_strip(conditionMessage(msgs[[1]]))
  expect_match(text, "No row of `test` has an annotator id seen in `train`: all 3 rows get", fixed = TRUE)
  expect_match(text, "likely an id mismatch", fixed = TRUE)
  expect_match(text, "\"1 \"", fixed = TRUE)
  # numbers against text are matched by value: 1 is "1", no message
  expect_length(unseen_messages(majority_baseline(train, transform(test, ann = 1:3), lab, ann,
                                                  type = "individual")), 0L)
})

test_that("an NA annotator id is refused naming the data frame that holds it", {
  train <- data.frame(annotator = c("a", "a", "b"), label = c("x", "y", "y"))
  test <- data.frame(annotator = c("a", "b", NA))
  err <- expect_mla_snapshot(majority_baseline(train, test, label, annotator, type = "individual"),
                             "na_id")
  expect_match(cli::ansi_strip(conditionMessage(err)), "Column `annotator` of `test`", fixed = TRUE)
  train$annotator[3] <- NA
  test$annotator[3] <- "b"
  err <- expect_mla_snapshot(majority_baseline(train, test, label, annotator, type = "individual"),
                             "na_id")
  expect_match(cli::ansi_strip(conditionMessage(err)), "Column `annotator` of `train`", fixed = TRUE)
})

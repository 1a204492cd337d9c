test_that("per-item predictions: the model is one more annotator", {
  set.seed(51)
  arr <- random_design(30, 4, 3, prevalence = 0.3, record_kept = 0.7, cell_missing = 0.05,
                       names = TRUE)
  model <- matrix(rbinom(30 * 3, 1, 0.35), 30, 3, dimnames = list(NULL, dimnames(arr)[[3]]))
  model[25:30, ] <- NA  # no prediction for the last items
  preds <- data.frame(item = dimnames(arr)[[1]][1:24], model[1:24, ])
  res <- model_agreement(arr, preds, item, labels = -item)
  # reference: the model as a fifth annotator of a dense array
  aug <- array(NA_integer_, dim(arr) + c(0, 1, 0))
  aug[, 1:4, ] <- arr
  aug[, 5, ] <- model
  ref <- ref_annotator_pairs(aug)
  ref_model <- ref[ref$b == 5, ]
  got <- res[res$comparison == "model" & res$annotator != "(all)", ]
  expect_equal(got$annotator, paste0("a", ref_model$a))
  expect_equal(got$n_decisions, ref_model$n_decisions)
  expect_equal(got$observed, ref_model$observed, tolerance = 1e-12)
  expect_equal(got$estimate, ref_model$estimate, tolerance = 1e-12)
  # the human rows are annotator_agreement()'s annotator summary
  humans <- res[res$comparison == "annotators" & res$annotator != "(all)", ]
  summ <- ref_annotator_summary(arr)
  expect_equal(humans$observed, unname(summ[, "observed"]), tolerance = 1e-12)
  expect_equal(humans$estimate, unname(summ[, "estimate"]), tolerance = 1e-12)
  # "(all)" rows pool the pairs
  ref_h <- ref_annotator_pairs(arr)
  all_m <- res[res$annotator == "(all)" & res$comparison == "model", ]
  all_h <- res[res$annotator == "(all)" & res$comparison == "annotators", ]
  expect_equal(all_m$observed, sum(ref_model$observed * ref_model$n_decisions) /
                 sum(ref_model$n_decisions), tolerance = 1e-12)
  ok <- !is.na(ref_h$estimate)
  expect_equal(all_h$estimate, sum(ref_h$estimate[ok] * ref_h$n_items[ok]) /
                 sum(ref_h$n_items[ok]), tolerance = 1e-12)
  expect_equal(all_h$n_decisions, sum(ref_h$n_decisions))
})

test_that("per-(item, annotator) predictions compare each annotator with its own predictions", {
  set.seed(52)
  arr <- random_design(20, 3, 4, prevalence = 0.3, record_kept = 0.8, cell_missing = 0,
                       names = TRUE)
  long <- array_to_long(arr)
  recs <- unique(long[c("item", "annotator")])
  # predictions: the annotator's own labels with ~20% of decisions flipped
  flip <- function(v) ifelse(runif(length(v)) < 0.2, 1L - v, v)
  pred_arr <- arr
  pred_arr[] <- flip(arr)
  preds <- recs
  for (lab in dimnames(arr)[[3]]) {
    preds[[lab]] <- pred_arr[cbind(match(recs$item, dimnames(arr)[[1]]),
                                   match(recs$annotator, dimnames(arr)[[2]]),
                                   match(lab, dimnames(arr)[[3]]))]
  }
  res <- model_agreement(arr, preds, item, annotator, labels = tidyselect::starts_with("L"))
  for (a in dimnames(arr)[[2]]) {
    two <- array(c(arr[, a, ], pred_arr[, a, ]), c(20, 4, 2))
    two <- aperm(two, c(1, 3, 2))
    ref <- ref_annotator_pairs(two)
    row <- res[res$annotator == a & res$comparison == "model", ]
    expect_equal(row$observed, ref$observed, tolerance = 1e-12)
    expect_equal(row$estimate, ref$estimate, tolerance = 1e-12)
  }
  # a perfect copy agrees perfectly
  exact <- preds
  for (lab in dimnames(arr)[[3]]) {
    exact[[lab]] <- arr[cbind(match(recs$item, dimnames(arr)[[1]]),
                              match(recs$annotator, dimnames(arr)[[2]]),
                              match(lab, dimnames(arr)[[3]]))]
  }
  perfect <- model_agreement(arr, exact, item, annotator, labels = tidyselect::starts_with("L"))
  expect_true(all(perfect$observed[perfect$comparison == "model"] == 1))
})

test_that("single-label predictions are one-hot encoded over the labels of x", {
  codes <- matrix(c("a", "b", "a", "c", "a", "b", "b", "c", "a", "c", "b", "c"), 4,
                  dimnames = list(paste0("i", 1:4), c("r1", "r2", "r3")))
  preds <- data.frame(item = paste0("i", 1:4), label = factor(c("a", "b", "b", "c")))
  res <- model_agreement(codes, preds, item, labels = label)
  # equals a model column added to the categorical matrix
  aug <- cbind(codes, model = as.character(preds$label))
  pairs <- tidy(annotator_agreement(as_annotations(aug, labels = c("a", "b", "c"))))
  mp <- pairs[pairs$annotator2 == "model", ]
  got <- res[res$comparison == "model" & res$annotator != "(all)", ]
  expect_equal(got$estimate, mp$estimate, tolerance = 1e-12)
  expect_equal(got$observed, mp$observed, tolerance = 1e-12)
  expect_equal(names(res), c("annotator", "comparison", "n_decisions", "observed", "estimate"))
})

test_that("model_agreement() errors", {
  codes <- matrix(c("a", "b", "a", "c", "a", "b"), 2,
                  dimnames = list(c("i1", "i2"), c("r1", "r2", "r3")))
  ok <- data.frame(item = c("i1", "i2"), label = c("a", "b"))
  expect_mla_snapshot(model_agreement(codes, transform(ok, item = c("i1", "i9")),
                                                item, labels = label))
  expect_error(model_agreement(codes, transform(ok, item = c("i1", "i9")), item, labels = label),
               class = "mlagreement_error_unknown_id")
  expect_mla_snapshot(model_agreement(codes, transform(ok, label = c("a", "z")),
                                                item, labels = label))
  expect_error(model_agreement(codes, transform(ok, label = c("a", "z")), item, labels = label),
               class = "mlagreement_error_unknown_label")
  expect_mla_snapshot(model_agreement(codes, transform(ok, label = c("a", NA)),
                                                item, labels = label))
  expect_mla_snapshot(model_agreement(codes, rbind(ok, ok), item, labels = label))
  expect_error(model_agreement(codes, rbind(ok, ok), item, labels = label),
               class = "mlagreement_error_duplicates")
  wide <- data.frame(item = c("i1", "i2"), a = 1:0, b = 0:1, d = 0L)
  expect_mla_snapshot(model_agreement(codes, wide, item, labels = -item))
  wide2 <- data.frame(item = c("i1", "i2"), a = c(1, 0.5), b = 0, c = 0)
  expect_mla_snapshot(model_agreement(codes, wide2, item, labels = -item))
  expect_error(model_agreement(codes, wide2, item, labels = -item), class = "mlagreement_error")
  wide3 <- data.frame(item = c("i1", "i2"), a = c(1, NA), b = 0, c = 0)
  expect_mla_snapshot(model_agreement(codes, wide3, item, labels = -item))
  expect_error(model_agreement(codes, wide3, item, labels = -item),
               class = "mlagreement_error_missing_label")
  expect_mla_snapshot(model_agreement(codes, ok, item, annotator, labels = label))
  expect_mla_snapshot(model_agreement(codes, ok[0, ], item, labels = label))
  expect_mla_snapshot(model_agreement(codes, "ok", item, labels = label))
  expect_mla_snapshot(model_agreement(codes, transform(ok, item = c("i1", NA)),
                                                item, labels = label))
})

# The stand-in comparison in plain R: for annotator a, on the items where a
# has decisions and a prediction, the prediction (model) or a's own labels
# (annotators) against every other annotator b of the item, pooled over the
# decisions both made; estimate against the corpus baseline of arr.
ref_stand_in <- function(arr, pred_arr) {
  w <- ref_corpus_w(arr)
  has <- apply(arr, c(1, 2), function(v) any(!is.na(v)))
  has_pred <- apply(pred_arr, c(1, 2), function(v) any(!is.na(v)))
  one <- function(a, stand) {
    agree <- dec <- 0
    for (i in which(has[, a] & has_pred[, a])) {
      mine <- if (stand == "model") pred_arr[i, a, ] else arr[i, a, ]
      for (b in setdiff(which(has[i, ]), a)) {
        both <- !is.na(mine) & !is.na(arr[i, b, ])
        agree <- agree + sum(mine[both] == arr[i, b, both])
        dec <- dec + sum(both)
      }
    }
    c(agree = agree, dec = dec)
  }
  rows <- expand.grid(comparison = c("model", "annotators"), a = seq_len(dim(arr)[2]),
                      stringsAsFactors = FALSE)
  sums <- t(mapply(one, rows$a, rows$comparison))
  all <- rbind(colSums(sums[rows$comparison == "model", , drop = FALSE]),
               colSums(sums[rows$comparison == "annotators", , drop = FALSE]))
  sums <- rbind(all, sums)
  observed <- ifelse(sums[, "dec"] > 0, sums[, "agree"] / sums[, "dec"], NA)
  data.frame(annotator = c("(all)", "(all)", dimnames(arr)[[2]][rows$a]),
             comparison = c("model", "annotators", rows$comparison),
             n_decisions = as.integer(sums[, "dec"]), observed = observed,
             estimate = 1 - (1 - observed) / w, stringsAsFactors = FALSE)
}

expect_stand_in <- function(res, ref) {
  expect_identical(res$annotator, ref$annotator)
  expect_identical(res$comparison, ref$comparison)
  expect_identical(res$n_decisions, ref$n_decisions)
  expect_equal(res$observed, ref$observed, tolerance = 1e-12)
  expect_equal(res$estimate, ref$estimate, tolerance = 1e-12)
}

test_that("per-item predictions stand in for every annotator of the item", {
  set.seed(51)
  arr <- random_design(30, 4, 3, prevalence = 0.3, record_kept = 0.7, cell_missing = 0.05,
                       names = TRUE)
  model <- matrix(rbinom(30 * 3, 1, 0.35), 30, 3, dimnames = list(NULL, dimnames(arr)[[3]]))
  model[25:30, ] <- NA  # no prediction for the last items
  preds <- data.frame(item = dimnames(arr)[[1]][1:24], model[1:24, ])
  res <- model_agreement(arr, preds, item, labels = -item)
  pred_arr <- arr
  for (a in seq_len(4)) pred_arr[, a, ] <- model
  expect_stand_in(res, ref_stand_in(arr, pred_arr))
})

test_that("a model that copies an annotator gets that annotator's coefficient", {
  set.seed(53)
  arr <- random_design(40, 5, 3, prevalence = 0.3, record_kept = 0.7, names = TRUE)
  a <- dimnames(arr)[[2]][2]
  mine <- apply(arr[, a, ], 1, function(v) any(!is.na(v)))
  preds <- data.frame(item = dimnames(arr)[[1]][mine], arr[mine, a, ])
  res <- model_agreement(arr, preds, item, labels = -item)
  rows <- res[res$annotator == a, ]
  expect_identical(rows$n_decisions[1], rows$n_decisions[2])
  expect_identical(rows$estimate[1], rows$estimate[2])
  expect_identical(rows$observed[1], rows$observed[2])
})

test_that("per-(item, annotator) predictions stand in for their own annotator", {
  set.seed(52)
  arr <- random_design(20, 3, 4, prevalence = 0.3, record_kept = 0.8, cell_missing = 0,
                       names = TRUE)
  long <- ref_long(arr)
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
  expect_stand_in(res, ref_stand_in(arr, pred_arr))
  # perfect copies: the model rows equal the annotator rows
  exact <- preds
  for (lab in dimnames(arr)[[3]]) {
    exact[[lab]] <- arr[cbind(match(recs$item, dimnames(arr)[[1]]),
                              match(recs$annotator, dimnames(arr)[[2]]),
                              match(lab, dimnames(arr)[[3]]))]
  }
  perfect <- model_agreement(arr, exact, item, annotator, labels = tidyselect::starts_with("L"))
  expect_identical(perfect$estimate[perfect$comparison == "model"],
                   perfect$estimate[perfect$comparison == "annotators"])
})

test_that("single-label predictions are one-hot encoded over the labels of x", {
  codes <- matrix(c("a", "b", "a", "c", "a", "b", "b", "c", "a", "c", "b", "c"), 4,
                  dimnames = list(paste0("i", 1:4), c("r1", "r2", "r3")))
  preds <- data.frame(item = paste0("i", 1:4), label = factor(c("a", "b", "b", "c")))
  res <- model_agreement(codes, preds, item, labels = label)
  # equals the stand-in reference on the one-hot arrays
  onehot <- function(m) {
    arr <- array(NA_integer_, c(dim(m), 3), dimnames = c(dimnames(m), list(c("a", "b", "c"))))
    for (k in c("a", "b", "c")) arr[, , k] <- ifelse(is.na(m), NA, as.integer(m == k))
    arr
  }
  arr <- onehot(codes)
  pred_arr <- onehot(matrix(as.character(preds$label), 4, 3, dimnames = dimnames(codes)))
  # the scores of the one-hot (Hamming) comparison; observed and n_decisions
  # are on the category scale (see the single-label test below)
  ref <- ref_stand_in(arr, pred_arr)
  expect_identical(res$annotator, ref$annotator)
  expect_identical(res$n_decisions, ref$n_decisions %/% 3L)
  expect_equal(res$estimate, ref$estimate, tolerance = 1e-12)
  wide <- data.frame(item = preds$item, a = as.integer(preds$label == "a"),
                     b = as.integer(preds$label == "b"), c = as.integer(preds$label == "c"))
  expect_identical(model_agreement(codes, wide, item, labels = -item), res)
  expect_equal(names(res), c("annotator", "comparison", "n_decisions", "observed", "estimate"))
})

test_that("model_agreement() errors", {
  codes <- matrix(c("a", "b", "a", "c", "a", "b"), 2,
                  dimnames = list(c("i1", "i2"), c("r1", "r2", "r3")))
  ok <- data.frame(item = c("i1", "i2"), label = c("a", "b"))
  expect_mla_snapshot(model_agreement(codes, transform(ok, item = c("i1", "i9")),
                                                item, labels = label))
  expect_mla_error(model_agreement(codes, transform(ok, item = c("i1", "i9")), item, labels = label),
                   "unknown_id")
  expect_mla_snapshot(model_agreement(codes, transform(ok, label = c("a", "z")),
                                                item, labels = label))
  expect_mla_error(model_agreement(codes, transform(ok, label = c("a", "z")), item, labels = label),
                   "unknown_label")
  expect_mla_snapshot(model_agreement(codes, transform(ok, label = c("a", NA)),
                                                item, labels = label))
  expect_mla_snapshot(model_agreement(codes, rbind(ok, ok), item, labels = label))
  expect_mla_error(model_agreement(codes, rbind(ok, ok), item, labels = label), "duplicates")
  wide <- data.frame(item = c("i1", "i2"), a = 1:0, b = 0:1, d = 0L)
  expect_mla_snapshot(model_agreement(codes, wide, item, labels = -item))
  wide2 <- data.frame(item = c("i1", "i2"), a = c(1, 0.5), b = 0, c = 0)
  expect_mla_snapshot(model_agreement(codes, wide2, item, labels = -item))
  expect_mla_error(model_agreement(codes, wide2, item, labels = -item))
  wide3 <- data.frame(item = c("i1", "i2"), a = c(1, NA), b = 0, c = 0)
  expect_mla_snapshot(model_agreement(codes, wide3, item, labels = -item))
  expect_mla_error(model_agreement(codes, wide3, item, labels = -item), "missing_label")
  expect_mla_snapshot(model_agreement(codes, ok, item, annotator, labels = label))
  expect_mla_snapshot(model_agreement(codes, ok[0, ], item, labels = label))
  expect_mla_snapshot(model_agreement(codes, "ok", item, labels = label))
  expect_mla_snapshot(model_agreement(codes, transform(ok, item = c("i1", NA)),
                                                item, labels = label))
  per_rater <- data.frame(item = c("i1", "i2", "i1"), rater = c("r1", "r1", "r1"), label = "a")
  expect_mla_snapshot(model_agreement(codes, per_rater, item, rater, labels = label))
  expect_no_error(model_agreement(codes, per_rater[1:2, ], item, rater, labels = label))
})

test_that("single-label designs: observed and n_decisions count category comparisons", {
  set.seed(72)
  cats <- c("p", "q", "r")
  m <- random_categorical(30, 4, cats, missing = 0.3)
  dimnames(m) <- list(sprintf("i%02d", 1:30), paste0("a", 1:4))
  long <- category_long(m)
  x <- annotations_long(long, item, annotator, category, labels = cats, single_label = TRUE)
  preds <- long[sample(nrow(long), round(0.7 * nrow(long))), c("item", "annotator")]
  preds$pred <- sample(cats, nrow(preds), replace = TRUE)
  res <- model_agreement(x, preds, item, annotator, labels = pred)
  stand <- matrix(NA_character_, nrow(m), ncol(m), dimnames = dimnames(m))
  stand[cbind(match(preds$item, rownames(m)), match(preds$annotator, colnames(m)))] <- preds$pred
  model <- ref_category_annotators(m, stand)
  own <- ref_category_annotators(m, ifelse(is.na(stand), NA, m))
  agree <- c(sum(model[, "agree"]), sum(own[, "agree"]), rbind(model[, "agree"], own[, "agree"]))
  n <- c(sum(model[, "n"]), sum(own[, "n"]), rbind(model[, "n"], own[, "n"]))
  expect_identical(res$n_decisions, as.integer(n))
  expect_equal(res$observed, agree / n, tolerance = 1e-12)
  # the scores: the one-hot comparison's, and the category agreement against mla()'s A_e
  hamming <- ref_stand_in(one_hot_array(m, cats), one_hot_array(stand, cats))
  expect_equal(res$estimate, hamming$estimate, tolerance = 1e-12)
  expect_equal(res$estimate, 1 - (1 - agree / n) / (1 - tidy(mla(x))$expected[1]), tolerance = 1e-12)
})

test_that("single-label VariErr NLI: model rows on the category scale of annotator_agreement()", {
  m <- varierr_single_choice()
  skip_if(is.null(m), "VariErr NLI not available")
  x <- annotations_long(category_long(m), item, annotator, category, single_label = TRUE)
  set.seed(73)
  cats <- sort(unique(m[!is.na(m)]))
  preds <- data.frame(item = rownames(m), pred = sample(cats, nrow(m), replace = TRUE))
  res <- model_agreement(x, preds, item, labels = pred)
  model <- ref_category_annotators(m, matrix(preds$pred, nrow(m), ncol(m)))
  own <- ref_category_annotators(m)
  mod <- res[res$comparison == "model" & res$annotator != "(all)", ]
  ann <- res[res$comparison == "annotators" & res$annotator != "(all)", ]
  expect_identical(mod$n_decisions, as.integer(model[, "n"]))
  expect_equal(mod$observed, unname(model[, "agree"] / model[, "n"]), tolerance = 1e-12)
  expect_equal(ann$observed, unname(own[, "agree"] / own[, "n"]), tolerance = 1e-12)
  agr <- tidy(annotator_agreement(x), level = "annotators")
  expect_equal(ann$observed, agr$observed, tolerance = 1e-12)
  expect_equal(ann$estimate, agr$estimate, tolerance = 1e-12)
})

test_that("prediction rows that compare nothing are counted in one message, by reason", {
  arr <- array(c(1L, 0L, 1L, 0L, 0L, NA, 1L, 1L, 0L, 0L, 1L, 1L, 1L, 0L, NA, 0L, 1L, 0L), c(3, 3, 2),
               dimnames = list(c("i1", "i2", "i3"), c("a", "b", "c"), c("L1", "L2")))
  arr["i3", c("b", "c"), ] <- NA  # i3: a alone
  arr["i2", "c", ] <- NA          # (i2, c): a cell without a decision
  preds <- data.frame(item = c("i1", "i1", "i2", "i3", "i2"), annotator = c("a", "b", "c", "a", "a"),
                      L1 = 1L, L2 = 0L)
  msg <- expect_message(res <- model_agreement(arr, preds, item, annotator, labels = c(L1, L2)),
                        class = "mlagreement_message_unmatched_predictions")
  text <- cli::ansi_strip(conditionMessage(msg))
  expect_match(text, "2 of 5 rows of `predictions` were not compared", fixed = TRUE)
  expect_match(text, "1 whose record has no decision in `x`", fixed = TRUE)
  expect_match(text, "1 on items that no other annotator of `x` decided", fixed = TRUE)
  expect_no_match(text, "mismatch", fixed = TRUE)
  # the rows compared are those of the reference on the matched predictions
  pred_arr <- array(NA_integer_, dim(arr), dimnames(arr))
  pred_arr[cbind(match(preds$item, c("i1", "i2", "i3")), match(preds$annotator, c("a", "b", "c")), 1L)] <- 1L
  pred_arr[cbind(match(preds$item, c("i1", "i2", "i3")), match(preds$annotator, c("a", "b", "c")), 2L)] <- 0L
  expect_stand_in(res, ref_stand_in(arr, pred_arr))
  # every prediction compared: no message
  expect_no_message(model_agreement(arr, preds[1:2, ], item, annotator, labels = c(L1, L2)))
})

test_that("predictions for records x does not hold: the message says it is likely a split mismatch", {
  d <- data.frame(item = c("i1", "i1", "i2", "i2"), annotator = c("a", "b", "a", "b"),
                  lab = c("x", "y", "x", "x"))
  train <- annotations_long(d[1:3, ], item, annotator, lab)  # (i2, b) held out
  test <- data.frame(item = "i2", annotator = "b", p = "x")
  msg <- expect_message(res <- model_agreement(train, test, item, annotator, labels = p),
                        class = "mlagreement_message_unmatched_predictions")
  text <- cli::ansi_strip(conditionMessage(msg))
  expect_match(text, "1 of 1 row of `predictions` was not compared", fixed = TRUE)
  expect_match(text, "1 with no record of `x` for its (item, annotator) pair", fixed = TRUE)
  expect_match(text, "likely a split or id mismatch", fixed = TRUE)
  expect_identical(res$n_decisions, rep(0L, 6))
  # per item: an item without a decision
  arr <- array(c(1L, 0L, NA, 1L, 1L, NA), c(3, 2, 1), dimnames = list(c("i1", "i2", "i3"), c("a", "b"), "L1"))
  msg <- expect_message(model_agreement(arr, data.frame(item = "i3", L1 = 1L), item, labels = L1),
                        class = "mlagreement_message_unmatched_predictions")
  expect_match(cli::ansi_strip(conditionMessage(msg)), "1 whose item has no decision in `x`", fixed = TRUE)
})

test_that("model_agreement() refuses an annotator id that names the pooled rows", {
  d <- data.frame(item = rep(1:3, each = 2), annotator = rep(c("(all)", "b"), 3),
                  lab = c("x", "y", "x", "x", "y", "y"))
  x <- annotations_long(d, item, annotator, lab)
  expect_mla_snapshot(model_agreement(x, data.frame(item = 1:3, p = c("x", "x", "y")), item, labels = p),
                      "reserved_id")
})

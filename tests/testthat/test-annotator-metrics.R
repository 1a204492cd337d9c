random_predictions <- function(n = 400, seed = 21) {
  set.seed(seed)
  classes <- c("neg", "neu", "pos")
  d <- data.frame(
    annotator = sample(paste0("ann", 1:6), n, replace = TRUE),
    truth = sample(classes, n, replace = TRUE, prob = c(0.5, 0.3, 0.2))
  )
  noisy <- sample(c(classes, "other"), n, replace = TRUE)  # "other" is never gold
  d$estimate <- ifelse(runif(n) < 0.55, d$truth, noisy)
  d$estimate[d$annotator == "ann3"] <- "neg"                # degenerate annotator
  d
}

test_that("annotator_metrics() equals the TID-8 recipe overall and per annotator", {
  for (seed in c(21, 22, 23)) {
    d <- random_predictions(seed = seed)
    expect_true("other" %in% d$estimate)
    res <- annotator_metrics(d, truth, estimate, annotator)
    expect_equal(res$annotator, c("(all)", sort(unique(d$annotator))))
    ref_all <- ref_tid8_metrics(d$estimate, d$truth)
    expect_equal(res$accuracy[1], ref_all[["accuracy"]], tolerance = 1e-12)
    expect_equal(res$macro_f1[1], ref_all[["macro_f1"]], tolerance = 1e-12)
    expect_equal(res$n[1], nrow(d))
    for (a in unique(d$annotator)) {
      sub <- d[d$annotator == a, ]
      ref <- ref_tid8_metrics(sub$estimate, sub$truth)
      row <- res[res$annotator == a, ]
      expect_equal(row$n, nrow(sub))
      expect_equal(row$accuracy, ref[["accuracy"]], tolerance = 1e-12)
      expect_equal(row$macro_f1, ref[["macro_f1"]], tolerance = 1e-12)
    }
  }
})

test_that("the degenerate annotator and a hand-computed case", {
  # gold a a b c, predicted a a a z: classes a b c;
  # a: tp 2 fp 1 fn 0 -> p 2/3 r 1 f1 0.8; b: 0; c: 0 (z is not a class)
  d <- data.frame(t = c("a", "a", "b", "c"), e = c("a", "a", "a", "z"))
  res <- annotator_metrics(d, t, e)
  expect_equal(res$accuracy, 0.5)
  expect_equal(res$macro_f1, 0.8 / 3, tolerance = 1e-15)
  expect_equal(names(res), c("annotator", "n", "accuracy", "macro_f1"))
})

test_that("character, factor and integer labels give the same scores", {
  d <- random_predictions(seed = 24)
  codes <- c(neg = 1L, neu = 2L, pos = 3L, other = 9L)
  chr <- annotator_metrics(d, truth, estimate, annotator)
  d_fct <- transform(d, truth = factor(truth), estimate = factor(estimate))
  d_int <- transform(d, truth = codes[truth], estimate = codes[estimate])
  d_mix <- transform(d, truth = factor(truth, levels = c("pos", "neu", "neg")))
  expect_equal(annotator_metrics(d_fct, truth, estimate, annotator), chr)
  expect_equal(annotator_metrics(d_int, truth, estimate, annotator), chr)
  expect_equal(annotator_metrics(d_mix, truth, estimate, annotator), chr)
  # factor annotators keep their level order
  d_ann <- transform(d, annotator = factor(annotator, levels = paste0("ann", 6:1)))
  expect_equal(annotator_metrics(d_ann, truth, estimate, annotator)$annotator,
               c("(all)", paste0("ann", 6:1)))
})

test_that("annotator_metrics() errors", {
  d <- data.frame(ann = c("a", "a", "b"), t = c("x", NA, "y"), e = c("x", "y", NA))
  expect_mla_snapshot(annotator_metrics(d, t, e, ann))
  expect_mla_error(annotator_metrics(d, t, e, ann), "missing_label")
  sets <- data.frame(t = c("x", "y"))
  sets$e <- list(c("x", "y"), "y")
  expect_mla_snapshot(annotator_metrics(sets, t, e))
  expect_mla_error(annotator_metrics(sets, t, e), "multilabel")
  dates <- data.frame(t = c("x", "y"), e = as.complex(1:2))
  expect_mla_snapshot(annotator_metrics(dates, t, e))
  expect_mla_error(annotator_metrics(dates, t, e), "label_type")
  ok <- data.frame(ann = c("a", "(all)"), t = c("x", "y"), e = c("x", "y"))
  expect_mla_snapshot(annotator_metrics(ok, t, e, ann))
  expect_mla_error(annotator_metrics(ok, t, e, ann), "reserved_id")
  expect_mla_snapshot(annotator_metrics(ok[0, ], t, e))
  expect_mla_error(annotator_metrics(ok[0, ], t, e), "empty")
  expect_mla_snapshot(annotator_metrics(ok, t, nope))
  expect_mla_error(annotator_metrics(ok, t, nope), "column")
  expect_mla_snapshot(annotator_metrics(ok, c(t, e), e))
  expect_mla_snapshot(annotator_metrics(as.list(ok), t, e))
  expect_mla_error(annotator_metrics(as.list(ok), t, e), "input_type")
  expect_mla_snapshot(annotator_metrics(ok, t, e, ann, na_rm = TRUE))
  expect_mla_error(annotator_metrics(ok, t, e, ann, na_rm = TRUE), "dots")
  na_ann <- data.frame(ann = c("a", NA), t = c("x", "y"), e = c("x", "y"))
  expect_mla_snapshot(annotator_metrics(na_ann, t, e, ann))
  expect_mla_error(annotator_metrics(na_ann, t, e, ann), "na_id")
})

# scikit-learn's f1_score(average = "macro"), written out: classes are the
# sorted union of gold and predicted labels (or the given labels); F1 per
# class is 2 tp / (2 tp + fp + fn), 0 when that denominator is 0.
ref_sklearn_macro_f1 <- function(truth, pred, labels = sort(unique(c(truth, pred)))) {
  f1 <- vapply(labels, function(l) {
    tp <- sum(truth == l & pred == l)
    fp <- sum(truth != l & pred == l)
    fn <- sum(truth == l & pred != l)
    if (2 * tp + fp + fn == 0) 0 else 2 * tp / (2 * tp + fp + fn)
  }, numeric(1))
  mean(f1)
}

test_that("classes = 'union' is scikit-learn's macro F1, 'levels' uses declared classes", {
  # annotator b predicts a label ("neu") that is never gold for b
  d <- data.frame(
    annotator = rep(c("a", "b"), each = 4),
    truth = c("pos", "neg", "pos", "neu", "neg", "neg", "pos", "pos"),
    pred = c("pos", "pos", "pos", "neu", "neg", "neu", "pos", "neg")
  )
  recipe <- annotator_metrics(d, truth, pred, annotator)
  union <- annotator_metrics(d, truth, pred, annotator, classes = "union")
  expect_identical(recipe$accuracy, union$accuracy)
  for (a in c("a", "b")) {
    r <- d$annotator == a
    expect_equal(union$macro_f1[union$annotator == a],
                 ref_sklearn_macro_f1(d$truth[r], d$pred[r]), tolerance = 1e-15)
  }
  # b: the recipe averages over {neg, pos}, scikit-learn over {neg, neu, pos}
  expect_equal(recipe$macro_f1[3], mean(c(1 / 2, 2 / 3)))
  expect_equal(union$macro_f1[3], mean(c(1 / 2, 0, 2 / 3)))

  lv <- c("neg", "neu", "pos", "mixed")
  d$truth <- factor(d$truth, levels = lv)
  declared <- annotator_metrics(d, truth, pred, annotator, classes = "levels")
  for (a in c("(all)", "a", "b")) {
    r <- if (a == "(all)") rep(TRUE, nrow(d)) else d$annotator == a
    expect_equal(declared$macro_f1[declared$annotator == a],
                 ref_sklearn_macro_f1(as.character(d$truth[r]), d$pred[r], lv),
                 tolerance = 1e-15)
  }
  expect_mla_error(annotator_metrics(data.frame(t = "a", p = "a"), t, p, classes = "levels"))
  expect_mla_error(annotator_metrics(d, truth, pred, classes = "gold"))
})

test_that("labels compare by value across numeric storage types", {
  d <- data.frame(truth = c(1e5, 2e5, 1e5), pred = c(100000L, 200000L, 100000L))
  res <- annotator_metrics(d, truth, pred)
  expect_identical(res$accuracy, 1)
  expect_identical(res$macro_f1, 1)
  # shortest text that reads back as the same double (Python's repr of 1 / 3)
  expect_identical(mlagreement:::id_text(c(1e5, 3e9, 0.1, 1 / 3)),
                   c("100000", "3000000000", "0.1", "0.3333333333333333"))
})

test_that("no estimate equal to any truth value (0/1 against TRUE/FALSE) is a warning naming values", {
  d <- data.frame(a = c("u", "u", "v", "v"), gold = c(1, 0, 1, 0), pred = c(TRUE, FALSE, TRUE, FALSE))
  w <- expect_mla_warning(res <- annotator_metrics(d, gold, pred, a), "no_common_labels")
  text <- cli::ansi_strip(conditionMessage(w))
  expect_match(text, "`truth` (a double vector) has \"1\" and \"0\"", fixed = TRUE)
  expect_match(text, "`estimate` (a logical vector) has \"TRUE\" and \"FALSE\"", fixed = TRUE)
  # the scores are still those of the recipe: nothing matches
  expect_identical(res$accuracy, c(0, 0, 0))
  # one common value, or the same coding: no warning
  d$pred1 <- as.integer(d$pred)
  expect_no_warning(annotator_metrics(d, gold, pred1, a))
  d$pred2 <- c(1L, 1L, 1L, 1L)
  expect_no_warning(annotator_metrics(d, gold, pred2, a))
  many <- data.frame(t = letters[1:6], e = LETTERS[1:6])
  w <- expect_mla_warning(annotator_metrics(many, t, e), "no_common_labels")
  expect_match(cli::ansi_strip(conditionMessage(w)), "\"a\", \"b\", and \"c\" and 3 more", fixed = TRUE)
})

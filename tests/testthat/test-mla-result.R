# The estimator kernel's output as mla() assembles it: undefined values are NA
# (never NaN) with the kernel's reason, weights, specific agreement and item
# coefficients follow their formulas, and the baseline registry orders them.

undefined_design <- function() {
  set.seed(11)
  arr <- array(as.integer(runif(12 * 3 * 4) < 0.5), c(12, 3, 4),
               dimnames = list(NULL, NULL, c("a", "constant", "single", "unrated")))
  arr[, , "constant"] <- 0L
  arr[, 2:3, "single"] <- NA  # one decision per item: not pairable
  arr[, , "unrated"] <- NA
  arr
}

test_that("undefined label values are NA with the kernel's reason", {
  fit <- mla(undefined_design())
  lab <- tidy(fit, level = "label")
  numeric_cols <- vapply(lab, is.double, logical(1))
  expect_false(any(vapply(lab[numeric_cols], function(v) any(is.nan(v)), logical(1))))
  single <- lab[lab$label == "single", ]
  expect_true(all(is.na(single$observed)))
  expect_true(all(is.na(single$estimate)))
  expect_equal(single$prevalence, rep(mean(undefined_design()[, 1, "single"]), 3))
  expect_true(all(is.na(lab$prevalence[lab$label == "unrated"])))
  expected_notes <- tibble::tibble(
    level = "label",
    label = c("constant", "single", "unrated", "single", "unrated", "single", "unrated"),
    baseline = c("fleiss", "fleiss", "fleiss", "ac1", "ac1", "pabak", "pabak"),
    reason = c("label is constant: chance agreement is 1 under this baseline",
               rep(c("no item has two decisions on this label", "no decisions on this label"), 3))
  )
  expect_identical(fit$notes, expected_notes)
  expect_true(is.na(lab$estimate[lab$label == "constant" & lab$baseline == "fleiss"]))
  expect_equal(lab$estimate[lab$label == "constant" & lab$baseline == "ac1"], 1)
})

test_that("a corpus of constant labels is NA under the pooled baseline, with its reason", {
  fit <- mla(array(0L, c(5, 3, 2)))
  cor <- tidy(fit)
  expect_true(is.na(cor$estimate[cor$baseline == "fleiss"]))
  expect_equal(cor$estimate[cor$baseline != "fleiss"], c(1, 1))
  corpus_notes <- fit$notes[fit$notes$level == "corpus", ]
  expect_identical(corpus_notes$baseline, "fleiss")
  expect_identical(corpus_notes$reason, "every label is constant: chance agreement is 1")
  expect_true(all(is.na(tidy(fit, level = "item")$estimate[tidy(fit, level = "item")$baseline == "fleiss"])))
})

test_that("weights, specific agreement and item coefficients follow their formulas", {
  arr <- undefined_design()
  arr[sample(length(arr), 20)] <- NA
  fit <- mla(arr)
  lab <- tidy(fit, level = "label")
  x <- apply(arr, c(1, 3), function(v) sum(v, na.rm = TRUE))
  m <- apply(arr, c(1, 3), function(v) sum(!is.na(v)))
  for (b in baseline_names) {
    rows <- lab[lab$baseline == b, ]
    w <- 1 - rows$expected
    expect_equal(rows$weight, w / sum(w, na.rm = TRUE), tolerance = 1e-14)
  }
  pos_num <- colSums(x * (x - 1) * (m >= 2))
  pos_den <- colSums(x * (m - 1) * (m >= 2))
  ref_pos <- ifelse(pos_den > 0, pos_num / pos_den, NA_real_)
  expect_equal(lab$positive_agreement[lab$baseline == "fleiss"], unname(ref_pos), tolerance = 1e-14)
  pairable <- m >= 2
  d_item <- rowSums(ifelse(pairable, 2 * x * (m - x) / (m * (m - 1)), 0)) / rowSums(pairable)
  d_item[rowSums(pairable) == 0] <- NA_real_
  items <- tidy(fit, level = "item")
  cor <- tidy(fit)
  for (b in baseline_names) {
    w <- 1 - cor$expected[cor$baseline == b]
    expect_equal(items$observed[items$baseline == b], 1 - d_item, tolerance = 1e-14)
    expect_equal(items$estimate[items$baseline == b], 1 - d_item / w, tolerance = 1e-14)
  }
})

test_that("the baseline registry orders every level and the print labels", {
  fit <- mla(undefined_design())
  expect_identical(tidy(fit)$baseline, baseline_names)
  expect_identical(unique(tidy(fit, level = "label")$baseline), baseline_names)
  expect_identical(unique(tidy(fit, level = "item")$baseline), baseline_names)
  est <- mla_estimates(label_tally(fit$annotations))
  expect_identical(ncol(est$label$estimate), n_baselines)
  expect_identical(length(est$corpus$estimate), n_baselines)
  expect_identical(unname(baseline_label("fleiss")), "pooled marginal (Fleiss/Scott)")
  expect_identical(unname(baseline_short(c("ac1", "pabak"))), c("AC1", "PABAK"))
})

test_that("the kernel's Hamming alpha is the one krippendorff_alpha() reports", {
  for (seed in 1:5) {
    set.seed(seed)
    arr <- array(as.integer(runif(40 * 4 * 5) < 0.3), c(40, 4, 5))
    arr[sample(length(arr), 150)] <- NA
    a <- as_annotations(arr)
    kernel <- hamming_alpha_estimates(label_tally(a))
    ref <- ref_hamming_alpha_tables(label_tally(a))
    expect_identical(kernel$observed, ref$observed)
    expect_identical(kernel$expected, ref$expected)
  }
})


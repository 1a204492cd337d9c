# Each annotator pair's own Cohen kappa and Light's kappa (R/light.R,
# inst/include/mlagreement/pair_cohen.h): against irr and the plain-R
# references of helper-conger.R.

test_that("pair rows carry each pair's Cohen kappa", {
  skip_if_not_installed("irr")
  m <- irr_matrix("diagnoses")
  agr <- annotator_agreement(single_label_of(m))
  p <- tidy(agr)
  expect_identical(nrow(p), 15L)
  for (r in seq_len(nrow(p))) {
    g <- match(c(p$annotator1[r], p$annotator2[r]), colnames(m))
    expect_equal(p$cohen_kappa[r], irr::kappa2(m[, g])$value, tolerance = 1e-12)
  }
})

test_that("pair Cohen kappas with missing decisions use the cells both decided", {
  withr::local_seed(21)
  arr <- random_conger_array(n = 30, J = 3, k = 3, missing = 0.2)
  agr <- annotator_agreement(arr, min_items = 1)
  p <- tidy(agr)
  light <- tidy(agr, level = "light")
  per_label <- matrix(NA_real_, nrow(p), 3)
  for (r in seq_len(nrow(p))) {
    g <- match(c(p$annotator1[r], p$annotator2[r]), dimnames(arr)[[2]])
    # the pair's own multi-label coefficient: the conger corpus of the two
    # annotators on the cells both decided
    sub <- arr[, g, , drop = FALSE]
    for (j in 1:3) {
      both <- !is.na(sub[, 1, j]) & !is.na(sub[, 2, j])
      sub[!both, , j] <- NA
      per_label[r, j] <- ref_cohen(sub[, 1, j], sub[, 2, j])
    }
    expect_equal(p$cohen_kappa[r], ref_conger(sub)$corpus, tolerance = 1e-12)
  }
  expect_equal(light$estimate, c(mean(p$cohen_kappa), colMeans(per_label)), tolerance = 1e-12)
  expect_identical(light$level, c("corpus", rep("label", 3)))
})

test_that("a summary without records has no pair Cohen kappas, and says so", {
  arr <- random_conger_array()
  counts <- as_annotation_counts(as_annotations(arr))
  expect_message(agr <- annotator_agreement(counts), class = "mlagreement_message_no_cohen")
  expect_true(all(is.na(tidy(agr)$cohen_kappa)))
  expect_true(is.na(tidy(agr, level = "light")$estimate[1]))
})

# The annotator-specific baseline ("conger"): against irr, irrCAC and
# the plain-R references of helper-conger.R.

test_that("two annotators: Cohen's kappa of irr::kappa2(), unweighted and squared", {
  skip_if_not_installed("irr")
  withr::local_seed(3)
  m <- matrix(sample(1:4, 80, replace = TRUE, prob = c(4, 3, 2, 1)), 40, 2)
  m[1:12, 2] <- m[1:12, 1]
  m[c(1, 9), 1] <- 1:2
  a <- as_annotations(m, labels = 1:4)
  fit <- mla(a, baseline = "conger")
  expect_identical(fit$baseline, "conger")
  expect_equal(conger_row(fit)$estimate, irr::kappa2(m)$value, tolerance = 1e-12)
  fit_sq <- mla(a, baseline = "conger", weights = "quadratic")
  expect_equal(conger_row(fit_sq)$estimate, irr::kappa2(m, weight = "squared")$value,
               tolerance = 1e-12)
  expect_equal(conger_row(fit)$estimate, ref_cohen(m[, 1], m[, 2]), tolerance = 1e-12)
})

test_that("two annotators: psych::cohen.kappa(), unweighted", {
  skip_if_not_installed("psych")
  withr::local_seed(4)
  m <- matrix(sample(1:3, 120, replace = TRUE, prob = c(3, 2, 1)), 60, 2)
  m[1:25, 2] <- m[1:25, 1]
  ck <- suppressWarnings(psych::cohen.kappa(m))
  fit <- mla(as_annotations(m, labels = 1:3), baseline = "conger")
  expect_equal(conger_row(fit)$estimate, ck$kappa, tolerance = 1e-12)
})

test_that("cac.ben.gerry: Cohen's kappa (irr), Conger's estimate and SE (irrCAC)", {
  skip_if_not_installed("irrCAC")
  skip_if_not_installed("irr")
  d <- irrCAC::cac.ben.gerry[, c("Ben", "Gerry")]
  m <- as.matrix(data.frame(lapply(d, as.character)))
  m[m == ""] <- NA
  fit <- mla(single_label_of(m), baseline = "conger")
  row <- conger_row(fit)
  ref <- irrcac_conger(m)$est
  expect_equal(row$estimate, (ref$pa - ref$pe) / (1 - ref$pe), tolerance = 1e-12)
  expect_equal(row$expected, ref$pe, tolerance = 1e-12)
  expect_irrcac_se(row$std.error, ref, 12)
  expect_equal(round(row$estimate, 5), 0.65714)
  # irr::kappa2() keeps the complete items only: the same on those (0.6562)
  complete <- stats::na.omit(m)
  fit_complete <- mla(single_label_of(complete), baseline = "conger")
  expect_equal(conger_row(fit_complete)$estimate, irr::kappa2(complete)$value, tolerance = 1e-12)
  expect_equal(round(conger_row(fit_complete)$estimate, 4), 0.6562)
})

test_that("k annotators with missing ratings: irrCAC's estimate and SE, weighted too", {
  skip_if_not_installed("irrCAC")
  sets <- list(irrCAC::cac.raw4raters, irrCAC::cac.raw5obser)
  for (d in sets) {
    a <- single_label_of(d)
    for (w in c("identity", "quadratic", "linear", "ordinal")) {
      fit <- mla(a, baseline = "conger", weights = w)
      row <- conger_row(fit)
      ref <- irrcac_conger(d, weights = if (w == "identity") "unweighted" else w,
                           categ.labels = a$labels)$est
      expect_equal(row$estimate, (ref$pa - ref$pe) / (1 - ref$pe), tolerance = 1e-12)
      expect_irrcac_se(row$std.error, ref, sum(rowSums(!is.na(d)) > 0))
    }
  }
})

test_that("irr::diagnoses: Conger 0.4418 and Light 0.4594", {
  skip_if_not_installed("irr")
  skip_if_not_installed("irrCAC")
  m <- irr_matrix("diagnoses")
  a <- single_label_of(m)
  fit <- mla(a, baseline = "conger")
  expect_equal(round(conger_row(fit)$estimate, 4), 0.4418)
  ref <- irrcac_conger(m)$est
  expect_equal(conger_row(fit)$estimate, (ref$pa - ref$pe) / (1 - ref$pe), tolerance = 1e-12)
  expect_irrcac_se(conger_row(fit)$std.error, ref, 30)
  # category-versus-rest label rows: the binary Conger kappa of each category
  lab <- conger_row(fit, "label")
  for (k in seq_along(a$labels)) {
    ref_k <- irrcac_conger((m == a$labels[k]) + 0L, categ.labels = 0:1)$est
    expect_equal(lab$estimate[k], (ref_k$pa - ref_k$pe) / (1 - ref_k$pe), tolerance = 1e-12)
  }
  light <- tidy(annotator_agreement(a), level = "light")
  expect_equal(light$estimate[1], irr::kappam.light(m)$value, tolerance = 1e-12)
  expect_equal(round(light$estimate[1], 4), 0.4594)
  expect_identical(light$n_pairs[1], 15L)
  # the category rows are the binary Light's kappas of each category
  for (k in seq_along(a$labels)) {
    bin <- (m == a$labels[k]) + 0L
    expect_equal(light$estimate[1 + k], suppressWarnings(irr::kappam.light(bin))$value,
                 tolerance = 1e-12)
  }
})

test_that("multi-label: label rows equal conger.kappa.raw per label, SEs too", {
  skip_if_not_installed("irrCAC")
  withr::local_seed(11)
  arr <- random_conger_array(n = 50, J = 4, k = 4)
  fit <- mla(arr, baseline = "conger")
  lab <- conger_row(fit, "label")
  for (j in seq_len(dim(arr)[3])) {
    ref <- irrcac_conger(arr[, , j], categ.labels = 0:1)$est
    expect_equal(lab$estimate[j], (ref$pa - ref$pe) / (1 - ref$pe), tolerance = 1e-12)
    expect_irrcac_se(lab$std.error[j], ref, sum(rowSums(!is.na(arr[, , j])) > 0))
  }
  # on one label the corpus row is that label's row, SE included
  one <- mla(arr, baseline = "conger", labels = "L2")
  ref <- irrcac_conger(arr[, , 2], categ.labels = 0:1)$est
  expect_equal(conger_row(one)$estimate, lab$estimate[2], tolerance = 1e-12)
  expect_irrcac_se(conger_row(one)$std.error, ref, sum(rowSums(!is.na(arr[, , 2])) > 0))
})

test_that("corpus row equals the plain-R reference and its eq. 6 weights reproduce it", {
  withr::local_seed(12)
  for (rep in 1:5) {
    arr <- random_conger_array(n = sample(15:60, 1), J = sample(2:6, 1), k = sample(2:7, 1),
                               missing = stats::runif(1, 0, 0.4))
    fit <- mla(arr, baseline = "conger")
    ref <- ref_conger(arr)
    cor <- conger_row(fit, conf.int = FALSE)
    lab <- conger_row(fit, "label", conf.int = FALSE)
    expect_equal(cor$estimate, ref$corpus, tolerance = 1e-12)
    expect_equal(cor$expected, ref$corpus_expected, tolerance = 1e-12)
    expect_equal(lab$estimate, ref$label, tolerance = 1e-12)
    expect_equal(lab$weight, ref$weight, tolerance = 1e-12)
    used <- !is.na(lab$weight)
    expect_equal(sum(lab$weight[used] * lab$estimate[used]), cor$estimate, tolerance = 1e-12)
  }
})

test_that("corpus standard error equals the reference built from irrCAC's item terms", {
  withr::local_seed(14)
  for (rep in 1:4) {
    arr <- random_conger_array(n = sample(20:50, 1), J = sample(3:5, 1), k = sample(2:5, 1),
                               missing = stats::runif(1, 0, 0.3))
    fit <- mla(arr, baseline = "conger")
    expect_equal(conger_row(fit)$std.error, ref_conger_corpus_se(arr), tolerance = 1e-10)
  }
  # the item terms themselves: on one label they give irrCAC's coeff.se
  arr <- random_conger_array(n = 40, J = 4, k = 1)
  tt <- ref_conger_terms(arr[rowSums(!is.na(arr[, , 1])) > 0, , 1])
  ref <- irrcac_conger(arr[, , 1], categ.labels = 0:1)$est
  expect_equal(tt$pe, ref$pe, tolerance = 1e-12)
  expect_irrcac_se(ref_conger_corpus_se(arr), ref, tt$n)
})

test_that("the default fits keep their shape; conger adds its rows", {
  arr <- random_conger_array()
  plain <- mla(arr)
  fit <- mla(arr, baseline = "conger")
  expect_identical(tidy(plain)$baseline, c("fleiss", "ac1", "pabak"))
  expect_identical(tidy(fit)$baseline, c("fleiss", "ac1", "pabak", "conger"))
  expect_identical(tidy(fit)[1:3, ], tidy(plain))
  expect_identical(nrow(tidy(fit, "label")), 4L * 5L)
  expect_identical(tidy(fit, "label")[1:15, ], tidy(plain, "label"))
  expect_identical(nrow(tidy(fit, baseline = "conger")), 1L)
})

test_that("item bootstrap replicates equal the reference on the drawn items", {
  withr::local_seed(13)
  arr <- random_conger_array(n = 30, J = 4, k = 3)
  fit <- mla(arr, baseline = "conger")
  bs <- withr::with_seed(5, mla_boot(fit, R = 6))
  plain <- withr::with_seed(5, mla_boot(mla(arr), R = 6))
  stats <- bs$stats
  expect_identical(bs$t[, stats$baseline != "conger"], plain$t)
  w <- cpp_boot_draws(bs)$item
  for (b in seq_len(6)) {
    ref <- ref_conger(arr[rep(seq_len(30), w[, b]), , , drop = FALSE])
    expect_equal(unname(bs$t[b, stats$baseline == "conger"]), c(ref$corpus, ref$label),
                 tolerance = 1e-12)
  }
  tb <- suppressWarnings(tidy(bs))  # 6 replicates: extreme order statistics
  expect_true("conger" %in% tb$baseline)
})

test_that("weighted single-label replicates and jackknife come from the same kernel", {
  skip_if_not_installed("irrCAC")
  withr::local_seed(6)
  m <- matrix(sample(1:4, 160, replace = TRUE), 40, 4)
  m[1:20, 2:4] <- m[1:20, 1]
  m[sample(160, 20)] <- NA
  a <- as_annotations(m, labels = 1:4)
  fit <- mla(a, baseline = "conger", weights = "quadratic")
  bs <- mla_boot(fit, R = 8)
  w <- cpp_boot_draws(bs)$item
  conger_est <- function(rows) {
    est <- irrcac_conger(m[rows, ], weights = "quadratic", categ.labels = 1:4)$est
    (est$pa - est$pe) / (1 - est$pe)
  }
  for (b in 1:3) {
    expect_equal(unname(bs$t[b, "conger"]), conger_est(rep(1:40, w[, b])), tolerance = 1e-12)
  }
  jack <- mlagreement:::boot_jackknife(bs$engine, bs$units, "items", 1L)
  expect_equal(jack[1:5, bs$stats$name == "conger"], vapply(1:5, function(i) conger_est(-i), 1),
               tolerance = 1e-12)
  ci <- suppressWarnings(confint(bs, "conger", type = "bca"))
  expect_true(all(is.finite(ci)))
})

test_that("conger needs records, item resampling and plain labels", {
  arr <- random_conger_array()
  counts <- as_annotation_counts(as_annotations(arr))
  expect_mla_snapshot(mla(counts, baseline = "conger"), "needs_records")
  fit <- mla(arr, baseline = "conger")
  expect_mla_error(mla_boot(fit, R = 5, resample = "annotators"), "boot_conger")
  expect_mla_error(tidy(fit, annotators = "random"), "annotator_variance")
  expect_snapshot(error = TRUE, mla_boot(fit, R = 5, resample = "both"))
  expect_mla_error(mla(arr, baseline = "conger", label_weights = c(L1 = 2, L2 = 1, L3 = 1, L4 = 1, L5 = 1)),
                   "structure_conger")
})

test_that("conger item rows compare items with the conger chance term", {
  arr <- random_conger_array()
  fit <- mla(arr, baseline = "conger")
  items <- tidy(fit, level = "item", baseline = "conger")
  fleiss <- tidy(fit, level = "item", baseline = "fleiss")
  expect_identical(nrow(items), dim(arr)[1])
  w <- 1 - conger_row(fit, conf.int = FALSE)$expected
  expect_equal(items$estimate, 1 - (1 - fleiss$observed) / w, tolerance = 1e-12)
  expect_identical(tidy(mla(arr), level = "item"), tidy(fit, level = "item")[1:(3 * dim(arr)[1]), ])
})

test_that("mla_compare() compares conger fits on the same item draws", {
  withr::local_seed(31)
  x <- simulate_annotations(40, 6, 3, prevalence = 0.3, scenario = "noisy")
  a <- mla(x[, 1:3, ], baseline = "conger")
  b <- mla(x[, 4:6, ], baseline = "conger")
  cmp <- suppressWarnings(mla_compare(a, b, R = 20))  # few replicates: extreme order statistics
  expect_identical(cmp$baseline, c("fleiss", "ac1", "pabak", "conger"))
  expect_equal(cmp$difference[4], conger_row(a)$estimate - conger_row(b)$estimate,
               tolerance = 1e-12)
  # paired: one seed, the same item draws for both groups
  seed <- attr(cmp, "seeds")[[1]]
  ta <- mlagreement:::compare_replicates(a, seed, 20, 1L)
  tb <- mlagreement:::compare_replicates(b, seed, 20, 1L)
  expect_equal(unname(attr(cmp, "replicates")[, 4]), unname(ta[, 4] - tb[, 4]), tolerance = 1e-12)
  # a fit without conger: the common baselines only
  expect_identical(suppressWarnings(mla_compare(a, mla(x[, 4:6, ]), R = 20))$baseline,
                   c("fleiss", "ac1", "pabak"))
})

test_that("every layout gives the same conger rows", {
  withr::local_seed(41)
  arr <- random_conger_array(n = 25, J = 4, k = 4, missing = 0.1)
  long <- as.data.frame.table(arr, responseName = "value", stringsAsFactors = FALSE)
  names(long)[1:3] <- c("item", "annotator", "label")
  long$item <- rep(sprintf("i%02d", 1:25), length.out = nrow(long))
  long <- long[!is.na(long$value), ]
  dense <- mla(arr, baseline = "conger")
  records <- mla(annotations_long(long, item, annotator, label, value), baseline = "conger")
  # the selected-labels form: every (item, annotator) record decides every
  # label, and a record exists when it selects one
  full <- arr
  full[is.na(full)] <- 0L
  for (i in 1:25) for (g in 1:4) if (sum(full[i, g, ]) == 0) full[i, g, sample(4, 1)] <- 1L
  dense_full <- mla(full, baseline = "conger")
  sel <- which(full == 1L, arr.ind = TRUE)
  selected <- data.frame(item = sprintf("i%02d", sel[, 1]), annotator = dimnames(arr)[[2]][sel[, 2]],
                         label = dimnames(arr)[[3]][sel[, 3]])
  sparse <- mla(annotations_long(selected, item, annotator, label, value = NULL,
                                 labels = dimnames(arr)[[3]]), baseline = "conger")
  cols <- c("baseline", "observed", "expected", "estimate", "std.error")
  expect_equal(tidy(records)[cols], tidy(dense)[cols], tolerance = 1e-12)
  expect_equal(conger_row(sparse)[cols], conger_row(dense_full)[cols], tolerance = 1e-12)
  expect_equal(conger_row(sparse, "label")$estimate, conger_row(dense_full, "label")$estimate,
               tolerance = 1e-12)
})

test_that("undefined conger values are NA with their reason", {
  m <- matrix("a", 10, 3)
  fit <- suppressWarnings(mla(as_annotations(m, labels = c("a", "b")), baseline = "conger"))
  expect_true(is.na(conger_row(fit, conf.int = FALSE)$estimate))
  notes <- fit$notes[fit$notes$baseline %in% "conger" & fit$notes$level == "corpus", ]
  expect_identical(notes$reason, "only one category in use: chance agreement is 1")
  arr <- random_conger_array(n = 20, J = 3, k = 3)
  arr[, , 2][!is.na(arr[, , 2])] <- 0L
  fit <- mla(arr, baseline = "conger")
  lab <- conger_row(fit, "label", conf.int = FALSE)
  expect_true(is.na(lab$estimate[2]))
  expect_identical(lab$weight[2], 0)
  notes <- fit$notes[fit$notes$baseline %in% "conger" & fit$notes$level == "label", ]
  expect_identical(notes$label, "L2")
  expect_match(notes$reason, "label is constant")
  # perfect agreement: estimate 1
  perfect <- arr
  for (g in 2:3) perfect[, g, ] <- perfect[, 1, ]
  perfect[is.na(perfect)] <- 0L
  perfect[1:10, , 1] <- 1L
  expect_equal(conger_row(mla(perfect, baseline = "conger"), conf.int = FALSE)$estimate, 1)
})

test_that("plots of a conger fit and its replicates show the conger rows", {
  skip_if_not_installed("ggplot2")
  withr::local_seed(51)
  arr <- random_conger_array(n = 30, J = 3, k = 3)
  fit <- mla(arr, baseline = "conger")
  expect_s3_class(ggplot2::autoplot(fit), "ggplot")
  bs <- mla_boot(fit, R = 30)
  p <- ggplot2::autoplot(bs, level = "label", baseline = "conger")
  expect_s3_class(p, "ggplot")
  expect_mla_error(ggplot2::autoplot(mla_boot(mla(arr), R = 5), level = "label", baseline = "conger"))
})

test_that("annotators = \"random\" refuses a conger fit, saying why and what to do", {
  fit <- mla(random_conger_array(), baseline = "conger")
  err <- expect_mla_snapshot(tidy(fit, annotators = "random"), "annotator_variance")
  expect_match(conditionMessage(err), "annotators at hand", fixed = TRUE)
  expect_match(conditionMessage(err), "baseline = \"fleiss\"", fixed = TRUE)
})

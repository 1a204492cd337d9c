# Published values of the paper's worked example (section 3.7), exact fractions
# from ../shared/paper/worked_example_expected.md.

test_that("mla() reproduces every published number of the worked example", {
  fit <- mla(bias_annotations())
  cor <- tidy(fit)
  expect_equal(cor$baseline, c("fleiss", "ac1", "pabak"))
  expect_equal(cor$observed, rep(85 / 93, 3), tolerance = 1e-14)
  expect_equal(cor$expected, c(991 / 1116, 125 / 1116, 0.5), tolerance = 1e-14)
  expect_equal(cor$expected[1] * 31, 27.5278, tolerance = 1e-4)
  expect_equal(cor$estimate, c(29 / 125, 895 / 991, 77 / 93), tolerance = 1e-14)
  expect_equal(round(cor$estimate, 4), c(0.2320, 0.9031, 0.8280))
  expect_equal(cor$floor_observed, rep(79 / 93, 3), tolerance = 1e-14)
  expect_equal(cor$floor, c(-43 / 125, 823 / 991, 65 / 93), tolerance = 1e-14)
  expect_equal(round(cor$floor, 4), c(-0.3440, 0.8305, 0.6989))

  items <- tidy(fit, level = "item")
  fl <- items[items$baseline == "fleiss", ]
  expect_equal(fl$observed, c(1, 83 / 93, 85 / 93, 79 / 93), tolerance = 1e-14)
  expect_equal(round(fl$observed, 4), c(1, 0.8925, 0.9140, 0.8495))
  expect_equal(fl$estimate, c(1, 0.04, 29 / 125, -43 / 125), tolerance = 1e-14)
  expect_equal(fl$n_annotators, rep(3L, 4))

  g <- glance(fit)
  expect_equal(g$prevalence, 7 / 93, tolerance = 1e-14)
  expect_equal(g$n_items, 4L)
  expect_equal(g$n_annotators, 3L)
  expect_equal(g$n_labels, 31L)
  expect_equal(g$n_records, 12)
  expect_equal(g$missing_share, 0)
  expect_equal(g$estimate, 29 / 125, tolerance = 1e-14)
  expect_equal(fit$design$never_selected, sprintf("L%02d", 12:31))
})

test_that("removing never-selected labels reproduces Table 2", {
  a <- bias_annotations()
  fit <- mla(a, labels = sprintf("L%02d", 1:11))
  cor <- tidy(fit)
  expect_equal(cor$observed, rep(25 / 33, 3), tolerance = 1e-14)
  expect_equal(cor$expected, c(271 / 396, 125 / 396, 0.5), tolerance = 1e-14)
  expect_equal(cor$estimate, c(29 / 125, 175 / 271, 17 / 33), tolerance = 1e-14)
  expect_equal(cor$floor_observed, rep(19 / 33, 3), tolerance = 1e-14)
  expect_equal(cor$floor, c(-43 / 125, 103 / 271, 5 / 33), tolerance = 1e-14)
  # the pooled coefficient and its floor do not depend on the universe
  full <- tidy(mla(a))
  expect_equal(cor$estimate[1], full$estimate[1], tolerance = 1e-14)
  expect_equal(cor$floor[1], full$floor[1], tolerance = 1e-14)
  expect_false(isTRUE(all.equal(cor$estimate[2:3], full$estimate[2:3])))
})

test_that("label level reproduces Table 3 of the reconstruction", {
  lab <- tidy(mla(bias_annotations()), level = "label")
  f <- lab[lab$baseline == "fleiss", ]
  used <- f[1:11, ]
  expect_equal(used$prevalence, c(3, 2, 4, 3, 4, 3, 4, 2, 1, 1, 1) / 12, tolerance = 1e-14)
  expect_equal(used$observed,
               c(1, 5 / 6, 5 / 6, 1 / 2, 1 / 2, 2 / 3, 2 / 3, 5 / 6, 5 / 6, 5 / 6, 5 / 6),
               tolerance = 1e-14)
  expect_equal(round(used$estimate, 4),
               c(1, 0.4, 0.625, -0.3333, -0.125, 0.1111, 0.25, 0.4, -0.0909, -0.0909, -0.0909))
  expect_equal(round(used$positive_agreement, 4),
               c(1, 0.5, 0.75, 0, 0.25, 0.3333, 0.5, 0.5, 0, 0, 0))
  expect_equal(round(used$negative_agreement, 4),
               c(1, 0.9, 0.875, 0.6667, 0.625, 0.7778, 0.75, 0.9, 0.9091, 0.9091, 0.9091))
  ac1 <- lab[lab$baseline == "ac1", ][1:11, ]
  expect_equal(round(ac1$estimate, 4),
               c(1, 0.7692, 0.7, 0.2, 0.1, 0.4667, 0.4, 0.7692, 0.8033, 0.8033, 0.8033))
  pb <- lab[lab$baseline == "pabak", ][1:11, ]
  expect_equal(round(pb$estimate, 4),
               c(1, 0.6667, 0.6667, 0, 0, 0.3333, 0.3333, 0.6667, 0.6667, 0.6667, 0.6667))
  # never-selected labels: pooled coefficient undefined (weight 0), AC1 and PABAK 1
  never <- lab[lab$label %in% sprintf("L%02d", 12:31), ]
  expect_true(all(is.na(never$estimate[never$baseline == "fleiss"])))
  expect_equal(never$weight[never$baseline == "fleiss"], rep(0, 20))
  expect_equal(never$estimate[never$baseline != "fleiss"], rep(1, 40))
  expect_false(any(is.nan(lab$estimate)))
  expect_false(any(is.infinite(lab$estimate)))
})

test_that("eq. 6: corpus value is the weighted mean of label coefficients", {
  withr::local_seed(11)
  designs <- list(
    bias_array(),
    random_design(30, 4, 7),
    random_design(40, 5, 6, missing = "records"),
    random_design(40, 5, 6, missing = "cells")
  )
  for (arr in designs) {
    fit <- mla(as_annotations(arr))
    lab <- tidy(fit, level = "label")
    cor <- tidy(fit)
    for (b in c("fleiss", "ac1", "pabak")) {
      lb <- lab[lab$baseline == b & !is.na(lab$estimate), ]
      expect_equal(sum(lb$weight), 1, tolerance = 1e-12)
      expect_equal(sum(lb$weight * lb$estimate), cor$estimate[cor$baseline == b],
                   tolerance = 1e-12)
    }
  }
})

expect_matches_reference <- function(arr, floors = TRUE) {
  fit <- mla(as_annotations(arr))
  ref <- ref_mla(arr, floors = floors)
  cor <- tidy(fit)
  lab <- tidy(fit, level = "label")
  items <- tidy(fit, level = "item")
  k <- dim(arr)[3]
  expect_equal(cor$observed, rep(ref$corpus_observed, 3), tolerance = 1e-12)
  expect_equal(cor$expected, unname(ref$corpus_expected), tolerance = 1e-12)
  expect_equal(cor$estimate, unname(ref$corpus_estimate), tolerance = 1e-12)
  expect_equal(lab$prevalence[1:k], ref$label$p, tolerance = 1e-12)
  expect_equal(lab$observed[1:k], ref$label$ao, tolerance = 1e-12)
  ae <- ref$label_expected
  ae[ref$label$n_pairable == 0, ] <- NA
  expect_equal(lab$expected, as.vector(ae), tolerance = 1e-12)
  expect_equal(lab$estimate, as.vector(ref$label_estimate), tolerance = 1e-12)
  expect_equal(lab$positive_agreement[1:k], ref$label$pos, tolerance = 1e-12)
  expect_equal(lab$negative_agreement[1:k], ref$label$neg, tolerance = 1e-12)
  expect_equal(items$observed[items$baseline == "fleiss"], ref$item_observed, tolerance = 1e-12)
  expect_equal(glance(fit)$prevalence, ref$prevalence, tolerance = 1e-12)
  if (floors) {
    expect_equal(cor$floor_observed, rep(ref$corpus_floor_observed, 3), tolerance = 1e-12)
    expect_equal(cor$floor, unname(ref$corpus_floor), tolerance = 1e-12)
    expect_equal(lab$floor, as.vector(ref$label_floor), tolerance = 1e-12)
  }
}

test_that("C++ estimators equal the plain-R reference on random designs", {
  withr::local_seed(2024)
  expect_matches_reference(bias_array())
  expect_matches_reference(random_design(25, 4, 6))
  expect_matches_reference(random_design(30, 2, 5))                     # two annotators
  expect_matches_reference(random_design(20, 5, 1))                     # one label
  expect_matches_reference(random_design(20, 6, 4, missing = "records"))
  expect_matches_reference(random_design(20, 6, 4, missing = "cells"))
  expect_matches_reference(random_design(40, 8, 3, missing = "sparse"), floors = FALSE)
  expect_matches_reference(random_design(30, 3, 12, prevalence = 0.03)) # many sparse labels
  constant <- random_design(15, 4, 5)
  constant[, , 2] <- 0L
  constant[, , 4] <- 1L
  expect_matches_reference(constant)
})

test_that("the generalised floor equals brute force on small unequal designs", {
  withr::local_seed(7)
  for (rep in 1:6) {
    arr <- random_design(6, 4, 3, missing = "cells", miss_rate = 0.35)
    fit <- mla(as_annotations(arr))
    ref <- ref_mla(arr)
    lab <- tidy(fit, level = "label")
    pabak <- lab[lab$baseline == "pabak", ]
    # PABAK floor = 2 * A_o,min - 1, so it carries the observed floor exactly
    expect_equal((pabak$floor + 1) / 2, ref$label$floor_ao, tolerance = 1e-12)
  }
})

test_that("the floor equals eq. 7 in closed form on complete designs", {
  withr::local_seed(3)
  arr <- random_design(13, 5, 4)
  N <- 13
  n <- 5
  f <- function(x) choose(x, 2) + choose(n - x, 2)
  eq7 <- apply(arr, 3, function(s) {
    tot <- sum(s)
    mj <- tot %/% N
    tj <- tot - mj * N
    ((N - tj) * f(mj) + tj * f(mj + 1)) / (N * choose(n, 2))
  })
  lab <- tidy(mla(as_annotations(arr)), level = "label")
  pabak <- lab[lab$baseline == "pabak", ]
  expect_equal((pabak$floor + 1) / 2, eq7, tolerance = 1e-12)
})

test_that("MLA-F on one-hot single-label data equals Fleiss' kappa", {
  skip_if_not_installed("irrCAC")
  raw <- as.matrix(irrCAC::cac.raw4raters)
  fit <- mla(as_annotations(raw))
  expect_equal(tidy(fit)$estimate[1],
               irrCAC::fleiss.kappa.raw(irrCAC::cac.raw4raters)$est$coeff.val,
               tolerance = 1e-5)
  expect_equal(round(tidy(fit)$estimate[1], 5), 0.76117)
  # the unrounded value from irrCAC's own formula
  ratings <- irrCAC::cac.raw4raters
  cats <- sort(unique(na.omit(unlist(ratings))))
  agree <- t(apply(ratings, 1, function(r) table(factor(r, levels = cats))))
  ri <- rowSums(agree)
  pa <- mean((rowSums(agree * (agree - 1)) / (ri * (ri - 1)))[ri >= 2])
  pk <- colMeans((agree / ri)[ri >= 1, , drop = FALSE])
  pe <- sum(pk^2)
  expect_equal(tidy(fit)$estimate[1], (pa - pe) / (1 - pe), tolerance = 1e-12)
})

test_that("MLA-F equals irr's Fleiss kappa on the diagnoses data", {
  skip_if_not_installed("irr")
  diagnoses <- get(utils::data("diagnoses", package = "irr", envir = environment()))
  codes <- as.matrix(as.data.frame(lapply(diagnoses, as.character)))
  fit <- mla(as_annotations(codes))
  expect_equal(tidy(fit)$estimate[1], irr::kappam.fleiss(diagnoses)$value, tolerance = 1e-12)
  expect_equal(round(tidy(fit)$estimate[1], 7), 0.4302445)
})

test_that("undefined values are NA with a reason, never NaN or Inf", {
  arr <- array(0L, c(5, 3, 2))
  arr[, , 1] <- rbind(c(1, 1, 0), c(0, 0, 0), c(1, 1, 1), c(0, 1, 0), c(0, 0, 0))
  fit <- mla(as_annotations(arr))
  lab <- tidy(fit, level = "label")
  expect_true(is.na(lab$estimate[lab$label == "label_2" & lab$baseline == "fleiss"]))
  expect_equal(lab$estimate[lab$label == "label_2" & lab$baseline == "ac1"], 1)
  expect_true(any(grepl("constant", fit$notes$reason)))
  all_zero <- array(0L, c(4, 3, 2))
  fit0 <- mla(as_annotations(all_zero))
  cor <- tidy(fit0)
  expect_true(is.na(cor$estimate[1]))
  expect_equal(cor$estimate[2:3], c(1, 1))
  expect_equal(fit0$notes$level[1], "corpus")
  for (tbl in list(tidy(fit0), tidy(fit0, level = "label"), tidy(fit0, level = "item"))) {
    num <- unlist(tbl[vapply(tbl, is.numeric, logical(1))])
    expect_false(any(is.nan(num) | is.infinite(num)))
  }
})

test_that("items with one annotation count in prevalence, not in agreement", {
  arr <- array(NA_integer_, c(3, 3, 1))
  arr[1, , 1] <- c(1L, 1L, 0L)
  arr[2, , 1] <- c(0L, 0L, NA)
  arr[3, 1, 1] <- 1L
  fit <- mla(as_annotations(arr))
  items <- tidy(fit, level = "item")
  expect_equal(items$n_annotators[1:3], c(3L, 2L, 1L))
  expect_true(is.na(items$observed[3]))
  lab <- tidy(fit, level = "label")
  expect_equal(lab$prevalence[1], mean(c(2 / 3, 0, 1)))
  expect_equal(lab$observed[1], mean(c(1 / 3, 1)))
})

test_that("tidy() and glance() have the documented columns", {
  fit <- mla(bias_annotations(), baseline = "ac1")
  inference <- c("std.error", "statistic", "p.value", "conf.low", "conf.high")
  expect_named(tidy(fit), c("term", "baseline", "observed", "expected", "estimate",
                            "floor_observed", "floor", inference))
  expect_named(tidy(fit, level = "label"),
               c("term", "label", "baseline", "prevalence", "observed", "expected", "estimate",
                 "weight", "floor", "positive_agreement", "negative_agreement", inference))
  expect_named(tidy(fit, level = "item"),
               c("item", "n_annotators", "baseline", "observed", "estimate"))
  expect_named(glance(fit), c("n_items", "n_annotators", "n_labels", "n_records",
                              "missing_share", "prevalence", "observed", "baseline",
                              "estimate"))
  expect_equal(nrow(glance(fit)), 1L)
  expect_equal(glance(fit)$estimate, 895 / 991, tolerance = 1e-14)
  expect_s3_class(tidy(fit), "tbl_df")
})

test_that("print() and summary() give a readable report", {
  fit <- mla(bias_annotations())
  expect_snapshot(print(fit))
  expect_snapshot(print(summary(fit)))
})

test_that("a label subset equals the fit on those labels' data, in that order", {
  withr::local_seed(17)
  for (missing in c("none", "cells", "records")) {
    arr <- random_design(150, 4, 6, missing = missing)
    dimnames(arr) <- list(NULL, NULL, paste0("L", 1:6))
    sel <- c("L5", "L2", "L6")
    direct <- mla(arr[, , sel])
    long <- annotations_long(as_long(arr), item, annotator, label, value)
    for (a in list(as_annotations(arr), long)) {
      fit <- mla(a, labels = sel)
      expect_equal(tidy(fit, level = "label"), tidy(direct, level = "label"), tolerance = 1e-12)
      expect_equal(tidy(fit), tidy(direct), tolerance = 1e-12)
      counts <- mlagreement:::item_label_counts(a, match(sel, a$labels))
      # the long form drops items without decisions: compare the items it has
      kept <- as.integer(a$items)
      expect_equal(fit$item_disagreement, direct$item_disagreement[kept], tolerance = 1e-12)
      expect_identical(unname(counts$x), unname(apply(arr[kept, , sel, drop = FALSE], c(1, 3),
                                                      function(v) sum(v, na.rm = TRUE))))
      expect_identical(unname(counts$m), unname(apply(arr[kept, , sel, drop = FALSE], c(1, 3),
                                                      function(v) sum(!is.na(v)))))
    }
  }
})

test_that("the dense pass is exact for every number of annotator blocks", {
  # blocks are read four at a time with a remainder of 1-3; 2100 items give a
  # full chunk of 2048 and a partial one
  withr::local_seed(23)
  for (n in 1:9) {
    arr <- random_design(2100, n, 2, missing = if (n > 1) "cells" else "none")
    a <- as_annotations(arr)
    expect_identical(item_x(a), apply(arr, c(1, 3), function(v) sum(v, na.rm = TRUE)))
    expect_identical(item_m(a), apply(arr, c(1, 3), function(v) sum(!is.na(v))))
    expect_identical(a$item_annotators, as.integer(rowSums(apply(!is.na(arr), c(1, 2), any))))
    if (n > 1) {
      ref <- ref_mla(arr, floors = FALSE)
      expect_equal(tidy(mla(a))$estimate, unname(ref$corpus_estimate), tolerance = 1e-12)
    }
    # an invalid value in the last block, in the partial chunk, is found
    bad <- arr
    bad[2090, n, 2] <- 2L
    err <- expect_error(as_annotations(bad), class = "mlagreement_error_value")
    expect_match(conditionMessage(err), sprintf("annotator \"%d\"", n), fixed = TRUE)
  }
})

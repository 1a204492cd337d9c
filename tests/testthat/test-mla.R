# Published values of the paper's worked example (section 3.7) and its
# Tables 2 and 3, from fixtures/published.csv (data-raw/fixtures-published.R).

test_that("mla() reproduces every published number of the worked example", {
  fit <- mla(bias_annotations())
  cor <- tidy(fit)
  expect_equal(cor$baseline, c("fleiss", "ac1", "pabak"))
  pub <- function(quantity, ...) published("worked_example", quantity, ...)
  expect_equal(cor$observed, pub("corpus_observed"), tolerance = 1e-14)
  expect_equal(cor$expected, pub("corpus_expected"), tolerance = 1e-14)
  expect_equal(cor$expected[1] * 31, pub("chance_sum", digits = 4), tolerance = 1e-4)
  expect_equal(cor$estimate, pub("corpus_estimate"), tolerance = 1e-14)
  expect_equal(round(cor$estimate, 4), pub("corpus_estimate", digits = 4))
  expect_equal(cor$floor_observed, pub("corpus_floor_observed"), tolerance = 1e-14)
  expect_equal(cor$floor, pub("corpus_floor"), tolerance = 1e-14)
  expect_equal(round(cor$floor, 4), pub("corpus_floor", digits = 4))

  items <- tidy(fit, level = "item")
  fl <- items[items$baseline == "fleiss", ]
  expect_equal(fl$observed, pub("item_observed"), tolerance = 1e-14)
  expect_equal(round(fl$observed, 4), pub("item_observed", digits = 4))
  expect_equal(fl$estimate, pub("item_estimate"), tolerance = 1e-14)
  expect_equal(fl$n_annotators, rep(3L, 4))

  g <- glance(fit)
  expect_equal(g$prevalence, pub("prevalence"), tolerance = 1e-14)
  expect_equal(g$n_items, 4L)
  expect_equal(g$n_annotators, 3L)
  expect_equal(g$n_labels, 31L)
  expect_equal(g$n_records, 12)
  expect_equal(g$missing_share, 0)
  expect_equal(g$estimate, pub("corpus_estimate", "fleiss"), tolerance = 1e-14)
  expect_equal(fit$design$never_selected, sprintf("L%02d", 12:31))
})

test_that("removing never-selected labels reproduces Table 2", {
  a <- bias_annotations()
  fit <- mla(a, labels = sprintf("L%02d", 1:11))
  cor <- tidy(fit)
  pub <- function(quantity) published("worked_example_k11", quantity)
  expect_equal(cor$observed, pub("corpus_observed"), tolerance = 1e-14)
  expect_equal(cor$expected, pub("corpus_expected"), tolerance = 1e-14)
  expect_equal(cor$estimate, pub("corpus_estimate"), tolerance = 1e-14)
  expect_equal(cor$floor_observed, pub("corpus_floor_observed"), tolerance = 1e-14)
  expect_equal(cor$floor, pub("corpus_floor"), tolerance = 1e-14)
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
  pub <- function(quantity, ...) published("worked_example", quantity, ...)
  expect_equal(used$prevalence, pub("label_prevalence"), tolerance = 1e-14)
  expect_equal(used$observed, pub("label_observed"), tolerance = 1e-14)
  expect_equal(round(used$estimate, 4), pub("label_estimate", "fleiss", digits = 4))
  expect_equal(round(used$positive_agreement, 4), pub("positive_agreement", digits = 4))
  expect_equal(round(used$negative_agreement, 4), pub("negative_agreement", digits = 4))
  ac1 <- lab[lab$baseline == "ac1", ][1:11, ]
  expect_equal(round(ac1$estimate, 4), pub("label_estimate", "ac1", digits = 4))
  pb <- lab[lab$baseline == "pabak", ][1:11, ]
  expect_equal(round(pb$estimate, 4), pub("label_estimate", "pabak", digits = 4))
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
  ratings <- irrcac_fixture("data")$cac.raw4raters
  fit <- mla(as_annotations(as.matrix(ratings)))
  ref <- irrcac_fixture("raw4raters")$est
  expect_equal(tidy(fit)$estimate[1], ref$coeff.val, tolerance = 1e-5)
  expect_equal(round(tidy(fit)$estimate[1], 5), ref$coeff.val)
  # the unrounded value from irrCAC's own formula
  cats <- sort(unique(stats::na.omit(unlist(ratings))))
  expect_equal(tidy(fit)$estimate[1], ref_single_label(as.matrix(ratings), cats)$estimate[["fleiss"]],
               tolerance = 1e-12)
})

test_that("MLA-F equals irr's Fleiss kappa on the diagnoses data", {
  fx <- irr_fixture("fleiss_diagnoses")
  codes <- as.matrix(as.data.frame(lapply(fx$ratings, as.character)))
  fit <- mla(as_annotations(codes))
  expect_equal(tidy(fit)$estimate[1], fx$value, tolerance = 1e-12)
  expect_equal(round(tidy(fit)$estimate[1], 7), published("diagnoses", "fleiss_kappa", digits = 7))
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
    err <- expect_mla_error(as_annotations(bad), "value")
    expect_match(conditionMessage(err), sprintf("annotator \"%d\"", n), fixed = TRUE)
  }
})

test_that("the design summary tells sparsity, missing vectors and missing decisions apart", {
  # fully assigned, 3 missing decisions out of 20 x 4 x 6 = 480
  withr::local_seed(21)
  arr <- array(as.integer(stats::runif(20 * 4 * 6) < 0.3), c(20, 4, 6))
  arr[cbind(c(1, 5, 9), c(1, 2, 3), c(2, 4, 6))] <- NA
  g <- glance(mla(arr))
  expect_identical(g$n_missing_decisions, 3)
  expect_identical(c(g$n_unassigned, g$n_empty_records, g$coverage), c(0, 0, 1))
  expect_equal(g$missing_share, 3 / 480)
  expect_match(format(mla(arr)), "3 of 480 decisions missing inside annotated records (0.6%)",
               fixed = TRUE, all = FALSE)
  # never rounded to 0%: 1 missing decision in 20,000
  big <- array(1L, c(1000, 4, 5))
  big[1] <- NA
  expect_match(format(mla(big)), "(< 0.1%)", fixed = TRUE, all = FALSE)
  # a sparse crowd: 200 items, 3 of 60 annotators each, no missing decision
  crowd <- do.call(rbind, lapply(1:200, function(i) {
    data.frame(item = i, annotator = sample(60, 3), label = "x", value = stats::rbinom(3, 1, 0.4))
  }))
  crowd$annotator <- paste0("a", crowd$annotator)
  gc <- glance(mla(annotations_long(crowd, item, annotator, label, value)))
  expect_identical(gc$missing_share, 0)
  expect_equal(gc$coverage, 600 / (200 * 60))
  expect_identical(gc$n_unassigned, 200 * 60 - 600)
  # a record whose whole label vector is missing is counted as such
  crowd$value[crowd$item == 1] <- NA
  ge <- glance(mla(annotations_long(crowd, item, annotator, label, value)))
  expect_identical(ge$n_empty_records, 3)
  expect_equal(ge$missing_share, 3 / 600)
})

test_that("mean label prevalence and the pooled share of positive decisions are both reported", {
  arr <- array(c(1L, 1L, 0L, 0L,  1L, NA, 0L, 0L), c(2, 2, 2))
  fit <- mla(arr)
  g <- glance(fit)
  # label 1: items (1, 1/2 ... ) -- p_j is the mean over items of x / m
  p1 <- mean(c(mean(c(1, 0)), mean(c(1, 0))))
  p2 <- mean(c(mean(c(1, 0)), 0))
  expect_equal(g$prevalence, mean(c(p1, p2)))
  expect_equal(g$pooled_prevalence, 3 / 7)
  expect_match(format(fit), "share of positive decisions 0.4286", fixed = TRUE, all = FALSE)
})

test_that("labels resting on too little information carry a note at corpus and label level", {
  # label y: 2 positive decisions, never on the same item
  arr <- array(0L, c(6, 3, 2), dimnames = list(NULL, NULL, c("x", "y")))
  arr[1:3, , 1] <- 1L
  arr[1, 1, 2] <- 1L
  arr[4, 2, 2] <- 1L
  fit <- mla(arr)
  lab <- tidy(fit, level = "label", conf.int = FALSE)
  expect_match(lab$note[lab$label == "y"], "no item has two positive decisions")
  expect_true(all(is.na(lab$note[lab$label == "x"])))
  # with intervals, x (perfect agreement, standard error 0) says why it has none
  lab <- tidy(fit, level = "label")
  expect_match(lab$note[lab$label == "x" & lab$baseline == "fleiss"], "standard error 0")
  expect_true(all(is.na(lab$conf.low[lab$label == "x" & lab$baseline == "fleiss"])))
  expect_match(tidy(fit)$note, "1 label with too little information (y)", fixed = TRUE)
  expect_identical(fit$design$sparse_labels, "y")
})

test_that("tidy() says in `note` why a value is NA, with the reasons of summary()", {
  arr <- array(0L, c(6, 3, 3), dimnames = list(NULL, NULL, c("x", "never", "z")))
  arr[1:3, , 1] <- 1L
  arr[1, 1, 1] <- 0L
  arr[2:5, 1:2, 3] <- 1L
  fit <- mla(arr)
  lab <- tidy(fit, level = "label", conf.int = FALSE)
  undefined <- is.na(lab$estimate)
  expect_identical(lab$label[undefined], "never")  # fleiss only: AC1 and PABAK are defined
  expect_identical(lab$note[undefined], fit$notes$reason[fit$notes$label %in% "never"])
  expect_true(all(is.na(lab$note[lab$label != "never"])))
  expect_true(all(is.na(tidy(fit, conf.int = FALSE)$note)))
  # a corpus reason and a reason for every baseline (no baseline named)
  const <- mla(array(1L, c(5, 2, 2)), baseline = "conger")
  cor <- tidy(const, conf.int = FALSE)
  expect_identical(cor$note[is.na(cor$estimate)], rep("every label is constant: chance agreement is 1", 2L))
  codes <- matrix(c(1, 2, 3, 1, 2, 2, 3, 3, 1, 2, 2, 3), 4)
  wfit <- mla(codes, weights = "linear")
  expect_match(tidy(wfit, conf.int = FALSE)$note, "linear weights", fixed = TRUE)
  expect_match(tidy(wfit, level = "label", conf.int = FALSE)$note, "category-versus-rest", fixed = TRUE)
  expect_match(summary(wfit)$notes$reason, "linear weights|category-versus-rest")
})

test_that("a standard error that is 0 up to rounding is 0, with no test and no interval", {
  skip_if_not_installed("irrCAC")
  # every item split 2-1 between 3 raters: every influence term equals the estimate
  m <- matrix(c("y", "y", "n", "n", "y", "n", "y", "y", "n", "n", "n", "y"), ncol = 3)
  ref <- irrCAC::fleiss.kappa.raw(as.data.frame(m))$est
  td <- tidy(mla(m))
  expect_lte(abs(td$estimate[1] - ref$coeff.val), 5e-6)  # irrCAC rounds to 5 decimals
  expect_identical(ref$coeff.se, 0)
  expect_identical(td$std.error, c(0, 0, 0))
  expect_true(all(is.na(td$statistic) & is.na(td$p.value) & is.na(td$conf.low)))
  expect_match(td$note, "standard error 0")
})

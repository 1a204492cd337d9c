irr_data <- function(name) {
  env <- new.env()
  utils::data(list = name, package = "irr", envir = env)
  env[[name]]
}

diagnoses_pair <- function(cols) {
  d <- irr_data("diagnoses")[, cols]
  as_annotations(as.matrix(as.data.frame(lapply(d, as.character))))
}

random_binary <- function(n, k, L, seed, missing = 0) {
  withr::local_seed(seed)
  p <- runif(L, 0.2, 0.6)
  arr <- array(0L, c(n, k, L))
  for (j in seq_len(L)) {
    latent <- rbinom(n, 1, p[j])
    for (a in seq_len(k)) {
      flip <- rbinom(n, 1, 0.15 + 0.05 * a)
      arr[, a, j] <- ifelse(flip == 1, 1L - latent, latent)
    }
  }
  if (missing > 0) arr[sample(length(arr), round(missing * length(arr)))] <- NA
  arr
}

test_that("Cochran's Q equals its textbook formula on complete data", {
  arr <- random_binary(40, 5, 3, seed = 1)
  b <- annotator_bias(as_annotations(arr))
  tests <- tidy(b, level = "tests")
  for (j in 1:3) {
    ref <- ref_cochran_q(arr[, , j])
    row <- tests[tests$label == paste0("label_", j) & tests$test == "cochran_q", ]
    expect_equal(row$statistic, ref[["statistic"]], tolerance = 1e-12)
    expect_equal(row$p.value, ref[["p.value"]], tolerance = 1e-12)
    expect_identical(c(row$n_items, row$df), c(40L, 4))
  }
})

test_that("Q uses the complete items, says how many it left out, never imputes", {
  arr <- random_binary(60, 4, 2, seed = 2, missing = 0.05)
  expect_message(b <- annotator_bias(as_annotations(arr)), "are left out")
  tests <- tidy(b, level = "tests")
  for (j in 1:2) {
    complete <- rowSums(is.na(arr[, , j])) == 0
    ref <- ref_cochran_q(arr[complete, , j])
    row <- tests[tests$label == paste0("label_", j), ]
    expect_equal(row$statistic, ref[["statistic"]], tolerance = 1e-12)
    expect_identical(row$n_items, sum(complete))
  }
})

test_that("McNemar equals stats::mcnemar.test(), and without correction Cochran's Q", {
  arr <- random_binary(50, 2, 3, seed = 3)
  b <- annotator_bias(as_annotations(arr))
  b0 <- annotator_bias(as_annotations(arr), correct = FALSE)
  for (j in 1:3) {
    tab <- table(factor(arr[, 1, j], 0:1), factor(arr[, 2, j], 0:1))
    lab <- paste0("label_", j)
    mc <- b$tests[b$tests$label == lab & b$tests$test == "mcnemar", ]
    ref <- stats::mcnemar.test(tab)
    expect_equal(mc$statistic, unname(ref$statistic), tolerance = 1e-12)
    expect_equal(mc$p.value, ref$p.value, tolerance = 1e-12)
    mc0 <- b0$tests[b0$tests$label == lab & b0$tests$test == "mcnemar", ]
    expect_equal(mc0$statistic, unname(stats::mcnemar.test(tab, correct = FALSE)$statistic),
                 tolerance = 1e-12)
    q <- b$tests[b$tests$label == lab & b$tests$test == "cochran_q", ]
    expect_equal(mc0$statistic, q$statistic, tolerance = 1e-12)
  }
})

test_that("Stuart-Maxwell and Bhapkar equal irr's on the diagnoses data", {
  skip_if_not_installed("irr")
  d <- irr_data("diagnoses")
  homogeneity <- function(cols) {
    t <- tidy(annotator_bias(diagnoses_pair(cols)), level = "tests")
    t[t$test %in% c("stuart_maxwell", "bhapkar"), ]
  }
  # raters 2 and 4: every category has discordant ratings, no margins equal
  t24 <- homogeneity(c(2, 4))
  expect_equal(t24$statistic[1], irr::stuart.maxwell.mh(d[, c(2, 4)])$statistic[1, 1], tolerance = 1e-12)
  expect_equal(t24$statistic[2], irr::bhapkar(d[, c(2, 4)])$statistic, tolerance = 1e-12)
  expect_equal(t24$p.value[2], irr::bhapkar(d[, c(2, 4)])$p.value, tolerance = 1e-12)
  # raters 1 and 2: "Other" has no discordant ratings; both drop it
  t12 <- homogeneity(c(1, 2))
  sm <- irr::stuart.maxwell.mh(d[, 1:2])
  expect_equal(t12$statistic[1], sm$statistic[1, 1], tolerance = 1e-12)
  expect_equal(t12$p.value[1], sm$p.value[1, 1], tolerance = 1e-12)
  expect_identical(t12$df, c(3, 3))
  for (cols in list(c(1, 6), c(3, 5))) {
    t <- homogeneity(cols)
    expect_equal(t$statistic[2], irr::bhapkar(d[, cols])$statistic, tolerance = 1e-12)
    # Bhapkar = SM / (1 - SM / n)
    expect_equal(t$statistic[2], t$statistic[1] / (1 - t$statistic[1] / 30), tolerance = 1e-12)
  }
})

test_that("BI and PI give Cohen's kappa (irr::kappa2) through Byrt et al.'s relation", {
  skip_if_not_installed("irr")
  arr <- random_binary(80, 2, 4, seed = 4)
  ind <- tidy(annotator_bias(as_annotations(arr)), level = "indices")
  for (j in 1:4) {
    m <- arr[, , j]
    n <- nrow(m)
    a <- sum(m[, 1] == 1 & m[, 2] == 1)
    d <- sum(m[, 1] == 0 & m[, 2] == 0)
    b <- sum(m[, 1] == 1 & m[, 2] == 0)
    c <- sum(m[, 1] == 0 & m[, 2] == 1)
    row <- ind[j, ]
    expect_equal(row$prevalence_index, (a - d) / n, tolerance = 1e-12)
    expect_equal(row$bias_index, (b - c) / n, tolerance = 1e-12)
    expect_equal(row$pabak, 2 * (a + d) / n - 1, tolerance = 1e-12)
    expect_equal(row$kappa, irr::kappa2(m)$value, tolerance = 1e-12)
  }
})

test_that("the multi-annotator BI gives Conger's kappa (irrCAC) through the same relation", {
  skip_if_not_installed("irrCAC")
  arr <- random_binary(60, 5, 2, seed = 5, missing = 0.03)
  ind <- suppressMessages(tidy(annotator_bias(as_annotations(arr)), level = "indices"))
  for (j in 1:2) {
    m <- arr[rowSums(is.na(arr[, , j])) == 0, , j]
    expect_equal(ind$kappa[j], ref_conger_binary(m), tolerance = 1e-12)
    ref <- irrCAC::conger.kappa.raw(as.data.frame(m))$est$coeff.val
    expect_equal(round(ind$kappa[j], 5), ref)
    expect_identical(ind$n_items[j], nrow(m))
  }
})

test_that("deviations: two annotators on complete data give half the paired Wald interval", {
  arr <- random_binary(70, 2, 2, seed = 6)
  dev <- tidy(annotator_bias(as_annotations(arr), conf.level = 0.9))
  for (j in 1:2) {
    m <- arr[, , j]
    rows <- dev[dev$label == paste0("label_", j), ]
    expect_equal(rows$prevalence, colMeans(m), tolerance = 1e-12)
    expect_equal(rows$deviation, colMeans(m) - mean(m), tolerance = 1e-12)
    expect_equal(rows$std.error, rep(ref_paired_se(m[, 1], m[, 2]) / 2, 2), tolerance = 1e-12)
    expect_equal(rows$conf.high - rows$deviation, stats::qnorm(0.95) * rows$std.error,
                 tolerance = 1e-12)
  }
})

test_that("deviations with missing decisions use every decision and the item linearisation", {
  arr <- random_binary(50, 4, 1, seed = 7, missing = 0.1)
  dev <- suppressMessages(tidy(annotator_bias(as_annotations(arr))))
  m <- arr[, , 1]
  pooled <- mean(m, na.rm = TRUE)
  for (a in 1:4) {
    p_a <- mean(m[, a], na.rm = TRUE)
    # u_i written out item by item
    M_a <- sum(!is.na(m[, a]))
    M <- sum(!is.na(m))
    u <- vapply(seq_len(nrow(m)), function(i) {
      own <- if (is.na(m[i, a])) 0 else (m[i, a] - p_a) / M_a
      own - sum(m[i, ] - pooled, na.rm = TRUE) / M
    }, numeric(1))
    expect_equal(dev$deviation[a], p_a - pooled, tolerance = 1e-12)
    expect_equal(dev$std.error[a], sqrt(sum(u^2)), tolerance = 1e-12)
    expect_identical(dev$n_items[a], M_a)
  }
})

test_that("simulated annotator bias is detected; no bias keeps p-values spread", {
  withr::local_seed(8)
  biased <- simulate_annotations(400, 4, 2, prevalence = 0.3, scenario = "noisy",
                                 bias = c(0, 0, 1.5, 0))
  b <- annotator_bias(biased)
  q <- b$tests[b$tests$test == "cochran_q", ]
  expect_true(all(q$p.value < 1e-6))
  third <- b$annotators[b$annotators$annotator == "3", ]
  expect_true(all(third$conf.low > 0))
})

test_that("undefined statistics are NA with a note; intervals of SE 0 are NA", {
  arr <- array(0L, c(6, 3, 1))
  arr[1:2, , 1] <- 1L
  b <- annotator_bias(as_annotations(arr))
  expect_true(is.na(b$tests$statistic))
  expect_match(b$tests$note, "unanimous")
  expect_true(all(is.na(b$annotators$conf.low)))
  expect_equal(b$annotators$std.error, c(0, 0, 0))
})

test_that("print, tidy prototypes and autoplot", {
  b <- annotator_bias(annotations_long(bias_example, item, annotator, label, value))
  expect_snapshot(print(b))
  expect_named(tidy(b), c("label", "annotator", "n_items", "prevalence", "pooled_prevalence",
                          "deviation", "std.error", "conf.low", "conf.high"))
  expect_named(tidy(b, level = "tests"), c("label", "test", "n_items", "n_annotators",
                                           "statistic", "df", "p.value", "note"))
  expect_named(tidy(b, level = "indices"), c("label", "n_items", "n_annotators", "observed",
                                             "prevalence_index", "bias_index", "pabak", "kappa"))
  skip_if_not_installed("ggplot2")
  p <- ggplot2::autoplot(b)
  expect_s3_class(p, "ggplot")
  built <- ggplot2::layer_data(p, 3)
  expect_lte(length(unique(built$PANEL)), 12)
  expect_match(p$labels$caption, "12 of 31 labels")
})

test_that("errors are classed and name the argument", {
  one <- as_annotations(array(c(0L, 1L), c(2, 1, 1)))
  expect_snapshot(error = TRUE, annotator_bias(one))
  expect_mla_error(annotator_bias(one, conf.level = 2), "conf_level")
  expect_mla_error(annotator_bias(as_annotations(array(0L, c(2, 2, 1))), correct = NA), "bool")
  b <- annotator_bias(as_annotations(random_binary(10, 2, 1, seed = 9)))
  expect_mla_error(tidy(b, level = "items"), "arg")
  counts <- as_annotation_counts(annotations_long(bias_example, item, annotator, label, value))
  expect_mla_error(annotator_bias(counts), "needs_records")
})

test_that("irr::diagnoses (6 raters) and irrCAC::cac.raw4raters: Q and kappa per category", {
  skip_if_not_installed("irrCAC")
  d <- irr_data("diagnoses")
  codes <- as.matrix(as.data.frame(lapply(d, as.character)))
  raw4 <- as.matrix(irrcac_fixture("data")$cac.raw4raters)
  for (ratings in list(codes, raw4)) {
    b <- suppressMessages(annotator_bias(as_annotations(ratings)))
    cats <- sort(unique(stats::na.omit(as.vector(ratings))))
    for (k in cats) {
      onehot <- (ratings == k) + 0
      onehot <- onehot[rowSums(is.na(onehot)) == 0, , drop = FALSE]
      label <- as.character(k)
      q <- b$tests[b$tests$label == label & b$tests$test == "cochran_q", ]
      ind <- b$indices[b$indices$label == label, ]
      expect_identical(q$n_items, nrow(onehot))
      ref <- ref_cochran_q(onehot)
      if (is.finite(ref[["statistic"]])) {
        expect_equal(q$statistic, ref[["statistic"]], tolerance = 1e-12)
        expect_equal(ind$kappa, ref_conger_binary(onehot), tolerance = 1e-12)
        expect_equal(round(ind$kappa, 5),
                     irrCAC::conger.kappa.raw(as.data.frame(onehot))$est$coeff.val)
      }
    }
  }
})

test_that("annotators who agree exactly get a standard error of 0 and no interval", {
  arr <- array(0L, c(10, 3, 2), dimnames = list(NULL, c("p", "q", "r"), c("x", "y")))
  arr[1:3, , "x"] <- 1L
  arr[4, 1, "y"] <- 1L
  rows <- tidy(suppressMessages(annotator_bias(arr)), "annotators")
  x <- rows[rows$label == "x", ]
  # every u_i is 0 (the help's Var = sum u_i^2): no rounding noise for an SE
  expect_identical(x$std.error, c(0, 0, 0))
  expect_true(all(is.na(x$conf.low) & is.na(x$conf.high)))
  # label y, where p alone selects once, keeps its SE (plain-R sum of u_i^2)
  Y <- arr[, , "y"]
  u <- sapply(1:3, function(a) (Y[, a] - mean(Y[, a])) - (rowSums(Y) - mean(Y) * 3) / 3) / 10
  expect_equal(rows$std.error[rows$label == "y"], sqrt(colSums(u^2)), tolerance = 1e-12)
})

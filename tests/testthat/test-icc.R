icc_combinations <- expand.grid(unit = c("single", "average"), type = c("agreement", "consistency"),
                                model = c("oneway", "twoway"), stringsAsFactors = FALSE)
icc_combinations <- icc_combinations[!(icc_combinations$model == "oneway" &
                                         icc_combinations$type == "consistency"), ]

irr_anxiety <- function() {
  env <- new.env()
  utils::data("anxiety", package = "irr", envir = env)
  env$anxiety
}

expect_irr_icc <- function(ratings, tolerance = 1e-12) {
  for (r in seq_len(nrow(icc_combinations))) {
    cmb <- icc_combinations[r, ]
    ref <- irr::icc(ratings, cmb$model, cmb$type, cmb$unit)
    ours <- icc(ratings, cmb$model, cmb$type, cmb$unit)
    expect_equal(ours$estimate, ref$value, tolerance = tolerance)
    expect_equal(ours$statistic, ref$Fvalue, tolerance = tolerance)
    expect_equal(c(ours$df1, ours$df2), c(ref$df1, ref$df2), tolerance = tolerance)
    expect_equal(ours$p.value, ref$p.value, tolerance = tolerance)
    # irr computes ICC(A,k)'s Satterthwaite df from the average-unit
    # estimate; here (McGraw and Wong, psych) from the single-rater one
    if (!(cmb$type == "agreement" && cmb$model == "twoway" && cmb$unit == "average")) {
      expect_equal(c(ours$conf.low, ours$conf.high), c(ref$lbound, ref$ubound),
                   tolerance = tolerance)
    }
  }
}

test_that("icc() equals irr::icc() for every model, type and unit", {
  skip_if_not_installed("irr")
  expect_irr_icc(irr_anxiety())
  withr::local_seed(26)
  for (k in c(2, 3, 6)) {
    truth <- rnorm(30)
    ratings <- sapply(seq_len(k), function(j) truth + rnorm(1, 0, 0.5) + rnorm(30, 0, 0.7))
    expect_irr_icc(ratings)
  }
})

test_that("irr::anxiety gives the published ICC(2,1) agreement and its interval", {
  res <- icc(irr_anxiety(), "twoway", "agreement", "single")
  expect_equal(round(res$estimate, 3), 0.198)
  expect_equal(round(c(res$conf.low, res$conf.high), 3), c(-0.039, 0.494))
  expect_identical(res$term, "ICC2")
  expect_identical(c(res$n_items, res$n_annotators), c(20L, 3L))
})

test_that("icc() equals psych::ICC() (estimate, F, df, p, bounds) on all six rows", {
  skip_if_not_installed("psych")
  withr::local_seed(7)
  truth <- rnorm(25)
  sets <- list(irr_anxiety(),
               sapply(1:4, function(j) truth + j / 3 + rnorm(25, 0, 0.8)))
  for (ratings in sets) {
    ref <- suppressMessages(psych::ICC(ratings, lmer = FALSE))$results
    ours <- icc(ratings)
    ours <- ours[match(ref$type, ours$term), ]
    expect_equal(ours$estimate, ref$ICC, tolerance = 1e-12)
    expect_equal(ours$statistic, ref$F, tolerance = 1e-12)
    expect_equal(ours$df1, ref$df1, tolerance = 1e-12)
    expect_equal(ours$df2, ref$df2, tolerance = 1e-12)
    expect_equal(ours$p.value, ref$p, tolerance = 1e-10)
    expect_equal(ours$conf.low, ref$`lower bound`, tolerance = 1e-12)
    expect_equal(ours$conf.high, ref$`upper bound`, tolerance = 1e-12)
  }
})

test_that("the mean squares equal stats::anova() of the two-way and one-way models", {
  withr::local_seed(11)
  y <- matrix(rnorm(60, 3), 15, 4) + rnorm(15)
  r <- rating_table(y, rlang::quo(NULL), rlang::quo(NULL), rlang::quo(NULL))
  two <- icc_twoway_mean_squares(r, optional = FALSE)
  one <- icc_oneway_mean_squares(r)
  ref <- ref_icc_mean_squares(y)
  expect_equal(c(two[c("msr", "msc", "mse")], one["msw"]), ref, tolerance = 1e-12)
  expect_equal(one$msr, ref$msr, tolerance = 1e-12)
  # ICC(A,k)'s interval is the Spearman-Brown transform of ICC(A,1)'s
  res <- icc(y, "twoway", "agreement")
  sb <- function(r) 4 * r / (1 + 3 * r)
  expect_equal(c(res$conf.low[2], res$conf.high[2]), sb(c(res$conf.low[1], res$conf.high[1])),
               tolerance = 1e-12)
})

expect_oneway_reference <- function(res, v, item) {
  ref <- ref_icc_oneway(v, item)
  one <- res[res$model == "oneway", ]
  expect_equal(unlist(one[1, c("estimate", "conf.low", "conf.high")], use.names = FALSE),
               ref$single, tolerance = 1e-12)
  expect_equal(unlist(one[2, c("estimate", "conf.low", "conf.high")], use.names = FALSE),
               ref$average, tolerance = 1e-12)
  expect_equal(one$statistic, rep(ref$f, 2), tolerance = 1e-12)
  expect_equal(c(one$df1[1], one$df2[1]), ref$df, tolerance = 1e-12)
  expect_equal(one$ratings_per_item, rep(ref$k0, 2), tolerance = 1e-12)
  if (requireNamespace("ICC", quietly = TRUE)) {
    d <- data.frame(item = factor(item), v = v)
    out <- ICC::ICCest(item, v, data = d, CI.type = "THD")
    expect_equal(unlist(one[1, c("estimate", "conf.low", "conf.high")], use.names = FALSE),
                 c(out$ICC, out$LowerCI, out$UpperCI), tolerance = 1e-12)
  }
}

test_that("the one-way model takes items rated by different annotators, in different numbers", {
  withr::local_seed(5)
  n <- 40
  per_item <- sample(c(1, 2, 3, 5), n, replace = TRUE, prob = c(1, 3, 3, 2))
  crowd <- data.frame(item = rep(seq_len(n), per_item),
                      annotator = unlist(lapply(per_item, function(k) sample(25, k))))
  crowd$score <- rep(rnorm(n), per_item) + rnorm(nrow(crowd), 0, 0.6)
  expect_message(res <- icc(crowd, item = item, annotator = annotator, value = score),
                 "Only the one-way rows")
  expect_identical(res$term, c("ICC1", "ICC1k"))
  expect_identical(c(res$n_items[1], res$n_annotators[1]), c(40L, 25L))
  expect_oneway_reference(res, crowd$score, crowd$item)
  expect_identical(icc(crowd, "oneway", item = item, annotator = annotator, value = score), res)
  # the two-way model asked for by name needs a crossed design
  expect_mla_snapshot(icc(crowd, "twoway", item = item, annotator = annotator, value = score),
                      "icc_design")
  expect_mla_error(icc(crowd, type = "consistency", item = item, annotator = annotator, value = score),
                   "icc_design")
  # balanced (3 ratings of every item, by different annotators): Shrout and Fleiss' case 1
  three <- crowd[crowd$item %in% which(per_item == 3), ]
  res3 <- suppressMessages(icc(three, item = item, annotator = annotator, value = score))
  expect_identical(res3$ratings_per_item, c(3, 3))
  expect_oneway_reference(res3, three$score, three$item)
  y <- matrix(three$score, ncol = 3, byrow = TRUE)
  skip_if_not_installed("irr")
  expect_equal(res3$estimate, c(irr::icc(y, "oneway")$value, irr::icc(y, "oneway", unit = "average")$value),
               tolerance = 1e-12)
})

test_that("matrix, wide and long data frames and annotations give the same result", {
  anxiety <- irr_anxiety()
  ref <- icc(as.matrix(anxiety))
  expect_identical(icc(anxiety), ref)
  long <- data.frame(subject = rep(seq_len(20), 3), rater = rep(names(anxiety), each = 20),
                     score = unlist(anxiety, use.names = FALSE))
  shuffled <- long[c(seq(2, 60, 2), seq(1, 59, 2)), ]
  expect_equal(icc(shuffled, item = subject, annotator = rater, value = score), ref,
               tolerance = 1e-12)
  # single-label annotations whose categories are the scale's numbers
  expect_equal(icc(as_annotations(as.matrix(anxiety))), ref, tolerance = 1e-12)
})

test_that("the two-way model leaves out items without every rating, the one-way model keeps them", {
  y <- as.matrix(irr_anxiety())
  y[c(2, 5), c(1, 3)] <- NA
  expect_message(res <- icc(y), "2 of 20 items .*; the coefficients use the 18 complete items")
  two <- res$model == "twoway"
  expect_equal(res[two, ], suppressMessages(icc(y[-c(2, 5), ]))[two, ], tolerance = 1e-12)
  expect_identical(res$n_items, rep(c(20L, 18L), c(2, 4)))
  rated <- !is.na(y)
  expect_oneway_reference(res, y[rated], row(y)[rated])
  # a matrix row without any rating is an item without data
  y[7, ] <- NA
  expect_message(icc(y, "oneway"), "1 of 20 items without any rating")
})

test_that("icc() errors are classed and name the argument and the offending rating", {
  y <- as.matrix(irr_anxiety())
  expect_mla_error(icc(y, model = "oneway", type = "consistency"), "icc_type")
  expect_mla_error(icc(y[, 1, drop = FALSE]), "icc_design")
  bad <- y
  bad[3, 2] <- Inf
  expect_snapshot(error = TRUE, icc(bad))
  expect_mla_error(icc(matrix(letters[1:6], 3)), "ratings")
  expect_mla_error(icc(data.frame(a = 1:3, b = c("x", "y", "z"))), "ratings")
  long <- data.frame(item = c(1, 1, 2), rater = c("a", "a", "b"), score = 1:3)
  expect_snapshot(error = TRUE, icc(long, item = item, annotator = rater, value = score))
  # column names given by position would be the options: the named form is asked for
  expect_mla_snapshot(icc(long, item, rater, score), "ratings")
  expect_mla_error(lin_ccc(long, score), "ratings")
  model <- "twoway"  # a variable of that name is an option, not a column
  long_ok <- data.frame(model = 1:4, b = c(2, 1, 4, 3))
  expect_identical(icc(long_ok, model), icc(as.matrix(long_ok), "twoway"))
  all_missing <- y
  all_missing[-1, 1] <- NA
  expect_mla_error(icc(all_missing, "twoway"), "icc_design")
  expect_message(one_way <- icc(all_missing), "Only the one-way rows")
  expect_identical(one_way$model, c("oneway", "oneway"))
  multi <- as_annotations(array(rbinom(24, 1, 0.5), c(4, 3, 2)))
  expect_mla_error(icc(multi), "ratings")
  expect_mla_error(icc(y, conf.level = 1), "conf_level")
  counts <- as_annotation_counts(as_annotations(y))
  expect_mla_error(icc(counts), "needs_records")
  expect_mla_error(icc(list(1)), "ratings")
})

test_that("lin_ccc() follows Lin's formulas and its interval covers as it should", {
  withr::local_seed(3)
  truth <- rnorm(50, 10, 2)
  a <- truth + rnorm(50, 0, 1)
  b <- 0.5 + 1.1 * truth + rnorm(50, 0, 1)
  res <- lin_ccc(cbind(a, b))
  ref <- ref_ccc(a, b)
  expect_equal(res$estimate, ref$estimate, tolerance = 1e-12)
  half <- stats::qnorm(0.975) * sqrt(ref$var_z)
  expect_equal(c(res$conf.low, res$conf.high), tanh(atanh(ref$estimate) + c(-1, 1) * half),
               tolerance = 1e-12)
  expect_equal(res$estimate, res$pearson * res$bias_correction, tolerance = 1e-12)
  expect_equal(res$pearson, stats::cor(a, b), tolerance = 1e-12)
  # identical ratings concord perfectly; a shift lowers only C_b
  expect_equal(lin_ccc(cbind(a, a))$estimate, 1)
  expect_equal(lin_ccc(cbind(a, a + 1))$pearson, 1)
  expect_lt(lin_ccc(cbind(a, a + 1))$estimate, 1)
})

test_that("lin_ccc()'s standard error agrees with the jackknife on a large sample", {
  withr::local_seed(5)
  n <- 600
  truth <- rnorm(n)
  a <- truth + rnorm(n, 0, 0.6)
  b <- 0.3 + truth + rnorm(n, 0, 0.8)
  z <- function(i) atanh(lin_ccc(cbind(a[i], b[i]))$estimate)
  loo <- vapply(seq_len(n), function(i) z(-i), numeric(1))
  jack_se <- sqrt((n - 1) / n * sum((loo - mean(loo))^2))
  lin_se <- sqrt(ref_ccc(a, b)$var_z)
  expect_lt(abs(lin_se / jack_se - 1), 0.15)
})

test_that("constant ratings give NA with a warning", {
  expect_warning(res <- icc(matrix(3, 5, 3)), "undefined")
  expect_true(all(is.na(res$estimate) & is.na(res$p.value) & is.na(res$conf.low)))
})

test_that("lin_ccc() needs exactly two annotators", {
  expect_mla_error(lin_ccc(as.matrix(irr_anxiety())), "icc_design")
})

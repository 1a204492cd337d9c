# mla_sample_size() (R/sample-size.R).

test_that("the noisy generator's error reproduces the target agreement", {
  for (b in baseline_names) {
    e <- noisy_error_for(0.6, c(0.2, 0.4), b)
    an <- analytic_agreement(c(0.2, 0.4), error = e)
    an <- an[an$generator == "noisy" & an$baseline == b, ]
    ae <- mean(an$expected)
    expect_equal((an$observed[1] - ae) / (1 - ae), 0.6, tolerance = 1e-9)
  }
})

test_that("the answer follows the 1/sqrt(n) scaling and is reproducible", {
  res <- withr::with_seed(1, mla_sample_size(0.05, 0.3, 3, 4, agreement = 0.7, pilot = 2000))
  expect_named(res, c("baseline", "agreement", "error", "half_width", "conf.level",
                      "std.error_pilot", "assurance", "n_items"))
  n <- res$n_items
  expect_lte(stats::qt(0.975, n - 1) * res$std.error_pilot * sqrt(2000 / n), 0.05)
  expect_gt(stats::qt(0.975, n - 2) * res$std.error_pilot * sqrt(2000 / (n - 1)), 0.05)
  expect_identical(withr::with_seed(1, mla_sample_size(0.05, 0.3, 3, 4, 0.7, pilot = 2000)), res)
  half <- withr::with_seed(1, mla_sample_size(0.1, 0.3, 3, 4, 0.7, pilot = 2000))
  expect_lt(abs(half$n_items / n - 1 / 4), 0.02)
  expect_snapshot(error = TRUE, mla_sample_size(0.05, 0.3, 3, 4, agreement = 1))
  expect_snapshot(error = TRUE, mla_sample_size(0, 0.3, 3, 4, agreement = 0.5))
})

test_that("simulated studies of the recommended size have the target half-width", {
  skip_on_cran()
  withr::local_seed(71)
  res <- mla_sample_size(0.04, c(0.1, 0.3, 0.5), 4, 3, agreement = 0.65, baseline = "ac1")
  widths <- vapply(seq_len(100), function(s) {
    a <- simulate_annotations(res$n_items, 4, 3, prevalence = c(0.1, 0.3, 0.5),
                              scenario = "noisy", error = res$error)
    cor <- tidy(mla(a))
    c(half = (cor$conf.high[2] - cor$conf.low[2]) / 2, estimate = cor$estimate[2])
  }, numeric(2))
  expect_lt(abs(mean(widths["half", ]) / 0.04 - 1), 0.05)
  expect_lt(abs(mean(widths["estimate", ]) - 0.65), 0.01)
})

test_that("with assurance, that share of simulated studies reaches the half-width", {
  skip_on_cran()
  withr::local_seed(12)
  target <- 0.06
  plan <- mla_sample_size(target, 0.3, 3, 4, agreement = 0.6, pilot = 4000, assurance = 0.8)
  mean_plan <- withr::with_seed(12, mla_sample_size(target, 0.3, 3, 4, agreement = 0.6,
                                                    pilot = 4000))
  expect_gt(plan$n_items, mean_plan$n_items)
  expect_equal(plan$assurance, 0.8)
  reached <- vapply(seq_len(200), function(s) {
    a <- simulate_annotations(plan$n_items, 3, 4, prevalence = 0.3, scenario = "noisy",
                              error = plan$error)
    cor <- tidy(mla(a))
    (cor$conf.high[1] - cor$conf.low[1]) / 2 <= target
  }, logical(1))
  # 200 studies: Monte-Carlo SE about 0.03
  expect_gt(mean(reached), 0.72)
  expect_lt(mean(reached), 0.9)
})

test_that("correlated labels and annotators sampled from a population need more items", {
  skip_on_cran()
  base <- withr::with_seed(3, mla_sample_size(0.06, 0.3, 6, 5, agreement = 0.6, pilot = 4000))
  cor <- withr::with_seed(3, mla_sample_size(0.06, 0.3, 6, 5, agreement = 0.6, pilot = 4000,
                                             label_cor = 0.5))
  expect_gt(cor$n_items, 1.1 * base$n_items)
  # correlated labels: simulated studies of the planned size reach the
  # half-width on average
  withr::local_seed(4)
  widths <- vapply(seq_len(100), function(s) {
    a <- simulate_annotations(cor$n_items, 6, 5, prevalence = 0.3, scenario = "noisy",
                              error = cor$error, correlation = 0.5)
    t <- tidy(mla(a))
    (t$conf.high[1] - t$conf.low[1]) / 2
  }, numeric(1))
  expect_lt(abs(mean(widths) / 0.06 - 1), 0.06)
  het <- withr::with_seed(3, mla_sample_size(0.12, 0.3, 6, 5, agreement = 0.6, pilot = 4000,
                                             annotator_sd = 0.3))
  flat <- withr::with_seed(3, mla_sample_size(0.12, 0.3, 6, 5, agreement = 0.6, pilot = 4000))
  expect_gt(het$n_items, flat$n_items)
  expect_error(withr::with_seed(3, mla_sample_size(0.05, 0.3, 6, 5, agreement = 0.6,
                                                   pilot = 4000, annotator_sd = 1)),
               "cannot be reached", class = "mlagreement_error_sample_size")
  expect_mla_error(mla_sample_size(0.05, 0.3, 3, 4, 0.7, assurance = 1), "sample_size")
})

test_that("a half-width needing more items than an integer holds is a classed error", {
  expect_no_warning(err <- expect_mla_error(
    withr::with_seed(1, mla_sample_size(1e-9, 0.3, 3, 4, agreement = 0.7, pilot = 200)),
    "sample_size"
  ))
  expect_match(conditionMessage(err), "1e-09", fixed = TRUE)
})

test_that("annotators sampled from a population: n is planned for tidy(annotators = 'random')", {
  # plain-R reference: multi-label Fleiss coefficient, its linearised item
  # variance and the jackknife over annotators of a complete 0/1 array
  coef_fleiss <- function(arr) {
    m <- dim(arr)[2]
    x <- apply(arr, c(1, 3), sum)
    ao <- (x * (x - 1) + (m - x) * (m - x - 1)) / (m * (m - 1))
    p <- colMeans(x / m)
    ae <- mean(p^2 + (1 - p)^2)
    (mean(ao) - ae) / (1 - ae)
  }
  item_var <- function(arr) {
    n <- dim(arr)[1]
    m <- dim(arr)[2]
    x <- apply(arr, c(1, 3), sum)
    ao <- (x * (x - 1) + (m - x) * (m - x - 1)) / (m * (m - 1))
    p <- colMeans(x / m)
    ae <- mean(p^2 + (1 - p)^2)
    c0 <- (mean(ao) - ae) / (1 - ae)
    chance <- sweep(x / m, 2, p) %*% (4 * p - 2) / length(p)
    ci <- (rowMeans(ao) - ae) / (1 - ae) - (1 - c0) * chance / (1 - ae)
    sum((ci - c0)^2) / (n * (n - 1))
  }
  jack_var <- function(arr) {
    J <- dim(arr)[2]
    th <- vapply(seq_len(J), function(a) coef_fleiss(arr[, -a, , drop = FALSE]), numeric(1))
    (J - 1) / J * sum((th - mean(th))^2)
  }
  J <- 4
  n0 <- 2000
  plan <- withr::with_seed(1, mla_sample_size(0.2, 0.3, J, 4, agreement = 0.6, pilot = n0,
                                              annotator_sd = 0.4))
  errors <- plogis(qlogis(plan$error) + 0.4 * qnorm(ppoints(J)))
  arr <- as.array(withr::with_seed(1, simulate_annotations(n0, J, 4, prevalence = 0.3,
                                                           scenario = "noisy", error = errors)))
  expect_equal(plan$std.error_pilot, sqrt(item_var(arr)), tolerance = 1e-10)
  # the annotators' part at n items: v0 (whole pilot) and the mean over 20
  # blocks of m items give fixed + per_item / n
  m <- n0 %/% 20
  vm <- mean(vapply(1:20, function(b) jack_var(arr[(b - 1) * m + seq_len(m), , , drop = FALSE]),
                    numeric(1)))
  v0 <- jack_var(arr)
  per_item <- max(0, (vm - v0) / (1 / m - 1 / n0))
  fixed <- max(0, v0 - per_item / n0)
  half <- function(n) {
    vi <- item_var(arr) * n0 / n
    va <- fixed + per_item / n
    df <- (vi + va)^2 / (vi^2 / (n - 1) + va^2 / (J - 1))
    qt(0.975, df) * sqrt(vi + va)
  }
  n <- 2
  while (half(n) > 0.2) n <- n + 1
  expect_equal(plan$n_items, n)
})

test_that("simulated studies of the planned size have the target random-annotators half-width", {
  skip_on_cran()
  J <- 4
  plan <- withr::with_seed(5, mla_sample_size(0.16, 0.2, J, 5, agreement = 0.7, pilot = 5000,
                                              annotator_sd = 0.4))
  # the pilot's annotators: error rates at the normal quantiles
  errors <- plogis(qlogis(plan$error) + 0.4 * qnorm(ppoints(J)))
  withr::local_seed(6)
  widths <- vapply(seq_len(100), function(s) {
    a <- simulate_annotations(plan$n_items, J, 5, prevalence = 0.2, scenario = "noisy",
                              error = errors)
    t <- suppressMessages(tidy(mla(a), annotators = "random"))
    t$estimate[1] - t$conf.low[1]
  }, numeric(1))
  # 100 studies: Monte-Carlo SE about 0.03 of the target
  expect_lt(abs(mean(widths) / 0.16 - 1), 0.1)
})

test_that("a half-width the annotators' part alone exceeds is a classed error", {
  expect_snapshot(error = TRUE, withr::with_seed(1, mla_sample_size(
    0.12, 0.2, 4, 5, agreement = 0.7, pilot = 5000, annotator_sd = 0.4
  )))
  expect_error(withr::with_seed(1, mla_sample_size(0.12, 0.2, 4, 5, agreement = 0.7, pilot = 5000,
                                                   annotator_sd = 0.4)),
               class = "mlagreement_error_sample_size")
})

test_that("a pilot without disagreement or with an undefined coefficient is a classed error", {
  # pilots whose 20000 items hold no disagreeing decision (SE 0): the old
  # plan was 2 items
  for (seed in c(2, 3)) {
    err <- expect_mla_error(withr::with_seed(seed, mla_sample_size(
      0.05, prevalence = 0.001, n_annotators = 2, n_labels = 1, agreement = 0.99, pilot = 20000
    )), "sample_size")
    expect_match(conditionMessage(err), "no disagreeing decision", fixed = TRUE)
  }
  # the expected disagreeing item-labels named: 1 - (1 - e)^3 - e^3 per item
  e <- noisy_error_for(0.9, 0.01, "fleiss")
  expected <- signif(100 * (1 - (1 - e)^3 - e^3), 2)
  err <- expect_mla_snapshot(withr::with_seed(2, mla_sample_size(
    0.05, prevalence = 0.01, n_annotators = 3, n_labels = 1, agreement = 0.9, pilot = 100
  )), "sample_size")
  expect_match(conditionMessage(err), paste("about", expected, "disagreeing"), fixed = TRUE)
  # every label constant in the pilot: undefined, not "needs more items"
  err <- expect_mla_snapshot(withr::with_seed(1, mla_sample_size(
    0.05, prevalence = 0.0001, n_annotators = 2, n_labels = 1, agreement = 0.95, pilot = 20000
  )), "sample_size")
  expect_match(conditionMessage(err), "undefined", fixed = TRUE)
  expect_no_match(conditionMessage(err), "needs more", fixed = TRUE)
})

test_that("plans stop at the largest integer: n_items is never NA", {
  # se0 sqrt(n0) = 1: the plan is about (z / w)^2 items (t = z at this df)
  plan <- list(se0 = 1, n0 = 1, n_annotators = 3, fixed = 0, per_item = 0)
  w <- qnorm(0.975) / sqrt(2.1e9)
  n <- solve_sample_size(w, 0.95, plan)
  expect_equal(n, ceiling((qnorm(0.975) / w)^2), tolerance = 1e-8)
  expect_false(is.na(suppressWarnings(as.integer(n))))
  err <- expect_mla_error(solve_sample_size(qnorm(0.975) / sqrt(2.2e9), 0.95, plan),
                          "sample_size")
  expect_match(conditionMessage(err), "2,147,483,647", fixed = TRUE)
  # the audit's case: about 3.3e9 items
  expect_no_warning(expect_mla_error(withr::with_seed(1, mla_sample_size(
    1e-5, prevalence = 0.2, n_annotators = 3, n_labels = 5, agreement = 0.7, pilot = 1000
  )), "sample_size"))
})

test_that("for a rare label the default pilot plans n as precisely as the help says", {
  skip_on_cran()
  # the help: n to within about 1.4% (one SD) by default; 3 seeds' SD stays
  # below 2.5 times that (a chi with 2 df exceeds it with probability 0.2%)
  ns <- vapply(1:3, function(s) withr::with_seed(s, mla_sample_size(
    0.05, prevalence = 0.01, n_annotators = 3, n_labels = 1, agreement = 0.7
  ))$n_items, integer(1))
  expect_lt(sd(ns) / mean(ns), 2.5 * 0.014)
  # a small pilot says how uncertain the plan is: sqrt(2 / D) for D expected
  # disagreeing item-labels, 1 - (1 - e)^3 - e^3 per item
  e <- noisy_error_for(0.7, 0.01, "fleiss")
  spread <- round(100 * sqrt(2 / (20000 * (1 - (1 - e)^3 - e^3))))
  expect_message(withr::with_seed(1, mla_sample_size(
    0.05, prevalence = 0.01, n_annotators = 3, n_labels = 1, agreement = 0.7, pilot = 20000
  )), paste0("about ", spread, "%"), class = "mlagreement_message_sample_size_precision")
  expect_no_message(withr::with_seed(1, mla_sample_size(0.05, 0.3, 3, 4, 0.7, pilot = 2000)))
})

test_that("assurance with annotators sampled from a population is a classed error", {
  # its studies would redraw only the items' part of the variance
  expect_mla_snapshot(mla_sample_size(0.1, 0.3, 8, 5, agreement = 0.6, annotator_sd = 0.3,
                                      assurance = 0.8), "sample_size")
})

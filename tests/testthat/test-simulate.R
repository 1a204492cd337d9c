test_that("returns a dense annotations object with names, truth and parameters", {
  withr::local_seed(1)
  x <- simulate_annotations(7, 3, 4, prevalence = 0.3, scenario = "noisy")
  expect_s3_class(x, "annotations")
  expect_identical(dim(x$values), c(7L, 3L, 4L))
  expect_true(is.integer(x$values))
  expect_identical(x$items, sprintf("i%02d", 1:7))
  expect_identical(x$annotators, sprintf("a%02d", 1:3))
  expect_identical(x$labels, sprintf("L%02d", 1:4))
  expect_identical(dim(attr(x, "truth")), c(7L, 4L))
  expect_true(all(x$values %in% 0:1))
  expect_identical(attr(x, "simulation")$scenario, "noisy")
  expect_identical(attr(x, "simulation")$error, rep(0.1, 3))
  expect_identical(simulate_annotations(120, 2, 1, 0.5)$items[1], "i001")
})

test_that("reproducible under set.seed(), different seeds differ", {
  for (s in c("perfect", "noisy", "independent", "minimum")) {
    a <- withr::with_seed(3, simulate_annotations(30, 4, 5, 0.3, scenario = s))
    b <- withr::with_seed(3, simulate_annotations(30, 4, 5, 0.3, scenario = s))
    c <- withr::with_seed(4, simulate_annotations(30, 4, 5, 0.3, scenario = s))
    expect_identical(a, b)
    expect_false(identical(a$values, c$values))
  }
})

test_that("perfect: every annotator copies the truth, A_o = 1", {
  withr::local_seed(2)
  x <- simulate_annotations(50, 4, 6, prevalence = c(.1, .2, .5, .5, .8, .9))
  truth <- attr(x, "truth")
  for (c in 1:4) expect_identical(unname(x$values[, c, ]), unname(truth))
  fit <- mla(x)
  expect_equal(fit$corpus$observed, rep(1, 3))
  expect_equal(fit$corpus$estimate, rep(1, 3))
})

test_that("ground truth has the requested prevalence per label", {
  withr::local_seed(5)
  p <- c(0.05, 0.3, 0.7)
  x <- simulate_annotations(20000, 2, 3, prevalence = p)
  # binomial standard error is at most 0.0035; allow 5 SE
  expect_true(all(abs(colMeans(attr(x, "truth")) - p) < 5 * sqrt(p * (1 - p) / 20000)))
  expect_true(all(simulate_annotations(10, 3, 2, 0, "independent")$values == 0L))
  expect_true(all(simulate_annotations(10, 3, 2, 1, "independent")$values == 1L))
})

test_that("noisy: flips with probability error; error 0 copies, error 1 inverts", {
  withr::local_seed(6)
  x <- simulate_annotations(4000, 3, 5, 0.3, scenario = "noisy", error = 0.1)
  truth <- attr(x, "truth")
  flips <- vapply(1:3, function(c) mean(x$values[, c, ] != truth), numeric(1))
  expect_true(all(abs(flips - 0.1) < 5 * sqrt(0.09 / 20000)))
  y <- simulate_annotations(20, 3, 2, 0.4, scenario = "noisy", error = 0)
  for (c in 1:3) expect_identical(unname(y$values[, c, ]), unname(attr(y, "truth")))
  z <- simulate_annotations(20, 3, 2, 0.4, scenario = "noisy", error = 1)
  for (c in 1:3) expect_identical(unname(z$values[, c, ]), 1L - unname(attr(z, "truth")))
})

test_that("noisy: corpus coefficients within 0.05 of the closed form", {
  withr::local_seed(7)
  for (p in c(0.2, 0.5, 0.8)) {
    fit <- mla(simulate_annotations(400, 5, 10, p, scenario = "noisy", error = 0.1))
    theory <- analytic_agreement(p, error = 0.1)
    theory <- theory[theory$generator == "noisy", ]
    expect_equal(fit$corpus$estimate, theory$estimate, tolerance = 0.05 / 0.5)
    expect_true(all(abs(fit$corpus$estimate - theory$estimate) < 0.05))
  }
})

test_that("independent: pooled-marginal coefficient within 0.03 of 0", {
  withr::local_seed(8)
  for (p in c(0.2, 0.5, 0.8)) {
    fit <- mla(simulate_annotations(400, 5, 10, p, scenario = "independent"))
    expect_lt(abs(fit$corpus$estimate[fit$corpus$baseline == "fleiss"]), 0.03)
  }
})

test_that("minimum: a_j positives per item-label, A_o equals the floor exactly", {
  withr::local_seed(9)
  for (n in c(2, 3, 5, 10)) {
    p <- c(0, 0.2, 0.5, 0.8, 1, 0.33)
    x <- simulate_annotations(30, n, 6, p, scenario = "minimum")
    a <- pmax(1, pmin(n - 1, floor(p * n + 0.5)))
    expect_identical(item_x(x), matrix(as.integer(rep(a, each = 30)), 30, 6))
    fit <- mla(x)
    expect_identical(fit$corpus$observed, fit$corpus$floor_observed)
    ref <- ref_mla_corpus(x$values)
    expect_equal(fit$corpus$observed[1], ref$floor_observed, tolerance = 1e-12)
    expect_equal(ref$observed, ref$floor_observed, tolerance = 1e-12)
    expect_equal(ref_floor_complete(x$values), ref$floor_observed, tolerance = 1e-12)
  }
})

test_that("minimum: the positive annotators are chosen uniformly at random", {
  withr::local_seed(10)
  x <- simulate_annotations(6000, 4, 1, 0.25, scenario = "minimum")
  share <- colMeans(x$values[, , 1])
  expect_true(all(abs(share - 0.25) < 5 * sqrt(0.25 * 0.75 / 6000)))
})

test_that("annotator-specific error rates", {
  withr::local_seed(11)
  e <- c(0, 0.05, 0.3)
  x <- simulate_annotations(5000, 3, 4, 0.4, scenario = "noisy", error = e)
  truth <- attr(x, "truth")
  flips <- vapply(1:3, function(c) mean(x$values[, c, ] != truth), numeric(1))
  expect_identical(flips[1], 0)
  expect_true(all(abs(flips - e) < 5 * sqrt(e * (1 - e) / 20000) + 1e-12))
})

test_that("bias shifts each annotator's selection probability on the logit scale", {
  withr::local_seed(12)
  b <- c(-1, 0, 1.5)
  x <- simulate_annotations(5000, 3, 4, 0.3, scenario = "independent", bias = b)
  rate <- vapply(1:3, function(c) mean(x$values[, c, ]), numeric(1))
  target <- stats::plogis(stats::qlogis(0.3) + b)
  expect_true(all(abs(rate - target) < 5 * sqrt(target * (1 - target) / 20000)))
  # noisy: P(select | truth t) = plogis(qlogis(t(1-e) + (1-t)e) + b)
  y <- simulate_annotations(5000, 3, 4, 0.5, scenario = "noisy", error = 0.2, bias = b)
  truth <- attr(y, "truth")
  for (c in 1:3) {
    sel1 <- mean(y$values[, c, ][truth == 1])
    expect_lt(abs(sel1 - stats::plogis(stats::qlogis(0.8) + b[c])), 0.03)
    sel0 <- mean(y$values[, c, ][truth == 0])
    expect_lt(abs(sel0 - stats::plogis(stats::qlogis(0.2) + b[c])), 0.03)
  }
})

test_that("correlation keeps prevalences and matches the copula's joint probability", {
  withr::local_seed(13)
  p <- c(0.2, 0.5)
  x <- simulate_annotations(40000, 2, 2, p, scenario = "perfect", correlation = 0.6)
  truth <- attr(x, "truth")
  expect_true(all(abs(colMeans(truth) - p) < 5 * sqrt(p * (1 - p) / 40000)))
  joint <- mean(truth[, 1] == 1 & truth[, 2] == 1)
  expect_lt(abs(joint - ref_joint_positive(0.2, 0.5, 0.6)), 0.01)
  expect_gt(joint, 0.2 * 0.5 + 0.03)
  # independent scenario: dependence within each annotator's vector,
  # annotators stay independent of each other
  y <- simulate_annotations(20000, 2, 2, 0.3, scenario = "independent", correlation = 0.8)
  within <- mean(y$values[, 1, 1] == 1 & y$values[, 1, 2] == 1)
  across <- mean(y$values[, 1, 1] == 1 & y$values[, 2, 1] == 1)
  expect_lt(abs(within - ref_joint_positive(0.3, 0.3, 0.8)), 0.015)
  expect_lt(abs(across - 0.09), 0.015)
  # correlation 1: one latent draw per item, so the label with the larger
  # prevalence is set whenever the smaller one is
  z <- simulate_annotations(500, 2, 2, c(0.2, 0.6), correlation = 1)
  tz <- attr(z, "truth")
  expect_true(all(tz[tz[, 1] == 1, 2] == 1))
})

test_that("MLA of simulated data matches the plain-R reference", {
  withr::local_seed(14)
  for (s in c("noisy", "independent", "minimum")) {
    x <- simulate_annotations(15, 4, 5, c(.1, .3, .5, .7, .9), scenario = s)
    fit <- mla(x)
    ref <- ref_mla_corpus(x$values)
    expect_equal(fit$corpus$observed[1], ref$observed, tolerance = 1e-12)
    expect_equal(fit$corpus$expected, unname(ref$expected), tolerance = 1e-12)
    expect_equal(fit$corpus$floor_observed[1], ref$floor_observed, tolerance = 1e-12)
  }
})

test_that("arguments are validated with classed errors", {
  expect_mla_snapshot({
    simulate_annotations(0, 3, 2, 0.5)
    simulate_annotations(10, 1, 2, 0.5)
    simulate_annotations(10, 3, 2.5, 0.5)
    simulate_annotations(10, 3, 2, c(0.5, 0.2, 0.1))
    simulate_annotations(10, 3, 2, c(0.5, 1.2))
    simulate_annotations(10, 3, 2, "a")
    simulate_annotations(10, 3, 2, 0.5, scenario = "nosy")
    simulate_annotations(10, 3, 2, 0.5, "noisy", error = c(0.1, 0.2))
    simulate_annotations(10, 3, 2, 0.5, "noisy", error = NA)
    simulate_annotations(10, 3, 2, 0.5, "perfect", bias = 1)
    simulate_annotations(10, 3, 2, 0.5, "noisy", bias = c(1, Inf, 0))
    simulate_annotations(10, 3, 2, 0.5, "noisy", correlation = 1.5)
    simulate_annotations(10, 3, 2, 0.5, "minimum", correlation = 0.3)
    simulate_annotations(10, 3, 2, 0.5, "noisy", 0.1, 7)
  })
  expect_mla_error(simulate_annotations(0, 3, 2, 0.5), "simulation_argument")
  expect_mla_error(simulate_annotations(10, 3, 2, -1))
  expect_mla_error(simulate_annotations(10, 3, 2, 0.5, "perfect", bias = 1))
  expect_mla_error(simulate_annotations(10, 3, 2, 0.5, "minimum", correlation = 0.3))
  expect_mla_error(simulate_annotations(10, 3, 2, 0.5, "noisy", 0.1, 7))
})

test_that("scenario errors are classed", {
  expect_mla_error(simulate_annotations(10, 3, 2, 0.5, scenario = "nosy"), "arg")
  expect_mla_error(simulate_annotations(10, 3, 2, 0.5, scenario = c("noisy", "perfect")))
})

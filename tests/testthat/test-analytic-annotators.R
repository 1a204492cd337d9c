# tidy(fit, annotators = "random"): the items' linearised variance plus the
# jackknife over annotators, against leave-one-annotator-out refits in plain R.

random_design <- function(n_items = 40, n_ann = 9, k = 4, seed = 1, holes = 0) {
  withr::local_seed(seed)
  truth <- matrix(stats::rbinom(n_items * k, 1, 0.35), n_items, k)
  sens <- stats::runif(n_ann, 0.6, 0.95)
  spec <- stats::runif(n_ann, 0.7, 0.98)
  arr <- array(NA_integer_, c(n_items, n_ann, k),
               dimnames = list(paste0("i", seq_len(n_items)), paste0("a", seq_len(n_ann)),
                               paste0("L", seq_len(k))))
  for (a in seq_len(n_ann)) {
    p1 <- ifelse(truth == 1, sens[a], 1 - spec[a])
    arr[, a, ] <- matrix(stats::rbinom(n_items * k, 1, p1), n_items, k)
  }
  if (holes > 0) arr[sample(length(arr), holes)] <- NA_integer_
  arr
}

# Plain R: leave each annotator out, refit, jackknife; add the items' variance.
ref_random_inference <- function(arr, level, conf.level = 0.95) {
  fit <- mla(arr)
  fixed <- tidy(fit, level = level)
  J <- dim(arr)[2]
  loo <- vapply(seq_len(J), function(a) tidy(mla(arr[, -a, , drop = FALSE]), level = level,
                                             conf.int = FALSE)$estimate, numeric(nrow(fixed)))
  v_ann <- (J - 1) / J * rowSums((loo - rowMeans(loo))^2)
  v_items <- fixed$std.error^2
  n <- if (level == "corpus") sum(apply(!is.na(arr), 1, any)) else {
    rep(unname(apply(!is.na(arr), 3, function(m) sum(rowSums(m) > 0))), each = 3)
  }
  df <- (v_items + v_ann)^2 / (v_items^2 / (n - 1) + v_ann^2 / (J - 1))
  se <- sqrt(v_items + v_ann)
  half <- stats::qt(1 - (1 - conf.level) / 2, df) * se
  list(std.error = se, conf.low = fixed$estimate - half,
       conf.high = pmin(1, fixed$estimate + half),
       p.value = 2 * stats::pt(-abs(fixed$estimate / se), df))
}

test_that("annotators = 'random' adds the annotator jackknife to the items' variance", {
  for (holes in c(0, 30)) {
    arr <- random_design(holes = holes)
    for (level in c("corpus", "label")) {
      ours <- tidy(mla(arr), level = level, annotators = "random")
      ref <- ref_random_inference(arr, level)
      for (col in names(ref)) {
        expect_equal(ours[[col]], ref[[col]], tolerance = 1e-10, label = paste(level, holes, col))
      }
      fixed <- tidy(mla(arr), level = level)
      expect_true(all(ours$std.error > fixed$std.error))
      expect_equal(ours$estimate, fixed$estimate)
    }
  }
})

test_that("annotators = 'random' on a single-label design uses its coefficients", {
  withr::local_seed(3)
  m <- matrix(sample(c("a", "b", "c"), 30 * 8, replace = TRUE, prob = c(3, 2, 1)), 30, 8)
  fit <- mla(m)
  ours <- tidy(fit, annotators = "random")
  loo <- vapply(seq_len(8), function(a) tidy(mla(m[, -a]), conf.int = FALSE)$estimate, numeric(3))
  v_ann <- 7 / 8 * rowSums((loo - rowMeans(loo))^2)
  expect_equal(ours$std.error, sqrt(tidy(fit)$std.error^2 + v_ann), tolerance = 1e-10)
})

test_that("annotators = 'random' refuses what it cannot estimate and warns with few annotators", {
  arr <- random_design(n_ann = 5)
  expect_message(tidy(mla(arr), annotators = "random"), class = "mlagreement_message_few_annotators")
  expect_error(tidy(mla(random_design(n_ann = 2))), NA)
  expect_mla_error(tidy(mla(random_design(n_ann = 2)), annotators = "random"), "annotator_variance")
  m <- matrix(sample(1:4, 30 * 8, replace = TRUE), 30, 8)
  expect_mla_error(tidy(mla(m, weights = "linear"), annotators = "random"), "annotator_variance")
  s <- as_annotation_counts(as_annotations(random_design()))
  expect_mla_error(tidy(mla(s), annotators = "random"), "needs_records")
  expect_mla_error(tidy(mla(random_design()), annotators = "both"))
})

test_that("mla_compare(annotators = 'random') adds both groups' annotator jackknife", {
  arr <- random_design(n_items = 40, n_ann = 16, seed = 5)
  a <- mla(arr[, 1:8, ])
  b <- mla(arr[, 9:16, ])
  cmp <- withr::with_seed(2, mla_compare(a, b, R = 200, annotators = "random"))
  fixed <- withr::with_seed(2, mla_compare(a, b, R = 200))
  d <- attr(cmp, "replicates")
  jack <- function(x) {
    J <- dim(x)[2]
    loo <- vapply(seq_len(J), function(j) tidy(mla(x[, -j, , drop = FALSE]), conf.int = FALSE)$estimate,
                  numeric(3))
    (J - 1) / J * rowSums((loo - rowMeans(loo))^2)
  }
  parts <- cbind(apply(d, 2, stats::var), jack(arr[, 1:8, ]), jack(arr[, 9:16, ]))
  se <- unname(sqrt(rowSums(parts)))
  # Satterthwaite: 39 df for the items, 7 for each group's annotators
  df <- unname(rowSums(parts)^2 / rowSums(parts^2 / matrix(c(39, 7, 7), 3, 3, byrow = TRUE)))
  expect_true(all(df > 7 & df < 39))
  expect_equal(cmp$conf.low, cmp$difference - stats::qt(0.975, df) * se, tolerance = 1e-10)
  expect_equal(cmp$conf.high, cmp$difference + stats::qt(0.975, df) * se, tolerance = 1e-10)
  expect_equal(cmp$p.value, 2 * stats::pt(-abs(cmp$difference) / se, df), tolerance = 1e-10)
  expect_equal(cmp$difference, fixed$difference)
  expect_true(all(cmp$conf.high - cmp$conf.low > fixed$conf.high - fixed$conf.low))
  # print() and autoplot() name the kind of interval
  expect_output(print(cmp), "95.0% t intervals (items and annotators as samples)", fixed = TRUE)
  expect_output(print(fixed), "95.0% percentile intervals", fixed = TRUE)
  expect_match(ggplot2::autoplot(cmp)$labels$caption, "t intervals", fixed = TRUE)
  expect_null(attr(unclass_compare(cmp), "annotators"))
  expect_identical(attr(cmp, "annotators"), "random")
})

test_that("two groups from one annotator population: the random test keeps its level", {
  skip_on_cran()
  withr::local_seed(8)
  rejects <- vapply(seq_len(60), function(s) {
    arr <- random_design(n_items = 60, n_ann = 16, seed = 1000 + s)
    a <- mla(arr[, 1:8, ])
    b <- mla(arr[, 9:16, ])
    c(fixed = mla_compare(a, b, R = 100)$p.value[1] < 0.05,
      random = mla_compare(a, b, R = 100, annotators = "random")$p.value[1] < 0.05)
  }, logical(2))
  rate <- rowMeans(rejects)
  # 60 comparisons: Monte-Carlo SE about 0.03 at a rate of 0.05
  expect_lt(rate[["random"]], 0.15)
  expect_gt(rate[["fixed"]], rate[["random"]])
})

test_that("a label row's annotator jackknife runs over the annotators with decisions on that label", {
  arr <- random_design(n_items = 50, n_ann = 9, k = 4, seed = 7)
  arr[, 1:4, 3:4] <- NA_integer_  # labels 3-4 by annotators 5-9 only
  arr[, 5:9, 1:2] <- NA_integer_  # labels 1-2 by annotators 1-4 only
  fit <- mla(arr)
  fixed <- tidy(fit, level = "label")
  loo <- vapply(1:9, function(a) tidy(mla(arr[, -a, , drop = FALSE]), level = "label",
                                      conf.int = FALSE)$estimate, numeric(nrow(fixed)))
  deciding <- list(L1 = 1:4, L2 = 1:4, L3 = 5:9, L4 = 5:9)[fixed$label]
  J <- unname(lengths(deciding))
  v_ann <- vapply(seq_len(nrow(fixed)), function(r) {
    th <- loo[r, deciding[[r]]]
    (J[r] - 1) / J[r] * sum((th - mean(th))^2)
  }, numeric(1))
  v_items <- fixed$std.error^2
  df <- (v_items + v_ann)^2 / (v_items^2 / 49 + v_ann^2 / (J - 1))
  ours <- suppressMessages(tidy(fit, level = "label", annotators = "random"))
  expect_equal(ours$std.error, sqrt(v_items + v_ann), tolerance = 1e-10)
  expect_equal(ours$conf.low, fixed$estimate - stats::qt(0.975, df) * sqrt(v_items + v_ann),
               tolerance = 1e-10)
  # the bootstrap over annotators: jackknife, rescaling and t widening use the same J
  bs <- suppressMessages(withr::with_seed(3, mla_boot(fit, R = 199, resample = "annotators")))
  js <- jackknife_se(bs, "label")
  expect_identical(js$n_units, J)
  expect_equal(js$jackknife_se, sqrt(v_ann), tolerance = 1e-10)
  s <- which(bs$stats$name == "L1:fleiss")
  t0 <- bs$t0[[s]]
  widened <- t0 + (bs$t[, s] - t0) * sqrt(4 / 3) * stats::qt(0.975, 3) / stats::qnorm(0.975)
  fin <- is.finite(widened)
  ref <- boot_interval(widened[fin], t0, 0.95, "perc")$ci  # boot.ci's interpolation (test-boot-ci.R)
  expect_equal(unname(suppressWarnings(confint(bs, s, type = "perc"))[1, ]), pmin(1, ref), tolerance = 1e-12)
  expect_equal(suppressWarnings(tidy(bs, level = "label"))$std.error[s - 3],
               stats::sd((t0 + (bs$t[, s] - t0) * sqrt(4 / 3))[fin]), tolerance = 1e-12)
})

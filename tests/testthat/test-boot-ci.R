boot_ci_fixture <- function(resample = "items", R = 499, ...) {
  withr::with_seed(21, mla_boot(mla(boot_fixture()), R = R, resample = resample, ...))
}

test_that("intervals agree with boot::boot.ci() on the as_boot() object", {
  skip_if_not_installed("boot")
  for (resample in c("items", "annotators")) {
    bs <- boot_ci_fixture(resample)
    b <- suppressMessages(as_boot(bs))
    expect_s3_class(b, "boot")
    for (s in c(1, 2, 3, 5, 12, 20)) {
      for (level in c(0.9, 0.95)) {
        # annotators resampled: confint() widens the deviations by t_(J-1) / z
        bf <- widened_boot(b, bs, s, level)
        # boot.ci() needs finite replicates; confint() drops undefined ones
        ref <- suppressWarnings(boot::boot.ci(bf, conf = level, index = s,
                                              type = c("perc", "basic", "norm")))
        ci <- function(type) unname(suppressWarnings(confint(bs, s, level = level, type = type))[1, ])
        expect_equal(ci("perc"),
                     unname(ref$percent[1, 4:5]), tolerance = 1e-12)
        expect_equal(ci("basic"),
                     unname(ref$basic[1, 4:5]), tolerance = 1e-12)
        expect_equal(ci("norm"),
                     unname(ref$normal[1, 2:3]), tolerance = 1e-12)
        bca <- boot::boot.ci(bf, conf = level, index = s, type = "bca", L = b$mla_influence[, s])
        expect_equal(unname(suppressWarnings(confint(bs, s, level = level, type = "bca"))[1, ]),
                     unname(bca$bca[1, 4:5]), tolerance = 1e-12)
      }
    }
  }
})

test_that("the jackknife influence values are boot's jackknife influence values", {
  skip_if_not_installed("boot")
  bs <- boot_ci_fixture(R = 20)
  b <- as_boot(bs)
  expect_equal(b$statistic(b$data, b$data), unname(bs$t0), tolerance = 1e-12)
  # boot centres at t0, (n - 1)(t0 - t_(-i)); the BCa acceleration here uses
  # the usual centred jackknife, (n - 1)(mean t_(-.) - t_(-i)) (Efron 1987).
  L <- boot::empinf(data = b$data, statistic = b$statistic, stype = "i", type = "jack", index = 1)
  expect_equal(b$mla_influence[, 1], L - mean(L), tolerance = 1e-10)
})

test_that("jackknife_se() is the jackknife formula over leave-one-out refits", {
  arr <- boot_fixture()
  fit <- mla(arr)
  x <- item_x(fit$annotations)
  m <- item_m(fit$annotations)
  bs <- withr::with_seed(1, mla_boot(fit, R = 5))
  loo <- t(vapply(seq_len(300), function(i) ref_item_stats(x[-i, ], m[-i, ]), numeric(21)))
  se <- apply(loo, 2, function(v) sqrt(299 / 300 * sum((v - mean(v))^2)))
  js <- jackknife_se(bs)
  expect_named(js, c("baseline", "estimate", "jackknife_se", "n_units"))
  expect_equal(js$jackknife_se, se[1:3], tolerance = 1e-12)
  jl <- jackknife_se(bs, level = "label")
  expect_equal(jl$jackknife_se, se[-(1:3)], tolerance = 1e-12)
  expect_identical(jl$label, fit$label$label)
  expect_mla_snapshot(jackknife_se(boot_ci_fixture("both", R = 20)))
  expect_mla_error(jackknife_se(fit), "boot_object")
})

test_that("every interval type works for every design", {
  cl <- rep(seq_len(60), each = 5)
  st <- rep(c("a", "b"), each = 150)
  for (args in list(list(resample = "items"), list(resample = "items", cluster = cl),
                    list(resample = "items", strata = st),
                    list(resample = "items", cluster = cl, strata = st),
                    list(resample = "annotators"), list(resample = "both"),
                    list(resample = "both", cluster = cl, strata = st))) {
    bs <- do.call(boot_ci_fixture, c(args, R = 199))
    types <- if (args$resample == "both") c("perc", "basic", "norm") else c("perc", "basic", "norm", "bca")
    for (type in types) {
      ci <- suppressWarnings(confint(bs, c("fleiss", "ac1", "pabak"), type = type))
      expect_true(all(is.finite(ci)))
      expect_true(all(ci[, 1] < ci[, 2]))
      td <- suppressWarnings(tidy(bs, level = "label", type = type))
      expect_true(all(td$conf.low <= td$conf.high))
    }
  }
})

test_that("confint() names its rows and columns and checks its arguments", {
  bs <- boot_ci_fixture(R = 99)
  ci <- confint(bs, c("fleiss", "L2:ac1"), level = 0.9, type = "perc")
  expect_identical(dimnames(ci), list(c("fleiss", "L2:ac1"), c("5 %", "95 %")))
  expect_identical(confint(bs, 1:2, type = "perc"), confint(bs, c("fleiss", "ac1"), type = "perc"))
  expect_identical(nrow(confint(bs, type = "perc")), 21L)
  expect_mla_snapshot(confint(bs, "kappa"))
  expect_mla_snapshot(confint(bs, 0))
  expect_mla_snapshot(confint(bs, level = 95))
  expect_mla_snapshot(confint(boot_ci_fixture("both", R = 20), type = "bca"))
  expect_mla_error(confint(bs, "kappa"), "boot_parm")
  expect_mla_error(confint(bs, level = 95), "conf_level")
})

test_that("undefined replicates and extreme quantiles are reported", {
  bs <- boot_ci_fixture("annotators", R = 300)
  expect_true(anyNA(bs$t[, 1]))
  n_na <- sum(is.na(bs$t[, 1]))
  expect_warning(confint(bs, 1), class = "mlagreement_warning_boot_na",
                 regexp = paste0(bs$stats$name[1], " (", n_na, " of 300)"), fixed = TRUE)
  small <- boot_ci_fixture(R = 10)
  expect_mla_warning(confint(small, 1, level = 0.99), "boot_extreme")
})

test_that("the percentile interval covers the noisy generator's true value", {
  skip_on_cran()
  # 80% intervals, so that both too narrow and too wide intervals show: with
  # 200 simulations the number covering the truth is binomial; allowing the
  # percentile interval's true coverage anywhere in [0.75, 0.85] (finite-sample
  # bias around the nominal 0.8), it lies in [126, 187] with probability
  # > 1 - 2e-4. Intervals with the right centre but half or twice the width
  # cover about 47% or 99% of the time.
  truth <- boot_sim_truth(0.3, 0.1)
  covered <- withr::with_seed(2024, vapply(seq_len(200), function(s) {
    fit <- mla(random_design(200, 4, 6, prevalence = 0.3, error = 0.1, names = TRUE))
    ci <- confint(mla_boot(fit, R = 200), "fleiss", level = 0.8, type = "perc")
    ci[1, 1] <= truth && truth <= ci[1, 2]
  }, logical(1)))
  expect_gte(sum(covered), stats::qbinom(1e-4, 200, 0.75))
  expect_lte(sum(covered), stats::qbinom(1 - 1e-4, 200, 0.85))
})

test_that("the jackknife is computed once, kept in the object and reused", {
  fit <- mla(boot_fixture())
  for (resample in c("items", "annotators")) {
    bs <- withr::with_seed(2, mla_boot(fit, R = 30, resample = resample))
    expect_identical(bs$engine, boot_data(fit, resample))
    expect_null(bs$cache$jack)
    ci <- suppressWarnings(confint(bs, type = "bca"))
    cached <- bs$cache$jack
    fresh <- boot_jackknife(boot_data(fit, resample), bs$units, resample, 1L)
    colnames(fresh) <- bs$stats$name
    expect_identical(cached, fresh)
    expect_identical(suppressWarnings(confint(bs, type = "bca")), ci)
    # jackknife_se() and tidy() read the cache: a poisoned cache shows through
    poisoned <- bs
    poisoned$cache <- new.env(parent = emptyenv())
    poisoned$cache$jack <- cached * 0 + 0.5
    expect_identical(jackknife_se(poisoned)$jackknife_se, rep(0, 3))
    expect_false(identical(suppressWarnings(tidy(poisoned, type = "bca")),
                           suppressWarnings(tidy(bs, type = "bca"))))
    if (rlang::is_installed("boot")) {
      expect_true(all(suppressMessages(as_boot(poisoned))$mla_influence == 0))
    }
  }
})

test_that("boot.ci() on as_boot() drops undefined replicates as confint() does, and as_boot() says so", {
  skip_if_not_installed("boot")
  bs <- boot_ci_fixture("annotators", R = 300)
  n_na <- sum(!is.finite(bs$t[, 1]))
  expect_gt(n_na, 0)
  expect_message(b <- as_boot(bs), class = "mlagreement_message_boot_na",
                 regexp = paste0(bs$stats$name[1], " (", n_na, ")"), fixed = TRUE)
  # the same quantile rule on the same (defined) replicates
  ref <- boot::boot.ci(widened_boot(b, bs, 1), index = 1, type = "perc")$percent[1, 4:5]
  expect_equal(unname(suppressWarnings(confint(bs, 1, type = "perc"))[1, ]), unname(ref),
               tolerance = 1e-12)
  expect_silent(as_boot(boot_ci_fixture(R = 50)))
})

test_that("constant replicates give no interval, with a warning", {
  perfect <- matrix(rep(c(1, 2), 15), 30, 3)
  bs <- withr::with_seed(1, mla_boot(mla(perfect), R = 50))
  expect_true(all(bs$t[, 1:3] == 1))
  for (type in c("perc", "bca", "basic", "norm")) {
    expect_mla_warning(ci <- confint(bs, 1:3, type = type), "boot_constant")
    expect_true(all(is.na(ci)))
  }
  expect_mla_warning(td <- tidy(bs), "boot_constant")
  expect_true(all(is.na(td$conf.low)))
})

test_that("fewer than 2 items are refused and fewer than 20 give a warning", {
  one <- array(c(1L, 1L, 0L, 1L), c(1, 2, 2))
  expect_mla_snapshot(mla_boot(mla(one), R = 10), "boot_items")
  few <- withr::with_seed(3, simulate_annotations(4, 3, 2, prevalence = 0.5, scenario = "noisy"))
  expect_snapshot(bs <- mla_boot(mla(few), R = 20))
  expect_mla_warning(mla_boot(mla(few), R = 20, resample = "both"), "few_items")
  ok <- withr::with_seed(3, simulate_annotations(20, 3, 2, prevalence = 0.5, scenario = "noisy"))
  expect_no_warning(mla_boot(mla(ok), R = 20))
  # clusters are the resampled units
  expect_warning(mla_boot(mla(ok), R = 20, cluster = rep(1:5, 4)), "5 clusters",
                 class = "mlagreement_warning_few_items")
})

test_that("with annotators resampled, SEs scale the deviations by sqrt(J / (J - 1)) and intervals widen them further", {
  skip_if_not_installed("boot")
  for (resample in c("annotators", "both")) {
    bs <- boot_ci_fixture(resample, R = 199)
    J <- sum(bs$fit$annotations$annotator_records > 0)
    scaled <- sweep(sweep(bs$t, 2, bs$t0) * sqrt(J / (J - 1)), 2, bs$t0, "+")
    b <- suppressMessages(as_boot(bs))
    expect_equal(unname(b$t), unname(scaled), tolerance = 1e-12)
    td <- suppressWarnings(tidy(bs, level = "label", type = "perc"))
    expect_equal(td$std.error, unname(apply(scaled[, -(1:3)], 2, stats::sd, na.rm = TRUE)),
                 tolerance = 1e-12)
    varied <- which(apply(bs$t, 2, function(t) diff(range(t, na.rm = TRUE)) > 0))
    for (s in utils::head(varied, 4)) {
      fin <- is.finite(bs$t[, s])
      ref <- boot::boot.ci(widened_boot(b, bs, s), index = s, type = "perc")$percent[1, 4:5]
      ci <- suppressWarnings(confint(bs, s, type = "perc"))
      expect_equal(unname(ci[1, ]), unname(ref), tolerance = 1e-12)
      # wider than the replicates as drawn
      raw <- stats::quantile(bs$t[fin, s], c(0.025, 0.975), names = FALSE)
      expect_gt(ci[1, 2] - ci[1, 1], 0.99 * (raw[2] - raw[1]))
    }
  }
  # items: the replicates as drawn
  bs <- boot_ci_fixture("items", R = 199)
  expect_identical(suppressMessages(as_boot(bs))$t, unname(bs$t))
})

test_that("two-way intervals widen by t / z with Satterthwaite's df of the item and annotator jackknives", {
  arr <- withr::with_seed(8, random_design(60, 6, 3, prevalence = 0.3, error = 0.15))
  bs <- withr::with_seed(4, mla_boot(mla(arr), R = 199, resample = "both"))
  loo <- function(drop, along) {
    vapply(seq_len(dim(arr)[along]), function(u) {
      sub <- if (along == 1) arr[-u, , , drop = FALSE] else arr[, -u, , drop = FALSE]
      tidy(mla(sub), conf.int = FALSE)$estimate
    }, numeric(3))
  }
  jack_var <- function(theta) {
    J <- ncol(theta)
    (J - 1) / J * rowSums((theta - rowMeans(theta))^2)
  }
  v_items <- jack_var(loo(along = 1))
  v_ann <- jack_var(loo(along = 2))
  df <- (v_items + v_ann)^2 / (v_items^2 / 59 + v_ann^2 / 5)
  widen <- stats::qt(0.975, df) / stats::qnorm(0.975)
  for (s in 1:3) {
    t0 <- bs$t0[[s]]
    t <- t0 + (bs$t[, s] - t0) * sqrt(6 / 5) * widen[s]
    ref <- stats::quantile(t, c(0.025, 0.975), type = 6)  # (R + 1) alpha = 5, 195: exact order statistics
    expect_equal(unname(confint(bs, s, type = "perc")[1, ]), unname(ref), tolerance = 1e-12)
  }
  expect_true(all(widen > 1))
})

test_that("bootstrap limits are capped at 1, the largest value of every coefficient", {
  skip_if_not_installed("boot")
  arr <- withr::with_seed(3, random_design(40, 6, 2, prevalence = 0.3, error = 0.02))
  fit <- mla(arr)
  # annotators: deviations scaled by sqrt(J / (J - 1)) and widened by t_5 / z
  bs <- withr::with_seed(2, mla_boot(fit, R = 199, resample = "annotators"))
  widen <- sqrt(6 / 5) * stats::qt(0.975, 5) / stats::qnorm(0.975)
  uncapped <- vapply(1:3, function(s) {
    t0 <- bs$t0[[s]]
    stats::quantile(t0 + (bs$t[, s] - t0) * widen, c(0.025, 0.975), type = 6, names = FALSE)
  }, numeric(2))
  expect_true(all(uncapped[2, ] > 1))
  ci <- confint(bs, 1:3, type = "perc")
  expect_equal(unname(ci[, 1]), uncapped[1, ], tolerance = 1e-12)
  expect_identical(unname(ci[, 2]), rep(1, 3))
  expect_identical(tidy(bs, type = "perc")$conf.high[1:3], rep(1, 3))
  # items: boot.ci's basic and normal limits pass 1 and are capped
  arr <- withr::with_seed(2, random_design(40, 6, 2, prevalence = 0.3, error = 0.01))
  bi <- withr::with_seed(2, mla_boot(mla(arr), R = 199))
  b <- as_boot(bi)
  for (type in c("basic", "norm")) {
    ref <- boot::boot.ci(b, index = 1, type = type)[[if (type == "norm") "normal" else "basic"]]
    ref <- ref[length(ref) - 1:0]
    expect_gt(ref[2], 1)
    expect_equal(unname(confint(bi, 1, type = type)[1, ]), c(ref[1], 1), tolerance = 1e-12)
  }
})

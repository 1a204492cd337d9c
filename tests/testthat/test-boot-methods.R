test_that("tidy() adds std.error, conf.low and conf.high to tidy.mla()", {
  bs <- boot_methods_fixture()
  for (level in c("corpus", "label")) {
    td <- tidy(bs, level = level)
    base <- tidy(bs$fit, level = level, conf.int = FALSE)
    shares <- if (level == "label") {
      paste0(rep(c("positive_agreement", "negative_agreement"), each = 3), ".",
             c("std.error", "conf.low", "conf.high"))
    }
    expect_identical(names(td), c(names(base), "std.error", "conf.low", "conf.high", shares))
    expect_identical(td[names(base)], base)
    rows <- which(bs$stats$level == level)
    expect_equal(td$std.error, unname(apply(bs$t[, rows], 2, stats::sd)))
    # BCa by default, for tidy() and confint()
    expect_identical(unname(cbind(td$conf.low, td$conf.high)),
                     unname(confint(bs, rows, type = "bca")))
    expect_identical(confint(bs, rows), confint(bs, rows, type = "bca"))
    td_perc <- tidy(bs, level = level, type = "perc")
    expect_identical(unname(cbind(td_perc$conf.low, td_perc$conf.high)),
                     unname(confint(bs, rows, type = "perc")))
  }
  td <- tidy(bs, conf.level = 0.8, type = "norm")
  expect_identical(unname(cbind(td$conf.low, td$conf.high)),
                   unname(confint(bs, 1:3, level = 0.8, type = "norm")))
  expect_mla_snapshot(tidy(bs, level = "item"))
  expect_mla_error(tidy(bs, level = "item"), "boot_level")
  expect_mla_snapshot(tidy(bs, conf.level = 2))
})

test_that("undefined label coefficients stay NA", {
  arr <- boot_fixture()
  arr[, , 6] <- 0L
  bs <- withr::with_seed(1, mla_boot(mla(arr), R = 50))
  # L6 is never selected: its AC1 and PABAK replicates are all 1, so no interval
  # (one warning for the coefficients, one for specific agreement)
  expect_mla_warning(expect_warning(td <- tidy(bs, level = "label", type = "perc"),
                                    class = "mlagreement_warning_boot_constant"), "boot_constant")
  expect_true(all(is.na(td$conf.low[td$label == "L6"])))
  l6 <- td[td$label == "L6" & td$baseline == "fleiss", ]
  expect_true(is.na(l6$estimate) && is.na(l6$std.error) && is.na(l6$conf.low))
  expect_true(all(is.finite(td$conf.low[td$label != "L6"])))
})

test_that("glance() reports the design and the seed", {
  bs <- boot_methods_fixture()
  g <- glance(bs)
  expect_identical(nrow(g), 1L)
  expect_identical(g$R, 199L)
  expect_identical(g$resample, "items")
  expect_identical(g$n_units, 300L)
  expect_identical(g$seed, paste(bs$seed, collapse = "-"))
  expect_identical(g$estimate, bs$fit$corpus$estimate[1])
  gb <- glance(withr::with_seed(1, mla_boot(bs$fit, R = 20, resample = "both",
                                             cluster = rep(1:50, each = 6),
                                             strata = rep(1:2, each = 150))))
  expect_identical(gb$unit, "cluster x annotator")
  expect_identical(gb$n_units, 50L)
  expect_identical(gb$n_strata, 2L)
})

test_that("print() gives a short report", {
  bs <- boot_methods_fixture()
  expect_output(print(bs), "199 replicates resampling items")
  expect_output(print(bs), "Primary: pooled marginal")
  capture_output(expect_invisible(print(bs)))
})

test_that("as_boot() builds a boot object whose statistic is the engine's", {
  skip_if_not_installed("boot")
  bs <- boot_methods_fixture()
  b <- as_boot(bs)
  expect_s3_class(b, "boot")
  expect_identical(b$t, unname(bs$t))
  i <- withr::with_seed(3, sample(300, replace = TRUE))
  expect_equal(b$statistic(b$data, i),
               ref_item_stats(item_x(bs$fit$annotations), item_m(bs$fit$annotations), tabulate(i, 300)),
               tolerance = 1e-12)
  bc <- as_boot(withr::with_seed(1, mla_boot(bs$fit, R = 20, cluster = rep(1:60, each = 5),
                                              strata = rep(1:2, each = 150))))
  expect_identical(bc$strata, rep(1:2, each = 30))
  expect_mla_error(as_boot(bs$fit), "boot_object")
})

test_that("rare labels keep their note in the bootstrap tidy()", {
  arr <- array(0L, c(8, 3, 2), dimnames = list(NULL, NULL, c("x", "y")))
  arr[1:4, , 1] <- 1L
  arr[1:2, 1, 1] <- 0L
  arr[1, 1, 2] <- 1L
  arr[5, 2, 2] <- 1L
  withr::local_seed(3)
  expect_mla_warning(bs <- mla_boot(mla(arr), R = 30), "few_items")
  lab <- suppressWarnings(tidy(bs, level = "label"))
  expect_match(lab$note[lab$label == "y"], "too little information")
  expect_true(all(is.na(lab$note[lab$label == "x"])))
})

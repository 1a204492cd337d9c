# augment.mla() (R/mla-augment.R) and the broom conventions of tidy.mla():
# the term column works with rsample's bootstrap intervals.

test_that("augment() is the wide form of the item rows", {
  fit <- mla(bias_annotations())
  aug <- augment(fit)
  items <- tidy(fit, level = "item")
  expect_named(aug, c("item", "n_annotators", "observed", ".estimate_fleiss",
                      ".estimate_ac1", ".estimate_pabak"))
  expect_identical(nrow(aug), length(fit$annotations$items))
  expect_identical(aug$observed, items$observed[items$baseline == "fleiss"])
  expect_identical(aug$.estimate_ac1, items$estimate[items$baseline == "ac1"])
  joined <- augment(fit, data = data.frame(item = c(aug$item[3], "nope", aug$item[1]),
                                           source = c("a", "b", "c")))
  expect_named(joined, c("item", "source", names(aug)[-1]))
  expect_identical(joined$observed, c(aug$observed[3], NA, aug$observed[1]))
  expect_snapshot(error = TRUE, augment(fit, data = data.frame(id = 1)))
})

test_that("rsample::int_pctl() runs on tidy(mla()) over bootstraps of items", {
  skip_if_not_installed("rsample")
  withr::local_seed(51)
  arr <- random_design(40, 3, 3)
  dimnames(arr) <- list(NULL, NULL, c("a", "b", "c"))
  items <- data.frame(item = seq_len(40))
  agreement <- function(split) {
    ids <- rsample::analysis(split)$item
    tidy(mla(as_annotations(arr[ids, , , drop = FALSE])), conf.int = FALSE)
  }
  boots <- rsample::bootstraps(items, times = 200, apparent = TRUE)
  boots$fits <- lapply(boots$splits, agreement)
  # rsample recommends 1000 resamples; 200 keep the test fast
  expect_warning(ci <- rsample::int_pctl(boots, fits), "at least 1000")
  expect_identical(sort(ci$term), sort(baseline_names))
  full <- tidy(mla(as_annotations(arr)))
  at <- match(full$term, ci$term)
  expect_true(all(ci$.lower[at] < full$estimate & full$estimate < ci$.upper[at]))
  # the analytic interval is of the same width as the percentile interval
  ratio <- (full$conf.high - full$conf.low) / (ci$.upper[at] - ci$.lower[at])
  expect_true(all(ratio > 0.6 & ratio < 1.6))
})

test_that("a data column named like a diagnostic is refused, naming it", {
  fit <- mla(bias_annotations())
  err <- expect_mla_snapshot(augment(fit, data = data.frame(item = 1:2, observed = c(0.5, 0.7))),
                             "augment_data")
  expect_match(conditionMessage(err), "observed")
  expect_mla_snapshot(augment(fit, data = data.frame(item = 1, n_annotators = 2, .estimate_ac1 = 0)),
                      "augment_data")
  # other columns join as before
  out <- augment(fit, data = data.frame(item = c(2, 1), note = c("b", "a")))
  expect_identical(out$note, c("b", "a"))
})

test_that("augment() of a fit with baseline = 'conger' has its item rows too", {
  withr::local_seed(1)
  fit <- mla(simulate_annotations(30, 4, 3, prevalence = 0.3, scenario = "noisy"), baseline = "conger")
  aug <- augment(fit)
  expect_named(aug, c("item", "n_annotators", "observed", ".estimate_fleiss",
                      ".estimate_ac1", ".estimate_pabak", ".estimate_conger"))
  conger <- tidy(fit, level = "item", baseline = "conger")
  expect_identical(aug$item, conger$item)
  expect_identical(aug$.estimate_conger, conger$estimate)
  # the item's observed agreement against the corpus Conger chance agreement
  ae <- tidy(fit, baseline = "conger")$expected
  expect_equal(aug$.estimate_conger, (aug$observed - ae) / (1 - ae), tolerance = 1e-12)
  joined <- augment(fit, data = data.frame(item = aug$item[2]))
  expect_identical(joined$.estimate_conger, aug$.estimate_conger[2])
})

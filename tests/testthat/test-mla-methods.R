test_that("tidy() and glance() have the documented columns", {
  fit <- mla(bias_annotations(), baseline = "ac1")
  inference <- c("std.error", "statistic", "p.value", "conf.low", "conf.high")
  share <- function(q) paste0(q, c(".std.error", ".conf.low", ".conf.high"))
  expect_named(tidy(fit), c("term", "baseline", "observed", "expected", "estimate",
                            "floor_observed", "floor", "note", inference, share("observed")))
  expect_named(tidy(fit, level = "label"),
               c("term", "label", "baseline", "prevalence", "observed", "expected", "estimate",
                 "weight", "floor", "positive_agreement", "negative_agreement", "note",
                 inference, share("observed"), share("positive_agreement"),
                 share("negative_agreement")))
  expect_named(tidy(fit, level = "item"),
               c("item", "n_annotators", "baseline", "observed", "estimate"))
  expect_named(glance(fit), c("n_items", "n_annotators", "n_labels", "n_records",
                              "missing_share", "prevalence", "observed", "baseline",
                              "estimate", "design", "coverage", "n_unassigned",
                              "n_empty_records", "n_missing_decisions", "pooled_prevalence"))
  expect_equal(nrow(glance(fit)), 1L)
  expect_equal(glance(fit)$estimate, 895 / 991, tolerance = 1e-14)
  expect_s3_class(tidy(fit), "tbl_df")
})

test_that("print() and summary() give a readable report", {
  fit <- mla(bias_annotations())
  expect_snapshot(print(fit))
  expect_snapshot(print(summary(fit)))
})

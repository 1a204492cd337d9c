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

test_that("print() counts items without a record, the same for records and a summary", {
  arr <- array(c(1L, 0L, NA, 1L, 1L, NA, 0L, 0L, NA, 1L, 0L, NA), c(3, 2, 2))
  for (x in list(arr, as_annotation_counts(as_annotations(arr)))) {
    design <- grep("^Design", format(mla(x)), value = TRUE)
    expect_identical(design, "Design: 3 items, 2 annotators (2 per item; 1 item without a record), 2 labels")
  }
  full <- grep("^Design", format(mla(arr[1:2, , ])), value = TRUE)
  expect_identical(full, "Design: 2 items, 2 annotators (2 per item), 2 labels")
})

test_that("tidy(baseline = ) keeps one baseline's rows: one row per item", {
  fit <- mla(annotations_long(bias_example, item, annotator, label, value))
  items <- tidy(fit, level = "item", baseline = "fleiss")
  all_items <- tidy(fit, level = "item")
  expect_equal(nrow(items), length(unique(all_items$item)))
  expect_false(anyDuplicated(items$item) > 0)
  expect_equal(items$estimate, all_items$estimate[all_items$baseline == "fleiss"])
  for (level in c("corpus", "label")) {
    one <- tidy(fit, level = level, baseline = "ac1")
    every <- tidy(fit, level = level)
    expect_equal(one, every[every$baseline == "ac1", ], ignore_attr = TRUE)
  }
  expect_mla_error(tidy(fit, baseline = "kappa"))
})

test_that("print() and format() methods refuse unknown arguments", {
  fit <- bias_fit()
  a <- bias_annotations()
  expect_mla_warning(bs <- withr::with_seed(1, mla_boot(fit, R = 20)), "few_items")
  for (obj in list(a, as_annotation_counts(a), bs)) {
    expect_mla_error(print(obj, digits = 2), "dots")
    expect_mla_error(format(obj, digits = 2), "dots")
  }
  for (obj in list(fit, summary(fit))) expect_mla_error(print(obj, digts = 2), "dots")
  expect_output(print(fit), "Multi-Label Agreement")
  # a fit and its summary print with the decimals asked for
  a_ml <- format_fixed(fit$corpus$estimate[1], 2)
  expect_output(print(fit, digits = 2), paste0("A_ml = ", a_ml, " "), fixed = TRUE)
  expect_output(print(summary(fit), digits = 2), paste0("A_ml = ", a_ml, " "), fixed = TRUE)
  expect_false(grepl(paste0("A_ml = ", a_ml, " "), paste(format(fit), collapse = "\n"), fixed = TRUE))
  expect_mla_error(print(fit, digits = -1), "whole_number")
  # the broom generics keep working with their own arguments
  expect_s3_class(tidy(fit, level = "label", conf.int = FALSE), "tbl_df")
  expect_mla_error(tidy(fit, conf.lvl = 0.9), "dots")
})

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
                              "n_empty_records", "n_missing_decisions", "pooled_prevalence",
                              "n_pairable_items"))
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

test_that("print(), summary() and glance() say how many items do not enter A_o", {
  withr::local_seed(3)
  d <- expand.grid(item = paste0("i", 1:40), annotator = c("a", "b", "c"), label = c("x", "y", "z"),
                   stringsAsFactors = FALSE)
  d$value <- stats::rbinom(nrow(d), 1, 0.3)
  d <- d[!(d$item %in% paste0("i", 1:20) & d$annotator != "a"), ]   # 20 items with one annotator
  x <- annotations_long(d, item, annotator, label, value)
  fit <- mla(x)
  per_item <- table(unique(d[c("item", "annotator")])$item)
  expect_identical(glance(fit)$n_pairable_items, sum(per_item >= 2L))
  expect_identical(glance(fit)$n_pairable_items, 20L)
  line <- "20 of 40 items have fewer than 2 annotators and do not enter A_o"
  expect_true(line %in% format(fit))
  expect_true(any(grepl(line, capture.output(print(summary(fit))), fixed = TRUE)))
  # A_o is the mean over the 20 pairable items
  pa <- d[d$item %in% names(per_item)[per_item >= 2L], ]
  ao <- mean(vapply(split(pa, pa$item), function(g) {
    w <- tapply(g$value, list(g$annotator, g$label), sum)
    mean(apply(w, 2, function(v) {
      s <- sum(v); m <- length(v); (s * (s - 1) + (m - s) * (m - s - 1)) / (m * (m - 1))
    }))
  }, 1))
  expect_equal(glance(fit)$observed, ao, tolerance = 1e-12)
  # the same from a summary; nothing said when every item has a pair
  expect_identical(glance(mla(as_annotation_counts(x)))$n_pairable_items, 20L)
  expect_true(line %in% format(mla(as_annotation_counts(x))))
  one <- d[d$item %in% c("i1", paste0("i", 21:40)), ]
  expect_true("1 of 21 items has fewer than 2 annotators and does not enter A_o" %in%
                format(mla(annotations_long(one, item, annotator, label, value))))
  full <- mla(bias_annotations())
  expect_identical(glance(full)$n_pairable_items, 4L)
  expect_false(any(grepl("do not enter", format(full))))
})

test_that("under mla(labels = ) the design columns describe the object, as documented", {
  withr::local_seed(5)
  arr <- array(stats::rbinom(6 * 4 * 3, 1, 0.4), c(6, 4, 3),
               dimnames = list(paste0("i", 1:6), paste0("a", 1:4), paste0("L", 1:3)))
  arr[, "a4", 1:2] <- NA            # a4 decides only on L3
  arr[1, , 1:2] <- NA
  arr[1, 1, 1] <- 1L                # item i1: one decision on L1 and L2
  x <- as_annotations(arr)
  whole <- glance(mla(x))
  sub <- mla(x, labels = c("L1", "L2"))
  cols <- c("n_items", "n_annotators", "n_records", "coverage", "n_pairable_items")
  expect_identical(glance(sub)[cols], whole[cols])
  expect_identical(glance(sub)$n_labels, 2L)
  # the decisions missing on the analysed labels: 6 x 2 of a4, 3 x 2 + 1 of i1
  expect_identical(glance(sub)$n_missing_decisions, 12 + 5)
  items <- tidy(sub, level = "item", baseline = "fleiss")
  expect_identical(items$n_annotators[items$item == "i1"], 4L)
  expect_true(is.na(items$observed[items$item == "i1"]))
  # the coefficients read only the analysed labels' decisions
  expect_equal(tidy(sub, level = "label", conf.int = FALSE),
               tidy(mla(as_annotations(arr[, , 1:2])), level = "label", conf.int = FALSE),
               tolerance = 1e-15)
})

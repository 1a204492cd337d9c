worked_fit <- function() mla(annotations_long(bias_example, item, annotator, label, value))

test_that("report_table() gives the worked example's published values, rounded", {
  fit <- worked_fit()
  tab <- report_table(fit)
  expect_s3_class(tab, "mla_report_table")
  expect_identical(tab$Role, c("primary", "sensitivity", "sensitivity"))
  # Menzner and Leidner (2026), section 3.7: 0.232, 0.903, 0.828; floor -0.344
  expect_identical(tab$Coefficient, c(0.232, 0.903, 0.828))
  expect_identical(tab$Floor[1], -0.344)
  expect_identical(tab$`Observed agreement`, rep(0.914, 3))
  # everything else is tidy(fit) rounded to three decimals
  cor <- tidy(fit)
  expect_identical(tab$`Chance agreement`, round(cor$expected, 3))
  expect_identical(tab$`Standard error`, round(cor$std.error, 3))
  expect_identical(tab$`95% CI lower`, round(cor$conf.low, 3))
  expect_identical(tab$`95% CI upper`, round(cor$conf.high, 3))
})

test_that("the primary baseline comes first and the labels follow the universe", {
  fit <- mla(annotations_long(bias_example, item, annotator, label, value), baseline = "ac1")
  tab <- report_table(fit, digits = 4)
  expect_identical(tab$Coefficient[1], 0.9031)
  expect_match(tab$Baseline[1], "AC1")
  lab <- report_table(fit, "labels")
  expect_identical(lab$Label, fit$labels)
  ref <- tidy(fit, level = "label", baseline = "ac1")
  ref <- ref[match(fit$labels, ref$label), ]
  expect_identical(lab$Coefficient, round(ref$estimate, 3))
  expect_identical(lab$`Weight (eq. 6)`, round(ref$weight, 3))
  expect_identical(lab$`Negative agreement`, round(ref$negative_agreement, 3))
  expect_identical(is.na(lab$Coefficient), is.na(ref$estimate))
})

test_that("bootstrap intervals replace the analytic ones when given", {
  withr::local_seed(2)
  fit <- mla(simulate_annotations(40, 3, 4, 0.3, scenario = "noisy", error = 0.2))
  bs <- mla_boot(fit, R = 60)
  tab <- report_table(fit, boot = bs, conf.level = 0.9)
  ci <- suppressWarnings(tidy(bs, conf.level = 0.9))
  ci <- ci[match(c("fleiss", "ac1", "pabak"), ci$baseline), ]
  expect_identical(tab$`90% CI lower`, round(ci$conf.low, 3))
  expect_identical(tab$`90% CI upper`, round(ci$conf.high, 3))
  expect_identical(tab$`Standard error`, round(ci$std.error, 3))
  lab <- report_table(fit, "labels", boot = bs)
  ci <- suppressWarnings(tidy(bs, level = "label"))
  ci <- ci[ci$baseline == "fleiss", ]
  expect_identical(lab$`95% CI lower`, round(ci$conf.low[match(lab$Label, ci$label)], 3))
})

test_that("single-label designs name categories and their coefficients, with corpus floors", {
  withr::local_seed(4)
  m <- matrix(sample(c("a", "b", "c"), 90, TRUE), 30, 3)
  fit <- mla(as_annotations(m))
  tab <- report_table(fit, digits = 10)
  expect_identical(tab$Baseline, c("Fleiss' kappa", "Gwet's AC1", "Brennan-Prediger"))
  expect_equal(tab$Floor, tidy(fit)$floor, tolerance = 1e-9)  # the nominal floor
  expect_false("Floor" %in% names(report_table(fit, "labels")))
  expect_identical(names(report_table(fit, "labels"))[1], "Category")
  skip_if_not_installed("irr")
  expect_equal(tab$Coefficient[1], irr::kappam.fleiss(m)$value, tolerance = 1e-8)
})

test_that("printed values have fixed decimals and no rounding noise", {
  tab <- structure(data.frame(Baseline = c("a", "b", "c"), Coefficient = c(-1e-17, 1.11e-16, -0.2)),
                   class = c("mla_report_table", "data.frame"), digits = 3)
  expect_identical(format(tab)$Coefficient, c("0.000", "0.000", "-0.200"))
  expect_identical(format_fixed(c(-1e-17, 0.5, NA), 3), c("0.000", "0.500", "NA"))
  fit <- worked_fit()
  out <- capture.output(print(report_table(fit, "labels")))
  expect_false(any(grepl("e-[0-9]|-0\\.000", out)))
  md <- knitr::kable(format(report_table(fit)))
  expect_true(any(grepl("0.232", md, fixed = TRUE)))
  # rows and columns keep the class and the decimals
  sub <- report_table(fit, digits = 2)[1:2, c("Baseline", "Coefficient")]
  expect_s3_class(sub, "mla_report_table")
  expect_identical(format(sub)$Coefficient, c("0.23", "0.90"))
})

test_that("report_table() checks its arguments", {
  fit <- worked_fit()
  expect_mla_error(report_table(tidy(fit)))
  expect_mla_error(report_table(fit, "items"))
  expect_mla_error(report_table(fit, boot = fit))
  expect_mla_error(report_table(fit, digits = -1))
})

test_that("report_table() refuses a bootstrap of another fit", {
  withr::local_seed(1)
  arr <- array(rbinom(24 * 4 * 3, 1, .4), dim = c(24, 4, 3),
               dimnames = list(paste0("i", 1:24), c("ann", "bob", "cy", "dee"), c("pos", "neg", "neu")))
  fit_all <- mla(arr)
  b_all <- suppressWarnings(mla_boot(fit_all, R = 20))
  expect_mla_snapshot(report_table(mla(arr[1:12, , ]), boot = b_all), "boot_mismatch")
  err <- expect_mla_error(report_table(mla(arr, labels = c("pos", "neg")), boot = b_all, level = "labels"),
                          "boot_mismatch")
  expect_match(conditionMessage(err), "`boot` must be a bootstrap of `fit`", fixed = TRUE)
  expect_mla_error(report_table(mla(arr, baseline = "ac1"), boot = b_all), "boot_mismatch")
  other <- arr
  other[1, 1, ] <- 1L - other[1, 1, ]   # same design, other data
  expect_mla_error(report_table(mla(other), boot = b_all), "boot_mismatch")
  # its own fit, or a refit of the same data, is accepted
  tab <- suppressWarnings(report_table(mla(arr), boot = b_all))
  expect_equal(tab$`95% CI lower`[1], round(suppressWarnings(tidy(b_all))$conf.low[1], 3))
})

test_that("fits of category indicators of a single-label design are named as multi-label fits", {
  codes <- matrix(c("a", "a", "b", "c",  "a", "b", "b", "c",  "a", "a", "b", "b",
                    "c", "a", "b", "c",  "a", "a", "c", "c"), ncol = 4, byrow = TRUE)
  onehot <- array(0L, c(5, 4, 3), dimnames = list(NULL, NULL, c("a", "b", "c")))
  for (k in c("a", "b", "c")) onehot[, , k] <- (codes == k) * 1L
  multi <- report_table(mla(onehot))
  multi_labels <- report_table(mla(onehot), "labels")
  # a subset of the categories, and a label structure on all of them
  subset <- mla(codes, labels = c("a", "b"))
  structured <- mla(codes, label_weights = c(a = 2))
  for (fit in list(subset, structured)) {
    tab <- report_table(fit)
    expect_identical(tab$Baseline, multi$Baseline)
    expect_true("Floor" %in% names(tab))
    labels <- report_table(fit, "labels")
    expect_identical(names(labels), names(multi_labels))
  }
})

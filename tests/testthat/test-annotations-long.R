test_that("ConvAbuse types match the data set's documented numbers", {
  a <- annotations_long(convabuse_types, item, annotator, label, value)
  expect_equal(dim(a), c(4185L, 8L, 7L))
  expect_equal(a$n_records, 12411)
  expect_equal(table(a$item_annotators)[["3"]], 2445L)
  fit <- mla(a)
  # a sparse design, not missing data: 12,411 of 33,480 cells annotated and
  # every annotated record complete
  g <- glance(fit)
  expect_identical(g$missing_share, 0)
  expect_equal(g$coverage, 12411 / (4185 * 8))
  expect_identical(c(g$n_unassigned, g$n_empty_records, g$n_missing_decisions),
                   c(4185 * 8 - 12411, 0, 0))
  # the data README's prevalences are pooled shares of positive decisions
  pooled <- colSums(item_x(a)) / colSums(item_m(a))
  pub <- function(quantity, digits) published("convabuse_types", quantity, digits = digits)
  expect_equal(round(mean(pooled), 6), pub("pooled_prevalence_mean", 6))
  expect_equal(round(pooled, 5), pub("pooled_prevalence", 5))
  expect_equal(round(tidy(fit)$observed[1], 6), pub("corpus_observed", 6))
  lab <- tidy(fit, level = "label")
  fl <- lab[lab$baseline == "fleiss", ]
  # the coefficients use Gwet's item-averaged prevalence
  expect_equal(fl$prevalence, ref_prevalence(item_x(a), item_m(a)), tolerance = 1e-12)
  expect_equal(round(fl$estimate, 4), pub("label_estimate", 4))
})

test_that("labels never selected stay in the universe", {
  sel <- data.frame(item = c(1, 1, 2, 2), coder = c("a", "b", "a", "b"),
                    tag = factor(c("x", "x", NA, "y"), levels = c("x", "y", "z")))
  a <- annotations_long(sel, item, coder, tag)
  expect_equal(a$labels, c("x", "y", "z"))
  expect_equal(item_m(a)[, 3], c(2L, 2L))
  expect_equal(item_x(a)[, 3], c(0L, 0L))
})

test_that("decision tables given without value, or with 0/1 as labels, are refused", {
  d <- annotations_long_data(simulate_annotations(20, 3, 4, prevalence = 0.4))
  err <- expect_error(annotations_long(d, item, annotator, label),
                      class = "mlagreement_error_value_missing")
  expect_match(conditionMessage(err), "value = value", fixed = TRUE)
  expect_error(annotations_long(d, item, annotator, value),
               class = "mlagreement_error_label_shape")
  # character 0/1 values (as CSV and JSON readers give them) convert exactly
  chr <- d
  chr$value <- as.character(chr$value)
  expect_identical(annotations_long(chr, item, annotator, label, value),
                   annotations_long(d, item, annotator, label, value))
  chr$value[5] <- "No"
  expect_error(annotations_long(chr, item, annotator, label, value),
               class = "mlagreement_error_value_type")
  # a real selected-labels table where everyone picks everything only warns
  all_picked <- expand.grid(item = 1:3, annotator = c("a", "b"), label = c("x", "y"))
  expect_warning(annotations_long(all_picked, item, annotator, label),
                 class = "mlagreement_warning_all_selected")
})

test_that("Date and POSIXct ids are accepted and kept as given in the results", {
  withr::local_seed(3)
  days <- as.Date("2024-03-01") + 0:5
  d <- data.frame(item = rep(days, each = 3), annotator = rep(c("a", "b", "c"), 6), label = "x",
                  value = stats::rbinom(18, 1, 0.5))
  by_day <- annotations_long(d, item, annotator, label, value)
  expect_identical(by_day$items, days)
  # the same decisions with the days as text: the same estimates
  d_text <- d
  d_text$item <- format(d$item)
  by_text <- annotations_long(d_text, item, annotator, label, value)
  fit <- mla(by_day)
  expect_equal(tidy(fit), tidy(mla(by_text)), tolerance = 1e-12)
  items <- tidy(fit, level = "item")
  expect_s3_class(items$item, "Date")
  expect_identical(format(items$item), tidy(mla(by_text), level = "item")$item)
  expect_s3_class(augment(fit)$item, "Date")
  # date-times (with a fraction of a second: two items 0.5 s apart stay two)
  stamps <- as.POSIXct("2024-03-01 09:00:00", tz = "UTC") + c(0, 0.5, 3600, 7200, 7200.25, 9000)
  d$item <- rep(stamps, each = 3)
  by_time <- annotations_long(d, item, annotator, label, value)
  expect_identical(by_time$items, stamps)
  expect_s3_class(tidy(mla(by_time), level = "item")$item, "POSIXct")
  expect_equal(tidy(mla(by_time)), tidy(fit), tolerance = 1e-12)
  # annotators as dates, in the wide form
  w <- data.frame(item = rep(1:6, 2), annotator = rep(days[1:2], each = 6),
                  x = stats::rbinom(12, 1, 0.5), y = stats::rbinom(12, 1, 0.5))
  wide <- annotations_wide(w, item, annotator, c(x, y))
  expect_identical(wide$annotators, days[1:2])
  expect_identical(tidy(annotator_agreement(wide, min_items = 2), level = "annotators")$annotator,
                   format(days[1:2]))
  # other classed vectors are still refused
  d$item <- as.difftime(rep(1:6, each = 3), units = "days")
  expect_mla_error(annotations_long(d, item, annotator, label, value), "id_type")
})

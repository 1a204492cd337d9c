# The data sets (R/data.R) hold what their help pages say: shapes, levels,
# one row per decision, and for the worked example the numbers the paper
# publishes, recomputed here in plain R from the rows.

test_that("bias_example: 4 items x 3 annotators x 31 declared labels, one row per decision", {
  ex <- bias_example
  expect_identical(dim(ex), c(372L, 4L))
  expect_named(ex, c("item", "annotator", "label", "value"))
  expect_setequal(ex$item, 1:4)
  expect_setequal(ex$annotator, 1:3)
  expect_identical(levels(ex$label), sprintf("L%02d", 1:31))
  expect_true(all(ex$value %in% c(0, 1)))
  expect_false(anyDuplicated(ex[c("item", "annotator", "label")]) > 0)
  # L01-L11 are used, numbered by first appearance; L12-L31 never selected
  selected <- ex[ex$value == 1, ]
  selected <- selected[order(selected$item, selected$annotator, as.integer(selected$label)), ]
  expect_identical(as.character(unique(selected$label)), sprintf("L%02d", 1:11))
})

test_that("bias_example reproduces the paper's item agreements and raw prevalence", {
  ex <- bias_example
  # per item and label: x positives of m = 3 decisions; observed agreement
  # of the ordered pairs, averaged over the 31 labels
  x <- tapply(ex$value, list(ex$item, ex$label), sum)
  m <- tapply(ex$value, list(ex$item, ex$label), length)
  pair_agreement <- (x * (x - 1) + (m - x) * (m - x - 1)) / (m * (m - 1))
  expect_equal(unname(rowMeans(pair_agreement)), published("worked_example", "item_observed"),
               tolerance = 1e-14)
  expect_equal(mean(ex$value), published("worked_example", "prevalence"), tolerance = 1e-14)
  # pooled-marginal chance agreement summed over labels: the published 27.5278
  expect_equal(sum(ref_chance(ref_prevalence(x, m))[, "fleiss"]),
               published("worked_example", "chance_sum", digits = 4), tolerance = 1e-5)
})

test_that("convabuse_types: one row per decision of 8 annotators on 4,185 items", {
  d <- convabuse_types
  expect_identical(nrow(d), 86877L)
  expect_named(d, c("item", "annotator", "label", "value"))
  expect_identical(nlevels(d$label), 7L)
  expect_setequal(unique(d$annotator), paste0("Annotator", 1:8))
  expect_true(all(grepl("^ex[0-9]+$", d$item)))
  expect_identical(length(unique(d$item)), 4185L)
  expect_true(all(d$value %in% c(0, 1)))
  # every (item, annotator) record has a row for each of the 7 labels, once
  expect_false(anyDuplicated(d[c("item", "annotator", "label")]) > 0)
  rows_per_record <- table(paste(d$item, d$annotator))
  expect_true(all(rows_per_record == 7L))
  per_item <- tapply(d$annotator, d$item, function(a) length(unique(a)))
  expect_identical(range(per_item), c(2L, 7L))
})

test_that("convabuse_repeats: the later annotations of 345 repeated records", {
  r <- convabuse_repeats
  expect_identical(nrow(r), 2499L)
  expect_named(r, c("item", "annotator", "label", "value", "occurrence"))
  expect_setequal(unique(r$occurrence), 2:3)
  key <- function(d) paste(d$item, d$annotator)
  expect_identical(length(unique(key(r))), 345L)
  expect_true(all(key(r) %in% key(convabuse_types)))
  # the full source: duplicates = "first" gives back convabuse_types
  full <- rbind(convabuse_types, r[1:4])
  first <- annotations_long(full, item, annotator, label, value, duplicates = "first")
  expect_identical(tidy(mla(first)), tidy(mla(annotations_long(convabuse_types, item, annotator,
                                                               label, value))))
})

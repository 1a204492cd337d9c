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
  err <- expect_mla_error(annotations_long(d, item, annotator, label), "value_missing")
  expect_match(conditionMessage(err), "value = value", fixed = TRUE)
  expect_mla_error(annotations_long(d, item, annotator, value), "label_shape")
  # character 0/1 values (as CSV and JSON readers give them) convert exactly
  chr <- d
  chr$value <- as.character(chr$value)
  expect_identical(annotations_long(chr, item, annotator, label, value),
                   annotations_long(d, item, annotator, label, value))
  chr$value[5] <- "No"
  expect_mla_error(annotations_long(chr, item, annotator, label, value), "value_type")
  # a column named value is never read as selections unless value = NULL says so
  one_label <- data.frame(item = c(1, 1, 2, 2), annotator = c("a", "b", "a", "b"),
                          label = "x", value = c(1, 0, 1, 1))
  expect_mla_snapshot(annotations_long(one_label, item, annotator, label))
  as_selected <- as.data.frame(annotations_long(one_label, item, annotator, label, value = NULL))
  expect_equal(as_selected$value, c(1, 1, 1, 1))
  expect_equal(as.data.frame(annotations_long(one_label, item, annotator, label, value))$value,
               one_label$value)
  expect_mla_snapshot(annotations_long(one_label, item))
  expect_mla_error(annotations_long(one_label), "column")
  # a real selected-labels table where everyone picks everything only warns
  all_picked <- expand.grid(item = 1:3, annotator = c("a", "b"), label = c("x", "y"))
  expect_mla_warning(annotations_long(all_picked, item, annotator, label), "all_selected")
})

# Multi-select cells (label_sep): a plain-R reference splits each cell with
# strsplit() into one row per selected label (NA: nothing selected).
ref_presplit <- function(cells, sep, strip = function(x) x) {
  rows <- lapply(seq_len(nrow(cells)), function(r) {
    cell <- cells$tags[r]
    labs <- if (is.na(cell) || cell == "") NA_character_ else strip(strsplit(cell, sep, fixed = TRUE)[[1]])
    data.frame(item = cells$item[r], coder = cells$coder[r], tag = labs)
  })
  do.call(rbind, rows)
}

random_multiselect <- function(n_items, n_coders, universe, p = 0.3) {
  grid <- expand.grid(item = seq_len(n_items), coder = paste0("c", seq_len(n_coders)),
                      stringsAsFactors = FALSE)
  grid <- grid[stats::runif(nrow(grid)) < 0.7, ]
  grid$sets <- lapply(seq_len(nrow(grid)), function(r) universe[stats::runif(length(universe)) < p])
  grid
}

test_that("label_sep gives the annotations of the same data split by strsplit()", {
  withr::local_seed(71)
  universe <- c("anger", "joy", "fear", "sad face", "x-1")
  for (rep in 1:3) {
    g <- random_multiselect(25, 6, universe)
    forms <- list(
      list(sep = "\n", cell = function(s) paste0("[", s, "]", collapse = "\n"),
           strip = function(x) sub("^\\[(.*)\\]$", "\\1", x)),
      list(sep = "|", cell = function(s) paste(s, collapse = "|"), strip = identity),
      list(sep = ", ", cell = function(s) paste0("'", s, "'", collapse = ", "),
           strip = function(x) sub("^'(.*)'$", "\\1", x))
    )
    for (f in forms) {
      cells <- data.frame(item = g$item, coder = g$coder,
                          tags = vapply(g$sets, function(s) if (length(s)) f$cell(s) else "", ""))
      cells$tags[3] <- NA  # NA: annotated, nothing selected, as without label_sep
      ref <- ref_presplit(cells, f$sep, f$strip)
      expect_identical(annotations_long(cells, item, coder, tags, label_sep = f$sep),
                       annotations_long(ref, item, coder, tag))
      expect_identical(annotations_long(cells, item, coder, tags, label_sep = f$sep, labels = universe),
                       annotations_long(ref, item, coder, tag, labels = universe))
    }
    # JSON arrays of strings (MTurk), with "[]" for nothing selected
    json <- vapply(g$sets, function(s) paste0("[", paste0('"', s, '"', collapse = ", "), "]"), "")
    json[lengths(g$sets) == 0] <- "[]"
    cells <- data.frame(item = g$item, coder = g$coder, tags = json)
    ref <- ref_presplit(transform(cells, tags = ifelse(tags == "[]", "", gsub('^\\[|\\]$|"', "", tags))),
                        ", ")
    expect_identical(annotations_long(cells, item, coder, tags, label_sep = "|", labels = universe),
                     annotations_long(ref, item, coder, tag, labels = universe))
  }
})

test_that("label_sep: the cell rules, and a message only when something is dropped", {
  cells <- data.frame(item = c(1, 1, 2, 2, 3, 3), coder = rep(c("a", "b"), 3),
                      tags = c("\"B\"", "", "A||B|", '["A \\"q\\"", "B"]', "[]", " [C] "))
  expect_message(a <- annotations_long(cells, item, coder, tags, label_sep = "|"),
                 class = "mlagreement_message_label_sep")
  expect_message(annotations_long(cells, item, coder, tags, label_sep = "|"),
                 "2 empty elements of `label` dropped in 1 cell")
  want <- data.frame(item = c(1, 1, 2, 2, 2, 2, 3, 3), coder = c("a", "b", "a", "a", "b", "b", "a", "b"),
                     tag = c("B", NA, "A", "B", "A \"q\"", "B", NA, "C"))
  expect_identical(a, annotations_long(want, item, coder, tag))
  expect_no_message(annotations_long(cells[-3, ], item, coder, tags, label_sep = "|"))
  # CrowdFlower's newline form, with Windows line ends and padding
  crowd <- data.frame(item = 1, coder = c("a", "b"), tags = c(" [A]\r\n[B] ", "[B]"))
  newline <- annotations_long(crowd, item, coder, tags, label_sep = "\n")
  expect_identical(newline, annotations_long(data.frame(item = 1, coder = c("a", "a", "b"),
                                                        tag = c("A", "B", "B")), item, coder, tag))
  # a factor column is split as text
  f <- annotations_long(transform(crowd, tags = factor(tags)), item, coder, tags, label_sep = "\n")
  expect_identical(f, newline)
})

test_that("label_sep errors: unknown labels name the row of data, and misuse is refused", {
  cells <- data.frame(item = c(1, 1, 2), coder = c("a", "b", "a"), tags = c("A|B", "B", "A|Z"),
                      value = 1)
  err <- expect_mla_error(annotations_long(cells, item, coder, tags, labels = c("A", "B"),
                                           label_sep = "|"), "unknown_label")
  expect_match(conditionMessage(err), "first at row 3", fixed = TRUE)
  expect_mla_snapshot(annotations_long(cells, item, coder, tags, labels = c("A", "B"), label_sep = "|"),
                      "unknown_label")
  expect_mla_snapshot(annotations_long(cells, item, coder, tags, value, label_sep = "|"), "label_sep")
  expect_mla_error(annotations_long(cells, item, coder, tags, label_sep = ""), "string")
  expect_mla_error(annotations_long(cells, item, coder, value, label_sep = "|"), "label_type")
  # duplicated labels in one cell follow `duplicates`
  dup <- data.frame(item = 1, coder = c("a", "b"), tags = c("A|A", "A|B"))
  expect_mla_error(annotations_long(dup, item, coder, tags, label_sep = "|"))
  expect_message(first <- annotations_long(dup, item, coder, tags, label_sep = "|", duplicates = "first"),
                 "Kept the first")
  expect_identical(first,
                   annotations_long(data.frame(item = 1, coder = c("a", "b", "b"), tag = c("A", "A", "B")),
                                    item, coder, tag))
})

test_that("label_sep on a database table is refused", {
  skip_if_not_installed("RSQLite")
  skip_if_not_installed("dbplyr")
  con <- local_sqlite_connection()  # helper-postgres.R
  cells <- data.frame(item = c(1, 2), coder = c("a", "b"), tags = c("A|B", "B"))
  expect_mla_error(annotations_long(db_table(con, cells), item, coder, tags, label_sep = "|"),
                   "label_sep")
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

test_that("a record both selecting nothing and selecting a label is refused", {
  s <- data.frame(item = c(1, 1, 1, 2, 2), ann = c("a", "b", "b", "a", "b"),
                  lab = c("x", NA, "x", "y", "y"))
  err <- expect_mla_error(annotations_long(s, item, ann, lab, labels = c("x", "y")), "na_label")
  expect_match(conditionMessage(err), "Item \"1\", annotator \"b\"", fixed = TRUE)
  # in either row order, and through split cells
  expect_mla_error(annotations_long(s[c(3, 2, 1, 4, 5), ], item, ann, lab, labels = c("x", "y")),
                   "na_label")
  cells <- data.frame(item = c(1, 1, 1), ann = c("a", "b", "b"), lab = c("x", "", "x|y"))
  expect_mla_error(annotations_long(cells, item, ann, lab, label_sep = "|"), "na_label")
  # an NA row alone is a record with nothing selected: all 0, as plain R has it
  ok <- annotations_long(s[-3, ], item, ann, lab, labels = c("x", "y"))
  ref <- array(c(1, 0, 0, 0, 0, 1, 0, 1), c(2, 2, 2))
  expect_equal(unname(as.array(ok)), ref)
})

test_that("the contradicting record of selected labels is named", {
  s <- data.frame(item = c(1, 1, 1, 2, 2, 2), ann = c("a", "b", "b", "a", "a", "b"),
                  lab = c("x", NA, "x", "y", NA, "y"))
  expect_mla_snapshot(annotations_long(s, item, ann, lab, labels = c("x", "y")), "na_label")
})

test_that("one column for two roles is refused, naming both arguments and the column", {
  d <- data.frame(item = rep(1:4, each = 6), annotator = rep(rep(c("a", "b", "c"), each = 2), 4),
                  label = rep(c("x", "y"), 12), value = rep(c(1, 0, 1), 8))
  # before: a duplicates error on "(1, 1)" pairs that suggested dropping 2/3 of the rows
  expect_mla_snapshot(annotations_long(d, item, item, label, value), "same_column")
  err <- expect_mla_error(annotations_long(d, item, annotator, label, label), "same_column")
  expect_match(conditionMessage(err), "`label` and `value` must select different columns", fixed = TRUE)
  expect_mla_error(annotations_long(d, item, annotator, item, value), "same_column")
  expect_mla_error(annotations_long(d, item, annotator, label, annotator), "same_column")
  expect_mla_error(annotations_long(d, item, "item", label, value), "same_column")
  expect_mla_error(annotations_long(d, item, 1, label, value), "same_column")
  expect_mla_error(annotations_long(d, item, item, label, label_sep = "|"), "same_column")
  expect_mla_error(annotation_split(d, annotator, annotator), "same_column")
  expect_mla_error(annotator_metrics(d, label, label), "same_column")
  expect_mla_error(annotator_metrics(d, label, value, annotator = label), "same_column")
  expect_mla_error(majority_baseline(d, d, label, label, type = "individual"), "same_column")
  # the annotator column is not read for the overall majority
  expect_s3_class(majority_baseline(d, d, label, label), "data.frame")
  expect_mla_error(icc(d, item = item, annotator = item, value = value), "same_column")
  preds <- data.frame(item = 1:4, x = c(1, 0, 1, 1), y = c(0, 0, 1, 1))
  ann <- annotations_long(d, item, annotator, label, value)
  expect_mla_error(model_agreement(ann, preds, item, labels = c(item, x, y)), "same_column")
  # different columns stay accepted, whatever their content
  d$copy <- d$item
  expect_mla_error(annotations_long(d, item, copy, label, value), "duplicates")
})

test_that("one column for two roles in a wide or database table is refused", {
  w <- data.frame(item = c(1, 1, 2, 2), coder = c("a", "b", "a", "b"),
                  joy = c(1, 0, 1, 1), anger = c(0, 0, 1, NA))
  expect_mla_snapshot(annotations_wide(w, item, coder, everything()), "same_column")
  expect_mla_error(annotations_wide(w, coder, coder, c(joy, anger)), "same_column")
  skip_if_not_installed("dbplyr")
  lazy <- dbplyr::lazy_frame(item = 1L, annotator = "a", label = "x", value = 1L,
                             con = dbplyr::simulate_postgres())
  expect_mla_error(annotations_long(lazy, item, item, label, value), "same_column")
  expect_mla_error(annotation_queries(lazy, item, annotator, label, label), "same_column")
  expect_mla_error(annotations_wide(lazy, item, annotator, c(annotator, value)), "same_column")
})

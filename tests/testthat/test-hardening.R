# The hardening catalogue: every cause of a crash, a silent acceptance or a
# leaked internal error, each as a class of inputs. Inputs that could kill R
# run in a child process, so a signal fails the test
# instead of the suite.

# Evaluates `exprs` (a list of calls) in a fresh R process with the package
# loaded; returns, per call, the classes of the condition it raised or "ok".
run_isolated <- function(exprs) {
  skip_if_not_installed("callr")
  skip_if_not_installed("pkgload")
  root <- if (pkgload::is_dev_package("mlagreement")) pkgload::pkg_path(testthat::test_path())
  callr::r(function(exprs, root) {
    if (is.null(root)) {
      library(mlagreement)
    } else {
      pkgload::load_all(root, quiet = TRUE, compile = FALSE, helpers = FALSE)
    }
    lapply(exprs, function(e) {
      tryCatch({
        eval(e, globalenv())
        "ok"
      }, error = function(err) class(err))
    })
  }, args = list(exprs = exprs, root = root))
}

# --- 1. no signal: empty label universes, views without labels or items -----

test_that("an empty label universe is a classed error, in a child process", {
  res <- run_isolated(list(
    quote(annotations_long(data.frame(i = 1, a = 1, l = NA), i, a, l)),
    quote(annotations_long(data.frame(i = 1:2, a = 1, l = c(NA_character_, NA)), i, a, l)),
    quote(annotations_long(data.frame(i = 1, a = 1, l = factor(NA, levels = character())),
                           i, a, l)),
    quote(mlagreement:::count_decisions_cpp(
      mlagreement:::record_view(integer(), 0L, integer(), 1L, integer(), 1L), 1L, FALSE, 1L)),
    quote(mlagreement:::count_decisions_cpp(
      mlagreement:::record_view(integer(4), 2L, integer(), 0L, integer(), 1L), 1L, FALSE, 1L)),
    quote(mlagreement:::count_invalid_cpp(
      mlagreement:::record_view(double(), 0L, integer(), 1L, integer(), 1L)))
  ))
  for (r in res[1:3]) expect_true("mlagreement_error_no_labels" %in% r)
  # the core refuses such views itself: an R error, never a signal
  for (r in res[4:6]) expect_true("error" %in% r && !identical(r, "ok"))
})

test_that("empty label universes are refused in every adapter", {
  expect_mla_error(annotations_long(data.frame(i = 1, a = 1, l = NA), i, a, l), "no_labels")
  expect_mla_error(annotations_long(data.frame(i = 1:2, a = 1, l = NA_real_), i, a, l),
                   "no_labels")
  expect_mla_error(annotations_long(data.frame(i = 1, a = 1, l = factor(NA, levels = character())),
                                    i, a, l), "no_labels")
  expect_mla_error(as_annotations(matrix(NA_character_, 2, 2)), "empty")
  # a declared universe makes the all-NA column valid: records without labels
  a <- annotations_long(data.frame(i = 1:2, a = 1, l = NA), i, a, l, labels = c("x", "y"))
  expect_identical(a$labels, c("x", "y"))
  expect_identical(unname(record_values(a)), matrix(0L, 2, 2))
})

# --- 2. ids and labels by value ----------------------------------------------

test_that("id_text() prints ids exactly and match_values() matches by value", {
  expect_identical(id_text(c(1e5, 3e9, -2, 0, -0, 2^53)),
                   c("100000", "3000000000", "-2", "0", "0", "9007199254740992"))
  expect_identical(id_text(100000L), "100000")
  expect_identical(id_text(factor(c("b", "a"))), c("b", "a"))
  expect_identical(id_text(c(0.1, NA)), c("0.1", NA))
  # the shortest text that reads back as the same double
  x <- c(0.1 + 0.2, 1 / 3, 1 + 1e-15, 123.456)
  expect_identical(as.double(id_text(x)), x)
  expect_identical(id_text(0.1 + 0.2), "0.30000000000000004")
  expect_identical(match_values(c(1e5, 2e5), c(200000L, 100000L)), c(2L, 1L))
  expect_identical(match_values(c(100000L, 7L), c("7", "100000")), c(2L, 1L))
  expect_identical(match_values(factor(c("x", "z")), c("z", "x")), c(2L, 1L))
  expect_identical(match_values(c(0.30000000000000004, 0.3), 0.3), c(NA, 1L))
})

test_that("ids of different numeric storage types are the same ids everywhere", {
  d <- data.frame(truth = c(1e5, 2e5, 1e5), pred = c(100000L, 200000L, 100000L))
  expect_identical(annotator_metrics(d, truth, pred)$accuracy, 1)

  train <- data.frame(a = c(1e5, 1e5, 2e5), y = c("x", "x", "y"))
  test <- data.frame(a = c(200000L, 100000L), y = c("x", "x"))
  # individual majority: annotator 2e5's own label "y", not the overall "x"
  expect_identical(majority_baseline(train, test, y, a, type = "individual")$.pred,
                   c("y", "x"))
  expect_no_warning(check_split(train, test, a))
  unseen <- expect_mla_warning(check_split(train, data.frame(a = c(100000L, 3L)), a), "unseen_annotators")
  expect_identical(suppressWarnings(check_split(train, data.frame(a = c(100000L, 3L)), a)), "3")

  a <- annotations_long(data.frame(i = c(1e5, 1e5, 2e5, 2e5), a = c(3e9, 4e9, 3e9, 4e9),
                                   l = c(1e5, 1e5, 2e5, 1e5)), i, a, l)
  expect_identical(a$labels, c("100000", "200000"))
  expect_identical(id_text(a$annotators), c("3000000000", "4000000000"))
  b <- annotations_long(data.frame(i = 1:2, a = 1, l = c(1e5, 2e5)), i, a, l,
                        labels = c("100000", "200000", "300000"))
  expect_identical(b$labels, c("100000", "200000", "300000"))
  expect_identical(annotations_long(data.frame(i = 1:2, a = 1, l = c(1e5, 2e5)), i, a, l,
                                    labels = c(1e5, 2e5))$labels, c("100000", "200000"))
  expect_identical(as_annotations(matrix(c(1e5, 2e5, NA, 1e5), 2))$labels,
                   c("100000", "200000"))
  expect_identical(as_annotations(matrix(c(1e5, 2e5, NA, 1e5), 2), labels = c(100000L, 200000L))$labels,
                   c("100000", "200000"))
})

test_that("model_agreement() matches prediction ids and labels by value", {
  d <- data.frame(item = rep(c(1e5, 2e5, 3e5), each = 3), annotator = rep(1:3, 3),
                  label = c(1, 1, 2, 2, 2, 2, 1, 2, 1))
  x <- annotations_long(d, item, annotator, label, single_label = TRUE)
  preds <- data.frame(item = c(100000L, 200000L, 300000L), .pred = c(1L, 2L, 1L))
  res <- model_agreement(x, preds, item, labels = .pred)
  # the same predictions given as text ids and text labels
  text <- model_agreement(x, data.frame(item = c("100000", "200000", "300000"),
                                        .pred = c("1", "2", "1")), item, labels = .pred)
  expect_identical(res, text)
  expect_mla_error(model_agreement(x, data.frame(item = c(1e5, 4e5, 5e5), .pred = 1L),
                                   item, labels = .pred), "unknown_id")
})

test_that("ids doubles cannot store exactly, and ids that are not vectors, are refused", {
  big <- data.frame(i = c(2^53 + 2, 1), a = 1, l = "x")
  expect_mla_error(annotations_long(big, i, a, l), "id_precision")
  expect_mla_error(annotations_long(data.frame(i = 1, a = Inf, l = "x"), i, a, l), "id_precision")
  expect_mla_error(annotations_wide(data.frame(i = c(1, -2^60), a = 1, x = 1), i, a, x),
                   "id_precision")
  expect_mla_error(annotations_long(data.frame(i = 1:2, a = as.raw(1:2), l = "x"), i, a, l),
                   "id_type")
  expect_mla_error(annotations_wide(data.frame(i = as.raw(1:2), a = 1, x = 1), i, a, x), "id_type")
  d <- data.frame(i = 1:2, l = "x")
  d$a <- list("a", "b")
  expect_mla_error(annotations_long(d, i, a, l), "id_type")
  d$a <- matrix(1:4, 2)
  expect_mla_error(annotations_long(d, i, a, l), "id_type")
  expect_mla_error(annotations_long(data.frame(i = 1:2, a = c(1, NaN), l = "x"), i, a, l), "value")
  expect_mla_error(check_split(data.frame(a = as.raw(1)), data.frame(a = 1), a), "id_type")
})

# --- 4. silent acceptance --------------------------------------------------------

test_that("NaN is an invalid value in every input, NA the missing marker", {
  arr <- array(c(1, NaN, 0, 1), c(2, 1, 2))
  expect_mla_error(as_annotations(arr), "value")
  arr[2] <- NA
  expect_identical(as_annotations(arr)$n_decisions, 3)
  # a NaN made by arithmetic, whatever its bits
  arr[2] <- 0 / 0
  expect_mla_error(as_annotations(arr), "value")
  arr[2] <- -NaN
  expect_mla_error(as_annotations(arr), "value")
  long <- data.frame(i = c(1, 1), a = 1:2, l = "x", v = c(1, NaN))
  expect_mla_error(annotations_long(long, i, a, l, v), "value")
  wide <- data.frame(i = 1:2, a = 1, x = c(NaN, 1))
  expect_mla_error(annotations_wide(wide, i, a, x), "value")
  expect_mla_error(as_annotations(matrix(c(1, NaN, 2, 1), 2)), "value")
  expect_mla_error(annotations_long(data.frame(i = 1:2, a = 1, l = c(1, NaN)), i, a, l), "value")
})

test_that("labels that would become a label named NA, or that are not labels, are refused", {
  na_level <- data.frame(i = 1:2, a = 1, l = factor(c("x", NA), exclude = NULL))
  expect_mla_error(annotations_long(na_level, i, a, l), "na_label")
  d <- data.frame(i = 1:2, a = 1)
  d$l <- list("x", c("x", "y"))
  expect_mla_error(annotations_long(d, i, a, l), "label_type")
  d$l <- matrix(c("x", "y", "x", "y"), 2)
  expect_mla_error(annotations_long(d, i, a, l), "label_type")
  w <- data.frame(i = 1:2, a = 1)
  w$m <- matrix(0, 2, 2)
  expect_mla_error(annotations_wide(w, i, a, m), "value_type")
})

test_that("check_split() refuses NA annotators", {
  ok <- data.frame(a = c(1, 2))
  expect_mla_error(check_split(data.frame(a = c(1, NA)), ok, a), "na_id")
  expect_mla_error(check_split(ok, data.frame(a = c(NA, 1)), a), "na_id")
  expect_mla_error(check_split(ok, data.frame(a = NA_character_), a), "na_id")
})

test_that("plot, summary and simulation arguments are validated", {
  skip_if_not_installed("ggplot2")
  fit <- mla(annotations_long(bias_example, item, annotator, label, value))
  bs <- without_few_items_warning(withr::with_seed(1, mla_boot(fit, R = 20)))
  for (bad in list(2, 0, -0.5, NA_real_, "0.9", c(0.5, 0.9))) {
    expect_mla_error(ggplot2::autoplot(bs, conf.level = bad), "conf_level")
  }
  agr <- annotator_agreement(annotations_long(bias_example, item, annotator, label, value))
  for (bad in list("x", NA, 1, c(TRUE, FALSE))) {
    expect_mla_error(ggplot2::autoplot(agr, label_tiles = bad), "plot_argument")
  }
  sim <- withr::with_seed(1, simulation_study(
    n_annotators = 3, n_items = 10, n_labels = 2, prevalence = c(a = 0.5),
    scenarios = "noisy", repeats = 1, measures = "mla"
  ))
  for (bad in list("bogus", "estimate", NA_character_, 1)) {
    expect_mla_error(summary(sim, by = bad), "arg")
  }
  for (R in list(1e10, 2^31, -1, 1.5, NA)) {
    expect_mla_error(simulation_study(R = R), "simulation_argument")
  }
})

# --- 5. internal errors reaching users -------------------------------------------

test_that("sizes beyond the integer range are refused before any arithmetic", {
  expect_mla_error(simulate_annotations(1e10, 3, 2, 0.5), "simulation_argument")
  expect_mla_error(simulate_annotations(3, 2^31, 2, 0.5), "simulation_argument")
  # each size fits, the product does not: refused up front, naming the size
  err <- expect_mla_error(simulate_annotations(1e5, 1e5, 2, 0.5), "simulation_size")
  expect_match(conditionMessage(err), "20,000,000,000 cells")
  expect_mla_error(simulate_annotations(46341, 46341, 1, 0.5), "simulation_size")
  expect_mla_error(simulation_study(n_items = 1e5, n_annotators = c(3, 1e5), n_labels = 2),
                   "simulation_size")
  expect_mla_error(simulate_annotations(10, 3, 2), "simulation_argument")
  expect_mla_error(check_whole(3e9), "whole_number")
  expect_mla_error(check_whole(c(1, 2^31), vector = TRUE), "whole_number")
})

test_that("confint(<mla>) gives the analytic intervals of tidy()", {
  fit <- mla(annotations_long(bias_example, item, annotator, label, value))
  ci <- confint(fit)
  corpus <- tidy(fit, level = "corpus")
  label <- tidy(fit, level = "label")
  expect_identical(rownames(ci), c(corpus$term, label$term))
  expect_identical(colnames(ci), c("2.5 %", "97.5 %"))
  expect_identical(unname(ci[, 1]), c(corpus$conf.low, label$conf.low))
  expect_identical(unname(ci[, 2]), c(corpus$conf.high, label$conf.high))
  # an independent t interval from the standard error (irrCAC's construction)
  n <- fit$design$n_items
  half <- stats::qt(0.95, n - 1) * corpus$std.error
  ci90 <- confint(fit, corpus$term, level = 0.9)
  expect_equal(unname(ci90[, 1]), corpus$estimate - half, tolerance = 1e-12)
  expect_identical(confint(fit, 2), confint(fit, corpus$term[2]))
  expect_mla_error(confint(fit, "bogus"), "parm")
  expect_mla_error(confint(fit, 0), "parm")
  expect_mla_error(confint(fit, level = 1), "conf_level")
})

# --- 6. messages -------------------------------------------------------------------

test_that("a bad labels= is its own problem, with count-based plurals", {
  d <- data.frame(i = 1:2, a = 1, l = "x")
  err <- expect_mla_error(annotations_long(d, i, a, l, labels = c("x", "x")), "labels")
  expect_match(conditionMessage(err), "`labels` must list each label once")
  err <- expect_mla_error(annotations_long(d, i, a, l, labels = c("x", NA, NA)), "labels")
  expect_match(conditionMessage(err), "Positions 2, 3 are `NA`")
  err <- expect_mla_error(annotations_long(d, i, a, l, labels = c(NA, "x")), "labels")
  expect_match(conditionMessage(err), "Position 1 is `NA`")
  expect_mla_error(annotations_long(d, i, a, l, labels = list("x")), "labels")
  expect_mla_error(annotations_long(d, i, a, l, labels = character()), "labels")
  err <- expect_mla_error(mla(annotations_long(d, i, a, l), foo = 1, bar = 2), "dots")
  expect_match(conditionMessage(err), "Problematic arguments: foo, bar")
  x <- annotations_long(data.frame(i = rep(1:2, each = 2), a = 1:2, l = "x"), i, a, l)
  err <- expect_mla_error(model_agreement(x, data.frame(i = c(1, 5, 6), l = "x"), i, labels = l),
                          "unknown_id")
  expect_match(conditionMessage(err), "2 unknown items: 5, 6")
  arr <- array(0L, c(2, 2, 2), dimnames = list(c("a", NA), c("p", "q"), c("x", "y")))
  err <- expect_mla_error(as_annotations(arr), "na_id")
  expect_match(conditionMessage(err), "Position 2 is `NA`")
})

test_that("invalid numbers show the digits that make them invalid", {
  err <- expect_mla_error(as_annotations(array(c(1, 1 + 1e-15, 0, 1), c(2, 1, 2))), "value")
  expect_match(conditionMessage(err), "1.000000000000001", fixed = TRUE)
  expect_match(conditionMessage(err), "1 invalid value in all")
  long <- data.frame(i = c(1, 1), a = 1:2, l = "x", v = c(1, 1 - 1e-16))
  err <- expect_mla_error(annotations_long(long, i, a, l, v), "value")
  expect_match(conditionMessage(err), "0.9999999999999999", fixed = TRUE)
  err <- expect_mla_error(simulate_annotations(5, 3, 2, prevalence = 1 + 1e-15), "simulation_argument")
  expect_match(conditionMessage(err), "1.000000000000001", fixed = TRUE)
  err <- expect_mla_error(check_whole(2 + 1e-14), "whole_number")
  expect_match(conditionMessage(err), "2.00000000000001", fixed = TRUE)
})

test_that("the count of invalid values needs no copy and is exact", {
  x <- array(0L, c(50, 4, 3))
  bad <- c(7, 120, 599)
  x[bad] <- c(2L, -1L, 5L)
  err <- expect_mla_error(as_annotations(x), "value")
  expect_match(conditionMessage(err), "3 invalid values in all")
  # the first one in record order, as the plain-R reference finds it
  first <- which(!is.na(x) & x != 0 & x != 1)[1]
  expect_match(conditionMessage(err), paste0("has value \"", x[first], "\""))
  y <- array(c(0, 1, NA, 2, NaN, 0.5), c(3, 1, 2))
  expect_identical(count_invalid_cpp(record_view(y, 2L, integer(), 1L, integer(), 1L)),
                   as.double(sum(!is.na(y) & y != 0 & y != 1) + sum(is.nan(y))))
})

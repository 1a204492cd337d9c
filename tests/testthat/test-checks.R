test_that("check_choice() resolves defaults and refuses values outside the list", {
  values <- c("items", "annotators", "both")
  expect_identical(check_choice(values, values), "items")
  expect_identical(check_choice(values, values, multiple = TRUE), values)
  expect_identical(check_choice(c("both", "items", "both"), values, multiple = TRUE),
                   c("both", "items"))
  err <- expect_mla_error(check_choice("labels", values), "arg")
  expect_identical(err$values, values)
  expect_match(cli::ansi_strip(conditionMessage(err)), '"labels"', fixed = TRUE)
  expect_mla_error(check_choice(c("items", "both"), values), "arg")
})

test_that("check_whole() returns integers and names the first bad element", {
  expect_identical(check_whole(3), 3L)
  expect_identical(check_whole(c(1, 2, 5), vector = TRUE), c(1L, 2L, 5L))
  expect_mla_error(check_whole(0), "whole_number")
  err <- expect_mla_error(check_whole(c(1, 2.5, 0), vector = TRUE), "whole_number")
  expect_match(conditionMessage(err), "Element 2 is 2.5", fixed = TRUE)
  err <- expect_mla_error(check_whole(3e9), "whole_number")
  expect_match(conditionMessage(err), "above 2147483647", fixed = TRUE)
})

test_that("numbers and probabilities are checked against their ranges and recycled", {
  expect_identical(check_number_in(1L), 1)
  expect_mla_error(check_number_in(1, open = TRUE), "number")
  expect_mla_error(check_conf_level(1), "conf_level")
  expect_identical(check_probabilities(0.25, 3, "label"), c(0.25, 0.25, 0.25))
  err <- expect_mla_error(check_probabilities(c(0.1, 1.5, -1), 3, "label"), "simulation_argument")
  expect_match(cli::ansi_strip(conditionMessage(err)), "(label 2)", fixed = TRUE)
  expect_match(cli::ansi_strip(conditionMessage(err)), "2 bad values in all", fixed = TRUE)
})

test_that("option mlagreement.max_memory is validated where it is used", {
  arr <- array(rbinom(60, 1, 0.5), c(5, 3, 4))
  for (bad in list("a", -1, NA_real_, c(1, 2))) {
    withr::local_options(mlagreement.max_memory = bad)
    expect_mla_error(mla_boot(mla(arr), R = 10), "option")
  }
  withr::local_options(mlagreement.max_memory = 1e12)
  expect_s3_class(without_few_items_warning(mla_boot(mla(arr), R = 10)), "mla_boot")
})

test_that("format_first() shows the first entries and counts the rest", {
  expect_identical(format_first(c("a", "b")), "a, b")
  expect_identical(format_first(1:7), "1, 2, 3, 4, 5, ... (2 more)")
  expect_identical(format_first(letters[1:3], n = 1), "a, ... (2 more)")
})

test_that("describe_value() gives a number itself, otherwise its type", {
  expect_identical(describe_value(2.5), "2.5")
  expect_identical(describe_value(1:3), "a numeric vector of length 3")
  expect_identical(describe_value("x"), "a string")
  expect_identical(describe_value(NA_real_), "a numeric `NA`")
  expect_identical(describe_value(NULL), "NULL")
})

test_that("counts print whole with thousands separators, nouns agree in number", {
  expect_identical(format_count(1234567), "1,234,567")
  expect_identical(format_count(2^53), "9,007,199,254,740,992")
  expect_identical(count_noun(1, "record"), "1 record")
  expect_identical(count_noun(2499, "decision"), "2,499 decisions")
})

test_that("percentages never round a non-zero share to 0% or 100%", {
  expect_identical(format_percent(0.6293), "62.9%")
  expect_identical(format_percent_exact(0.0004), "< 0.1%")
  expect_identical(format_percent_exact(0.9996), "> 99.9%")
  expect_identical(format_percent_exact(0), "0.0%")
  expect_identical(format_percent_exact(1), "100.0%")
  expect_identical(format_fixed(c(895 / 991, NA)), c("0.9031", "NA"))
  expect_identical(format_fixed(-1 / 3, digits = 2), "-0.33")
})

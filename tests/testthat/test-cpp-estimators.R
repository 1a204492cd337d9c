# Unit tests of the counting pass through the sourceCpp() harness
# cpp/estimators.cpp (helper-cpp.R compiles it).

test_that("counts.h: value codes classify 0, 1, missing and invalid values", {
  h <- cpp_harness("estimators.cpp")
  withr::local_seed(8)
  ints <- c(0L, 1L, NA, 2L, -1L, 3L, .Machine$integer.max, -.Machine$integer.max,
            sample(-5:5, 50, replace = TRUE),
            as.integer(sample(c(-1, 1), 50, TRUE) * floor(stats::runif(50, 0, .Machine$integer.max))))
  dbls <- c(0, 1, NA, NaN, -NaN, 0 / 0, NA_real_ + 1, -0, 0.5, 2, -1, Inf, -Inf, 1 + 2^-52, -2^-1074,
            sample(c(0, 1, NA, 0.25), 50, replace = TRUE))
  for (v in list(ints, c(TRUE, FALSE, NA), dbls)) {
    codes <- h$value_codes(v)
    # NA is missing; NaN (R's, not NA) is invalid like any value but 0 and 1
    valid <- (is.na(v) & !is.nan(v)) | (!is.na(v) & (v == 0 | v == 1))
    expect_identical(codes[, "invalid"], as.integer(!valid))
    expect_identical(codes[valid, "decided"], as.integer(!is.na(v[valid])))
    expect_identical(codes[valid, "positive"], as.integer(!is.na(v[valid]) & v[valid] == 1))
  }
})

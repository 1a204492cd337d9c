# Unit tests of the low-level C++ building blocks through the sourceCpp()
# harness cpp/primitives.cpp (helper-cpp.R compiles it).

# Sums of products of counts above 2^64 are summed in 128 bits (uint128.h):
# its arithmetic here, on values with known results; the counting methods
# that use it are checked in test-cpp-sets.R, on distinct sets with counts as
# large as a database summary holds.
test_that("uint128.h: sums of 64 x 64-bit products are exact", {
  dot <- cpp_harness("primitives.cpp")$u128_dot
  max64 <- "18446744073709551615"  # 2^64 - 1
  # (2^64 - 1)^2 = 2^128 - 2^65 + 1
  expect_identical(dot(max64, max64, 1L), "340282366920938463426481119284349108225")
  # ... + (2^64 - 1) * 1 = 2^128 - 2^64 (carry out of the low word)
  expect_identical(dot(c(max64, max64), c(max64, "1"), c(1L, 1L)),
                   "340282366920938463444927863358058659840")
  # signed parts: equal parts cancel; 2^64 - 1 needs a borrow from the high word
  expect_identical(dot(c(max64, max64), c(max64, max64), c(1L, -1L)), "0")
  expect_identical(dot(c("4294967296", "1"), c("4294967296", "1"), c(1L, -1L)),
                   "18446744073709551615")
  expect_identical(dot(c("1", "2"), c("1", "1"), c(1L, -1L)), "negative")
  expect_identical(dot(character(), character(), integer()), "0")
  # small values against R's exact double arithmetic (sums < 2^53)
  withr::local_seed(34)
  a <- floor(stats::runif(50, 0, 2^20))
  b <- floor(stats::runif(50, 0, 2^20))
  s <- sample(c(-1L, 1L), 50, replace = TRUE)
  fmt <- function(x) format(x, scientific = FALSE)
  total <- sum(s * a * b)
  expect_identical(dot(fmt(a), fmt(b), s), if (total < 0) "negative" else fmt(total))
  expect_identical(dot(fmt(a), fmt(b), rep(1L, 50)), fmt(sum(a * b)))
})

test_that("ddouble.h: sums and products keep the bits a double loses", {
  h <- cpp_harness("primitives.cpp")
  # a double sum loses the 1; the double-double keeps it
  expect_identical(Reduce(`+`, c(1e16, 1, -1e16)), 0)
  expect_identical(sum(h$dd_sum(c(1e16, 1, -1e16))), 1)
  expect_identical(h$dd_sum(c(2^53, 1)), c(2^53, 1))
  expect_identical(h$dd_op("-", 1 + 2^-52, 0, 1, 0), matrix(c(2^-52, 0), 1))
  expect_identical(h$dd_op("-", h$dd_sum(c(1, 1e-20))[1], h$dd_sum(c(1, 1e-20))[2], 1, 0)[1, 1], 1e-20)
  # products of 40-bit integers are exact: hi + lo equals the product, checked
  # limb by limb (a = a1 2^20 + a0) with every intermediate exact in doubles
  withr::local_seed(5)
  a <- floor(stats::runif(200, 2^39, 2^40))
  b <- floor(stats::runif(200, 2^39, 2^40))
  zero <- rep(0, 200)
  p <- h$dd_op("*", a, zero, b, zero)
  a1 <- a %/% 2^20; a0 <- a %% 2^20
  b1 <- b %/% 2^20; b0 <- b %% 2^20
  expect_false(all(p[, 2] == 0))  # the products do not fit in one double
  expect_identical((p[, 1] - a1 * b1 * 2^40) - (a1 * b0 + a0 * b1) * 2^20, a0 * b0 - p[, 2])
  # quotient: q y - x vanishes to about 32 digits (plain doubles: about 16)
  x <- stats::runif(200, 0.1, 10)
  y <- stats::runif(200, 0.1, 10)
  q <- h$dd_op("/", x, zero, y, zero)
  qy <- h$dd_op("*", q[, 1], q[, 2], y, zero)
  r <- h$dd_op("-", qy[, 1], qy[, 2], x, zero)
  expect_true(all(abs(r[, 1] + r[, 2]) <= 1e-30 * abs(x)))
  expect_true(any(abs((x / y) * y - x) > 1e-17 * abs(x)))
})

test_that("rng.h: bounded draws are in range, unbiased and reproducible", {
  h <- cpp_harness("primitives.cpp")
  expect_identical(h$bounded_draws(1L, 2L, 0L, 1, 100L), rep(0, 100))
  d <- h$bounded_draws(1L, 2L, 0L, 10, 1e5L)
  expect_true(all(d %in% 0:9))
  expect_gt(stats::chisq.test(tabulate(d + 1, 10))$p.value, 1e-4)
  # range 3 x 2^30: a multiply-shift without Lemire's rejection step maps two
  # 32-bit inputs to every value divisible by 3 and one to the others, so a
  # third of the values would be hit half the time. Unbiased: 1/3 (sd 0.0015).
  big <- h$bounded_draws(7L, 9L, 3L, 3 * 2^30, 1e5L)
  expect_true(all(big >= 0 & big < 3 * 2^30 & big == floor(big)))
  expect_lt(abs(mean(big %% 3 == 0) - 1 / 3), 0.01)
  expect_lt(abs(mean(big < 2^30) - 1 / 3), 0.01)
  # a stream depends on (seed, stream) only
  expect_identical(h$bounded_draws(1L, 2L, 5L, 1000, 50L), h$bounded_draws(1L, 2L, 5L, 1000, 50L))
  expect_false(identical(h$bounded_draws(1L, 2L, 5L, 1000, 50L), h$bounded_draws(1L, 2L, 6L, 1000, 50L)))
  expect_false(identical(h$bounded_draws(1L, 2L, 5L, 1000, 50L), h$bounded_draws(1L, 3L, 5L, 1000, 50L)))
  # the replicates split into contiguous blocks of nearly equal size
  for (n in c(0, 1, 63, 64, 1000, 12345)) {
    b <- h$stream_blocks(n)
    expect_identical(b[c(1, length(b))], c(0, n))
    expect_true(all(diff(b) %in% c(floor(n / 64), ceiling(n / 64))))
  }
})


test_that("annotator_model.h: the M-step's constrained rows satisfy the KKT conditions", {
  h <- cpp_harness("primitives.cpp")
  # c = (0, 3, 1), floor 0.1: pi_0 at the floor, the rest c / lambda with lambda = 4 / 0.9
  expect_equal(h$ds_constrained_row(c(0, 3, 1), 0.1, rep(1 / 3, 3)), c(0.1, 0.675, 0.225))
  expect_equal(h$ds_constrained_row(c(5, 0), 1e-6, c(0.5, 0.5)), c(1 - 1e-6, 1e-6))
  expect_equal(h$ds_constrained_row(c(2, 6), 1e-6, c(0.5, 0.5)), c(0.25, 0.75))
  expect_identical(h$ds_constrained_row(c(0, 0), 1e-6, c(0.7, 0.3)), c(0.7, 0.3))
})

# The extractor stores texts with 32-bit lengths: a text longer than an R
# string (2^31 - 1 bytes) is not stored and marks the emissions overlong,
# which the readers turn into an error; shorter texts and "no text" are kept.
test_that("json_fields.h: texts up to R's string limit are stored, longer ones flagged", {
  texts <- cpp_harness("primitives.cpp")$emission_texts
  got <- texts(c(3, NA, 0, 64))
  expect_identical(got$text, c("xxx", NA, "", strrep("x", 64)))
  expect_false(got$overlong)
  got <- texts(c(2, 2^31, 1))
  expect_identical(got$text, c("xx", NA, "x"))
  expect_true(got$overlong)
})

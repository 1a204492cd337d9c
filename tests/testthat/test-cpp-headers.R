# Unit tests of the pure C++ headers (inst/include/mlagreement/) through the
# sourceCpp() harness in cpp/headers.cpp (helper-cpp.R compiles it).

# Sums of products of counts above 2^64 are summed in 128 bits (uint128.h):
# its arithmetic here, on values with known results, and the counting
# methods that use it below, on distinct sets with counts as large as a
# database summary holds.
test_that("uint128.h: sums of 64 x 64-bit products are exact", {
  dot <- cpp_harness()$u128_dot
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

test_that("set_alpha.h: subset counting sums beyond 2^64 exactly", {
  h <- cpp_harness()
  withr::local_seed(37)
  # sets holding labels 1 and 2 and two or three of the others: every pair
  # shares at least two labels, so with 3.9e9 values the sums of products
  # of counts pass 2^64 (2 n^2 > 2^65)
  shared_sets <- function(k, n_big) {
    small <- utils::combn(3:k, 2, simplify = FALSE)
    big <- utils::combn(3:k, 3, simplify = FALSE)
    lapply(c(small, big[sample(length(big), min(n_big, length(big)))]), function(s) c(1L, 2L, s))
  }
  for (case in list(list(k = 14L, n_big = 220L, method = "sparse"),
                    list(k = 30L, n_big = 900L, method = "hashed"))) {
    sets <- shared_sets(case$k, case$n_big)
    w <- stats::runif(length(sets))
    count <- floor(3.9e9 * w / sum(w))
    got <- h$expected_set_sums(sets, count, case$k)
    expect_identical(got[c("method", "wide_sums", "failed")],
                     list(method = case$method, wide_sums = TRUE, failed = FALSE))
    expect_equal(c(jaccard = got$expected_jaccard, masi = got$expected_masi),
                 ref_expected_counts(sets, count, case$k), tolerance = 1e-12)
    # small counts: 64-bit sums
    few <- count %% 5 + 1
    got <- h$expected_set_sums(sets, few, case$k)
    expect_identical(got[c("method", "wide_sums")], list(method = case$method, wide_sums = FALSE))
    expect_equal(c(jaccard = got$expected_jaccard, masi = got$expected_masi),
                 ref_expected_counts(sets, few, case$k), tolerance = 1e-12)
  }
  # 2^32 values or more: pairs of distinct sets (the counting rows hold
  # 32-bit counts)
  got <- h$expected_set_sums(sets, 2 * count, 30L)
  expect_identical(got$method, "pairs")
  expect_equal(c(jaccard = got$expected_jaccard, masi = got$expected_masi),
               ref_expected_counts(sets, 2 * count, 30L), tolerance = 1e-12)
})

test_that("ddouble.h: sums and products keep the bits a double loses", {
  h <- cpp_harness()
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
  h <- cpp_harness()
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

test_that("counts.h: value codes classify 0, 1, missing and invalid values", {
  h <- cpp_harness()
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

# The distinct label sets of every pairable item (>= 2 complete records), as
# sorted "annotator:labels" strings, from plain R.
ref_item_label_sets <- function(values, item, annotator) {
  complete <- rowSums(is.na(values)) == 0
  key <- apply(values, 1, function(r) paste(which(r == 1), collapse = ","))
  by_item <- split(paste0(annotator, ":", key)[complete], item[complete])
  unname(lapply(Filter(function(s) length(s) >= 2, by_item), sort))
}

cpp_item_label_sets <- function(sets) {
  key <- vapply(sets$members, paste, "", collapse = ",")
  rec <- paste0(sets$rec_annotator, ":", key[sets$rec_set + 1L])
  lapply(seq_len(length(sets$start) - 1), function(g) {
    sort(rec[(sets$start[g] + 1):sets$start[g + 1]])
  })
}

expect_label_sets <- function(values, item, n_items, annotator, n_annotators, dense) {
  sets <- cpp_harness()$label_sets(values, if (dense) integer() else item - 1L, n_items,
                                   if (dense) integer() else annotator - 1L, n_annotators)
  # every distinct set once, with its size and its number of kept records
  key <- vapply(sets$members, paste, "", collapse = ",")
  expect_false(anyDuplicated(key) > 0)
  expect_identical(sets$size, lengths(sets$members))
  expect_identical(sets$count, as.numeric(tabulate(sets$rec_set + 1L, length(key))))
  expect_identical(cpp_item_label_sets(sets), ref_item_label_sets(values, item, annotator - 1L))
}

test_that("sets.h / set_build.h: records hash to their distinct label sets", {
  withr::local_seed(12)
  dense_records <- function(N, A, k, p, missing = 0) {
    v <- matrix(stats::rbinom(N * A * k, 1, p), N * A, k)
    v[stats::runif(N * A) < missing, ] <- NA
    list(values = v, item = rep(seq_len(N), A), annotator = rep(seq_len(A), each = N), N = N, A = A)
  }
  designs <- list(
    complete = dense_records(1500, 3, 12, 0.5),             # fast path, ~4000 distinct sets
    few_sets = dense_records(300, 4, 3, 0.3),
    records_missing = dense_records(400, 3, 10, 0.4, 0.2),  # general path
    labels_70 = dense_records(60, 3, 70, 0.1, 0.1)           # two 64-bit words
  )
  for (name in names(designs)) {
    d <- designs[[name]]
    storage.mode(d$values) <- "integer"
    expect_label_sets(d$values, d$item, d$N, d$annotator, d$A, dense = TRUE)
    # the records layout, records shuffled: the general path
    o <- sample(nrow(d$values))
    expect_label_sets(d$values[o, , drop = FALSE], d$item[o], d$N, d$annotator[o], d$A, dense = FALSE)
  }
  # a record with some but not all labels missing is refused (0-based record)
  v <- matrix(1L, 6, 3)
  v[5, 2] <- NA
  expect_identical(cpp_harness()$label_sets(v, integer(), 3L, integer(), 2L)$bad_record, 4)
})

test_that("boot_items.h: the whole-window runner gives the package's replicates", {
  h <- cpp_harness()
  fit <- mla(boot_fixture())
  bs <- withr::with_seed(3, mla_boot(fit, R = 70))
  x <- item_x(fit$annotations)
  m <- item_m(fit$annotations)
  storage.mode(x) <- storage.mode(m) <- "integer"
  counts <- h$boot_items(x, m, bs$seed, 70L, 1L)
  expect_identical(counts, unname(bs$t))
  # the seed drives the draws: another seed, other replicates
  expect_false(identical(h$boot_items(x, m, bs$seed + 1L, 70L, 1L), counts))
})

test_that("annotator_model.h: the M-step's constrained rows satisfy the KKT conditions", {
  h <- cpp_harness()
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
  texts <- cpp_harness()$emission_texts
  got <- texts(c(3, NA, 0, 64))
  expect_identical(got$text, c("xxx", NA, "", strrep("x", 64)))
  expect_false(got$overlong)
  got <- texts(c(2, 2^31, 1))
  expect_identical(got$text, c("xx", NA, "x"))
  expect_true(got$overlong)
})

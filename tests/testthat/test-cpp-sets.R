# Unit tests of the label-set headers through the sourceCpp() harness
# cpp/sets.cpp (helper-cpp.R compiles it).

# Sums of products of counts above 2^64 are summed in 128 bits (uint128.h,
# checked in test-cpp-primitives.R): the counting methods here, on distinct
# sets with counts as large as a database summary holds.
test_that("set_alpha.h: subset counting sums beyond 2^64 exactly", {
  h <- cpp_harness("sets.cpp")
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
  sets <- cpp_harness("sets.cpp")$label_sets(values, if (dense) integer() else item - 1L, n_items,
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
  expect_identical(cpp_harness("sets.cpp")$label_sets(v, integer(), 3L, integer(), 2L)$bad_record, 4)
})


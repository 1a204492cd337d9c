test_that("Krippendorff's canonical nominal example gives 0.7434210526 (Hamming on one-hot)", {
  res <- krippendorff_alpha(krippendorff_nominal(), distance = "hamming")
  pub <- function(quantity, ...) published("krippendorff_2011", quantity, ...)
  expect_equal(res$estimate, pub("alpha", digits = 10), tolerance = 1e-10)
  expect_equal(res$n_items, pub("n_units"))
  expect_equal(res$n_values, pub("n_values"))
  ref <- ref_alpha(ref_records_by_item(as_annotations(krippendorff_nominal())), ref_hamming)
  expect_equal(res$estimate, unname(ref["alpha"]), tolerance = 1e-12)
})

test_that("nominal alpha agrees with irr::kripp.alpha", {
  fx <- irr_fixture("nominal")
  kd <- krippendorff_nominal()
  expect_identical(kd, fx$kd$ratings)
  expect_equal(krippendorff_alpha(kd, "hamming")$estimate, fx$kd$value, tolerance = 1e-12)
  # two coders, complete data
  expect_equal(krippendorff_alpha(fx$two_coders$ratings, "hamming")$estimate,
               fx$two_coders$value, tolerance = 1e-12)
  # three coders with a missing value (irr is correct here; on complete data
  # with more than two coders it is not, and the brute force sides with us)
  x <- fx$one_missing$ratings
  expect_equal(krippendorff_alpha(x, "hamming")$estimate, fx$one_missing$value, tolerance = 1e-12)
  x[1, 1] <- 1L
  ref <- ref_alpha(ref_records_by_item(as_annotations(x)), ref_hamming)
  expect_equal(krippendorff_alpha(x, "hamming")$estimate, unname(ref["alpha"]), tolerance = 1e-12)
})

test_that("DKPro's set-valued example gives the published values", {
  res <- krippendorff_alpha(dkpro_example())
  expect_equal(res$distance, c("hamming", "jaccard", "masi"))
  expect_equal(res$estimate, c(0.3644859813, 0.3156199678, 0.2730806608), tolerance = 1e-9)
  # DKPro's own MASI distance gives 0.2529 (documented difference)
  recs <- ref_records_by_item(as_annotations(dkpro_example()))
  expect_lt(abs(unname(ref_alpha(recs, ref_masi_dkpro)["alpha"]) - 0.2529), 1e-4)
  expect_equal(unname(ref_alpha(recs, ref_masi)["alpha"]), res$estimate[3], tolerance = 1e-12)
})

test_that("bias_example Hamming alpha is 37/125 exactly", {
  a <- annotations_long(bias_example, item, annotator, label, value)
  expect_equal(krippendorff_alpha(a, "hamming")$estimate, 37 / 125, tolerance = 1e-14)
})

test_that("Hamming alpha relates to pooled-marginal MLA on complete data (paper 3.4)", {
  withr::local_seed(3)
  arr <- random_set_design(25, 4, 6, p = 0.3, missing_records = 0)
  res <- krippendorff_alpha(arr, "hamming")
  fit <- tidy(mla(arr), level = "corpus")
  f <- fit[fit$baseline == "fleiss", ]
  M <- 25 * 4
  expect_equal(res$observed_disagreement, 1 - f$observed, tolerance = 1e-12)
  expect_equal(res$expected_disagreement, M / (M - 1) * (1 - f$expected), tolerance = 1e-12)
  expect_equal(res$estimate, 1 - (1 - f$observed) / (M / (M - 1) * (1 - f$expected)),
               tolerance = 1e-12)
})

test_that("all distances match the brute-force reference on random designs", {
  withr::local_seed(42)
  for (rep in 1:4) {
    arr <- random_set_design(12, 4, 5, p = c(0.15, 0.3, 0.5, 0.7)[rep], missing_records = 0.25)
    res <- krippendorff_alpha(arr)
    recs <- ref_records_by_item(as_annotations(arr))
    for (d in c("hamming", "jaccard", "masi")) {
      ref <- ref_alpha(recs, get(paste0("ref_", d)))
      row <- res[res$distance == d, ]
      expect_equal(row$observed_disagreement, unname(ref["observed"]), tolerance = 1e-12)
      expect_equal(row$expected_disagreement, unname(ref["expected"]), tolerance = 1e-12)
      expect_equal(row$estimate, unname(ref["alpha"]), tolerance = 1e-12)
    }
    pairable <- lengths(recs) >= 2
    expect_equal(res$n_items, rep(sum(pairable), 3))
    expect_equal(res$n_values, rep(sum(lengths(recs)[pairable]), 3))
  }
})

test_that("more than 64 labels (several bit words) match the reference", {
  withr::local_seed(7)
  arr <- random_set_design(6, 3, 70, p = 0.05, missing_records = 0.1)
  res <- krippendorff_alpha(arr, c("jaccard", "masi"))
  recs <- ref_records_by_item(as_annotations(arr))
  expect_equal(res$estimate, unname(c(ref_alpha(recs, ref_jaccard)["alpha"],
                                      ref_alpha(recs, ref_masi)["alpha"])), tolerance = 1e-12)
})

test_that("Hamming alpha with cell-level missing decisions matches per-label brute force", {
  withr::local_seed(5)
  arr <- random_set_design(15, 4, 4, p = 0.4, missing_records = 0.15, missing_cells = 0.1)
  res <- krippendorff_alpha(arr, "hamming")
  ref <- ref_alpha_hamming_cells(as_annotations(arr))
  expect_equal(res$estimate, unname(ref["alpha"]), tolerance = 1e-12)
  expect_equal(res$observed_disagreement, unname(ref["observed"]), tolerance = 1e-12)
  expect_equal(res$expected_disagreement, unname(ref["expected"]), tolerance = 1e-12)
})

test_that("dense array and long data (records layout) give identical results", {
  withr::local_seed(9)
  arr <- random_set_design(10, 4, 5, p = 0.35, missing_records = 0.3)
  long <- annotations_long(ref_long(arr), item, annotator, label, value)
  expect_equal(krippendorff_alpha(long), krippendorff_alpha(arr), tolerance = 1e-14)
})

test_that("logical and double arrays give the same result as integer arrays", {
  arr <- dkpro_example()
  storage.mode(arr) <- "logical"
  expect_equal(krippendorff_alpha(arr), krippendorff_alpha(dkpro_example()))
  storage.mode(arr) <- "double"
  expect_equal(krippendorff_alpha(arr), krippendorff_alpha(dkpro_example()))
})

test_that("distance selects and orders rows; prototype is stable", {
  res <- krippendorff_alpha(dkpro_example(), distance = c("masi", "hamming"))
  expect_equal(res$distance, c("masi", "hamming"))
  expect_equal(res[0, ], tibble::tibble(distance = character(), observed_disagreement = numeric(),
                                        expected_disagreement = numeric(), estimate = numeric(),
                                        n_items = numeric(), n_values = numeric()))
})

test_that("edge cases: perfect agreement, no variation, empty sets", {
  arr <- array(0L, c(3, 2, 2))
  arr[1, , 1] <- 1L
  res <- krippendorff_alpha(arr)
  expect_equal(res$estimate, c(1, 1, 1))
  none <- array(0L, c(3, 2, 2))
  expect_mla_warning(res <- krippendorff_alpha(none), "undefined")
  expect_true(all(is.na(res$estimate)))
  expect_equal(res$observed_disagreement, c(0, 0, 0))
  # empty vs non-empty is distance 1 for both set distances
  e <- array(0L, c(2, 2, 1))
  e[1, 1, 1] <- 1L
  e[2, , 1] <- 1L
  res <- krippendorff_alpha(e, c("jaccard", "masi"))
  recs <- ref_records_by_item(as_annotations(e))
  expect_equal(res$estimate[1], unname(ref_alpha(recs, ref_jaccard)["alpha"]), tolerance = 1e-12)
  expect_equal(res$observed_disagreement, c(0.5, 0.5))
})

test_that("errors are classed and informative", {
  arr <- dkpro_example()
  arr[2, 1, 2] <- NA
  expect_mla_snapshot(krippendorff_alpha(arr, "masi"))
  expect_mla_error(krippendorff_alpha(arr, "jaccard"), "partial_record")
  expect_no_error(krippendorff_alpha(arr, "hamming"))
  expect_mla_snapshot(krippendorff_alpha(dkpro_example(), distance = "cosine"))
  expect_mla_error(krippendorff_alpha(dkpro_example(), distance = 1), "distance")
  single <- array(c(1L, NA, NA, 0L), c(2, 2, 1))
  expect_mla_snapshot(krippendorff_alpha(single))
  expect_mla_error(krippendorff_alpha(single, "hamming"), "unpairable")
  expect_mla_error(krippendorff_alpha(dkpro_example(), foo = 1))
  expect_mla_error(krippendorff_alpha(dkpro_example(), threads = 0), "threads")
})

# The expected set disagreement has four exact algorithms, chosen by
# estimated work (inst/include/mlagreement/set_expected.h): pairs of distinct
# sets, sparse subset counting (at most 22 labels in use), hashed subset
# counting (23 to 64 labels in use, sets of at most 22 labels) and postings
# (more than 64 labels in use; test-scale-paths.R). set_alpha_impl() reports
# the one it used: the designs below select each, against plain R.
set_alpha_of <- function(arr, threads = 1L) {
  mlagreement:::set_alpha_impl(as_annotations(arr), with_expected = TRUE, threads = threads)
}

# A design whose records use exactly k labels (each label set in some record).
design_using <- function(N, A, k, p, missing_records = 0.1) {
  arr <- random_set_design(N, A, k, p = p, missing_records = missing_records)
  for (j in seq_len(k)) {
    if (!any(arr[, , j] == 1L, na.rm = TRUE)) {
      cell <- which(!is.na(arr[, , j]))[1]
      arr[, , j][cell] <- 1L
    }
  }
  arr
}

expect_set_alpha_equals <- function(res, ref, info) {
  for (d in c("jaccard", "masi")) {
    expect_equal(res[[paste0("observed_", d)]], ref[["observed", d]], tolerance = 1e-12, info = info)
    expect_equal(res[[paste0("expected_", d)]], ref[["expected", d]], tolerance = 1e-12, info = info)
  }
}

test_that("pairs of distinct sets match the brute force", {
  withr::local_seed(31)
  wide_labels <- random_set_design(10, 3, 70, p = 0.3, missing_records = 0.1)
  wide_labels[, , c(1:55, 66:68)] <- 0L
  # restore whole missing records (the item x annotator mask recycles over labels)
  wide_labels[is.na(wide_labels[, , 69])] <- NA
  big_sets <- random_set_design(6, 3, 30, p = 0.95, missing_records = 0)
  expect_gt(max(apply(big_sets, 1:2, sum)), 22)
  designs <- list(
    random = random_set_design(15, 4, 7, p = 0.25, missing_records = 0.2),
    wide_labels = wide_labels,  # > 64 declared labels, labels used in both bit words
    dkpro = dkpro_example(),
    size_classes = random_set_design(12, 4, 12, p = 0.5, missing_records = 0.1),  # sizes 1..11
    no_label = array(0L, c(5, 3, 4), dimnames = list(NULL, NULL, letters[1:4])),  # k = 0
    one_label = design_using(5, 3, 1, p = 0.3),
    labels_30 = design_using(8, 3, 30, p = 0.4, missing_records = 0),
    big_sets = big_sets  # sets of more than 22 labels: no subset counting
  )
  for (name in names(designs)) {
    a <- as_annotations(designs[[name]])
    res <- set_alpha_of(designs[[name]])
    expect_identical(res$method, "pairs", info = name)
    recs <- ref_records_by_item(a)
    ref <- cbind(jaccard = ref_alpha(recs, ref_jaccard), masi = ref_alpha(recs, ref_masi))
    expect_set_alpha_equals(res, ref, name)
    # the faster reference of the larger designs below agrees
    expect_equal(ref_set_alpha(a), ref[c("observed", "expected"), ], tolerance = 1e-12, info = name)
  }
})

test_that("subset counting (sparse, hashed) matches plain R", {
  withr::local_seed(32)
  designs <- list(
    sparse = list(
      low = random_set_design(300, 3, 14, p = 0.08, missing_records = 0.1),
      k22 = design_using(200, 3, 22, p = 0.05),  # the most labels sparse counting takes
      half = random_set_design(150, 4, 8, p = 0.5, missing_records = 0),  # most of the 2^8 sets
      size_classes = random_set_design(200, 3, 16, p = 0.3, missing_records = 0.1)
    ),
    hashed = list(
      labels_30 = random_set_design(400, 3, 30, p = 0.04, missing_records = 0),
      labels_40 = design_using(300, 3, 40, p = 0.04),
      labels_64 = design_using(300, 3, 64, p = 0.02, missing_records = 0)  # all of one bit word
    )
  )
  for (method in names(designs)) {
    for (name in names(designs[[method]])) {
      arr <- designs[[method]][[name]]
      res <- set_alpha_of(arr)
      expect_identical(res$method, method, info = name)
      expect_set_alpha_equals(res, ref_set_alpha(as_annotations(arr)), name)
    }
  }
})

# Building the label sets (inst/include/mlagreement/set_build.h): complete dense
# arrays of at most 32 labels take a fast path, blocks of 2048 records; a
# missing value anywhere hands over to the general path, as do the records
# layout and more labels. The observed part counts within-item pairs, except
# for items of more than 64 records or sets over more than 64 labels (item
# by item; see wide_labels above).
test_that("every set-building and observed-part path matches the brute force", {
  withr::local_seed(34)
  complete <- random_set_design(12, 4, 6, p = 0.35, missing_records = 0)
  one_missing <- complete
  one_missing[12, 4, ] <- NA  # the last record: the fast path gives up at the end
  designs <- list(
    complete = complete, one_missing = one_missing,
    big_items = random_set_design(2, 66, 4, p = 0.3, missing_records = 0.05),
    labels_33 = design_using(8, 3, 33, p = 0.1, missing_records = 0)
  )
  for (name in names(designs)) {
    arr <- designs[[name]]
    recs <- ref_records_by_item(as_annotations(arr))
    res <- krippendorff_alpha(arr, c("jaccard", "masi"))
    for (d in c("jaccard", "masi")) {
      ref <- ref_alpha(recs, if (d == "jaccard") ref_jaccard else ref_masi)
      row <- res[res$distance == d, ]
      expect_equal(row$observed_disagreement, unname(ref["observed"]), tolerance = 1e-12, info = name)
      expect_equal(row$expected_disagreement, unname(ref["expected"]), tolerance = 1e-12, info = name)
    }
    long <- annotations_long(ref_long(arr), item, annotator, label, value)
    expect_equal(krippendorff_alpha(long, c("jaccard", "masi")), res, tolerance = 1e-12, info = name)
  }
})

test_that("the fast set-building path spans blocks of records", {
  withr::local_seed(35)
  arr <- random_set_design(1100, 2, 10, p = 0.3, missing_records = 0)  # 2,200 records
  arr_na <- arr
  arr_na[1100, 2, ] <- NA  # in the second block
  for (x in list(arr, arr_na)) {
    long <- annotations_long(ref_long(x), item, annotator, label, value)
    expect_equal(krippendorff_alpha(x, c("jaccard", "masi")),
                 krippendorff_alpha(long, c("jaccard", "masi")), tolerance = 1e-12)
    # sparse counting against plain R; here the block of the empty high part
    # takes the superset sums (more updates than kL 2^kL W / 8), the others
    # single updates (set_sparse.h)
    res <- set_alpha_of(x)
    expect_identical(res$method, "sparse")
    expect_set_alpha_equals(res, ref_set_alpha(as_annotations(x)), "blocks")
  }
  skip_if_one_thread()
  expect_identical(set_alpha_of(arr, 2L), set_alpha_of(arr, 1L))
  expect_identical(krippendorff_alpha(arr, threads = 2), krippendorff_alpha(arr, threads = 1))
})

test_that("set alpha does not depend on the number of threads", {
  skip_if_one_thread()
  withr::local_seed(33)
  designs <- list(
    pairs = random_set_design(10, 4, 5, p = 0.35, missing_records = 0.3),
    sparse = random_set_design(1500, 4, 12, p = 0.3, missing_records = 0.1),
    sparse_complete = random_set_design(1500, 4, 12, p = 0.3, missing_records = 0),  # fast build
    hashed = random_set_design(1500, 3, 30, p = 0.04, missing_records = 0.1)
  )
  for (name in names(designs)) {
    arr <- designs[[name]]
    expect_identical(set_alpha_of(arr)$method, sub("_complete", "", name), info = name)
    expect_identical(set_alpha_of(arr, 2L), set_alpha_of(arr, 1L), info = name)
    expect_identical(krippendorff_alpha(arr, threads = 2), krippendorff_alpha(arr, threads = 1))
  }
})
test_that("running out of memory in the set core is a classed error naming the size", {
  res <- list(bad_record = -1, out_of_memory = TRUE)
  args <- list(values = integer(12), n_labels = 3L)
  expect_mla_error(mlagreement:::check_set_memory(res, args), "memory")
  expect_error(mlagreement:::check_set_memory(res, args), "4 records over 3 labels")
  expect_null(mlagreement:::check_set_memory(list(bad_record = -1), args))
})

test_that("agreement_measures() and krippendorff_alpha() agree on the average similarities", {
  withr::local_seed(36)
  arr <- random_set_design(30, 4, 6, p = 0.3, missing_records = 0.2)
  sims <- mlagreement:::set_alpha_impl(as_annotations(arr), with_expected = FALSE, threads = 1L)
  res <- agreement_measures(arr, R = 5)
  expect_identical(res$estimate[1:2], c(sims$similarity_masi, sims$similarity_jaccard))
})

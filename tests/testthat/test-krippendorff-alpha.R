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
  expect_warning(res <- krippendorff_alpha(none), class = "mlagreement_warning_undefined")
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
  expect_error(krippendorff_alpha(arr, "jaccard"), class = "mlagreement_error_partial_record")
  expect_no_error(krippendorff_alpha(arr, "hamming"))
  expect_mla_snapshot(krippendorff_alpha(dkpro_example(), distance = "cosine"))
  expect_error(krippendorff_alpha(dkpro_example(), distance = 1), class = "mlagreement_error_distance")
  single <- array(c(1L, NA, NA, 0L), c(2, 2, 1))
  expect_mla_snapshot(krippendorff_alpha(single))
  expect_error(krippendorff_alpha(single, "hamming"), class = "mlagreement_error_unpairable")
  expect_error(krippendorff_alpha(dkpro_example(), foo = 1), class = "mlagreement_error")
  expect_error(krippendorff_alpha(dkpro_example(), threads = 0), class = "mlagreement_error_threads")
})

# The expected set disagreement has four algorithms (inst/include/mlagreement/
# set_expected.h): "pairs" of distinct sets, "sparse" (blocked), "dense" and
# "hashed" subset counting; the counting ones sum in 64 bits where exact, in
# 128 bits otherwise, and "+wide" forces the 128-bit sums. set_alpha_impl()
# forces one through its `method` and `force_wide_sums` arguments ("auto" =
# choose by estimated work).
variants <- c("pairs", "sparse", "dense", "sparse+wide", "dense+wide", "hashed", "hashed+wide")
expected_by <- function(arr, variant, threads = 1L) {
  method <- sub("+wide", "", variant, fixed = TRUE)
  wide <- method != variant
  res <- mlagreement:::set_alpha_impl(as_annotations(arr), with_expected = TRUE, threads = threads,
                                      method = method, force_wide_sums = wide)
  # the variant that ran: the method used, "+wide" when the wide sums were forced
  res$method <- paste0(res$method, if (wide && res$wide_sums) "+wide")
  res
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

test_that("every expected-disagreement algorithm matches the brute force", {
  withr::local_seed(31)
  wide_labels <- random_set_design(10, 3, 70, p = 0.3, missing_records = 0.1)
  wide_labels[, , c(1:55, 66:68)] <- 0L
  # restore whole missing records (the item x annotator mask recycles over labels)
  wide_labels[is.na(wide_labels[, , 69])] <- NA
  designs <- list(
    random = random_set_design(15, 4, 7, p = 0.25, missing_records = 0.2),
    wide_labels = wide_labels,  # > 64 declared labels, labels used in both bit words
    dkpro = dkpro_example(),
    size_classes = random_set_design(12, 4, 12, p = 0.5, missing_records = 0.1),  # sizes 1..11
    k22 = design_using(6, 3, 22, p = 0.45),  # the most labels subset counting takes
    no_label = array(0L, c(5, 3, 4), dimnames = list(NULL, NULL, letters[1:4])),  # k = 0
    one_label = design_using(5, 3, 1, p = 0.3),
    labels_40 = design_using(10, 3, 40, p = 0.08)  # > 22 labels in use: pairs or hashed
  )
  expect_equal(sum(apply(designs$k22, 3, function(l) any(l == 1L, na.rm = TRUE))), 22)
  for (name in names(designs)) {
    arr <- designs[[name]]
    recs <- ref_records_by_item(as_annotations(arr))
    ref_j <- ref_alpha(recs, ref_jaccard)
    ref_m <- ref_alpha(recs, ref_masi)
    # dense tables of 2^22 rows are too large for a test; blocked and dense
    # counting take at most 22 labels in use
    methods <- switch(name, k22 = variants[c(1, 2, 4, 6, 7)], labels_40 = variants[c(1, 6, 7)], variants)
    counted <- NULL
    for (method in methods) {
      res <- expected_by(arr, method)
      expect_equal(res$method, method, info = name)
      expect_equal(res$expected_jaccard, unname(ref_j["expected"]), tolerance = 1e-12, info = name)
      expect_equal(res$expected_masi, unname(ref_m["expected"]), tolerance = 1e-12, info = name)
      expect_equal(res$observed_jaccard, unname(ref_j["observed"]), tolerance = 1e-12, info = name)
      expect_equal(res$observed_masi, unname(ref_m["observed"]), tolerance = 1e-12, info = name)
      # the counting methods build the same exact pair histogram: same doubles
      if (method != "pairs") {
        if (is.null(counted)) counted <- res
        expect_identical(res[c("expected_jaccard", "expected_masi")],
                         counted[c("expected_jaccard", "expected_masi")], info = name)
      }
    }
  }
})

test_that("the counting methods agree with pairs on larger designs", {
  withr::local_seed(32)
  big <- random_set_design(400, 3, 9, p = 0.25, missing_records = 0.1)
  r1 <- expected_by(big, "pairs")
  for (method in variants[-1]) {
    r <- expected_by(big, method)
    expect_equal(r$expected_jaccard, r1$expected_jaccard, tolerance = 1e-12)
    expect_equal(r$expected_masi, r1$expected_masi, tolerance = 1e-12)
  }
  # more than 22 labels in use: no blocked or dense counting; sets of more
  # than 22 labels: no hashed counting either
  many <- design_using(8, 3, 30, p = 0.4, missing_records = 0)
  for (method in c("auto", variants[1:5])) expect_equal(expected_by(many, method)$method, "pairs")
  big_sets <- random_set_design(6, 3, 30, p = 0.95, missing_records = 0)
  expect_gt(max(apply(big_sets, 1:2, sum)), 22)
  for (method in variants[c(2, 6, 7)]) expect_equal(expected_by(big_sets, method)$method, "pairs")
  # the automatic choice: few distinct sets -> pairs; many small sets ->
  # sparse counting; nearly all 2^k sets present -> dense counting
  expect_equal(expected_by(dkpro_example(), "auto")$method, "pairs")
  low <- random_set_design(2000, 3, 14, p = 0.08, missing_records = 0)
  expect_equal(expected_by(low, "auto")$method, "sparse")
  dense <- random_set_design(3000, 3, 12, p = 0.5, missing_records = 0)
  expect_equal(expected_by(dense, "auto")$method, "dense")
  labels_30 <- random_set_design(3000, 3, 30, p = 0.04, missing_records = 0)
  expect_equal(expected_by(labels_30, "auto")$method, "hashed")
  for (arr in list(low, dense, labels_30)) {
    expect_equal(expected_by(arr, "auto")$expected_masi, expected_by(arr, "pairs")$expected_masi,
                 tolerance = 1e-12)
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
    # counting (sparse, 64- and 128-bit sums) against pairs of distinct sets;
    # here the block of the empty high part takes the superset sums (more
    # updates than kL 2^kL W / 8), the others single updates (set_sparse.h)
    r1 <- expected_by(x, "pairs")
    for (method in c("sparse", "sparse+wide")) {
      r <- expected_by(x, method)
      expect_equal(r$method, method)
      expect_equal(r$expected_jaccard, r1$expected_jaccard, tolerance = 1e-12)
      expect_equal(r$expected_masi, r1$expected_masi, tolerance = 1e-12)
    }
  }
  skip_if_one_thread()
  expect_identical(expected_by(arr, "sparse", 2L), expected_by(arr, "sparse", 1L))
  expect_identical(krippendorff_alpha(arr, threads = 2), krippendorff_alpha(arr, threads = 1))
})

test_that("set alpha does not depend on the number of threads", {
  skip_if_one_thread()
  withr::local_seed(33)
  arr <- random_set_design(1500, 4, 12, p = 0.3, missing_records = 0.1)
  for (method in variants) {
    expect_identical(expected_by(arr, method, 2L), expected_by(arr, method, 1L))
  }
  expect_identical(krippendorff_alpha(arr, threads = 2), krippendorff_alpha(arr, threads = 1))
  small <- random_set_design(10, 4, 5, p = 0.35, missing_records = 0.3)
  expect_identical(krippendorff_alpha(small, threads = 2), krippendorff_alpha(small, threads = 1))
  complete <- random_set_design(1500, 4, 12, p = 0.3, missing_records = 0)  # fast building path
  for (method in variants) {
    expect_identical(expected_by(complete, method, 2L), expected_by(complete, method, 1L))
  }
})
test_that("running out of memory in the set core is a classed error naming the size", {
  res <- list(bad_record = -1, out_of_memory = TRUE)
  args <- list(values = integer(12), n_labels = 3L)
  expect_error(mlagreement:::check_set_memory(res, args), class = "mlagreement_error_memory")
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

# The paths that keep large designs linear: bootstrap
# bins for the (m, x) classes that occur, the per-annotator rows without the
# pair table, the up-front size check of pair outputs, set alpha over the
# distinct sets of an item, and the postings method of D_e. Each against a
# plain-R reference; the timings are in bench/scale.R.

many_annotators <- function(n_items, n_annotators, k, seed, missing = 0.3) {
  withr::with_seed(seed, {
    a <- array(rbinom(n_items * n_annotators * k, 1, 0.3), c(n_items, n_annotators, k))
    a[runif(length(a)) < missing] <- NA
    a
  })
}

test_that("the class table holds exactly the (m, x) classes that occur, in ascending order", {
  fit <- mla(many_annotators(15, 300, 2, seed = 1))
  x <- item_x(fit$annotations)
  m <- item_m(fit$annotations)
  codes <- mlagreement:::boot_codes_cpp(x, m)
  start <- attr(codes, "class_start")
  for (j in 1:2) {
    keys <- unique(data.frame(m = m[, j], x = x[, j])[m[, j] > 0, ])
    keys <- keys[order(keys$m, keys$x), ]
    g <- seq(start[j] + 1L, start[j + 1L])
    expect_identical(attr(codes, "class_m")[g], as.integer(keys$m))
    expect_identical(attr(codes, "class_x")[g], as.integer(keys$x))
  }
  # far fewer than max_m (max_m + 3) / 2 bins per label: 16-bit codes
  expect_identical(length(codes), 2L * 15L * 2L)
})

test_that("item replicates with hundreds of annotators per item match plain-R refits", {
  arr <- many_annotators(12, 400, 2, seed = 2)
  fit <- mla(arr)
  x <- item_x(fit$annotations)
  m <- item_m(fit$annotations)
  bs <- withr::with_seed(3, mla_boot(fit, R = 8, threads = 2))
  w <- cpp_boot_draws(bs)$item
  for (b in seq_len(8)) {
    expect_equal(unname(bs$t[b, ]), ref_item_stats(x, m, w[, b]), tolerance = 1e-12)
  }
  jk <- mlagreement:::boot_jack_values(bs)
  refit <- mla(arr[-5, , ])
  expect_equal(unname(jk[5, ]), c(refit$corpus$estimate, refit$label$estimate), tolerance = 1e-12)
})

test_that("annotator_agreement(pairs = FALSE) gives the annotator rows of the pair table", {
  for (seed in 1:6) {
    arr <- many_annotators(20, 6, 3, seed = seed, missing = 0.35)
    for (x in list(as_annotations(arr), annotations_long(as_long(arr), item, annotator, label, value))) {
      full <- annotator_agreement(x, min_items = 3)
      lean <- annotator_agreement(x, min_items = 3, pairs = FALSE)
      expect_identical(lean$annotators$n_partners, rep(NA_integer_, nrow(full$annotators)))
      full$annotators$n_partners <- NA_integer_
      expect_equal(lean$annotators, full$annotators, tolerance = 0)
      expect_identical(nrow(tidy(lean, level = "pairs")), 0L)
    }
  }
  lean <- annotator_agreement(as_annotations(many_annotators(20, 6, 3, seed = 1)), pairs = FALSE)
  expect_match(format(lean), "no pair table", all = FALSE)
  expect_mla_error(annotator_agreement(as_annotations(many_annotators(5, 3, 2, 1)), pairs = NA), "bool")
})

test_that("pair outputs beyond the memory limit fail at once with a classed error", {
  withr::local_options(mlagreement.max_memory = 1e5)
  x <- as_annotations(many_annotators(4, 200, 2, seed = 4, missing = 0))
  err <- expect_mla_error(annotator_agreement(x), "pairs_too_large")
  expect_match(conditionMessage(err), "19,900 annotator pairs")
  expect_match(conditionMessage(err), "pairs = FALSE", fixed = TRUE)
  # the function is named, not its markup
  expect_match(conditionMessage(err), "The pair table of annotator_agreement()", fixed = TRUE)
  expect_no_match(conditionMessage(err), "{.fn", fixed = TRUE)
  err <- expect_mla_error(agreement_measures(x, R = 2), "pairs_too_large")
  expect_match(conditionMessage(err), "measures of agreement_measures()", fixed = TRUE)
  expect_s3_class(annotator_agreement(x, pairs = FALSE), "mla_annotator_agreement")
  # the bound: the record comparisons when fewer than J (J - 1) / 2
  size <- mlagreement:::pair_design_size(x)
  expect_identical(size$pairs, 200 * 199 / 2)
  expect_identical(size$comparisons, 4 * 200 * 199 / 2)
})

test_that("set alpha over the distinct sets of large items equals brute force", {
  skip_long()
  for (seed in 1:3) {
    arr <- many_annotators(3, 90, 3, seed = seed, missing = 0)
    arr[1, 1:20, ] <- NA  # items of 90 and 70 records (over the 64 of pair counting)
    x <- as_annotations(arr)
    got <- krippendorff_alpha(x, distance = c("jaccard", "masi"))
    vals <- ref_records_by_item(x)
    for (d in list(list("jaccard", ref_jaccard), list("masi", ref_masi))) {
      ref <- ref_alpha(vals, d[[2]])
      row <- got[got$distance == d[[1]], ]
      expect_equal(row$observed_disagreement, unname(ref["observed"]), tolerance = 1e-12)
      expect_equal(row$expected_disagreement, unname(ref["expected"]), tolerance = 1e-12)
    }
    sims <- mlagreement:::set_measures_impl(x, 3L, 2L, c(1L, 2L), 1L)
    ref_sim <- mean(vapply(vals, function(v) {
      s <- combn(length(v), 2, function(p) 1 - ref_jaccard(v[[p[1]]], v[[p[2]]]))
      mean(s)
    }, numeric(1)))
    expect_equal(sims$similarity_jaccard, ref_sim, tolerance = 1e-12)
  }
})

test_that("the postings method of D_e (more than 64 labels in use) equals brute force", {
  skip_long()
  for (seed in 1:4) {
    k <- c(70, 130, 300, 90)[seed]
    arr <- withr::with_seed(seed, array(rbinom(30 * 3 * k, 1, 0.02), c(30, 3, k)))
    x <- as_annotations(arr)
    got <- mlagreement:::set_alpha_impl(x, TRUE, 2L)
    expect_identical(got$method, "postings")
    vals <- ref_records_by_item(x)
    for (d in c("jaccard", "masi")) {
      ref <- ref_alpha(vals, if (d == "jaccard") ref_jaccard else ref_masi)
      expect_equal(got[[paste0("expected_", d)]], unname(ref["expected"]), tolerance = 1e-12)
      expect_equal(got[[paste0("observed_", d)]], unname(ref["observed"]), tolerance = 1e-12)
    }
  }
})

test_that("vectors of a megabyte and more, in mappings of their own, hold plain R's numbers", {
  # 2^18 + 3 items of 3 annotators x 8 labels: the per-item vectors, the
  # packed class codes, the ingestion's codes and the records layout's item x
  # label tables are each at least 1 MB (src/glue-memory.h)
  n_items <- 2^18 + 3
  arr <- withr::with_seed(8, {
    a <- array(rbinom(n_items * 3 * 8, 1, 0.3), c(n_items, 3, 8))
    a[runif(length(a)) < 0.25] <- NA
    dimnames(a) <- list(NULL, NULL, paste0("L", 1:8))
    a
  })
  cells <- function(f) Reduce(`+`, lapply(1:3, function(r) f(arr[, r, ])))
  x <- cells(function(v) ifelse(is.na(v), 0L, v))
  m <- cells(function(v) (!is.na(v)) + 0L)
  d <- ifelse(m >= 2, 2 * x * (m - x) / (m * pmax(m - 1, 1)), NA)
  pairable <- colSums(m >= 2) > 0
  fit <- mla(arr)
  expect_equal(c(fit$corpus$estimate, fit$label$estimate),
               ref_coefficients(ref_prevalence(x, m), colMeans(d, na.rm = TRUE), pairable),
               tolerance = 1e-12)
  item <- tidy(fit, level = "item")
  item <- item[item$baseline == "fleiss", ]
  expect_identical(item$item, seq_len(n_items))
  expect_equal(item$observed, ifelse(rowSums(m >= 2) > 0, 1 - rowMeans(d, na.rm = TRUE), NA),
               tolerance = 1e-12)
  # a new mapping reads zero: the records layout adds into its fresh tables
  long <- as_long(arr)
  from_long <- mla(annotations_long(long, item, annotator, label, value))
  expect_equal(tidy(from_long, level = "item"), tidy(fit, level = "item"), tolerance = 1e-12)
  expect_equal(tidy(from_long, level = "label", conf.int = TRUE),
               tidy(fit, level = "label", conf.int = TRUE), tolerance = 1e-12)
  # the freed mappings are returned and new ones give the same fit
  rm(from_long, long)
  invisible(gc())
  expect_identical(mla(arr), fit)
})

test_that("dropped fits' mappings are collected: a loop of fits keeps resident memory bounded", {
  skip_if_not(file.exists("/proc/self/clear_refs"), "needs Linux's /proc/self/clear_refs")
  arr <- withr::with_seed(9, array(rbinom((2^18 + 3) * 2 * 8, 1, 0.3), c(2^18 + 3, 2, 8)))
  status_mb <- function(field) {
    s <- readLines("/proc/self/status")
    as.numeric(gsub("\\D", "", s[startsWith(s, field)])) / 1024
  }
  fit <- mla(arr)
  invisible(gc())
  writeLines("5", "/proc/self/clear_refs")
  before <- status_mb("VmRSS:")
  # each fit maps about 6 MB that gc() does not count: 100 fits left to R's
  # own schedule stayed mapped (about 400 MB more); collected, near 128 MB
  for (i in 1:100) fit <- mla(arr)
  expect_lt(status_mb("VmHWM:") - before, 300)
})

# The sufficient-statistics summary: built from records or from plain
# tables, it gives the estimates of the records; what needs records says so.

test_that("a summary of the records gives the records' estimates", {
  withr::local_seed(140)
  for (design in database_designs(24)) {
    a <- as_annotations(design$array)
    expect_same_estimates(as_annotation_counts(a), a)
    long <- array_long(design$array)
    b <- annotations_long(long, item, annotator, label, value)
    expect_same_estimates(as_annotation_counts(b), b)
  }
})

test_that("annotation_counts() from plain tables round-trips", {
  a <- bias_annotations()
  s <- as_annotation_counts(a)
  s2 <- annotation_counts(tidy(s, "labels"), tidy(s, "design"), tidy(s, "annotators"),
                          universe = a$labels)
  expect_same_estimates(s2, a)
  # engines return integer64 or numeric text for BIGINT sums
  lab <- tidy(s, "labels")
  lab$sum_dis <- as.character(lab$sum_dis)
  s3 <- annotation_counts(lab, tidy(s, "design"), tidy(s, "annotators"), universe = a$labels)
  expect_equal(tidy(mla(s3), conf.int = FALSE), tidy(mla(a), conf.int = FALSE), tolerance = 1e-12)
  used <- sprintf("L%02d", 1:11)
  expect_equal(tidy(mla(s2, labels = used), level = "label", conf.int = FALSE),
               tidy(mla(a, labels = used), level = "label", conf.int = FALSE), tolerance = 1e-12)
  # without a universe, only the labels with rows (all 31 have rows here)
  expect_equal(annotation_counts(tidy(s, "labels"), tidy(s, "design"),
                                 tidy(s, "annotators"))$labels, a$labels)
})

test_that("single-label summaries report the categorical coefficients", {
  codes <- matrix(c("a", "a", "b", NA, "b", "b", "a", "c", "c", "c", "a", "b"), nrow = 4)
  a <- as_annotations(codes)
  s <- as_annotation_counts(a)
  expect_equal(tidy(mla(s), conf.int = FALSE), tidy(mla(a), conf.int = FALSE), tolerance = 1e-12)
  expect_equal(krippendorff_alpha(s, "hamming"), krippendorff_alpha(a, "hamming"),
               tolerance = 1e-12)
})

test_that("what needs the records refuses a summary", {
  a <- bias_annotations()
  s <- as_annotation_counts(a)
  fit <- mla(s)
  expect_mla_snapshot(tidy(fit, level = "item"))
  # a distance of two sets needs which sets meet within an item
  expect_error(krippendorff_alpha(s, function(a, b) as.numeric(!setequal(a, b))),
               class = "mlagreement_error_needs_records")
  expect_error(agreement_measures(s), class = "mlagreement_error_needs_records")
  expect_mla_snapshot(mla_boot(fit, R = 5, resample = "annotators"))
  expect_error(mla_boot(fit, R = 5, resample = "both"), class = "mlagreement_error_needs_records")
  # plain tables without the optional ones
  s2 <- annotation_counts(tidy(s, "labels"), tidy(s, "design"), tidy(s, "annotators"),
                          universe = a$labels)
  expect_error(annotator_agreement(s2), class = "mlagreement_error_needs_records")
  expect_error(mla_boot(mla(s2), R = 5), class = "mlagreement_error_needs_records")
  expect_snapshot(s)
  expect_snapshot(fit)
})

test_that("bad tables are refused", {
  s <- as_annotation_counts(bias_annotations())
  lab <- tidy(s, "labels")
  des <- tidy(s, "design")
  ann <- tidy(s, "annotators")
  expect_mla_snapshot(annotation_counts(lab[-2], des, ann))
  bad <- lab
  bad$sum_x[1] <- 99
  expect_mla_snapshot(annotation_counts(bad, des, ann))
  bad <- lab
  bad$n_items[2] <- -1
  expect_error(annotation_counts(bad, des, ann), class = "mlagreement_error_counts_table")
  expect_error(annotation_counts(rbind(lab, lab[1, ]), des, ann),
               class = "mlagreement_error_counts_table")
  expect_error(annotation_counts(lab, des, ann, universe = "L01"),
               class = "mlagreement_error_unknown_label")
  expect_error(as_annotation_counts(lab), class = "mlagreement_error_counts_input")
})

# The within-item ordered pairs of complete records by (m, |A|, |B|, |A n B|)
# and the distinct sets, by brute force over the records.
ref_set_tables <- function(a) {
  by_item <- lapply(ref_records_by_item(a), function(recs) Filter(function(v) !anyNA(v), recs))
  by_item <- by_item[lengths(by_item) >= 2]
  rows <- list()
  for (recs in by_item) {
    m <- length(recs)
    for (r in seq_len(m)) for (q in seq_len(m)) if (r != q) {
      rows[[length(rows) + 1]] <- c(m, sum(recs[[r]]), sum(recs[[q]]), sum(recs[[r]] * recs[[q]]))
    }
  }
  h <- as.data.frame(do.call(rbind, rows))
  names(h) <- c("m", "size_a", "size_b", "n_shared")
  h <- stats::aggregate(list(n_pairs = rep(1, nrow(h))), h, sum)
  h <- h[order(h$m, h$size_a, h$size_b, h$n_shared), ]
  sets <- vapply(unlist(by_item, recursive = FALSE),
                 function(v) paste(a$labels[v == 1], collapse = "|"), "")
  list(pairs = h, sets = table(sets))
}

test_that("the set tables and set alpha of a summary match brute force", {
  withr::local_seed(141)
  n_checked <- 0
  for (design in database_designs(24)) {
    a <- as_annotations(design$array)
    s <- as_annotation_counts(a)
    if (!is.null(s$sets_partial)) {
      expect_error(krippendorff_alpha(s, "jaccard"), class = "mlagreement_error_partial_record")
      expect_error(krippendorff_alpha(a, "jaccard"), class = "mlagreement_error_partial_record")
      next
    }
    ref <- ref_set_tables(a)
    if (nrow(ref$pairs) == 0) next
    n_checked <- n_checked + 1
    expect_equal(as.data.frame(tidy(s, "set_pairs")), ref$pairs, ignore_attr = TRUE)
    sets <- tidy(s, "sets")
    expect_setequal(sets$labels, names(ref$sets))
    expect_equal(sets$n_values, as.vector(ref$sets)[match(sets$labels, names(ref$sets))])
    by_item <- ref_records_by_item(a)
    got <- suppressWarnings(krippendorff_alpha(s, c("jaccard", "masi")))
    for (d in c("jaccard", "masi")) {
      r <- ref_alpha(by_item, if (d == "jaccard") ref_jaccard else ref_masi)
      row <- got[got$distance == d, ]
      expect_equal(row$observed_disagreement, r[["observed"]], tolerance = 1e-12)
      expect_equal(row$expected_disagreement, r[["expected"]], tolerance = 1e-12)
    }
  }
  expect_gt(n_checked, 10)
})

test_that("set tables from plain tables give the records' set alpha", {
  a <- bias_annotations()
  s <- as_annotation_counts(a)
  args <- list(tidy(s, "labels"), tidy(s, "design"), tidy(s, "annotators"), universe = a$labels)
  s2 <- do.call(annotation_counts, c(args, list(sets = tidy(s, "sets"), set_pairs = tidy(s, "set_pairs"))))
  expect_equal(krippendorff_alpha(s2), krippendorff_alpha(a), tolerance = 1e-12)
  # a list column of labels, and engines' text counts
  sets <- tidy(s, "sets")
  sets$labels <- strsplit(sets$labels, "|", fixed = TRUE)
  pairs <- tidy(s, "set_pairs")
  pairs$n_pairs <- as.character(pairs$n_pairs)
  s3 <- do.call(annotation_counts, c(args, list(sets = sets, set_pairs = pairs)))
  expect_equal(krippendorff_alpha(s3), krippendorff_alpha(a), tolerance = 1e-12)
  # without set tables, set distances need the records
  s4 <- do.call(annotation_counts, args)
  expect_error(krippendorff_alpha(s4), class = "mlagreement_error_needs_records")
  expect_equal(krippendorff_alpha(s4, "hamming"), krippendorff_alpha(a, "hamming"), tolerance = 1e-12)
  bad <- tidy(s, "set_pairs")
  bad$n_pairs[1] <- bad$n_pairs[1] + 6
  expect_error(do.call(annotation_counts, c(args, list(sets = tidy(s, "sets"), set_pairs = bad))),
               class = "mlagreement_error_counts_table")
  expect_error(do.call(annotation_counts, c(args, list(sets = tidy(s, "sets")))),
               class = "mlagreement_error_counts_table")
})

test_that("annotator agreement and the item bootstrap of a summary equal the records'", {
  withr::local_seed(142)
  for (design in database_designs(12)) {
    a <- as_annotations(design$array)
    s <- as_annotation_counts(a)
    expect_same_annotator_agreement(s, a)
    fit_a <- mla(a)
    fit_s <- mla(s)
    n <- length(a$items)
    cluster <- paste0("c", rep(seq_len(ceiling(n / 2)), each = 2)[seq_len(n)])
    strata <- ifelse(seq_len(n) <= n / 2, "s1", "s2")
    strata <- strata[match(cluster, cluster)]
    for (args in list(list(), list(cluster = cluster), list(cluster = cluster, strata = strata))) {
      seed <- sample.int(1e6, 1)
      b_a <- withr::with_seed(seed, do.call(mla_boot, c(list(fit_a, R = 20), args)))
      b_s <- withr::with_seed(seed, do.call(mla_boot, c(list(fit_s, R = 20), args)))
      expect_identical(b_s$t, b_a$t)
    }
  }
  # round trip of the pair tables through plain tables
  a <- bias_annotations()
  s <- as_annotation_counts(a)
  s2 <- annotation_counts(tidy(s, "labels"), tidy(s, "design"), tidy(s, "annotators"),
                          universe = a$labels, annotator_pairs = tidy(s, "annotator_pairs"),
                          pair_labels = tidy(s, "pair_labels"))
  expect_same_annotator_agreement(s2, a)
  expect_error(annotation_counts(tidy(s, "labels"), tidy(s, "design"), tidy(s, "annotators"),
                                 annotator_pairs = tidy(s, "annotator_pairs")),
               class = "mlagreement_error_counts_table")
})

# Pair counts by brute force over the records: per pair of annotators and
# label, over the items both annotated, the counts of pairs.h.
test_that("the pair tables of a summary match brute force", {
  withr::local_seed(143)
  for (design in database_designs(8)) {
    arr <- design$array
    a <- as_annotations(arr)
    got <- tidy(as_annotation_counts(a), "pair_labels")
    ids <- as.character(a$annotators)
    rows <- list()
    for (p in seq_along(ids)) for (q in seq_along(ids)) if (p < q) for (j in seq_len(dim(arr)[3])) {
      shared <- which(rowSums(!is.na(arr[, p, , drop = FALSE])) > 0 &
                        rowSums(!is.na(arr[, q, , drop = FALSE])) > 0)
      u <- arr[shared, p, j]
      v <- arr[shared, q, j]
      either <- !is.na(u) | !is.na(v)
      if (!any(either)) next
      both <- !is.na(u) & !is.na(v)
      pos <- ifelse(both, u + v, 2 * ifelse(is.na(u), v, u))
      rows[[length(rows) + 1]] <- data.frame(
        annotator1 = ids[p], annotator2 = ids[q], label = a$labels[j], n_both = sum(both),
        n_disagree = sum(u[both] != v[both]), n_either = sum(either), sum_positive = sum(pos[either]))
    }
    want <- do.call(rbind, rows)
    key <- function(d) order(d$annotator1, d$annotator2, d$label)
    expect_equal(as.data.frame(got)[key(got), ], want[key(want), ], ignore_attr = TRUE)
  }
})

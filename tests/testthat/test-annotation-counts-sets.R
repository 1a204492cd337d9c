# The set tables of a sufficient-statistics summary (R/annotation-counts-sets.R):
# the ordered pairs of complete records by set sizes and shared labels and the
# distinct sets equal brute force over the records, and give the records'
# Jaccard and MASI alpha, also from plain tables.

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

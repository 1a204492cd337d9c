# The annotator-pair tables of a sufficient-statistics summary
# (R/annotation-counts-pairs.R): per pair and label, the counts equal brute
# force over the records, and annotator_agreement() of the summary equals the
# records'.

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

test_that("annotator agreement of a summary equals the records'", {
  withr::local_seed(142)
  for (design in database_designs(12)) {
    a <- as_annotations(design$array)
    expect_same_annotator_agreement(as_annotation_counts(a), a)
  }
  # round trip of the pair tables through plain tables
  a <- bias_annotations()
  s <- as_annotation_counts(a)
  s2 <- annotation_counts(tidy(s, "labels"), tidy(s, "design"), tidy(s, "annotators"),
                          universe = a$labels, annotator_pairs = tidy(s, "annotator_pairs"),
                          pair_labels = tidy(s, "pair_labels"))
  expect_same_annotator_agreement(s2, a)
  expect_mla_error(annotation_counts(tidy(s, "labels"), tidy(s, "design"), tidy(s, "annotators"),
                                     annotator_pairs = tidy(s, "annotator_pairs")), "counts_table")
})

# Long, selected-label and wide data frames of a dense 0/1/NA array, and the
# comparison of a database summary with the in-memory object of the same
# data, for the test-annotations-db*.R and test-annotation-counts*.R files.

array_long <- function(arr) {
  d <- dim(arr)
  dimnames(arr) <- list(seq_len(d[1]), paste0("a", seq_len(d[2])), paste0("L", seq_len(d[3])))
  long <- ref_long(arr, keep_missing = TRUE)
  long$item <- as.integer(long$item)
  long
}

# One row per selected label of each record without missing decisions; a
# record with nothing selected has one row with label NA.
array_selected <- function(arr) {
  d <- dim(arr)
  rows <- list()
  for (i in seq_len(d[1])) for (a in seq_len(d[2])) {
    v <- arr[i, a, ]
    if (anyNA(v)) next
    lab <- if (any(v == 1L)) paste0("L", which(v == 1L)) else NA_character_
    rows[[length(rows) + 1L]] <- data.frame(item = i, annotator = paste0("a", a), label = lab,
                                            stringsAsFactors = FALSE)
  }
  do.call(rbind, rows)
}

array_wide <- function(arr) {
  d <- dim(arr)
  w <- data.frame(item = rep(seq_len(d[1]), d[2]), annotator = paste0("a", rep(seq_len(d[2]), each = d[1])))
  for (j in seq_len(d[3])) w[[paste0("L", j)]] <- as.vector(arr[, , j])
  w
}

# Every estimate the summary supports equals the in-memory one.
# optional: also the set alpha and annotator agreement (when s has the tables).
expect_same_estimates <- function(s, a, tolerance = 1e-12, optional = TRUE) {
  expect_s3_class(s, "annotation_counts")
  fit_s <- mla(s)
  fit_a <- mla(a)
  # point values (the analytic standard errors need per-item counts)
  expect_equal(tidy(fit_s, conf.int = FALSE), tidy(fit_a, conf.int = FALSE), tolerance = tolerance)
  expect_equal(tidy(fit_s, level = "label", conf.int = FALSE),
               tidy(fit_a, level = "label", conf.int = FALSE), tolerance = tolerance)
  # the analytic standard errors need each item's counts: a summary with
  # per-item tables (from records or a database) gives the records' ones,
  # one built from plain tables NA
  with_cells <- !is.null(s$item_cells) || !is.null(s$db_source)
  for (level in c("corpus", "label")) {
    se_s <- suppressMessages(tidy(fit_s, level = level))
    if (with_cells) {
      expect_equal(se_s, tidy(fit_a, level = level), tolerance = tolerance)
    } else {
      expect_true(all(is.na(se_s$std.error)))
    }
  }
  # item rows from the summary's per-item tables, or the records asked for
  if (with_cells) {
    item_rows_of <- function(fit) transform(as.data.frame(tidy(fit, level = "item")), item = as.character(item))
    expect_equal(item_rows_of(fit_s), item_rows_of(fit_a), tolerance = tolerance)
  } else {
    expect_error(tidy(fit_s, level = "item"), class = "mlagreement_error_needs_records")
  }
  expect_equal(glance(fit_s), glance(fit_a), tolerance = tolerance)
  expect_equal(fit_s$notes, fit_a$notes)
  expect_equal(suppressWarnings(krippendorff_alpha(s, "hamming")),
               suppressWarnings(krippendorff_alpha(a, "hamming")), tolerance = tolerance)
  expect_equal(suppressWarnings(krippendorff_alpha(s, level = "label")),
               suppressWarnings(krippendorff_alpha(a, level = "label")), tolerance = tolerance)
  # the optional tables, when the summary has them
  has_tables <- function(tab) !is.null(s[[tab]]) || !is.null(s$db_source)
  if (optional && (has_tables("sets") || !is.null(s$sets_partial))) expect_same_set_alpha(s, a, tolerance)
  if (optional && has_tables("annotator_pairs")) expect_same_annotator_agreement(s, a, tolerance)
  ref <- as_annotation_counts(a)
  expect_equal(tidy(s, "labels"), tidy(ref, "labels"))
  expect_equal(tidy(s, "design"), tidy(ref, "design"))
  expect_identical(annotator_ids(s), annotator_ids(ref))
  expect_equal(annotator_record_counts(s), annotator_record_counts(ref))
}

# Estimable designs only (the shapes of helper-property.R all are).
database_designs <- function(n, selected = FALSE) {
  shapes <- if (selected) setdiff(property_shapes, "cells") else property_shapes
  lapply(seq_len(n), function(i) random_property_design(shapes[(i - 1) %% length(shapes) + 1]))
}

# Jaccard and MASI alpha of the summary equal the in-memory ones, or both
# stop with the same classed error (partial records, no pairable item).
expect_same_set_alpha <- function(s, a, tolerance = 1e-12) {
  run <- function(x) tryCatch(suppressWarnings(krippendorff_alpha(x, c("jaccard", "masi"))),
                              mlagreement_error = function(e) class(e)[1])
  expect_equal(run(s), run(a), tolerance = tolerance)
  if (is.character(run(s))) return(invisible())
  ref <- as_annotation_counts(a)
  sets <- tidy(s, "sets")
  ref_sets <- tidy(ref, "sets")
  expect_equal(sets[order(sets$labels), ], ref_sets[order(ref_sets$labels), ], ignore_attr = TRUE)
  expect_equal(tidy(s, "set_pairs"), tidy(ref, "set_pairs"))
}

# annotator_agreement() of the summary equals the in-memory one.
expect_same_annotator_agreement <- function(s, a, tolerance = 1e-12) {
  run <- function(x) tryCatch(suppressMessages(annotator_agreement(x, min_items = 2),
                                               classes = "mlagreement_message_no_cohen"),
                              mlagreement_error = function(e) class(e)[1])
  got <- run(s)
  want <- run(a)
  if (is.character(want)) return(expect_equal(got, want))
  expect_equal(summary_pair_rows(got), tidy(want, "pairs")[names(summary_pair_rows(got))],
               tolerance = tolerance)
  expect_equal(summary_annotator_rows(got), tidy(want, "annotators")[names(summary_annotator_rows(got))],
               tolerance = tolerance)
}

# A summary's pair rows without `cohen_kappa`: a summary has no records for
# the pairs' own Cohen kappas (NA there, with a message: checked here).
summary_pair_rows <- function(agr) {
  rows <- tidy(agr, "pairs")
  testthat::expect_true(all(is.na(rows$cohen_kappa)))
  rows[setdiff(names(rows), "cohen_kappa")]
}

# A summary's annotator rows without `kappa`, which needs the records (and
# is NA there: checked here).
summary_annotator_rows <- function(agr) {
  rows <- tidy(agr, "annotators")
  testthat::expect_true(all(is.na(rows$kappa)))
  rows[setdiff(names(rows), "kappa")]
}

# The worked example in memory (a, and its long table ex with text labels)
# and as two summaries of database tables on con: decisions and selected
# labels.
worked_example_db <- function(con) {
  ex <- bias_example
  ex$label <- as.character(ex$label)
  sel <- ex[ex$value == 1, c("item", "annotator", "label")]
  list(ex = ex, a = annotations_long(bias_example, item, annotator, label, value),
       sums = list(annotations_long(db_table(con, ex), item, annotator, label, value),
                   annotations_long(db_table(con, sel), item, annotator, label,
                                    labels = levels(bias_example$label))))
}

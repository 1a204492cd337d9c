# The sufficient-statistics summary (R/annotation-counts.R): built from
# plain tables it round-trips, bad tables are refused, and what needs the
# records says so. Its estimates, set tables, pair tables and bootstrap:
# test-annotation-counts-{estimates,sets,pairs,boot}.R.

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

test_that("what needs the records refuses a summary", {
  a <- bias_annotations()
  s <- as_annotation_counts(a)
  fit <- mla(s)
  # item rows come from the per-item tables a summary of records keeps
  expect_equal(tidy(fit, level = "item"), tidy(mla(a), level = "item"), tolerance = 1e-14)
  expect_equal(augment(mla(s, labels = a$labels[1:2])), augment(mla(a, labels = a$labels[1:2])),
               tolerance = 1e-14)
  bare <- annotation_counts(tidy(s, "labels"), tidy(s, "design"), tidy(s, "annotators"),
                            universe = a$labels)
  expect_mla_snapshot(tidy(mla(bare), level = "item"), "needs_records")
  # a distance of two sets needs which sets meet within an item
  expect_mla_error(krippendorff_alpha(s, function(a, b) as.numeric(!setequal(a, b))),
                   "needs_records")
  expect_mla_error(agreement_measures(s), "needs_records")
  # plain tables without the optional ones
  s2 <- annotation_counts(tidy(s, "labels"), tidy(s, "design"), tidy(s, "annotators"),
                          universe = a$labels)
  expect_mla_error(annotator_agreement(s2), "needs_records")
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
  expect_mla_error(annotation_counts(bad, des, ann), "counts_table")
  expect_mla_error(annotation_counts(rbind(lab, lab[1, ]), des, ann), "counts_table")
  expect_mla_error(annotation_counts(lab, des, ann, universe = "L01"), "unknown_label")
  expect_mla_error(as_annotation_counts(lab), "counts_input")
})

test_that("records given to annotation_counts() are refused with the function that summarises them", {
  a <- bias_annotations()
  records <- as.data.frame(a)
  expect_mla_snapshot(annotation_counts(records))
  expect_mla_error(annotation_counts(a), "input_type")
  skip_if_not_installed("RSQLite")
  skip_if_not_installed("dbplyr")
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  DBI::dbWriteTable(con, "ann", records)
  expect_mla_snapshot(annotation_counts(dplyr::tbl(con, "ann")))
  # the database path asks for `value` as the in-memory one does
  expect_mla_error(annotations_long(dplyr::tbl(con, "ann"), item, annotator, label),
                   "value_missing")
  expect_equal(tidy(mla(annotations_long(dplyr::tbl(con, "ann"), item, annotator, label, value))),
               tidy(mla(a)))
})

test_that("a summary is an annotations object without its records", {
  a <- bias_annotations()
  s <- as_annotation_counts(a)
  expect_s3_class(s, "annotations")
  expect_true(is_annotations(s))
  expect_true(is_annotation_counts(s))
  expect_false(is_annotation_counts(a))
  expect_equal(dim(s), dim(a))
  expect_identical(as_annotation_counts(s), s)
  # what reads the records asks for them, naming the summary
  expect_mla_error(as.data.frame(s), "needs_records")
  expect_mla_error(as.array(s), "needs_records")
  expect_mla_error(s[1:2, , ], "needs_records")
  expect_mla_error(as_annotations(s), "needs_records")
  # the records' kappa column is absent, not zero, in a summary's annotator rows
  expect_false(annotator_agreement(s)$has_kappa)
  expect_true(annotator_agreement(a)$has_kappa)
  expect_mla_error(annotation_counts(s), "input_type")
  expect_snapshot(print(s))
})

test_that("as_annotation_counts() and annotation_counts() dispatch on what they are given", {
  a <- bias_annotations()
  s <- as_annotation_counts(a)
  expect_mla_snapshot(as_annotation_counts(data.frame(label = "L01")))
  expect_mla_snapshot(annotation_counts(a))
  expect_mla_snapshot(annotation_counts(s))
  expect_mla_error(annotation_counts(s), "input_type")
})

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

test_that("a labels row with m = 0 and no decisions adds nothing, wherever it stands", {
  withr::local_seed(11)
  labs <- c("A", "B", "C")
  arr <- array(rbinom(8 * 4 * 3, 1, 0.4), c(8, 4, 3),
               dimnames = list(paste0("i", 1:8), paste0("c", 1:4), labs))
  arr[1, 3:4, ] <- NA
  arr[2, 1, "B"] <- NA
  s <- as_annotation_counts(as_annotations(arr))
  lab <- as.data.frame(tidy(s, "labels"))
  zero <- data.frame(label = c("B", "A"), m = 0, n_items = c(1, 3), sum_x = 0, sum_dis = 0)
  # plain R: prevalence over items with a decision, pair agreement over items with two
  ref <- t(sapply(labs, function(l) {
    m <- rowSums(!is.na(arr[, , l]))
    x <- rowSums(arr[, , l], na.rm = TRUE)
    ao <- (x * (x - 1) + (m - x) * (m - x - 1)) / (m * (m - 1))
    c(prevalence = mean((x / m)[m >= 1]), observed = mean(ao[m >= 2]))
  }))
  for (rows in list(rbind(zero, lab), rbind(lab, zero), rbind(lab[1:2, ], zero, lab[-(1:2), ]))) {
    s0 <- expect_no_warning(annotation_counts(rows, tidy(s, "design"), tidy(s, "annotators"),
                                              universe = labs))
    got <- tidy(mla(s0), "label", conf.int = FALSE)
    got <- got[got$baseline == "fleiss", ]
    expect_equal(got$prevalence, unname(ref[got$label, "prevalence"]), tolerance = 1e-12)
    expect_equal(got$observed, unname(ref[got$label, "observed"]), tolerance = 1e-12)
  }
})

test_that("tables that contradict each other are refused, not summarised", {
  design <- data.frame(n_records = 2, pairable = TRUE, n_items = 2)
  annot <- data.frame(annotator = c("c1", "c2"), n_records = c(2, 2))
  ok <- data.frame(label = "A", m = 2, n_items = 2, sum_x = 2, sum_dis = 2)
  expect_s3_class(annotation_counts(ok, design, annot), "annotation_counts")
  # m beyond the design's records, and more items than the design has
  expect_mla_error(annotation_counts(transform(ok, m = 5, sum_x = 5, sum_dis = 12), design, annot),
                   "counts_inconsistent")
  expect_mla_error(annotation_counts(transform(ok, n_items = 3, sum_x = 3, sum_dis = 3), design, annot),
                   "counts_inconsistent")
  # one item at 2 decisions and two at 1, but only two items in all
  two <- data.frame(label = "A", m = c(1, 2), n_items = c(2, 1), sum_x = c(1, 1), sum_dis = c(0, 1))
  expect_mla_error(annotation_counts(two, design, annot), "counts_inconsistent")
  expect_mla_error(annotation_counts(ok, transform(design, n_stored = 1), annot), "counts_inconsistent")
  expect_mla_error(annotation_counts(ok, design, annot[1, ]), "counts_inconsistent")
  expect_mla_error(annotation_counts(ok, design, transform(annot, n_records = c(3, 1))),
                   "counts_inconsistent")
  expect_mla_error(annotation_counts(ok, design, transform(annot, n_records = c(1, 1))),
                   "counts_inconsistent")
})

test_that("a labels row with m = 0 that claims decisions is refused, naming the row", {
  lab <- data.frame(label = c("A", "A"), m = c(2, 0), n_items = c(2, 1), sum_x = c(2, 1),
                    sum_dis = c(2, 0))
  design <- data.frame(n_records = 2, pairable = TRUE, n_items = 2)
  annot <- data.frame(annotator = c("c1", "c2"), n_records = c(2, 2))
  err <- expect_mla_snapshot(annotation_counts(lab, design, annot), "counts_table")
  expect_match(conditionMessage(err), "Row 2")
  expect_mla_snapshot(annotation_counts(transform(lab[1, ], label = NA), design, annot, universe = "A"),
                      "unknown_label")
  expect_mla_snapshot(annotation_counts(transform(lab[1, ], label = NA), design, annot), "counts_table")
})

test_that("the contradiction between two tables names both values", {
  design <- data.frame(n_records = 2, pairable = TRUE, n_items = 2)
  annot <- data.frame(annotator = c("c1", "c2"), n_records = c(2, 2))
  ok <- data.frame(label = "A", m = 2, n_items = 2, sum_x = 2, sum_dis = 2)
  expect_mla_snapshot(annotation_counts(transform(ok, m = 5, sum_x = 5, sum_dis = 12), design, annot),
                      "counts_inconsistent")
  two <- data.frame(label = "A", m = c(1, 2), n_items = c(2, 1), sum_x = c(1, 1), sum_dis = c(0, 1))
  expect_mla_snapshot(annotation_counts(two, design, annot), "counts_inconsistent")
  expect_mla_snapshot(annotation_counts(ok, transform(design, n_stored = 1), annot),
                      "counts_inconsistent")
  expect_mla_snapshot(annotation_counts(ok, design, annot[1, ]), "counts_inconsistent")
  expect_mla_snapshot(annotation_counts(ok, design, transform(annot, n_records = c(3, 1))),
                      "counts_inconsistent")
  expect_mla_snapshot(annotation_counts(ok, design, transform(annot, n_records = c(1, 1))),
                      "counts_inconsistent")
})

test_that("labels rows whose sums no n items with m decisions can give are refused", {
  # every (sum_x, sum_dis) that some x in 0..m per item reaches, by enumeration
  reachable <- function(m, n) {
    x <- as.matrix(expand.grid(rep(list(0:m), n)))
    unique(data.frame(sx = rowSums(x), sdis = rowSums(x * (m - x))))
  }
  possible <- function(m, n, sx, sdis) {
    ok <- TRUE
    tryCatch(check_label_sums_possible(data.frame(label = "A"), TRUE, m, n, sx, sdis, NULL),
             mlagreement_error_counts_table = function(e) ok <<- FALSE)
    ok
  }
  for (m in 1:5) for (n in 1:4) {
    r <- reachable(m, n)
    for (s in unique(r$sx)) {
      d <- r$sdis[r$sx == s]
      expect_true(all(vapply(d, function(v) possible(m, n, s, v), logical(1))))
      expect_false(possible(m, n, s, min(d) - 1))
      expect_false(possible(m, n, s, max(d) + 1))
    }
    expect_false(possible(m, n, m * n + 1, 0))
  }
  # the audit's rows: no positives but disagreement; m = 2, n = 2, sum_x = 1 forces sum_dis = 1
  design <- data.frame(n_records = c(2, 3), pairable = TRUE, n_items = c(2, 9))
  annot <- data.frame(annotator = c("a", "b", "c"), n_records = c(11, 11, 9))
  lab <- data.frame(label = "A", m = c(2, 3), n_items = c(2, 9), sum_x = c(1, 15), sum_dis = c(1, 14))
  expect_s3_class(annotation_counts(lab, design, annot), "annotation_counts")
  expect_mla_snapshot(annotation_counts(transform(lab, sum_x = c(1, 0)), design, annot), "counts_table")
  expect_mla_error(annotation_counts(transform(lab, sum_dis = c(2, 14)), design, annot), "counts_table")
  expect_mla_error(annotation_counts(transform(lab, sum_x = c(1, 27)), design, annot), "counts_table")
  # annotator ids: NA and repeats
  expect_mla_error(annotation_counts(lab, design, transform(annot, annotator = c("a", NA, "c"))), "na_id")
  expect_mla_snapshot(annotation_counts(lab, design, transform(annot, annotator = c("a", "a", "c"))),
                      "duplicate_name")
})

test_that("single_label = TRUE needs one chosen category and a decision on every category per record", {
  sl <- withr::with_seed(2, matrix(sample(letters[1:3], 60, TRUE), 20, 3))
  sl[1, 1] <- NA
  x <- as_annotations(sl)
  s <- as_annotation_counts(x)
  tabs <- list(tidy(s, "labels"), tidy(s, "design"), tidy(s, "annotators"))
  rebuilt <- suppressMessages(annotation_counts(tabs[[1]], tabs[[2]], tabs[[3]], single_label = TRUE))
  expect_equal(tidy(mla(rebuilt))$estimate, tidy(mla(x))$estimate, tolerance = 1e-12)
  # multi-label tables called single-label
  arr <- withr::with_seed(2, array(rbinom(60, 1, 0.5), c(10, 3, 2)))  # 32 positives in 30 records
  m <- as_annotation_counts(as_annotations(arr))
  expect_mla_snapshot(annotation_counts(tidy(m, "labels"), tidy(m, "design"), tidy(m, "annotators"),
                                        single_label = TRUE), "counts_inconsistent")
  # a category without a decision in one record
  lab <- tabs[[1]]
  row <- which(lab$label == "a" & lab$m == 3)
  lab$m[row] <- 2
  lab$sum_dis[row] <- 0
  lab$sum_x[row] <- min(lab$sum_x[row], 2 * lab$n_items[row])
  expect_mla_error(annotation_counts(lab, tabs[[2]], tabs[[3]], single_label = TRUE),
                   c("counts_inconsistent", "counts_table"))
})

test_that("labels and annotator ids stored as doubles read as their exact text", {
  df <- expand.grid(item = 1:4, annotator = c(1e5, 2e5), label = c(1e5, 2e5, 2.5))
  df$value <- withr::with_seed(5, stats::rbinom(nrow(df), 1, 0.5))
  a <- annotations_long(df, item, annotator, label, value)
  s <- as_annotation_counts(a)
  expect_identical(annotator_ids(s), c("100000", "200000"))
  expect_identical(tidy(s, "annotators")$annotator, c("100000", "200000"))
  # plain tables with double labels and ids: the same summary
  lab <- tidy(s, "labels")
  lab$label <- as.double(lab$label)
  ann <- tidy(s, "annotators")
  ann$annotator <- as.double(ann$annotator)
  rebuilt <- annotation_counts(lab, tidy(s, "design"), ann)
  expect_identical(rebuilt$labels, c("2.5", "100000", "200000"))
  expect_identical(annotator_ids(rebuilt), c("100000", "200000"))
  expect_equal(tidy(mla(rebuilt), conf.int = FALSE), tidy(mla(a), conf.int = FALSE), tolerance = 1e-12)
  # a repeated (label, m) row is named by its exact text
  err <- expect_mla_error(annotation_counts(rbind(lab, lab[2, ]), tidy(s, "design"), ann), "counts_table")
  expect_match(conditionMessage(err), "100000, m = 2", fixed = TRUE)
})

test_that("pairable must agree with the labels table", {
  s <- as_annotation_counts(annotations_long(bias_example, item, annotator, label, value))
  lab <- tidy(s, "labels")
  ann <- tidy(s, "annotators")
  d <- tidy(s, "design")
  # every item marked not pairable, while labels have m = 3 decisions
  expect_mla_snapshot(annotation_counts(lab, transform(d, pairable = FALSE), ann, universe = s$labels),
                      "counts_inconsistent")
  # a pairable row whose items have one record with decisions
  one <- data.frame(n_records = c(1, 2), pairable = c(TRUE, TRUE), n_items = c(1, 1))
  lab1 <- data.frame(label = "x", m = c(1, 2), n_items = 1, sum_x = c(1, 1), sum_dis = c(0, 1))
  ann1 <- data.frame(annotator = c("a", "b"), n_records = c(2, 1))
  expect_mla_error(annotation_counts(lab1, one, ann1), "counts_inconsistent")
  expect_s3_class(annotation_counts(lab1, transform(one, pairable = c(FALSE, TRUE)), ann1),
                  "annotation_counts")
  # more pairable items than (label, item) cells with two decisions
  two <- data.frame(n_records = 2, pairable = TRUE, n_items = 2)
  lab2 <- data.frame(label = "x", m = c(1, 2), n_items = 1, sum_x = c(1, 1), sum_dis = c(0, 1))
  expect_mla_error(annotation_counts(lab2, two, data.frame(annotator = c("a", "b"), n_records = 2)),
                   "counts_inconsistent")
  # pairable must be TRUE/FALSE
  expect_mla_error(annotation_counts(lab, transform(d, pairable = NA), ann, universe = s$labels),
                   "counts_table")
})

test_that("sum_dis has the parity that m and sum_x give", {
  design <- data.frame(n_records = 3, pairable = TRUE, n_items = 2)
  ann <- data.frame(annotator = c("a", "b", "c"), n_records = 2)
  # m = 3 (odd): x (m - x) is even; sum_dis 0..4 by range, odd values impossible
  odd <- data.frame(label = "x", m = 3, n_items = 2, sum_x = 3, sum_dis = 3)
  expect_mla_snapshot(annotation_counts(odd, design, ann), "counts_table")
  expect_s3_class(annotation_counts(transform(odd, sum_dis = 4), design, ann), "annotation_counts")
  # m = 2 (even): the parity of sum_x; x = (1, 1) gives 2, (2, 0) gives 0
  even <- data.frame(label = "x", m = 2, n_items = 2, sum_x = 2, sum_dis = 1)
  design2 <- data.frame(n_records = 2, pairable = TRUE, n_items = 2)
  ann2 <- data.frame(annotator = c("a", "b"), n_records = 2)
  expect_mla_error(annotation_counts(even, design2, ann2), "counts_table")
  for (sd in c(0, 2)) {
    expect_s3_class(annotation_counts(transform(even, sum_dis = sd), design2, ann2), "annotation_counts")
  }
  # against enumeration: every (sum_x, sum_dis) that n items with m decisions
  # give is accepted, every sum_dis of the other parity refused
  for (m in 2:4) for (n in 1:2) {
    xs <- as.matrix(expand.grid(rep(list(0:m), n)))
    reach <- unique(data.frame(sx = rowSums(xs), sd = rowSums(xs * (m - xs))))
    d <- data.frame(n_records = m, pairable = TRUE, n_items = n)
    an <- data.frame(annotator = letters[seq_len(m)], n_records = n)
    counts <- function(sx, sd) {
      annotation_counts(data.frame(label = "x", m = m, n_items = n, sum_x = sx, sum_dis = sd), d, an)
    }
    for (r in seq_len(nrow(reach))) {
      expect_s3_class(counts(reach$sx[r], reach$sd[r]), "annotation_counts")
      expect_mla_error(counts(reach$sx[r], reach$sd[r] + 1), "counts_table")
    }
  }
})

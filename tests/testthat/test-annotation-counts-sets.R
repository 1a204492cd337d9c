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
      from_summary <- expect_mla_error(krippendorff_alpha(s, "jaccard"), "partial_record")
      from_records <- expect_mla_error(krippendorff_alpha(a, "jaccard"), "partial_record")
      expect_identical(conditionMessage(from_summary), conditionMessage(from_records))
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
  expect_mla_error(krippendorff_alpha(s4), "needs_records")
  expect_equal(krippendorff_alpha(s4, "hamming"), krippendorff_alpha(a, "hamming"), tolerance = 1e-12)
  bad <- tidy(s, "set_pairs")
  bad$n_pairs[1] <- bad$n_pairs[1] + 6
  expect_mla_error(do.call(annotation_counts, c(args, list(sets = tidy(s, "sets"), set_pairs = bad))),
                   "counts_table")
  expect_mla_error(do.call(annotation_counts, c(args, list(sets = tidy(s, "sets")))),
                   "counts_table")
})

# Custom set distances of krippendorff_alpha() on an annotation_counts
# summary (R/annotation-counts-sets.R): a set-size distance
# d(n_a, n_b, n_ab) needs only the distinct sets and the within-item pair
# histogram, so it gives the in-memory result on the records, from memory,
# from plain tables and from SQLite / PostgreSQL; a distance of two sets
# d(A, B) needs the records and says so.

# Distances of the set sizes, vectorised or not, none of them a built-in.
dice_size <- function(n_a, n_b, n_ab) ifelse(n_a + n_b == 0, 0, 1 - 2 * n_ab / pmax(n_a + n_b, 1))
exact_size <- function(n_a, n_b, n_ab) as.numeric(n_ab < pmax(n_a, n_b))
sym_diff_scalar <- function(n_a, n_b, n_ab) if (n_a + n_b == 0) 0 else (n_a + n_b - 2 * n_ab)^1.5 / 7
size_distances <- list(dice = dice_size, "jaccard", exact = exact_size, "masi", sym = sym_diff_scalar)

# Both results, or the class and message of the error both stop with.
alpha_or_error <- function(x, distance = size_distances) {
  tryCatch(suppressWarnings(krippendorff_alpha(x, distance)),
           mlagreement_error = function(e) list(class(e)[1], conditionMessage(e)))
}

test_that("set-size distances on a summary equal the records, on random designs", {
  withr::local_seed(141)
  n_estimated <- 0
  for (design in database_designs(24)) {
    a <- as_annotations(design$array)
    s <- as_annotation_counts(a)
    got <- alpha_or_error(s)
    expect_equal(got, alpha_or_error(a), tolerance = 1e-12)
    n_estimated <- n_estimated + is.data.frame(got)
  }
  expect_gt(n_estimated, 12)  # most designs are estimable
  # larger designs: many distinct sets, sets larger than the first tabulated
  # range; independent annotators, so alpha is near 0 and compared in
  # absolute terms (1 - D_o / D_e cancels about 3 digits)
  for (k in c(9, 45)) {
    arr <- random_set_design(80, 5, k, p = 0.4, missing_records = 0.2)
    a <- as_annotations(arr)
    got <- krippendorff_alpha(as_annotation_counts(a), size_distances)
    want <- krippendorff_alpha(a, size_distances)
    expect_equal(got[names(got) != "estimate"], want[names(want) != "estimate"], tolerance = 1e-12)
    expect_lt(max(abs(got$estimate - want$estimate)), 1e-12)
  }
})

test_that("set-size distances on a summary match the brute force of Krippendorff's definition", {
  withr::local_seed(142)
  for (rep in 1:3) {
    arr <- random_set_design(20, 4, 5, p = 0.35, missing_records = 0.25)
    a <- as_annotations(arr)
    recs <- ref_records_by_item(a)
    res <- krippendorff_alpha(as_annotation_counts(a), list(dice = dice_size, sym = sym_diff_scalar))
    ref_dice_d <- function(u, v) 1 - ref_dice(which(u == 1), which(v == 1))
    ref_sym <- function(u, v) sum(u != v)^1.5 / 7
    for (r in 1:2) {
      ref <- ref_alpha(recs, list(ref_dice_d, ref_sym)[[r]])
      expect_equal(res$observed_disagreement[r], unname(ref["observed"]), tolerance = 1e-12)
      expect_equal(res$expected_disagreement[r], unname(ref["expected"]), tolerance = 1e-12)
    }
  }
})

test_that("a summary built from plain tables gives the same set-size alpha", {
  withr::local_seed(143)
  a <- as_annotations(random_set_design(40, 4, 6, p = 0.3, missing_records = 0.2))
  s <- as_annotation_counts(a)
  rebuilt <- annotation_counts(labels = tidy(s, "labels"), design = tidy(s, "design"),
                               annotators = tidy(s, "annotators"), universe = s$labels,
                               sets = tidy(s, "sets"), set_pairs = tidy(s, "set_pairs"))
  expect_equal(krippendorff_alpha(rebuilt, size_distances),
               krippendorff_alpha(a, size_distances), tolerance = 1e-12)
  # without set tables: the records are needed
  bare <- annotation_counts(labels = tidy(s, "labels"), design = tidy(s, "design"),
                            annotators = tidy(s, "annotators"), universe = s$labels)
  expect_mla_error(krippendorff_alpha(bare, list(dice = dice_size)), "needs_records")
})

test_that("a distance of two sets, intervals and invalid distances on a summary", {
  a <- annotations_long(bias_example, item, annotator, label, value)
  s <- as_annotation_counts(a)
  general <- function(a, b) as.numeric(!setequal(a, b))
  expect_mla_error(krippendorff_alpha(s, general), "needs_records")
  expect_mla_error(krippendorff_alpha(s, list("jaccard", general)), "needs_records")
  expect_mla_snapshot(krippendorff_alpha(s, list(any = general)))
  expect_mla_error(krippendorff_alpha(s, list(dice = dice_size), R = 10), "needs_records")
  expect_mla_error(krippendorff_alpha(s, "jaccard", R = 10), "needs_records")
  # the distance checks of the records, with the same messages
  bad <- list(negative = function(n_a, n_b, n_ab) n_ab - n_a,
              not_zero = function(n_a, n_b, n_ab) 1 + 0 * n_a,
              asymmetric = function(n_a, n_b, n_ab) (n_a - n_ab) * (n_a > n_b),
              fails = function(n_a, n_b, n_ab) if (n_a > 1) stop("too big") else 0)
  for (nm in names(bad)) {
    got <- alpha_or_error(s, bad[nm])
    expect_equal(got[[1]], "mlagreement_error_distance")
    expect_equal(got, alpha_or_error(a, bad[nm]))
  }
  # a partial record: the records' error for set distances
  part <- bias_example[-3, ]
  a_part <- annotations_long(part, item, annotator, label, value, labels = levels(bias_example$label))
  got <- alpha_or_error(as_annotation_counts(a_part), list(dice = dice_size))
  expect_equal(got[[1]], "mlagreement_error_partial_record")
  expect_equal(got, alpha_or_error(a_part, list(dice = dice_size)))
})

engines <- db_engines

for (engine in names(engines)) {
  test_that(paste0(engine, ": set-size distances on a lazy table equal the records"), {
    con <- engines[[engine]]()
    withr::local_seed(144)
    for (design in database_designs(test_size(8, 1), selected = TRUE)) {
      arr <- design$array
      universe <- paste0("L", seq_len(dim(arr)[3]))
      long <- array_long(arr)
      a <- annotations_long(long, item, annotator, label, value, labels = universe)
      s <- annotations_long(db_table(con, long), item, annotator, label, value, labels = universe)
      want <- alpha_or_error(a)
      expect_equal(alpha_or_error(s), want, tolerance = 1e-12)
      sel <- array_selected(arr)
      s_sel <- suppressWarnings(annotations_long(db_table(con, sel), item, annotator, label,
                                                 labels = universe))
      a_sel <- suppressWarnings(annotations_long(sel, item, annotator, label, labels = universe))
      expect_equal(alpha_or_error(s_sel), alpha_or_error(a_sel), tolerance = 1e-12)
    }
    # a partial record in the table: the records' error
    part <- bias_example[-3, ]
    part$label <- as.character(part$label)
    s_part <- annotations_long(db_table(con, part), item, annotator, label, value,
                               labels = levels(bias_example$label))
    a_part <- annotations_long(part, item, annotator, label, value, labels = levels(bias_example$label))
    expect_equal(alpha_or_error(s_part, list(dice = dice_size)),
                 alpha_or_error(a_part, list(dice = dice_size)))
  })
}

test_that("labels with '|' and backslashes survive the round trip of tidy(s, \"sets\")", {
  withr::local_seed(4)
  df <- expand.grid(item = 1:30, annotator = c("a", "b", "c"), label = c("pos|neg", "r", "s\\t", "u\\"),
                    stringsAsFactors = FALSE)
  df$value <- stats::rbinom(nrow(df), 1, 0.4)
  a <- annotations_long(df, item, annotator, label, value)
  s <- as_annotation_counts(a)
  sets <- tidy(s, "sets")
  expect_true("pos\\|neg|r" %in% sets$labels)
  r <- annotation_counts(tidy(s, "labels"), tidy(s, "design"), tidy(s, "annotators"),
                         universe = s$labels, sets = sets, set_pairs = tidy(s, "set_pairs"))
  expect_equal(tidy(r, "sets"), sets)
  expect_equal(krippendorff_alpha(r, c("jaccard", "masi")), krippendorff_alpha(a, c("jaccard", "masi")),
               tolerance = 1e-12)
  # the list-column form needs no escapes
  listed <- sets
  listed$labels <- split_label_sets(sets$labels)
  expect_true(list(c("pos|neg", "r")) %in% listed$labels)
  r2 <- annotation_counts(tidy(s, "labels"), tidy(s, "design"), tidy(s, "annotators"),
                          universe = s$labels, sets = listed, set_pairs = tidy(s, "set_pairs"))
  expect_equal(tidy(r2, "sets"), sets)
})

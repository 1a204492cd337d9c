# The sparse records layout (R/annotations.R, R/annotations-sparse.R,
# inst/include/mlagreement/sparse_records.h): selected-labels data over a large
# universe. Every number must be identical to the records layout on the same
# data (both built from one data frame, the layout forced by mocking the
# selection rule use_sparse_layout()), and the counting pass equal to
# plain-R counts.

# Selected-labels rows: items with 1..max_ann records (so some items have one
# record), records selecting 0..max_sel labels (0: a row with label NA, an
# annotator who saw the item and selected nothing).
random_selected <- function(n_items, pool, k, max_ann = 5, max_sel = 4, seed = 1) {
  withr::local_seed(seed)
  labels <- sprintf("L%04d", seq_len(k))
  rows <- lapply(seq_len(n_items), function(i) {
    ann <- sample(sprintf("a%02d", seq_len(pool)), sample(seq_len(min(max_ann, pool)), 1))
    lapply(ann, function(a) {
      n <- sample(0:max_sel, 1)
      data.frame(item = i, annotator = a,
                 label = if (n == 0) NA_character_ else sample(labels, n))
    })
  })
  list(data = do.call(rbind, unlist(rows, recursive = FALSE)), labels = labels)
}

# Forces the layout ("sparse" or "records") for the rest of the calling frame.
local_layout <- function(layout, .env = parent.frame()) {
  local_mocked_bindings_compat(use_sparse_layout = function(...) identical(layout, "sparse"),
                               .env = .env)
}

build_layout <- function(d, layout) {
  local_layout(layout)
  annotations_long(d$data, item, annotator, label, labels = d$labels)
}

both_layouts <- function(d) list(sparse = build_layout(d, "sparse"), records = build_layout(d, "records"))

test_that("annotations_long() picks the sparse layout for a large universe with few selections", {
  d <- random_selected(40, 6, 100)
  auto <- annotations_long(d$data, item, annotator, label, labels = d$labels)
  expect_true(mlagreement:::is_sparse_layout(auto))
  expect_null(auto$values)
  # few labels, or many selections: the 0/1 matrix
  small <- random_selected(40, 6, 10)
  expect_false(mlagreement:::is_sparse_layout(
    annotations_long(small$data, item, annotator, label, labels = small$labels)))
  dense <- random_selected(40, 6, 64, max_sel = 30)
  expect_false(mlagreement:::is_sparse_layout(
    annotations_long(dense$data, item, annotator, label, labels = dense$labels)))
  # the rule: at least 64 labels and at most one selection in 16 cells
  expect_true(mlagreement:::use_sparse_layout(100L, 64L, 400))
  expect_false(mlagreement:::use_sparse_layout(100L, 64L, 401))
  expect_false(mlagreement:::use_sparse_layout(100L, 63L, 0))
  x <- both_layouts(d)
  expect_identical(x$records$layout, "records")
  expect_identical(x$sparse$layout, "sparse")
  expect_lt(as.numeric(object.size(x$sparse)), as.numeric(object.size(x$records)) / 4)
})

test_that("the sparse counting pass equals the records layout and plain-R counts", {
  d <- random_selected(60, 8, 90, seed = 2)
  x <- both_layouts(d)
  for (f in c("items", "annotators", "labels", "item", "annotator", "item_annotators",
              "annotator_records", "tally", "n_decisions", "n_records")) {
    expect_identical(x$sparse[[f]], x$records[[f]], label = f)
  }
  expect_identical(mlagreement:::item_label_counts(x$sparse), mlagreement:::item_label_counts(x$records))
  expect_identical(mlagreement:::item_label_counts(x$sparse, c(7L, 2L)),
                   mlagreement:::item_label_counts(x$records, c(7L, 2L)))
  expect_identical(mlagreement:::record_values(x$sparse), mlagreement:::record_values(x$records))
  expect_identical(mlagreement:::stored_records(x$sparse), mlagreement:::stored_records(x$records))
  # plain R: positives per item and label, records per item, the label tables
  rows <- d$data
  item <- match(rows$item, sort(unique(rows$item)))
  per_item <- tabulate(item[!duplicated(paste(rows$item, rows$annotator))], 60)
  xr <- matrix(0L, 60, 90)
  sel <- !is.na(rows$label)
  for (r in which(sel)) {
    j <- match(rows$label[r], d$labels)
    xr[item[r], j] <- xr[item[r], j] + 1L
  }
  counts <- mlagreement:::item_label_counts(x$sparse)
  expect_identical(unname(counts$x), xr)
  expect_identical(unname(counts$m), matrix(per_item, 60, 90))
  t <- x$sparse$tally
  for (m in seq_len(nrow(t$cnt))) {
    at <- per_item == m
    expect_identical(t$cnt[m, ], rep(as.double(sum(at)), 90))
    expect_identical(t$sx[m, ], as.double(colSums(xr[at, , drop = FALSE])))
    expect_identical(t$sdis[m, ], as.double(colSums(xr[at, , drop = FALSE] * (m - xr[at, , drop = FALSE]))))
  }
  expect_identical(x$sparse$n_decisions, 90 * sum(per_item))
})

test_that("mla() and its tidy results are identical in both layouts", {
  d <- random_selected(80, 10, 120, seed = 3)
  x <- both_layouts(d)
  for (baseline in c("fleiss", "ac1", "pabak")) {
    fs <- mla(x$sparse, baseline = baseline)
    fr <- mla(x$records, baseline = baseline)
    for (level in c("corpus", "label", "item")) {
      expect_identical(tidy(fs, level = level), tidy(fr, level = level))
    }
    expect_identical(tidy(fs, level = "label", conf.int = TRUE), tidy(fr, level = "label", conf.int = TRUE))
    expect_identical(glance(fs), glance(fr))
  }
  some <- d$labels[c(5, 1, 40)]
  expect_identical(tidy(mla(x$sparse, labels = some), "label"), tidy(mla(x$records, labels = some), "label"))
  expect_identical(format(x$sparse), format(x$records))
  expect_identical(dim(x$sparse), dim(x$records))
})

test_that("krippendorff_alpha() is identical in both layouts, for every distance", {
  d <- random_selected(50, 8, 70, seed = 4)
  x <- both_layouts(d)
  jaccard_size <- function(n_a, n_b, n_ab) {
    u <- n_a + n_b - n_ab
    ifelse(u == 0, 0, 1 - n_ab / ifelse(u == 0, 1, u))
  }
  for (distance in list("hamming", "jaccard", "masi", jaccard_size,
                        list("masi", size = jaccard_size, "hamming"))) {
    expect_identical(krippendorff_alpha(x$sparse, distance), krippendorff_alpha(x$records, distance))
  }
  expect_identical(krippendorff_alpha(x$sparse, level = "label"),
                   krippendorff_alpha(x$records, level = "label"))
  withr::local_seed(9)
  s <- krippendorff_alpha(x$sparse, "jaccard", R = 50)
  withr::local_seed(9)
  expect_identical(s, krippendorff_alpha(x$records, "jaccard", R = 50))
  # brute force over all pairs (helper-alpha.R)
  small <- random_selected(12, 4, 64, seed = 5)
  xs <- build_layout(small, "sparse")
  recs <- ref_records_by_item(xs)
  expect_equal(krippendorff_alpha(xs, "jaccard")$estimate, unname(ref_alpha(recs, ref_jaccard)["alpha"]),
               tolerance = 1e-12)
  expect_equal(krippendorff_alpha(xs, "masi")$estimate, unname(ref_alpha(recs, ref_masi)["alpha"]),
               tolerance = 1e-12)
})

test_that("bootstrap, annotator and set measures are identical in both layouts", {
  d <- random_selected(40, 6, 64, seed = 6)
  x <- both_layouts(d)
  for (resample in c("items", "annotators", "both")) {
    set.seed(7)
    bs <- mla_boot(mla(x$sparse), R = 30, resample = resample)
    set.seed(7)
    br <- mla_boot(mla(x$records), R = 30, resample = resample)
    expect_identical(bs$t, br$t)
    expect_identical(bs$t0, br$t0)
    # (30 replicates: both warn about extreme order statistics)
    suppressWarnings({
      expect_identical(tidy(bs, level = "corpus"), tidy(br, level = "corpus"))
      expect_identical(tidy(bs, level = "label"), tidy(br, level = "label"))
    })
  }
  expect_identical(tidy(annotator_agreement(x$sparse, min_items = 2)),
                   tidy(annotator_agreement(x$records, min_items = 2)))
  expect_identical(label_substitution(x$sparse), label_substitution(x$records))
  set.seed(8)
  ms <- agreement_measures(x$sparse, R = 20)
  set.seed(8)
  expect_identical(ms, agreement_measures(x$records, R = 20))
})

test_that("conversions and subsets of a sparse object match the records layout", {
  d <- random_selected(30, 6, 80, seed = 10)
  x <- both_layouts(d)
  expect_identical(as.data.frame(x$sparse), as.data.frame(x$records))
  expect_identical(as.array(x$sparse), as.array(x$records))
  long <- as.data.frame(x$sparse)
  expect_identical(annotations_long(long, item, annotator, label, value),
                   annotations_long(as.data.frame(x$records), item, annotator, label, value))
  # back to selected rows (with NA rows for empty records): the same sparse object
  sel <- long[long$value == 1, c("item", "annotator", "label")]
  empty <- unique(long[c("item", "annotator")])
  empty <- empty[!paste(empty$item, empty$annotator) %in% paste(sel$item, sel$annotator), ]
  rows <- rbind(data.frame(sel[1:2], label = as.character(sel$label)),
                data.frame(empty, label = NA_character_))
  again <- build_layout(list(data = rows, labels = d$labels), "sparse")
  expect_identical(again, x$sparse)
  # subsets: identical numbers; a subset of a large universe stays sparse
  all_i <- seq_len(30)
  all_j <- seq_len(6)
  all_k <- seq_len(80)
  subsets <- list(list(1:10, all_j, all_k), list(all_i, -1, all_k), list(all_i, all_j, 3:70),
                  list(c(5, 2, 9), c("a03", "a01", "a05", "a02"), c(70, 1:40)))
  for (s in subsets) {
    ss <- x$sparse[s[[1]], s[[2]], s[[3]]]
    rr <- x$records[s[[1]], s[[2]], s[[3]]]
    expect_identical(tidy(mla(ss), "label"), tidy(mla(rr), "label"))
    expect_identical(mlagreement:::record_values(ss), mlagreement:::record_values(rr))
    expect_identical(krippendorff_alpha(ss, "masi"), krippendorff_alpha(rr, "masi"))
    expect_identical(mlagreement:::is_sparse_layout(ss), length(ss$labels) >= 64)
  }
  absent <- setdiff(x$sparse$annotators, d$data$annotator[d$data$item == 1])[1]
  expect_mla_error(x$sparse[1, absent, ], "empty")
})

test_that("a 5,000-label design is small and gives the records layout's numbers", {
  skip_on_cran()
  withr::local_seed(11)
  k <- 5000
  labels <- sprintf("L%04d", seq_len(k))
  n_rec <- 600
  rec <- data.frame(item = rep(1:200, each = 3), annotator = sprintf("a%02d", sample(1:20, n_rec, TRUE)))
  rec <- rec[!duplicated(rec), ]
  n_sel <- sample(0:6, nrow(rec), TRUE)
  rows <- rec[rep(seq_len(nrow(rec)), pmax(n_sel, 1)), ]
  rows$label <- unlist(lapply(n_sel, function(n) if (n == 0) NA else sample(labels[1:300], n)))
  d <- list(data = rows, labels = labels)
  auto <- annotations_long(rows, item, annotator, label, labels = labels)
  expect_true(mlagreement:::is_sparse_layout(auto))
  expect_lt(as.numeric(object.size(auto)), 2e6)
  x <- list(sparse = auto, records = build_layout(d, "records"))
  expect_identical(auto$tally, x$records$tally)
  expect_identical(tidy(mla(auto), "corpus"), tidy(mla(x$records), "corpus"))
  for (distance in c("hamming", "jaccard", "masi")) {
    expect_identical(krippendorff_alpha(auto, distance), krippendorff_alpha(x$records, distance))
  }
})

test_that("dense views of a sparse object respect the memory limit", {
  d <- random_selected(30, 6, 80, seed = 12)
  s <- build_layout(d, "sparse")
  withr::local_options(mlagreement.max_memory = 1000)
  expect_mla_snapshot(mlagreement:::record_values(s), "memory")
  expect_mla_error(as.array(s), "memory")
  # the error names the user's call, not the accessor
  expect_mla_snapshot(label_substitution(s), "memory")
  expect_mla_snapshot(as.data.frame(s), "memory")
  # the sparse-aware paths need no dense view
  expect_no_error(mla(s))
  expect_no_error(krippendorff_alpha(s, c("hamming", "jaccard", "masi")))
  expect_no_error(format(s))
  expect_no_error(as.data.frame(s[, , 1:2]))
  expect_no_error(s[1:5, , ])
})

test_that("the shape check and the core's guards hold for the sparse layout", {
  # every record selects every label: the all-selected warning, as for records
  all_rows <- expand.grid(item = 1:3, annotator = c("a", "b"), label = sprintf("L%02d", 1:64),
                          stringsAsFactors = FALSE)
  local_layout("sparse")
  expect_mla_warning(a <- annotations_long(all_rows, item, annotator, label), "all_selected")
  expect_true(mlagreement:::is_sparse_layout(a))
  expect_mla_error(annotations_long(cbind(all_rows, v = 0:1), item, annotator, label), "value_missing")
  # a broken layout is an internal error of the core, never a crash
  expect_error(mlagreement:::count_sparse_cpp(c(0L, 0L), 1L, c(0L, 1L), 2L, c(0L, 2L, 3L),
                                              c(1L, 0L, 0L), 2L, 0:1, 2L, FALSE),
               "Internal error")
  expect_error(mlagreement:::count_sparse_cpp(0L, 1L, 0L, 1L, c(0L, 1L), 5L, 2L, 0:1, 1L, FALSE),
               "Internal error")
})

test_that("the other consumers read a dense view and give the records layout's results", {
  d <- random_selected(40, 6, 64, seed = 13)
  x <- both_layouts(d)
  expect_identical(as_annotation_counts(x$sparse), as_annotation_counts(x$records))
  groups <- list(g1 = d$labels[1:3], g2 = d$labels[10:11])
  suppressMessages(expect_identical(tidy(mla(x$sparse, label_groups = groups), "corpus"),
                   tidy(mla(x$records, label_groups = groups), "corpus")))
  expect_identical(krippendorff_alpha(x$sparse, "hamming", label_weights = stats::setNames(as.double(seq_len(64)), d$labels)),
                   krippendorff_alpha(x$records, "hamming", label_weights = stats::setNames(as.double(seq_len(64)), d$labels)))
  set.seed(14)
  bs <- mla_boot(mla(x$sparse), R = 20, resample = "annotators")
  set.seed(14)
  br <- mla_boot(mla(x$records), R = 20, resample = "annotators")
  expect_identical(jackknife_se(bs), jackknife_se(br))
  set.seed(15)
  # 16-18 pairable items and R = 20: the few-items and extreme-order warnings are expected
  cs <- suppressWarnings(mla_compare(mla(x$sparse[1:20, , ]), mla(x$sparse[21:40, , ]), R = 20))
  set.seed(15)
  expect_identical(cs, suppressWarnings(mla_compare(mla(x$records[1:20, , ]), mla(x$records[21:40, , ]), R = 20)))
  preds <- data.frame(item = 1:40, matrix(rbinom(40 * 64, 1, 0.05), 40, 64, dimnames = list(NULL, d$labels)))
  expect_identical(model_agreement(x$sparse, preds, item, labels = -item),
                   model_agreement(x$records, preds, item, labels = -item))
})

test_that("degenerate selected-labels designs give the same objects' numbers in both layouts", {
  # nothing selected anywhere; one label; one item with one record
  designs <- list(
    list(data = data.frame(item = c(1, 1, 2, 2), annotator = c("a", "b", "a", "b"), label = NA),
         labels = sprintf("L%02d", 1:70)),
    list(data = data.frame(item = c(1, 1, 2), annotator = c("a", "b", "a"), label = c("x", NA, "x")),
         labels = "x"),
    list(data = data.frame(item = c(1, 2, 2), annotator = c("a", "a", "b"), label = c("L03", "L03", NA)),
         labels = sprintf("L%02d", 1:70))
  )
  for (d in designs) {
    x <- suppressWarnings(both_layouts(d))
    expect_identical(x$sparse$layout, "sparse")
    for (f in c("item_annotators", "annotator_records", "tally", "n_decisions", "n_records")) {
      expect_identical(x$sparse[[f]], x$records[[f]], label = f)
    }
    expect_identical(mlagreement:::record_values(x$sparse), mlagreement:::record_values(x$records))
    expect_identical(suppressWarnings(tidy(mla(x$sparse), "label")),
                     suppressWarnings(tidy(mla(x$records), "label")))
    expect_identical(suppressWarnings(krippendorff_alpha(x$sparse, c("hamming", "jaccard", "masi"))),
                     suppressWarnings(krippendorff_alpha(x$records, c("hamming", "jaccard", "masi"))))
  }
  d <- random_selected(50, 8, 90, seed = 16)
  s <- build_layout(d, "sparse")
  expect_identical(mlagreement:::count_labels(s, 1:90, TRUE, threads = 1L),
                   mlagreement:::count_labels(s, 1:90, TRUE, threads = 2L))
})

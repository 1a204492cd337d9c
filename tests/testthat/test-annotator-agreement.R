test_that("pair and annotator diagnostics match the plain-R reference", {
  set.seed(11)
  for (rep in 1:4) {
    arr <- random_design(25, 5, 4, prevalence = 0.3, record_kept = 0.7, cell_missing = 0.08,
                         names = TRUE)
    agr <- annotator_agreement(arr)
    ref <- ref_annotator_pairs(arr)
    pairs <- tidy(agr)
    expect_equal(pairs$annotator1, paste0("a", ref$a))
    expect_equal(pairs$annotator2, paste0("a", ref$b))
    expect_equal(pairs$n_items, ref$n_items)
    expect_equal(pairs$n_decisions, ref$n_decisions)
    expect_equal(pairs$observed, ref$observed, tolerance = 1e-12)
    expect_equal(pairs$expected, ref$expected, tolerance = 1e-12)
    expect_equal(pairs$estimate, ref$estimate, tolerance = 1e-12)
    expect_equal(pairs$pair_estimate, ref$pair_estimate, tolerance = 1e-12)
    ann <- tidy(agr, level = "annotators")
    ref_ann <- ref_annotator_summary(arr)
    for (col in colnames(ref_ann)) {
      expect_equal(as.numeric(ann[[col]]), unname(ref_ann[, col]), tolerance = 1e-12)
    }
  }
})

test_that("pair_estimate is mla() on the two-annotator subset of shared items", {
  set.seed(12)
  arr <- random_design(30, 4, 5, prevalence = 0.3, record_kept = 0.8, cell_missing = 0.1,
                       names = TRUE)
  pairs <- tidy(annotator_agreement(arr))
  has <- apply(arr, c(1, 2), function(v) any(!is.na(v)))
  for (r in seq_len(nrow(pairs))) {
    a <- pairs$annotator1[r]
    b <- pairs$annotator2[r]
    shared <- has[, a] & has[, b]
    sub <- arr[shared, c(a, b), , drop = FALSE]
    fit <- mla(sub)
    fl <- fit$corpus[fit$corpus$baseline == "fleiss", ]
    expect_equal(pairs$pair_estimate[r], fl$estimate, tolerance = 1e-12)
  }
  # without single missing decisions, observed is mla()'s observed agreement too
  arr <- random_design(30, 4, 5, prevalence = 0.3, record_kept = 0.8, cell_missing = 0,
                       names = TRUE)
  pairs <- tidy(annotator_agreement(arr))
  has <- apply(arr, c(1, 2), function(v) any(!is.na(v)))
  for (r in seq_len(nrow(pairs))) {
    shared <- has[, pairs$annotator1[r]] & has[, pairs$annotator2[r]]
    fit <- mla(arr[shared, c(pairs$annotator1[r], pairs$annotator2[r]), , drop = FALSE])
    expect_equal(pairs$observed[r], fit$corpus$observed[1], tolerance = 1e-12)
  }
})

test_that("dense, long and wide layouts give the same diagnostics", {
  set.seed(13)
  arr <- random_design(20, 4, 3, prevalence = 0.3, record_kept = 0.6, cell_missing = 0.05,
                       names = TRUE)
  dense <- annotator_agreement(arr)
  long <- ref_long(arr)
  from_long <- annotator_agreement(annotations_long(long, item, annotator, label, value))
  expect_equal(tidy(from_long), tidy(dense))
  expect_equal(tidy(from_long, level = "annotators"), tidy(dense, level = "annotators"))
  # wide records in shuffled order (records not grouped by item)
  wide <- reshape(long, idvar = c("item", "annotator"), timevar = "label",
                  direction = "wide")
  wide <- wide[sample(nrow(wide)), ]
  from_wide <- annotator_agreement(
    annotations_wide(wide, item, annotator, tidyselect::starts_with("value."))
  )
  expect_equal(tidy(from_wide)$estimate, tidy(dense)$estimate, tolerance = 1e-12)
  expect_equal(tidy(from_wide)$observed, tidy(dense)$observed, tolerance = 1e-12)
})

test_that("sparse designs only form pairs that share items", {
  set.seed(14)
  n_items <- 300
  n_ann <- 60
  rows <- lapply(seq_len(n_items), function(i) {
    who <- sample(n_ann, 3)
    data.frame(item = i, annotator = rep(who, each = 2), label = rep(c("x", "y"), 3),
               value = rbinom(6, 1, 0.4))
  })
  long <- do.call(rbind, rows)
  agr <- annotator_agreement(annotations_long(long, item, annotator, label, value))
  pairs <- tidy(agr)
  rec <- unique(long[c("item", "annotator")])
  co <- merge(rec, rec, by = "item")
  co <- co[co$annotator.x < co$annotator.y, ]
  expect_equal(nrow(pairs), nrow(unique(co[c("annotator.x", "annotator.y")])))
  expect_equal(sum(pairs$n_items), nrow(co))
  # against the dense reference
  arr <- array(NA_integer_, c(n_items, n_ann, 2),
               dimnames = list(paste0("i", 1:n_items), paste0("a", 1:n_ann), c("x", "y")))
  arr[cbind(long$item, long$annotator, match(long$label, c("x", "y")))] <- long$value
  ref <- ref_annotator_pairs(arr)
  expect_equal(pairs$estimate, ref$estimate, tolerance = 1e-12)
  expect_equal(pairs$observed, ref$observed, tolerance = 1e-12)
})

test_that("constant pairs have an NA coefficient, not NaN", {
  arr <- array(0L, c(3, 3, 2), dimnames = list(NULL, c("a", "b", "c"), c("x", "y")))
  arr[1, "c", "x"] <- 1L
  pairs <- tidy(annotator_agreement(arr))
  ab <- pairs[pairs$annotator1 == "a" & pairs$annotator2 == "b", ]
  expect_identical(ab$pair_estimate, NA_real_)
  expect_equal(ab$observed, 1)
  expect_false(any(is.nan(pairs$estimate)) || any(is.nan(pairs$pair_estimate)))
  const <- array(0L, c(2, 2, 2))
  expect_snapshot(annotator_agreement(const))
})

test_that("annotator_agreement() print and errors", {
  agr <- annotator_agreement(annotations_long(bias_example, item, annotator, label, value))
  expect_snapshot(agr)
  single <- matrix(c("a", NA, NA, "b"), 2, dimnames = list(NULL, c("r1", "r2")))
  expect_mla_snapshot(annotator_agreement(single))
  expect_error(annotator_agreement(single), class = "mlagreement_error_no_pairs")
  expect_mla_snapshot(annotator_agreement(agr))
  expect_error(annotator_agreement(agr), class = "mlagreement_error")
  expect_mla_snapshot(annotator_agreement(bias_example))
  expect_mla_snapshot(annotator_agreement(array(0L, c(2, 2, 2)), foo = 1))
  expect_error(annotator_agreement(array(0L, c(2, 2, 2)), foo = 1), class = "mlagreement_error")
  expect_mla_snapshot(tidy(agr, level = "items"))
})

test_that("integer, double and logical storage give identical diagnostics", {
  set.seed(15)
  arr <- random_design(15, 4, 3, prevalence = 0.3, record_kept = 0.6, cell_missing = 0.05,
                       names = TRUE)
  int <- annotator_agreement(arr)
  dbl <- annotator_agreement(array(as.double(arr), dim(arr), dimnames(arr)))
  lgl <- annotator_agreement(array(as.logical(arr), dim(arr), dimnames(arr)))
  expect_identical(tidy(dbl), tidy(int))
  expect_identical(tidy(lgl), tidy(int))
  expect_identical(tidy(lgl, level = "annotators"), tidy(int, level = "annotators"))
})

test_that("sparse crowds: one shared item never gives +-1, and well-agreeing annotators are not flagged", {
  withr::local_seed(31)
  # 300 items, 3 of 120 annotators each; annotators agree with a latent truth
  # with their own accuracy, so some pairs share a single item
  truth <- matrix(stats::rbinom(300 * 4, 1, 0.3), 300)
  accuracy <- stats::runif(120, 0.7, 0.99)
  rows <- lapply(seq_len(300), function(i) {
    who <- sample(120, 3)
    do.call(rbind, lapply(who, function(a) {
      flip <- stats::runif(4) > accuracy[a]
      data.frame(item = i, annotator = sprintf("a%03d", a), label = paste0("L", 1:4),
                 value = ifelse(flip, 1L - truth[i, ], truth[i, ]))
    }))
  })
  x <- annotations_long(do.call(rbind, rows), item, annotator, label, value)
  agr <- annotator_agreement(x)
  pairs <- tidy(agr)
  expect_true(any(pairs$n_items == 1))
  expect_true(all(is.na(pairs$estimate[pairs$n_items < 10])))
  ann <- tidy(agr, level = "annotators")
  expect_true(all(is.na(ann$estimate[ann$n_shared_items < 10])))
  expect_false(any(abs(ann$estimate) == 1, na.rm = TRUE))
  # the lowest-ranked annotators have below-average observed agreement
  ranked <- ann[!is.na(ann$estimate), ]
  lowest <- ranked[order(ranked$estimate)[1:3], ]
  expect_true(all(lowest$observed < stats::weighted.mean(ranked$observed, ranked$n_shared_items)))
  # estimates are monotone in observed agreement (one corpus baseline)
  expect_identical(order(ranked$estimate), order(ranked$observed))
  expect_match(format(agr), "shared items", all = FALSE)
})

test_that("a mistyped argument is an error, not a partial match or a default", {
  x <- annotations_long(bias_example, item, annotator, label, value)
  err <- expect_mla_error(annotator_agreement(x, min_item = 5), "dots")
  expect_match(conditionMessage(err), "min_item", fixed = TRUE)
  expect_mla_error(annotator_agreement(x, 5), "dots")
  agr <- annotator_agreement(x, min_items = 5)
  expect_identical(agr$min_items, 5L)
  expect_mla_error(print(agr, digits = 3), "dots")
  expect_mla_error(format(agr, digits = 3), "dots")
  expect_mla_error(tidy(agr, levels = "pairs"), "dots")
})

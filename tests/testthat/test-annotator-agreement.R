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
  expect_mla_error(annotator_agreement(single), "no_pairs")
  expect_mla_snapshot(annotator_agreement(agr))
  expect_mla_error(annotator_agreement(agr))
  expect_mla_snapshot(annotator_agreement(bias_example))
  expect_mla_snapshot(annotator_agreement(array(0L, c(2, 2, 2)), foo = 1))
  expect_mla_error(annotator_agreement(array(0L, c(2, 2, 2)), foo = 1))
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

test_that("kappa matches the plain-R reference on random designs and stays in [-1, 1]", {
  withr::local_seed(41)
  for (rep in 1:6) {
    arr <- random_design(20, 6, 4, prevalence = stats::runif(4, 0.02, 0.6),
                         record_kept = c(0.3, 0.6, 1)[rep %% 3 + 1],
                         cell_missing = c(0, 0.1)[rep %% 2 + 1], names = TRUE)
    ann <- tidy(annotator_agreement(arr, min_items = 1), level = "annotators")
    ref <- vapply(seq_len(dim(arr)[2]), function(a) ref_annotator_kappa(arr, a), numeric(1))
    ref[ann$n_shared_items < 1] <- NA
    expect_equal(ann$kappa, ref, tolerance = 1e-12)
    expect_true(all(ann$kappa >= -1 - 1e-12 & ann$kappa <= 1 + 1e-12, na.rm = TRUE))
  }
  # rare labels and annotators who contradict the crowd: scores below -1,
  # kappa still at least -1
  arr <- array(0L, c(40, 5, 6), dimnames = list(NULL, paste0("a", 1:5), paste0("L", 1:6)))
  arr[, , 1] <- stats::rbinom(200, 1, 0.05)
  arr[, 5, ] <- 1L - arr[, 1, ]
  agr <- annotator_agreement(arr)
  ann <- tidy(agr, level = "annotators")
  expect_lt(min(ann$estimate), -1)
  expect_gte(min(ann$kappa), -1)
  expect_equal(ann$kappa, vapply(1:5, function(a) ref_annotator_kappa(arr, a), numeric(1)),
               tolerance = 1e-12)
})

test_that("kappa is Cohen's kappa for two annotators and one label (irr)", {
  skip_if_not_installed("irr")
  withr::local_seed(42)
  for (rep in 1:3) {
    truth <- stats::rbinom(60, 1, 0.3)
    r1 <- ifelse(stats::runif(60) < 0.15, 1L - truth, truth)
    r2 <- ifelse(stats::runif(60) < 0.3, 1L, truth)
    arr <- array(c(r1, r2), c(60, 2, 1), dimnames = list(NULL, c("a", "b"), "L"))
    ann <- tidy(annotator_agreement(arr), level = "annotators")
    cohen <- irr::kappa2(cbind(r1, r2))$value
    expect_equal(ann$kappa, c(cohen, cohen), tolerance = 1e-12)
  }
})

test_that("pair_estimate is NA below min_items and the pair's own coefficient above", {
  withr::local_seed(43)
  arr <- random_design(30, 8, 3, prevalence = 0.3, record_kept = 0.4, names = TRUE)
  all_pairs <- tidy(annotator_agreement(arr, min_items = 1))
  for (min_items in sort(unique(all_pairs$n_items))[2:4]) {
    pairs <- tidy(annotator_agreement(arr, min_items = min_items))
    low <- pairs$n_items < min_items
    expect_true(any(low) && any(!low))
    expect_true(all(is.na(pairs$pair_estimate[low])))
    expect_true(all(is.na(pairs$estimate[low])))
    expect_equal(pairs$pair_estimate[!low], all_pairs$pair_estimate[!low], tolerance = 1e-12)
    expect_equal(pairs$pair_estimate, ref_annotator_pairs(arr, min_items)$pair_estimate,
                 tolerance = 1e-12)
  }
})

test_that("print() shows prevalence beside the flags and notes a ranking that follows it", {
  withr::local_seed(44)
  # one annotator ticks many of ten rare labels
  heavy <- simulate_annotations(150, 8, 10, prevalence = 0.1, scenario = "noisy", error = 0.05,
                                bias = c(3, rep(0, 7)))
  agr <- annotator_agreement(heavy)
  ann <- tidy(agr, level = "annotators")
  rho <- c(stats::cor(ann$estimate, ann$prevalence, method = "spearman"),
           stats::cor(ann$estimate, ann$prevalence))
  expect_gt(max(abs(rho)), 0.8)
  out <- format(agr)
  expect_match(out, "mostly follows prevalence", all = FALSE)
  expect_match(out, "labels per record", all = FALSE)
  expect_match(out, "kappa", all = FALSE)
  # balanced: annotators differ in their errors, not in how much they tick
  balanced <- simulate_annotations(150, 8, 10, prevalence = 0.5, scenario = "noisy",
                                   error = seq(0.02, 0.3, length.out = 8))
  agr <- annotator_agreement(balanced)
  ann <- tidy(agr, level = "annotators")
  expect_lt(abs(stats::cor(ann$estimate, ann$prevalence, method = "spearman")), 0.8)
  expect_lt(abs(stats::cor(ann$estimate, ann$prevalence)), 0.8)
  expect_false(any(grepl("mostly follows prevalence", format(agr))))
  # the flagged annotators are printed with their prevalence
  low <- ann[order(ann$estimate)[1:3], ]
  expect_match(paste(format(agr), collapse = " "),
               formatC(low$prevalence[1] * 10, format = "f", digits = 2), fixed = TRUE)
})

test_that("the scale of the scores is printed with its lower end", {
  agr <- annotator_agreement(annotations_long(bias_example, item, annotator, label, value))
  lowest <- 1 - 1 / (1 - agr$expected)
  expect_match(paste(format(agr), collapse = " "), format_fixed(lowest), fixed = TRUE)
})

test_that("a summary has no kappa, and print() says why", {
  withr::local_seed(45)
  arr <- random_design(20, 4, 3, prevalence = 0.3, names = TRUE)
  a <- as_annotations(arr)
  s <- annotator_agreement(as_annotation_counts(a))
  expect_true(all(is.na(tidy(s, level = "annotators")$kappa)))
  expect_match(paste(format(s), collapse = " "), "kappa: needs the records", fixed = TRUE)
  expect_false(anyNA(tidy(annotator_agreement(a), level = "annotators")$kappa))
})

test_that("kappa ranks random single-choice workers lowest where the score ranks heavy tickers", {
  withr::local_seed(46)
  n_items <- 300
  k <- 10
  truth <- sample(k, n_items, replace = TRUE, prob = c(0.4, 0.2, rep(0.05, 8)))
  type <- c(rep("good", 24), rep("random", 4), rep("ticker", 4))
  rows <- lapply(seq_len(n_items), function(i) {
    who <- sample(length(type), 6)
    do.call(rbind, lapply(who, function(a) {
      labs <- switch(type[a],
                     good = if (stats::runif(1) < 0.85) truth[i] else sample(k, 1),
                     random = sample(k, 1),
                     ticker = unique(c(truth[i], sample(k, 3))))
      data.frame(item = i, annotator = sprintf("w%02d", a), label = paste0("L", labs))
    }))
  })
  x <- annotations_long(do.call(rbind, rows), item, annotator, label, labels = paste0("L", 1:k))
  agr <- annotator_agreement(x)
  ann <- tidy(agr, level = "annotators")
  kind <- type[as.integer(sub("w", "", ann$annotator))]
  expect_setequal(kind[order(ann$estimate)[1:4]], "ticker")
  expect_setequal(kind[order(ann$kappa)[1:4]], "random")
  # random choices are at chance level; good workers well above
  expect_lt(max(abs(ann$kappa[kind == "random"])), 0.1)
  expect_gt(min(ann$kappa[kind == "good"]), 0.4)
  out <- paste(format(agr), collapse = " ")
  expect_match(out, "mostly follows prevalence", fixed = TRUE)
  expect_match(out, paste0("Lowest kappa: ", ann$annotator[order(ann$kappa)[1]]), fixed = TRUE)
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

test_that("single-label designs: observed, expected and n_decisions count category pairs", {
  skip_if_not_installed("irrCAC")
  set.seed(71)
  cats <- c("p", "q", "r", "s")
  m <- random_categorical(40, 5, cats, missing = 0.3)
  dimnames(m) <- list(sprintf("i%02d", 1:40), paste0("a", 1:5))
  x <- annotations_long(category_long(m), item, annotator, category, labels = cats,
                        single_label = TRUE)
  pe <- irrCAC::fleiss.kappa.raw(m)$est$pe
  ref <- ref_category_pairs(m)
  s <- ref_category_annotators(m)
  # scores: those of the one-hot (Hamming) scale, whose 2 / q factor cancels
  hamming <- ref_annotator_pairs(one_hot_array(m, cats), min_items = 5)
  hamming_ann <- ref_annotator_summary(one_hot_array(m, cats), min_items = 5)
  for (agr in list(annotator_agreement(x, min_items = 5),
                   suppressMessages(annotator_agreement(as_annotation_counts(x), min_items = 5)))) {
    pairs <- tidy(agr)
    expect_identical(paste(pairs$annotator1, pairs$annotator2), paste(ref$annotator1, ref$annotator2))
    expect_identical(pairs$n_decisions, as.integer(ref$n_decisions))
    expect_equal(pairs$observed, ref$observed, tolerance = 1e-12)
    expect_equal(pairs$expected, rep(pe, nrow(ref)), tolerance = 1e-12)
    expect_equal(agr$expected, tidy(mla(x))$expected[1], tolerance = 1e-12)
    expect_equal(pairs$estimate, hamming$estimate, tolerance = 1e-12)
    expect_equal(pairs$estimate, 1 - (1 - ref$observed) / (1 - pe), tolerance = 1e-12)
    ann <- tidy(agr, level = "annotators")
    expect_equal(ann$observed, unname(s[, "agree"] / s[, "n"]), tolerance = 1e-12)
    expect_equal(ann$estimate, unname(hamming_ann[, "estimate"]), tolerance = 1e-12)
    expect_match(paste(format(agr), collapse = " "), sprintf("A_e = %.4f", pe), fixed = TRUE)
  }
  linear <- tidy(annotator_agreement(x, min_items = 5, pairs = FALSE), level = "annotators")
  expect_equal(linear$observed, unname(s[, "agree"] / s[, "n"]), tolerance = 1e-12)
  expect_equal(linear$estimate, unname(hamming_ann[, "estimate"]), tolerance = 1e-12)
})

test_that("single-label VariErr NLI: category agreement of the single-choice records", {
  m <- varierr_single_choice()
  skip_if(is.null(m), "VariErr NLI not available")
  x <- annotations_long(category_long(m), item, annotator, category, single_label = TRUE)
  agr <- annotator_agreement(x)
  ref <- ref_category_pairs(m)
  pairs <- tidy(agr)
  expect_identical(pairs$n_decisions, as.integer(ref$n_decisions))
  expect_equal(pairs$observed, ref$observed, tolerance = 1e-12)
  expect_equal(pairs$expected[1], tidy(mla(x))$expected[1], tolerance = 1e-12)
  s <- ref_category_annotators(m)
  expect_equal(tidy(agr, level = "annotators")$observed, unname(s[, "agree"] / s[, "n"]),
               tolerance = 1e-12)
})

# The item bootstrap draws the items (or clusters) with a decision on the
# fit's labels: items stored without any (an array's empty rows, or items
# decided only on labels outside `mla(labels = )`) change nothing.

empty_items_array <- function(seed = 5) {
  withr::local_seed(seed)
  a <- array(stats::rbinom(40 * 3 * 2, 1, 0.3), c(40, 3, 2),
             dimnames = list(sprintf("i%02d", 1:40), c("A", "B", "C"), c("L1", "L2")))
  a[seq(2, 40, by = 2), , ] <- NA   # 20 of the 40 items never annotated
  a
}

decided_long <- function(a) {
  idx <- which(!is.na(a), arr.ind = TRUE)
  data.frame(item = dimnames(a)[[1]][idx[, 1]], annotator = dimnames(a)[[2]][idx[, 2]],
             label = dimnames(a)[[3]][idx[, 3]], value = a[idx])
}

boot_with_seed <- function(fit, ...) withr::with_seed(1, mla_boot(fit, R = 200, ...))

test_that("items without decisions are not resampled: array and long form give the same bootstrap", {
  a <- empty_items_array()
  f_arr <- mla(as_annotations(a))
  f_long <- mla(annotations_long(decided_long(a), item, annotator, label, value))
  for (resample in c("items", "both")) {
    b_arr <- boot_with_seed(f_arr, resample = resample)
    b_long <- boot_with_seed(f_long, resample = resample)
    expect_identical(b_arr$design$n_units, 20L)
    expect_identical(b_arr$design$n_units, b_long$design$n_units)
    expect_identical(b_arr$t, b_long$t)
    if (resample == "items") expect_identical(jackknife_se(b_arr), jackknife_se(b_long))
  }
  # clusters and strata: a cluster of unannotated items is no unit
  items <- dimnames(a)[[1]]
  cl <- rep(1:20, each = 2)                    # each cluster: one annotated item
  st <- rep(1:2, each = 20)
  b_arr <- boot_with_seed(f_arr, cluster = cl, strata = st)
  kept <- match(item_ids(f_long$annotations), items)
  b_long <- boot_with_seed(f_long, cluster = cl[kept], strata = st[kept])
  expect_identical(b_arr$design$n_units, 20L)
  expect_identical(b_arr$t, b_long$t)
})

test_that("under mla(labels = ) the units are the items with a decision on those labels", {
  withr::local_seed(7)
  a <- array(stats::rbinom(60 * 3 * 2, 1, 0.4), c(60, 3, 2),
             dimnames = list(sprintf("i%02d", 1:60), c("A", "B", "C"), c("L1", "L2")))
  a[1:45, , "L2"] <- NA                        # L2 decided on 15 items
  sub <- mla(as_annotations(a), labels = "L2")
  restricted <- mla(as_annotations(a[46:60, , "L2", drop = FALSE]))
  # 15 items: the small-sample warning, which 60 stored items used to skip
  expect_warning(b_sub <- boot_with_seed(sub), class = "mlagreement_warning_few_items")
  b_res <- suppressWarnings(boot_with_seed(restricted))
  expect_identical(b_sub$design$n_units, 15L)
  expect_identical(b_sub$t, b_res$t)
  # the bootstrap SE against the plain-R bootstrap of the 15 items' Fleiss kappa
  withr::local_seed(11)
  x <- apply(a[46:60, , "L2"], 1, sum)
  fleiss <- function(x, m = 3) {
    p <- sum(x) / (m * length(x))
    ao <- mean(1 - 2 * x * (m - x) / (m * (m - 1)))
    ae <- p^2 + (1 - p)^2
    (ao - ae) / (1 - ae)
  }
  expect_equal(unname(sub$corpus$estimate[1]), fleiss(x), tolerance = 1e-14)
  ref <- replicate(4000, fleiss(sample(x, replace = TRUE)))
  b <- suppressWarnings(withr::with_seed(2, mla_boot(sub, R = 4000)))
  expect_equal(stats::sd(b$t[, "fleiss"], na.rm = TRUE), stats::sd(ref, na.rm = TRUE), tolerance = 0.08)
})

test_that("alpha's bootstrap intervals do not depend on stored items without decisions", {
  a <- empty_items_array(9)
  x_arr <- as_annotations(a)
  x_long <- annotations_long(decided_long(a), item, annotator, label, value)
  run <- function(x) withr::with_seed(1, krippendorff_alpha(x, c("hamming", "jaccard", "masi"), R = 200))
  expect_identical(run(x_arr), run(x_long))
  withr::local_seed(4)
  codes <- matrix(NA_character_, 30, 3, dimnames = list(sprintf("i%02d", 1:30), c("A", "B", "C")))
  for (i in seq(1, 30, 2)) codes[i, ] <- sample(c("c1", "c2", "c3"), 3, TRUE)
  lg <- data.frame(item = rep(rownames(codes), 3), annotator = rep(colnames(codes), each = 30),
                   lab = as.vector(codes))
  lg <- lg[!is.na(lg$lab), ]
  run <- function(x) withr::with_seed(3, krippendorff_alpha(x, c("nominal", "ordinal"), R = 200))
  expect_identical(suppressWarnings(run(as_annotations(codes))),
                   suppressWarnings(run(annotations_long(lg, item, annotator, lab, single_label = TRUE))))
})

test_that("mla_compare() does not depend on stored items without decisions", {
  a <- empty_items_array(13)
  b <- empty_items_array(17)
  as_long <- function(arr) annotations_long(decided_long(arr), item, annotator, label, value)
  run <- function(x, y, ...) {
    suppressWarnings(withr::with_seed(2, mla_compare(mla(x), mla(y), R = 200, paired = FALSE, ...)))
  }
  for (annotators in c("fixed", "random")) {
    arr <- run(as_annotations(a), as_annotations(b), annotators = annotators)
    long <- run(as_long(a), as_long(b), annotators = annotators)
    # every column; the objects' design attributes count the stored items
    columns <- function(x) lapply(stats::setNames(names(x), names(x)), function(n) x[[n]])
    expect_identical(columns(arr), columns(long))
  }
})

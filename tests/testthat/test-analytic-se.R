# Analytic standard errors of tidy.mla() (R/analytic-se.R,
# inst/include/mlagreement/influence.h) against irrCAC (fixtures/irrcac.rds),
# a plain-R reference of the corpus linearisation, simulation coverage and the
# bootstrap.

# irrCAC's coeff.se of Fleiss, AC1 and BP from its $est rows, by baseline.
irrcac_se <- function(est) stats::setNames(est$coeff.se, c("fleiss", "ac1", "pabak"))

expect_label_se_equals_irrcac <- function(case) {
  arr <- case$array
  fit <- mla(as_annotations(arr))
  lab <- tidy(fit, level = "label")
  for (j in seq_len(dim(arr)[3])) {
    ref <- irrcac_se(case$est[[j]])
    for (b in names(ref)) {
      se <- lab$std.error[lab$label == fit$labels[j] & lab$baseline == b]
      if (is.na(se)) {
        expect_true(is.na(ref[[b]]) || is.nan(ref[[b]]))
      } else {
        expect_identical(round(se, 5), ref[[b]])
      }
    }
  }
}

test_that("label std.error equals irrCAC's coeff.se, complete and unequal designs", {
  # three complete 30 x 4 x 5 designs alternating with unequal 35 x 5 x 4 ones
  cases <- irrcac_fixture("label_se")
  expect_length(cases, 6)
  for (case in cases) expect_label_se_equals_irrcac(case)
})

test_that("a label row uses the items rated on that label (irrCAC on those rows)", {
  fx <- irrcac_fixture("label_subset")
  arr <- fx$array  # items 1-8 unrated on label 2 only
  expect_true(all(is.na(arr[1:8, , 2])))
  lab <- tidy(mla(as_annotations(arr)), level = "label")
  expect_identical(round(lab$std.error[lab$label == "b"], 5), unname(irrcac_se(fx$est)))
})

test_that("single-label corpus std.error equals irrCAC's multi-category coeff.se", {
  for (case in irrcac_fixture("single_se")) {
    fit <- mla(as_annotations(case$ratings))
    cor <- tidy(fit)
    expect_identical(round(cor$std.error, 5), unname(irrcac_se(case$est)))
  }
})

# Plain R, from the array: the corpus influence terms of influence.h.
reference_corpus_se <- function(arr) {
  x <- apply(arr, c(1, 3), sum, na.rm = TRUE)
  m <- apply(!is.na(arr), c(1, 3), sum)
  used <- colSums(m >= 2) > 0
  x <- x[, used, drop = FALSE]
  m <- m[, used, drop = FALSE]
  rated <- rowSums(m >= 1) > 0
  x <- x[rated, , drop = FALSE]
  m <- m[rated, , drop = FALSE]
  n <- nrow(x)
  u <- ifelse(m >= 1, x / m, NA)
  p <- ref_prevalence(x, m)
  d <- ifelse(m >= 2, 2 * x * (m - x) / (m * (m - 1)), NA)
  d_j <- colMeans(d, na.rm = TRUE)
  n1 <- colSums(m >= 1)
  n2 <- colSums(m >= 2)
  w_j <- as.data.frame(1 - ref_chance(p))
  slope <- list(fleiss = 4 * p - 2, ac1 = 2 - 4 * p, pabak = 0 * p)
  vapply(names(w_j), function(b) {
    w <- w_j[[b]]
    est <- 1 - mean(d_j) / mean(w)
    obs <- sweep(ifelse(m >= 2, sweep(-d, 2, w, `+`), 0), 2, n / n2, `*`)
    chance <- sweep(ifelse(m >= 1, sweep(u, 2, p), 0), 2, slope[[b]] * n / n1, `*`)
    infl <- (rowMeans(obs) - (1 - est) * rowMeans(chance)) / mean(w)
    sqrt(sum((infl - est)^2) / (n * (n - 1)))
  }, numeric(1))
}

test_that("corpus std.error equals the plain-R linearisation on every kind of design", {
  withr::local_seed(104)
  for (missing in c("none", "records", "cells")) {
    for (rep in 1:3) {
      arr <- random_design(25, 4, 6, missing = missing)
      expect_equal(tidy(mla(as_annotations(arr)))$std.error, unname(reference_corpus_se(arr)),
                   tolerance = 1e-12)
    }
  }
})

test_that("on one label the corpus rows are the label rows", {
  withr::local_seed(105)
  arr <- unequal_design(30, 4, 1)
  fit <- mla(as_annotations(arr))
  expect_equal(tidy(fit)$std.error, tidy(fit, level = "label")$std.error, tolerance = 1e-12)
})

test_that("intervals, statistic, p-value and N follow their definitions", {
  withr::local_seed(106)
  arr <- random_design(30, 3, 4)
  fit <- mla(as_annotations(arr))
  cor <- tidy(fit, conf.level = 0.9)
  n <- 30
  expect_equal(cor$statistic, cor$estimate / cor$std.error)
  expect_equal(cor$p.value, 2 * stats::pt(-abs(cor$statistic), n - 1))
  expect_equal(cor$conf.low, cor$estimate - stats::qt(0.95, n - 1) * cor$std.error)
  expect_equal(cor$conf.high, pmin(1, cor$estimate + stats::qt(0.95, n - 1) * cor$std.error))
  fpc <- tidy(fit, N = 60)
  expect_equal(fpc$std.error, tidy(fit)$std.error * sqrt(1 - 30 / 60))
  expect_identical(tidy(fit, N = 30)$std.error, c(0, 0, 0))
  bare <- tidy(fit, conf.int = FALSE)
  expect_named(bare, c("term", "baseline", "observed", "expected", "estimate",
                       "floor_observed", "floor", "note"))
  expect_identical(bare, cor[names(bare)])
  expect_identical(cor$term, baseline_names)
  expect_identical(tidy(fit, level = "label")$term,
                   paste0(rep(fit$labels, 3), ":", rep(baseline_names, each = 4)))
})

test_that("undefined coefficients get NA inference, and bad arguments are refused", {
  arr <- array(0L, c(6, 3, 2))
  arr[, , 2] <- c(1L, 0L)
  fit <- mla(as_annotations(arr))
  lab <- tidy(fit, level = "label")
  undefined <- is.na(lab$estimate)
  expect_true(any(undefined))
  expect_true(all(is.na(lab$std.error[undefined])))
  expect_true(all(is.na(lab$conf.low[undefined])))
  expect_snapshot(error = TRUE, tidy(fit, N = 3))
  expect_snapshot(error = TRUE, tidy(fit, conf.int = NA))
  expect_snapshot(error = TRUE, tidy(fit, conf.level = 2))
})

test_that("the records layout and a dense array give the same inference", {
  withr::local_seed(107)
  arr <- random_design(20, 4, 3, missing = "cells")
  dimnames(arr) <- list(paste0("i", 1:20), paste0("a", 1:4), paste0("L", 1:3))
  long <- as.data.frame.table(arr, responseName = "value", stringsAsFactors = FALSE)
  names(long)[1:3] <- c("item", "annotator", "label")
  from_long <- annotations_long(long, item, annotator, label, value)
  for (level in c("corpus", "label")) {
    expect_equal(tidy(mla(from_long), level = level),
                 tidy(mla(as_annotations(arr)), level = level), tolerance = 1e-13)
  }
  sub <- mla(as_annotations(arr), labels = c("L3", "L1"))
  expect_equal(tidy(sub)$std.error, unname(reference_corpus_se(arr[, , c(3, 1)])),
               tolerance = 1e-12)
})

test_that("95% analytic intervals cover the closed-form value in 90-98% of noisy studies", {
  skip_on_cran()
  withr::local_seed(108)
  truth <- analytic_agreement(prevalence = 0.3, error = 0.1)
  truth <- truth[truth$generator == "noisy", ]
  covered <- vapply(seq_len(200), function(s) {
    a <- simulate_annotations(200, 4, 5, prevalence = 0.3, scenario = "noisy", error = 0.1)
    cor <- tidy(mla(a))
    target <- truth$estimate[match(cor$baseline, truth$baseline)]
    cor$conf.low <= target & target <= cor$conf.high
  }, logical(3))
  share <- rowMeans(covered)
  expect_true(all(share >= 0.90 & share <= 0.98), info = paste(format(share), collapse = " "))
})

test_that("the analytic SE is within 10% of the item bootstrap SE on 1e4 items", {
  skip_on_cran()
  withr::local_seed(109)
  a <- simulate_annotations(1e4, 4, 6, prevalence = c(0.05, 0.1, 0.2, 0.3, 0.4, 0.5),
                            scenario = "noisy", error = 0.15)
  fit <- mla(a)
  bs <- mla_boot(fit, R = 1000)
  for (level in c("corpus", "label")) {
    analytic <- tidy(fit, level = level)$std.error
    boot_se <- tidy(bs, level = level)$std.error
    expect_lt(max(abs(analytic / boot_se - 1)), 0.10)
  }
})

# --- the packed class codes a dense array keeps (inst/include/mlagreement/cell_codes.h)

# The records layout of an array, through the long adapter.
as_annotations_records <- function(arr) {
  dimnames(arr) <- list(paste0("i", seq_len(dim(arr)[1])), paste0("a", seq_len(dim(arr)[2])),
                        paste0("L", seq_len(dim(arr)[3])))
  long <- as.data.frame.table(arr, responseName = "value", stringsAsFactors = FALSE)
  names(long)[1:3] <- c("item", "annotator", "label")
  annotations_long(long, item, annotator, label, value)
}

plain_counts <- function(arr) {
  list(x = unname(apply(arr, c(1, 3), sum, na.rm = TRUE)),
       m = unname(apply(!is.na(arr), c(1, 3), sum)))
}

test_that("a dense array's packed codes decode to its x and m tables", {
  withr::local_seed(110)
  # the pass reads chunks of 8192 items, the codes keep chunks of 2048: three
  # pass chunks (an odd last one); complete labels, labels whose m varies
  # within a chunk, one whose code chunks each have one m, and records
  # without any decision in the last pass chunk
  n <- 2 * 8192 + 2049
  arr <- random_design(n, 5, 4, prevalence = c(0.1, 0.5, 0.8, 0.3))
  dimnames(arr) <- list(sprintf("i%05d", seq_len(n)), paste0("a", 1:5), paste0("L", 1:4))
  second <- arr[, , 2]
  second[sample(length(second), 3000)] <- NA
  arr[, , 2] <- second
  arr[1:2048, 1, 4] <- NA
  arr[8193:10240, 2, 4] <- NA
  complete <- as_annotations(arr[, , c(1, 3)])
  expect_null(complete$cells$m4)  # every chunk has one m: no m nibbles
  expect_identical(item_label_counts(complete), plain_counts(arr[, , c(1, 3)]))
  arr[n - 5:0, 3, ] <- NA
  a <- as_annotations(arr)
  expect_false(is.null(a$cells))
  expect_identical(item_label_counts(a), plain_counts(arr))
  expect_identical(item_label_counts(a, c(4, 2)), plain_counts(arr[, , c(4, 2)]))
  expect_identical(item_annotator_counts(a),
                   unname(as.integer(rowSums(apply(!is.na(arr), c(1, 2), any)))))
  expect_identical(as_annotations(arr), a)
  long <- as.data.frame.table(arr, responseName = "value", stringsAsFactors = FALSE)
  names(long)[1:3] <- c("item", "annotator", "label")
  records <- annotations_long(long, item, annotator, label, value)
  expect_equal(tidy(mla(a), level = "item"), tidy(mla(records), level = "item"), tolerance = 1e-14)
  expect_equal(tidy(mla(a), level = "label"), tidy(mla(records), level = "label"), tolerance = 1e-13)
  # an invalid value in the last pass chunk is reported at its own cell
  arr[n - 1, 4, 3] <- 2L
  err <- expect_mla_error(as_annotations(arr), "value")
  expect_match(conditionMessage(err), sprintf('Item "i%05d", annotator "a4", label "L3"', n - 1),
               fixed = TRUE)
})

test_that("packed codes, x/m tables and a recount give the same inference", {
  withr::local_seed(111)
  arr <- random_design(3001, 4, 3, missing = "cells")
  arr[1:2048, 2, 1] <- NA
  dimnames(arr) <- list(paste0("i", 1:3001), paste0("a", 1:4), paste0("L", 1:3))
  reference <- unname(reference_corpus_se(arr))
  expect_equal(tidy(mla(as_annotations(arr)))$std.error, reference, tolerance = 1e-12)
  from_long <- as_annotations_records(arr)
  for (level in c("corpus", "label")) {
    expect_equal(tidy(mla(as_annotations(arr)), level = level),
                 tidy(mla(from_long), level = level), tolerance = 1e-13)
  }
  # chunks where every label has one m (read straight from the x nibbles):
  # complete, and one annotator missing on the whole first chunk
  full <- random_design(4099, 3, 3)
  expect_null(as_annotations(full)$cells$m4)
  expect_equal(tidy(mla(full))$std.error, unname(reference_corpus_se(full)), tolerance = 1e-12)
  full[1:2048, 1, ] <- NA
  expect_null(as_annotations(full)$cells$m4)
  expect_equal(tidy(mla(full))$std.error, unname(reference_corpus_se(full)), tolerance = 1e-12)
  expect_equal(tidy(mla(full), level = "label")$std.error,
               tidy(mla(as_annotations_records(full)), level = "label")$std.error,
               tolerance = 1e-13)
  # labels two at a time (pair tables): even and odd numbers of labels, and
  # pairs whose labels have different m on a chunk
  for (k in c(1, 2, 4, 5)) {
    full <- random_design(2050, 3, k)
    full[1:2048, 1, 1] <- NA
    expect_equal(tidy(mla(full))$std.error, unname(reference_corpus_se(full)), tolerance = 1e-12)
  }
  # more than 15 annotators: no codes, the labels are recounted
  wide <- random_design(300, 17, 2, missing = "cells")
  expect_null(as_annotations(wide)$cells)
  expect_equal(tidy(mla(as_annotations(wide)))$std.error, unname(reference_corpus_se(wide)),
               tolerance = 1e-12)
})

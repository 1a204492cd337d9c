fit300 <- function() mla(boot_fixture())

boot_test_designs <- function() {
  cl <- rep(seq_len(100), each = 3)
  st <- rep(c("a", "b"), each = 150)
  list(
    list(resample = "items"),
    list(resample = "items", cluster = cl, strata = st),
    list(resample = "annotators"),
    list(resample = "both", strata = st)
  )
}

test_that("replicates follow set.seed()", {
  fit <- fit300()
  for (d in boot_test_designs()) {
    b1 <- withr::with_seed(3, do.call(mla_boot, c(list(fit, R = 130), d)))
    b2 <- withr::with_seed(3, do.call(mla_boot, c(list(fit, R = 130), d)))
    expect_identical(b1$t, b2$t)
    expect_identical(b1$seed, b2$seed)
    b3 <- withr::with_seed(4, do.call(mla_boot, c(list(fit, R = 130), d)))
    expect_false(identical(b1$seed, b3$seed))
    expect_false(isTRUE(all.equal(b1$t, b3$t)))
  }
})

test_that("replicates and jackknife are identical for 1 and 2 threads", {
  skip_if_one_thread()
  fit <- fit300()
  for (d in boot_test_designs()) {
    b1 <- withr::with_seed(3, do.call(mla_boot, c(list(fit, R = 130, threads = 1), d)))
    b2 <- withr::with_seed(3, do.call(mla_boot, c(list(fit, R = 130, threads = 2), d)))
    expect_identical(b2$threads, 2L)
    expect_identical(b1$t, b2$t)
    expect_identical(boot_jack_values(b1, threads = 1), boot_jack_values(b2, threads = 2))
  }
})

test_that("the seed comes from R's generator and is stored", {
  fit <- fit300()
  withr::local_seed(9)
  expected <- withr::with_seed(9, sample.int(.Machine$integer.max, 2L))
  bs <- mla_boot(fit, R = 10)
  expect_identical(bs$seed, expected)
  expect_identical(bs$R, 10L)
  expect_identical(dim(bs$t), c(10L, 3L + 3L * 6L))
})

test_that("an identity resample reproduces the fit's estimates", {
  fit <- fit300()
  estimates <- c(fit$corpus$estimate, fit$label$estimate)
  # the bootstrap statistic (its own kernel) on every unit once
  bs <- withr::with_seed(1, mla_boot(fit, R = 5))
  expect_equal(unname(as_boot(bs)$statistic(NULL, seq_len(300))), estimates, tolerance = 1e-12)
  ba <- withr::with_seed(1, mla_boot(fit, R = 5, resample = "annotators"))
  expect_equal(unname(as_boot(ba)$statistic(NULL, 1:4)), estimates, tolerance = 1e-12)
})

test_that("item replicates match a plain-R refit on the same multiplicities", {
  arr <- boot_fixture()
  fit <- mla(arr)
  x <- item_x(fit$annotations)
  m <- item_m(fit$annotations)
  st <- rep(c("a", "b", "c"), 100)
  cl <- rep(seq_len(60), each = 5)
  for (args in list(list(), list(strata = st), list(cluster = cl, strata = rep(1:2, each = 150)))) {
    bs <- withr::with_seed(2, do.call(mla_boot, c(list(fit, R = 12), args)))
    w <- cpp_boot_draws(bs)$item
    expect_identical(dim(w), c(300L, 12L))
    for (b in seq_len(12)) {
      expect_equal(unname(bs$t[b, ]), ref_item_stats(x, m, w[, b]), tolerance = 1e-12)
    }
    if (!is.null(args$strata)) {
      for (h in unique(args$strata)) {
        expect_true(all(colSums(w[args$strata == h, , drop = FALSE]) >= 1))
      }
      if (is.null(args$cluster)) {
        expect_true(all(colSums(w[st == "a", ]) == 100))
      }
    }
    if (!is.null(args$cluster)) {
      # items of one cluster share one multiplicity; 60 clusters drawn
      expect_true(all(apply(w, 2, function(v) all(tapply(v, cl, function(z) length(unique(z))) == 1))))
      expect_true(all(colSums(w[!duplicated(cl), ]) == 60))
    } else {
      expect_true(all(colSums(w) == 300))
    }
  }
})

test_that("annotator and two-way replicates match the pair-enumerating reference", {
  arr <- withr::with_seed(5, random_design(40, 4, 3, prevalence = 0.3, error = 0.1, n_missing = 30,
                                           names = TRUE))
  fit <- mla(arr)
  ba <- withr::with_seed(6, mla_boot(fit, R = 6, resample = "annotators"))
  dr <- cpp_boot_draws(ba)
  expect_identical(dim(dr$annotator), c(4L, 6L))
  expect_true(all(colSums(dr$annotator) == 4))
  for (b in seq_len(6)) {
    expect_equal(unname(ba$t[b, ]), ref_annotator_stats(arr, dr$annotator[, b]), tolerance = 1e-12)
  }
  bb <- withr::with_seed(7, mla_boot(fit, R = 6, resample = "both", cluster = rep(1:20, 2)))
  dr <- cpp_boot_draws(bb)
  for (b in seq_len(6)) {
    expect_equal(unname(bb$t[b, ]), ref_annotator_stats(arr, dr$annotator[, b], dr$item[, b]),
                 tolerance = 1e-12)
  }
})

test_that("copies of one annotator do not count as agreeing pairs", {
  arr <- withr::with_seed(5, random_design(40, 4, 3, prevalence = 0.3, error = 0.1, names = TRUE))
  fit <- mla(arr)
  bs <- withr::with_seed(1, mla_boot(fit, R = 300, resample = "annotators"))
  dr <- cpp_boot_draws(bs)$annotator
  distinct <- colSums(dr > 0)
  # one annotator drawn four times: no pair of distinct annotators, nothing defined
  expect_true(any(distinct == 1))
  expect_true(all(is.na(bs$t[distinct == 1, ])))
  # two annotators, one or both copied: the observed agreement is that of the
  # two annotators once each, so the PABAK estimates (chance fixed at 1/2)
  # equal mla() on the two annotators alone
  pabak <- bs$stats$baseline == "pabak"
  two <- which(distinct == 2 & colSums(dr) > 2)
  expect_gt(length(two), 10)
  for (b in two) {
    pair <- mla(arr[, dr[, b] > 0, ])
    expect_equal(unname(bs$t[b, pabak]), c(pair$corpus$estimate, pair$label$estimate)[pabak],
                 tolerance = 1e-12)
  }
})

test_that("the jackknife equals plain-R leave-one-out refits", {
  arr <- boot_fixture()
  fit <- mla(arr)
  x <- item_x(fit$annotations)
  m <- item_m(fit$annotations)
  bs <- withr::with_seed(1, mla_boot(fit, R = 5))
  expect_identical(dim(boot_jack_values(bs)), c(300L, 21L))
  for (i in c(1, 17, 150, 300)) {
    expect_equal(unname(boot_jack_values(bs)[i, ]), ref_item_stats(x[-i, ], m[-i, ]), tolerance = 1e-12)
  }
  ref_all <- t(vapply(seq_len(300), function(i) ref_item_stats(x[-i, ], m[-i, ]), numeric(21)))
  expect_equal(unname(boot_jack_values(bs)), ref_all, tolerance = 1e-12)
  # against the package's own fitting path on the reduced data
  refit <- mla(arr[-17, , ])
  expect_equal(unname(boot_jack_values(bs)[17, ]), c(refit$corpus$estimate, refit$label$estimate),
               tolerance = 1e-12)

  cl <- rep(seq_len(30), each = 10)
  bc <- withr::with_seed(1, mla_boot(fit, R = 5, cluster = cl))
  expect_identical(nrow(boot_jack_values(bc)), 30L)
  for (g in c(1, 30)) {
    expect_equal(unname(boot_jack_values(bc)[g, ]), ref_item_stats(x[cl != g, ], m[cl != g, ]), tolerance = 1e-12)
  }

  small <- withr::with_seed(5, random_design(40, 4, 3, prevalence = 0.3, error = 0.1,
                                             n_missing = 30, names = TRUE))
  ba <- withr::with_seed(1, mla_boot(mla(small), R = 5, resample = "annotators"))
  for (a in 1:4) {
    expect_equal(unname(boot_jack_values(ba)[a, ]), ref_annotator_stats(small, as.integer(seq_len(4) != a)),
                 tolerance = 1e-12)
  }
  expect_null(boot_jack_values(withr::with_seed(1, mla_boot(fit, R = 5, resample = "both"))))
})

test_that("cluster and strata can be named by item", {
  fit <- fit300()
  items <- fit$annotations$items
  cl <- rep(seq_len(100), each = 3)
  named <- stats::setNames(cl, items)[sample(300)]
  a <- withr::with_seed(1, mla_boot(fit, R = 20, cluster = cl))
  b <- withr::with_seed(1, mla_boot(fit, R = 20, cluster = named))
  expect_identical(a$t, b$t)
  f <- factor(rep(c("x", "y"), 150))
  c1 <- withr::with_seed(1, mla_boot(fit, R = 20, strata = f))
  c2 <- withr::with_seed(1, mla_boot(fit, R = 20, strata = as.character(f)))
  expect_identical(c1$t, c2$t)
})

test_that("mla_boot() refuses bad input and unresamplable designs", {
  fit <- fit300()
  expect_mla_snapshot(mla_boot(boot_fixture()))
  expect_mla_snapshot(mla_boot(fit, R = 1))
  expect_mla_snapshot(mla_boot(fit, cluster = 1:10))
  expect_mla_snapshot(mla_boot(fit, cluster = c(i1 = 1, i2 = 2)))
  expect_mla_snapshot(mla_boot(fit, strata = c(NA, rep(1, 299))))
  expect_mla_snapshot(mla_boot(fit, cluster = 1:300, strata = list(1)))
  expect_mla_snapshot(mla_boot(fit, cluster = rep(1:150, 2), strata = rep(1:2, each = 150)))
  expect_mla_snapshot(mla_boot(fit, resample = "annotators", strata = rep(1, 300)))
  expect_mla_snapshot(mla_boot(fit, resample = "sideways"))
  expect_mla_snapshot(mla_boot(fit, R = 10, oops = 1))
  two <- mla(boot_fixture()[, 1:2, ])
  expect_mla_snapshot(mla_boot(two, resample = "annotators"))
  sparse <- data.frame(item = rep(1:30, each = 2), annotator = 1:60, label = "a", value = 1L)
  sparse$value[seq(1, 60, by = 4)] <- 0L
  sparse_fit <- mla(annotations_long(sparse, item, annotator, label, value))
  expect_mla_snapshot(mla_boot(sparse_fit, resample = "both"))
  expect_no_error(withr::with_seed(1, mla_boot(sparse_fit, R = 20)))

  expect_mla_error(mla_boot(fit, R = 1), "replicates")
  expect_mla_error(mla_boot(fit, cluster = 1:10), "boot_item_vector")
  expect_mla_error(mla_boot(fit, cluster = rep(1:150, 2), strata = rep(1:2, each = 150)),
                   "boot_strata")
  expect_mla_error(mla_boot(two, resample = "annotators"), "boot_annotators")
  expect_mla_error(mla_boot(sparse_fit, resample = "annotators"), "boot_annotators")
  expect_mla_error(mla_boot(fit, resample = "annotators", cluster = 1:300))
  expect_mla_error(mla_boot(boot_fixture()), "boot_fit")
})

test_that("long (records) and array input give the same replicates", {
  arr <- withr::with_seed(5, random_design(40, 4, 3, prevalence = 0.3, error = 0.1, n_missing = 30,
                                           names = TRUE))
  dimnames(arr)[[1]] <- sprintf("i%02d", 1:40)
  long <- as.data.frame.table(arr, responseName = "value", stringsAsFactors = FALSE)
  names(long)[1:3] <- c("item", "annotator", "label")
  long <- long[!is.na(long$value), ]
  fit_long <- mla(annotations_long(long, item, annotator, label, value))
  fit_arr <- mla(arr)
  expect_identical(fit_long$annotations$items, fit_arr$annotations$items)
  for (resample in c("items", "annotators", "both")) {
    a <- withr::with_seed(8, mla_boot(fit_arr, R = 40, resample = resample))
    b <- withr::with_seed(8, mla_boot(fit_long, R = 40, resample = resample))
    expect_equal(a$t, b$t, tolerance = 1e-12)
  }
})

test_that("annotators without decisions are not drawn", {
  arr <- withr::with_seed(5, random_design(40, 5, 3, prevalence = 0.3, error = 0.1, names = TRUE))
  arr[, 5, ] <- NA
  fit <- mla(arr)
  bs <- withr::with_seed(1, mla_boot(fit, R = 8, resample = "annotators"))
  dr <- cpp_boot_draws(bs)
  expect_identical(nrow(dr$annotator), 4L)
  for (b in 1:8) {
    expect_equal(unname(bs$t[b, ]), ref_annotator_stats(arr, c(dr$annotator[, b], 0L)),
                 tolerance = 1e-12)
  }
  expect_identical(nrow(boot_jack_values(bs)), 4L)
})

test_that("designs with more classes than 16 bits hold use wide class codes", {
  # codes exist only for the (m, x) classes that occur: 4000 items with 2 to
  # 60 decisions over 50 labels, prevalences varying by item and label, give
  # more than 65535 classes, so 32-bit codes
  arr <- withr::with_seed(6, {
    p <- matrix(runif(4000 * 50), 4000, 50)
    a <- array(rbinom(4000 * 60 * 50, 1, p[, rep(1:50, each = 60)]), c(4000, 60, 50))
    m_i <- sample(2:60, 4000, TRUE)
    for (j in 1:50) a[, , j][col(a[, , j]) > m_i] <- NA
    a
  })
  fit <- mla(arr)
  codes <- boot_data(fit, "items")$codes
  expect_gt(length(attr(codes, "class_m")), 65535)
  expect_identical(length(codes), 4000L * 50L * 4L)
  bs <- withr::with_seed(2, mla_boot(fit, R = 3))
  w <- cpp_boot_draws(bs)$item
  x <- item_x(fit$annotations)
  m <- item_m(fit$annotations)
  for (b in 1:3) expect_equal(unname(bs$t[b, ]), ref_item_stats(x, m, w[, b]), tolerance = 1e-12)
  expect_equal(unname(boot_jack_values(bs)[4, ]), ref_item_stats(x[-4, ], m[-4, ]), tolerance = 1e-12)
})

test_that("replicates that would not fit in memory fail at once, naming the size", {
  fit <- mla(as_annotations(random_design(30, 4, 3)))
  withr::local_options(mlagreement.max_memory = 1e4)
  err <- expect_mla_error(mla_boot(fit, R = 1000), "replicates")
  expect_match(conditionMessage(err), "1,000 x 12 statistics")
  expect_s3_class(mla_boot(fit, R = 50), "mla_boot")
  withr::local_options(mlagreement.max_memory = NULL)
  err <- expect_mla_error(mla_boot(fit, R = 2^31 - 1), "replicates")
  expect_match(conditionMessage(err), "GiB")
})

test_that("annotator resampling on a sparse design gives a note, on a crossed one none", {
  withr::local_seed(27)
  # 60 items, 3 of 20 annotators each: 15% of the items x annotators cells
  rows <- lapply(1:60, function(i) {
    data.frame(item = i, annotator = sample(20, 3), label = rep(c("x", "y"), each = 3),
               value = stats::rbinom(6, 1, 0.4))
  })
  sparse <- mla(annotations_long(do.call(rbind, rows), item, annotator, label, value))
  expect_lt(glance(sparse)$coverage, 0.5)
  for (resample in c("annotators", "both")) {
    expect_message(mla_boot(sparse, R = 5, resample = resample),
                   class = "mlagreement_message_sparse_annotators")
  }
  expect_message(mla_boot(sparse, R = 5, resample = "annotators"), "15.0% of the item x annotator cells")
  crossed <- mla(simulate_annotations(30, 5, 3, prevalence = 0.3, scenario = "noisy"))
  expect_no_message(mla_boot(crossed, R = 5, resample = "annotators"),
                    class = "mlagreement_message_sparse_annotators")
  expect_no_message(mla_boot(sparse, R = 5), class = "mlagreement_message_sparse_annotators")
})

test_that("a fit on some labels counts only the annotators with decisions on them", {
  arr <- withr::with_seed(21, random_design(40, 5, 3, prevalence = 0.3, error = 0.15, names = TRUE))
  arr[, 5, 1:2] <- NA  # the fifth annotator decided only the third label
  fit <- mla(arr, labels = dimnames(arr)[[3]][1:2])
  # plain R: annotators with a decision on the analysed labels
  J <- sum(apply(!is.na(arr[, , 1:2]), 2, any))
  expect_identical(J, 4L)
  corpus <- fit$corpus$baseline
  for (resample in c("annotators", "both")) {
    bs <- withr::with_seed(1, suppressMessages(mla_boot(fit, R = 200, resample = resample)))
    if (resample == "annotators") expect_identical(bs$design$n_units, J)
    # SEs rescale the replicates' deviations by sqrt(J / (J - 1))
    se <- suppressWarnings(tidy(bs), classes = c("mlagreement_warning_boot_na",
                                                 "mlagreement_warning_boot_extreme"))$std.error
    expect_equal(se, sqrt(J / (J - 1)) * unname(apply(bs$t[, corpus], 2, stats::sd, na.rm = TRUE)),
                 tolerance = 1e-12)
  }
  bs <- withr::with_seed(1, mla_boot(fit, R = 20, resample = "annotators"))
  expect_identical(glance(bs)$n_units, J)
  skip_if_not_installed("boot")
  expect_length(as_boot(bs)$data, J)
})

test_that("annotator resampling of a fit with two annotators on its labels is refused", {
  arr <- withr::with_seed(21, random_design(30, 3, 2, prevalence = 0.3, error = 0.15, names = TRUE))
  arr[, 3, 1] <- NA  # the first label has two annotators
  fit <- mla(arr, labels = dimnames(arr)[[3]][1])
  expect_snapshot(error = TRUE, mla_boot(fit, R = 20, resample = "annotators"))
  expect_error(mla_boot(fit, R = 20, resample = "both"), class = "mlagreement_error_boot_annotators")
})


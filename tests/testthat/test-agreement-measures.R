bias <- function() annotations_long(bias_example, item, annotator, label, value)

test_that("bias_example reaches the paper's values (and not its unattainable MASI)", {
  withr::local_seed(1)
  res <- agreement_measures(bias(), R = 1000)
  expect_equal(res$measure, c("masi", "jaccard", "augmented_kappa", "am", "boot_f1"))
  est <- stats::setNames(res$estimate, res$measure)
  pub <- function(quantity, digits) published("worked_example", quantity, digits = digits)
  expect_equal(round(est[["augmented_kappa"]], 3), pub("augmented_kappa", 3))
  expect_equal(round(est[["am"]], 3), pub("am", 3))
  expect_equal(round(est[["masi"]], 4), pub("masi", 4))
  expect_equal(round(est[["jaccard"]], 4), pub("jaccard", 4))
  expect_lt(abs(est[["boot_f1"]] - pub("boot_f1", 3)), 0.005)
  # the paper's 0.509 is out of reach: no consistent array exceeds 0.3929
  expect_true(est[["masi"]] < pub("masi_max", 3))
})

test_that("all measures match the plain-R references on bias_example", {
  a <- bias()
  withr::local_seed(2)
  res <- agreement_measures(a, R = 20000)
  est <- stats::setNames(res$estimate, res$measure)
  expect_equal(est[["masi"]], ref_average_similarity(a, ref_masi_sim), tolerance = 1e-12)
  expect_equal(est[["jaccard"]], ref_average_similarity(a, ref_jaccard_sim), tolerance = 1e-12)
  expect_equal(est[["augmented_kappa"]], ref_augmented_kappa(a), tolerance = 1e-12)
  expect_equal(est[["am"]], ref_am(a), tolerance = 1e-12)
  # Monte Carlo: the bootstrap chance term converges to its expectation
  expect_lt(abs(est[["boot_f1"]] - ref_boot_f1_expected(a)), 0.005)
})

test_that("measures match the references on random designs with missing records", {
  withr::local_seed(21)
  for (rep in 1:3) {
    arr <- random_set_design(10, 4, 5, p = c(0.2, 0.4, 0.6)[rep], missing_records = 0.25)
    a <- as_annotations(arr)
    res <- agreement_measures(a, R = 10)
    est <- stats::setNames(res$estimate, res$measure)
    expect_equal(est[["masi"]], ref_average_similarity(a, ref_masi_sim), tolerance = 1e-12)
    expect_equal(est[["jaccard"]], ref_average_similarity(a, ref_jaccard_sim), tolerance = 1e-12)
    expect_equal(est[["augmented_kappa"]], ref_augmented_kappa(a), tolerance = 1e-12)
    expect_equal(est[["am"]], ref_am(a), tolerance = 1e-12)
    args <- mlagreement:::set_core_args(a)
    k_used <- sum(colSums(item_x(a)) > 0)
    pm <- mlagreement:::pair_measures_cpp(args, k_used, 1L, c(1L, 2L), 1L)$pairs
    ref <- ref_pair_table(a)
    expect_equal(pm$a, ref$a)
    expect_equal(pm$b, ref$b)
    for (col in c("n_shared", "f1_observed", "ak_observed", "ak_expected", "am_observed",
                  "am_expected")) {
      expect_equal(pm[[col]], ref[[col]], tolerance = 1e-12)
    }
  }
})

test_that("boot-F1 chance converges to its expectation on a sparse design", {
  withr::local_seed(4)
  arr <- random_set_design(8, 3, 4, p = 0.4, missing_records = 0.2)
  res <- agreement_measures(arr, R = 20000)
  expect_lt(abs(res$estimate[5] - ref_boot_f1_expected(as_annotations(arr))), 0.01)
})

test_that("boot-F1 is reproducible under set.seed()", {
  a <- bias()
  r1 <- withr::with_seed(10, agreement_measures(a, R = 50))
  r2 <- withr::with_seed(10, agreement_measures(a, R = 50))
  r3 <- withr::with_seed(11, agreement_measures(a, R = 50))
  expect_identical(r1, r2)
  expect_false(identical(r1$estimate[5], r3$estimate[5]))
  expect_identical(r1$estimate[1:4], r3$estimate[1:4])
  expect_length(attr(r1, "seed"), 2L)
})

test_that("boot-F1 does not depend on the number of threads", {
  skip_if_one_thread()
  a <- bias()
  r1 <- withr::with_seed(10, agreement_measures(a, R = 50, threads = 1))
  r2 <- withr::with_seed(10, agreement_measures(a, R = 50, threads = 2))
  expect_identical(r1, r2)
})

test_that("long data and arrays agree; prototype is stable", {
  withr::local_seed(8)
  arr <- random_set_design(9, 3, 4, p = 0.4, missing_records = 0.2)
  long <- annotations_long(ref_long(arr), item, annotator, label, value)
  r1 <- withr::with_seed(1, agreement_measures(arr, R = 20))
  r2 <- withr::with_seed(1, agreement_measures(long, R = 20))
  expect_equal(r1, r2, tolerance = 1e-14)
  expect_equal(r1[0, ], tibble::tibble(measure = character(), estimate = numeric(),
                                       note = character()), ignore_attr = TRUE)
})

test_that("edge cases: perfect agreement, one label used, empty sets", {
  arr <- array(0L, c(4, 3, 3))
  arr[1, , 1] <- 1L
  arr[2, , 2] <- 1L
  arr[3, , c(1, 3)] <- 1L
  res <- withr::with_seed(1, agreement_measures(arr, R = 20))
  # every measure but Augmented kappa reaches 1 (paper section 4): a
  # two-label set shares its unit of mass
  expect_equal(res$estimate[-3], c(1, 1, 1, 1))
  expect_lt(res$estimate[3], 1)
  expect_equal(res$estimate[3], ref_augmented_kappa(as_annotations(arr)), tolerance = 1e-12)
  one <- array(0L, c(3, 2, 2))
  one[1, 1, 1] <- 1L
  res <- withr::with_seed(1, agreement_measures(one, R = 20))
  expect_true(is.na(res$estimate[4]))
  expect_match(res$note[4], "fewer than two labels")
  a <- as_annotations(one)
  expect_equal(res$estimate[3], ref_augmented_kappa(a), tolerance = 1e-12)
})

test_that("errors are classed and informative", {
  arr <- dkpro_example()
  arr[3, 2, 1] <- NA
  expect_mla_snapshot(agreement_measures(arr, R = 10))
  expect_mla_error(agreement_measures(arr), "partial_record")
  expect_mla_snapshot(agreement_measures(dkpro_example(), R = 0))
  expect_mla_error(agreement_measures(dkpro_example(), R = 1.5), "replicates")
  expect_mla_error(agreement_measures(dkpro_example(), R = "a"))
  single <- array(c(1L, NA, NA, 0L), c(2, 2, 1))
  expect_mla_snapshot(agreement_measures(single))
  expect_mla_error(agreement_measures(single), "unpairable")
  expect_mla_error(agreement_measures(dkpro_example(), 10, 1, 2), "dots")
})

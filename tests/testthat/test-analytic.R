test_that("columns, rows and class", {
  a <- analytic_agreement(c(0.1, 0.5))
  expect_s3_class(a, "mla_analytic")
  expect_s3_class(a, "tbl_df")
  expect_named(a, c("generator", "prevalence", "baseline", "observed", "expected", "estimate"))
  expect_identical(nrow(a), 12L)
  expect_identical(unique(a$generator), c("independent", "noisy"))
  expect_identical(unique(a$baseline), c("fleiss", "ac1", "pabak"))
  expect_identical(nrow(analytic_agreement()), 2L * 3L * 99L)
})

test_that("independent generator: closed forms written differently", {
  p <- c(0.01, 0.1, 0.3, 0.5, 0.77, 0.99)
  a <- analytic_agreement(p)
  ind <- a[a$generator == "independent", ]
  f <- ind[ind$baseline == "fleiss", ]
  expect_equal(f$estimate, rep(0, length(p)), tolerance = 1e-12)
  # AC1: (A_o - 2pq) / (1 - 2pq) with A_o = 1 - 2pq  ->  (1 - 4pq) / (1 - 2pq)
  ac1 <- ind[ind$baseline == "ac1", ]
  expect_equal(ac1$estimate, (1 - 4 * p * (1 - p)) / (1 - 2 * p * (1 - p)), tolerance = 1e-12)
  # PABAK: 2 A_o - 1 = (2p - 1)^2
  pb <- ind[ind$baseline == "pabak", ]
  expect_equal(pb$estimate, (2 * p - 1)^2, tolerance = 1e-12)
})

test_that("noisy generator: agreement (1-e)^2 + e^2 and marginal e + p(1-2e)", {
  p <- c(0.05, 0.2, 0.5, 0.8)
  e <- 0.1
  a <- analytic_agreement(p, error = e)
  nz <- a[a$generator == "noisy", ]
  expect_equal(nz$observed, rep(0.82, 12), tolerance = 1e-12)
  q <- e + p * (1 - 2 * e)
  f <- nz[nz$baseline == "fleiss", ]
  expect_equal(f$expected, 1 - 2 * q * (1 - q), tolerance = 1e-12)
  # PABAK is constant: 2 * 0.82 - 1
  expect_equal(nz$estimate[nz$baseline == "pabak"], rep(0.64, 4), tolerance = 1e-12)
  # p = 0.5: every baseline gives 0.5 chance agreement
  mid <- nz[nz$prevalence == 0.5, ]
  expect_equal(mid$estimate, rep(0.64, 3), tolerance = 1e-12)
  # symmetric in p <-> 1 - p
  s <- analytic_agreement(c(0.2, 0.8))
  expect_equal(s$estimate[s$prevalence == 0.2], s$estimate[s$prevalence == 0.8], tolerance = 1e-12)
})

test_that("agrees with a large simulation of the noisy and independent generators", {
  withr::local_seed(21)
  for (p in c(0.15, 0.6)) {
    theory <- analytic_agreement(p, error = 0.1)
    for (g in c("noisy", "independent")) {
      fit <- mla(simulate_annotations(2000, 4, 5, p, scenario = g, error = 0.1))
      th <- theory[theory$generator == g, ]
      expect_true(all(abs(fit$corpus$estimate - th$estimate) < 0.03))
      expect_lt(abs(fit$corpus$observed[1] - th$observed[1]), 0.01)
    }
  }
})

test_that("undefined coefficients are NA, never NaN", {
  a <- analytic_agreement(c(0, 1), error = 0)
  expect_false(any(is.nan(a$estimate)))
  expect_true(all(is.na(a$estimate[a$baseline == "fleiss"])))
  expect_equal(a$estimate[a$baseline == "pabak"], rep(1, 4))
})

test_that("arguments are validated", {
  expect_mla_snapshot({
    analytic_agreement("a")
    analytic_agreement(c(0.2, NA, 2))
    analytic_agreement(0.2, error = c(0.1, 0.2))
    analytic_agreement(0.2, error = -0.1)
  })
  expect_mla_error(analytic_agreement(2), "analytic_argument")
  expect_mla_error(analytic_agreement(0.5, error = 2))
})

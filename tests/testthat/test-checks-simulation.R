# Argument checks of the simulators (R/checks-simulation.R), called directly:
# the values they return and the classed errors naming the offender.

test_that("check_bias() recycles one bias, keeps one per annotator, names a bad one", {
  expect_identical(check_bias(0.5, 3, "noisy"), c(0.5, 0.5, 0.5))
  expect_identical(check_bias(c(-1L, 0L, 2L), 3, "independent"), c(-1, 0, 2))
  expect_identical(check_bias(0, 4, "perfect"), c(0, 0, 0, 0))
  err <- expect_mla_error(check_bias(c(1, 2), 3, "noisy"), "simulation_argument")
  expect_match(conditionMessage(err), "one per annotator \\(3\\)")
  expect_mla_error(check_bias("1", 1, "noisy"), "simulation_argument")
  err <- expect_mla_error(check_bias(c(0, 1, NaN, Inf), 4, "noisy"), "simulation_argument")
  expect_match(conditionMessage(err), "Annotator 3 has bias")
  for (scenario in c("perfect", "minimum")) {
    err <- expect_mla_error(check_bias(c(0, 0.1), 2, scenario), "simulation_argument")
    expect_match(conditionMessage(err), scenario)
  }
})

test_that("check_correlation() takes a number in [0, 1], 0 for the minimum scenario", {
  expect_identical(check_correlation(0.3, "noisy"), 0.3)
  expect_identical(check_correlation(1L, "perfect"), 1)
  expect_identical(check_correlation(0, "minimum"), 0)
  expect_mla_error(check_correlation(1.5, "noisy"), "simulation_argument")
  expect_mla_error(check_correlation(-0.1, "noisy"), "simulation_argument")
  expect_mla_error(check_correlation(c(0.1, 0.2), "noisy"), "simulation_argument")
  err <- expect_mla_error(check_correlation(0.2, "minimum"), "simulation_argument")
  expect_match(conditionMessage(err), "minimum")
})

test_that("check_prevalence_levels() names each level, refuses duplicated names", {
  expect_identical(check_prevalence_levels(c(0.1, 0.5)),
                   stats::setNames(c(0.1, 0.5), format(c(0.1, 0.5))))
  expect_identical(check_prevalence_levels(c(low = 0.1, 0.5)),
                   c(low = 0.1, "0.5" = 0.5))
  err <- expect_mla_error(check_prevalence_levels(c(a = 0.1, a = 0.2)), "simulation_argument")
  expect_match(conditionMessage(err), "Duplicated")
  # an unnamed level whose formatted value equals another level's name
  expect_mla_error(check_prevalence_levels(c("0.2" = 0.1, 0.2)), "simulation_argument")
  expect_mla_error(check_prevalence_levels(c(0.1, 1.2)), "simulation_argument")
  expect_mla_error(check_prevalence_levels(character()), "simulation_argument")
})

test_that("check_simulation_size() counts cells in doubles and refuses beyond R's integers", {
  expect_identical(check_simulation_size(10L, 3L, 4L), 120)
  # the largest of vector sizes (simulation_study() passes the maxima)
  expect_identical(check_simulation_size(c(10, 20), 3, 2), 120)
  # 50000 x 50000 overflows an integer product: still refused, not NA
  expect_true(is.na(suppressWarnings(50000L * 50000L)))
  err <- expect_mla_error(check_simulation_size(50000L, 50000L, 1L), "simulation_size")
  expect_match(conditionMessage(err), "2,500,000,000 cells")
  limit <- .Machine$integer.max
  expect_identical(check_simulation_size(limit, 1, 1), as.double(limit))
  expect_mla_error(check_simulation_size(limit, 1, 2), "simulation_size")
})

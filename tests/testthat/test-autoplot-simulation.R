# autoplot() of analytic_agreement() and simulation_study() results
# (R/autoplot-simulation.R): Figure 1 curves, the simulation overlay and the
# study plot's layers, checked against the values they draw.
skip_if_not_installed("ggplot2")

test_that("Figure 1 curves with simulation overlay", {
  a <- analytic_agreement(c(0.1, 0.5, 0.9))
  p <- ggplot2::autoplot(a)
  expect_s3_class(p, "ggplot")
  lines <- ggplot2::layer_data(p, 2)
  expect_identical(nrow(lines), 18L)               # 2 generators x 3 baselines x 3 values
  expect_equal(lines$y[lines$PANEL == 2 & lines$x == 0.5], rep(0.64, 3), tolerance = 1e-12)
  withr::local_seed(3)
  st <- simulation_study(n_annotators = 3, n_items = 30, n_labels = 4,
                         prevalence = c(low = 0.1, mid = 0.5), repeats = 2, measures = "mla",
                         scenarios = c("noisy", "independent", "perfect"))
  p2 <- ggplot2::autoplot(a, simulation = st)
  pts <- ggplot2::layer_data(p2, 4)
  expect_identical(nrow(pts), 2L * 2L * 3L)        # generators x prevalences x baselines
  sub <- st$estimate[st$scenario == "noisy" & st$prevalence == 0.1 & st$measure == "mla_pabak"]
  expect_true(any(abs(pts$y - mean(sub)) < 1e-12))
  expect_mla_snapshot(ggplot2::autoplot(a, simulation = 1))
})

test_that("simulation study plot keeps a design dimension separate", {
  withr::local_seed(4)
  st <- simulation_study(n_annotators = c(3, 5), n_items = 20, n_labels = 4, repeats = 2,
                         measures = "mla", scenarios = c("noisy", "independent"))
  p <- ggplot2::autoplot(st)
  expect_s3_class(p, "ggplot")
  pts <- ggplot2::layer_data(p, 3)
  expect_identical(nrow(pts), 2L * 3L * 4L)        # scenarios x prevalences x measures
  p2 <- ggplot2::autoplot(st, measures = "mla_fleiss", by = "n_annotators")
  expect_identical(nrow(ggplot2::layer_data(p2, 3)), 2L * 3L * 2L)
  expect_mla_snapshot({
    ggplot2::autoplot(st, measures = "kappa")
    ggplot2::autoplot(st, by = "prevalence")
  })
})

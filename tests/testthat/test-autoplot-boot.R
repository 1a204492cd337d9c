# autoplot() of mla_boot() (R/autoplot-boot.R): the package theme and the
# label selection.
skip_if_not_installed("ggplot2")

test_that("bootstrap plots use the package theme and select labels", {
  fit <- bias_fit(baseline = "ac1")
  withr::local_seed(1)
  bs <- suppressWarnings(mla_boot(fit, R = 30))
  p <- suppressWarnings(ggplot2::autoplot(bs))
  expect_identical(p$theme$legend.position, "bottom")  # theme_mla(), not theme_grey()
  pl <- suppressWarnings(ggplot2::autoplot(bs, level = "label", labels = c("L01", "L05")))
  expect_setequal(as.character(unique(pl$data$panel)), c("L01", "L05"))
  expect_error(ggplot2::autoplot(bs, level = "label", labels = "zz"),
               class = "mlagreement_error_plot_argument")
})

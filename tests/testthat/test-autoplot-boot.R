# autoplot() of mla_boot() (R/autoplot-boot.R): the replicates and their
# point estimates, the package theme and the label selection.
skip_if_not_installed("ggplot2")

test_that("bootstrap plots use the package theme and select labels", {
  fit <- bias_fit(baseline = "ac1")
  withr::local_seed(1)
  bs <- suppressWarnings(mla_boot(fit, R = 30))
  p <- suppressWarnings(ggplot2::autoplot(bs))
  expect_identical(p$theme$legend.position, "bottom")  # theme_mla(), not theme_grey()
  pl <- suppressWarnings(ggplot2::autoplot(bs, level = "label", labels = c("L01", "L05")))
  expect_setequal(as.character(unique(pl$data$panel)), c("L01", "L05"))
  expect_mla_error(ggplot2::autoplot(bs, level = "label", labels = "zz"), "plot_argument")
})

test_that("autoplot() returns a ggplot of the replicates", {
  skip_if_not_installed("ggplot2")
  bs <- boot_methods_fixture()
  p <- ggplot2::autoplot(bs)
  expect_s3_class(p, "ggplot")
  d <- ggplot2::layer_data(p, 2)
  expect_equal(sort(d$xintercept), sort(unname(bs$t0[1:3])))
  pl <- ggplot2::autoplot(bs, level = "label", baseline = "ac1")
  expect_identical(levels(pl$data$panel), bs$fit$labels)
  expect_equal(sort(ggplot2::layer_data(pl, 2)$xintercept),
               sort(unname(bs$t0[bs$stats$baseline == "ac1" & bs$stats$level == "label"])))
})

test_that("a label without an interval draws no dashed line and is named in the caption", {
  fit <- mla(annotations_long(bias_example, item, annotator, label, value))
  withr::local_seed(1)
  bs <- suppressWarnings(mla_boot(fit, R = 200))
  p <- ggplot2::autoplot(bs, level = "label", labels = c("L01", "L03"))
  expect_no_warning(ggplot2::ggplot_build(p))
  expect_match(gsub("\n", " ", p$labels$caption), "No interval (replicates constant or too few defined): L01.",
               fixed = TRUE)
  expect_false(grepl("No interval", ggplot2::autoplot(bs)$labels$caption))
})

# autoplot() of annotator_agreement() (R/autoplot-annotators.R): the heat
# map's tiles, order, selection and overlap filter.
skip_if_not_installed("ggplot2")

test_that("autoplot() returns a symmetric heat map without printing", {
  skip_if_not_installed("ggplot2")
  agr <- annotator_agreement(annotations_long(bias_example, item, annotator, label, value))
  p <- ggplot2::autoplot(agr)
  expect_s3_class(p, "ggplot")
  d <- ggplot2::layer_data(p, 1)
  expect_equal(nrow(d), 2 * nrow(tidy(agr)))
  p2 <- ggplot2::autoplot(agr, value = "observed", label_tiles = FALSE)
  expect_length(p2$layers, 1)
  expect_mla_snapshot(ggplot2::autoplot(agr, value = "kappa"))
  expect_mla_snapshot(ggplot2::autoplot(agr, bins = 3))
})

test_that("annotator heat map: clustered order shows groups, selection and overlap", {
  withr::local_seed(6)
  n <- 150
  truth_a <- matrix(stats::rbinom(n * 3, 1, 0.4), n, 3)
  truth_b <- abs(truth_a - matrix(stats::rbinom(n * 3, 1, 0.5), n, 3))
  arr <- array(0L, c(n, 6, 3), dimnames = list(NULL, paste0("Ann", c(1, 4, 2, 5, 3, 6)), NULL))
  for (a in 1:6) {
    base <- if (a %% 2 == 1) truth_a else truth_b
    arr[, a, ] <- abs(base - matrix(stats::rbinom(n * 3, 1, 0.05), n, 3))
  }
  agr <- annotator_agreement(as_annotations(arr))
  ord <- levels(ggplot2::autoplot(agr)$data$annotator1)
  groups <- ord %in% paste0("Ann", 1:3)
  expect_identical(sum(diff(groups) != 0), 1L)        # one block each
  ord_mean <- levels(ggplot2::autoplot(agr, order = "mean")$data$annotator1)
  means <- agr$annotators$estimate[match(ord_mean, agr$annotators$annotator)]
  expect_true(all(diff(means) <= 0))
  expect_identical(levels(ggplot2::autoplot(agr, order = "none")$data$annotator1),
                   agr$annotators$annotator)
  two <- ggplot2::autoplot(agr, annotators = c("Ann1", "Ann2"))
  expect_identical(nrow(two$data), 2L)
  top <- ggplot2::autoplot(agr, n_annotators = 3)
  expect_identical(nlevels(top$data$annotator1), 3L)
  expect_match(top$labels$caption, "3 of 6 annotators")
  none <- ggplot2::autoplot(agr, min_overlap = n + 1)
  expect_identical(nrow(none$data), 0L)
  expect_match(none$labels$caption, "15 pairs sharing fewer than")
  expect_error(ggplot2::autoplot(agr, annotators = "Ann9"), class = "mlagreement_error_plot_argument")
})

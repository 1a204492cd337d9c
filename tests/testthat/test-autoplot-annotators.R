# autoplot() of annotator_agreement() (R/autoplot-annotators.R): the heat
# map's tiles, order, selection and overlap filter.
skip_if_not_installed("ggplot2")

test_that("autoplot() returns a symmetric heat map without printing", {
  skip_if_not_installed("ggplot2")
  agr <- annotator_agreement(annotations_long(bias_example, item, annotator, label, value))
  p <- ggplot2::autoplot(agr)
  expect_s3_class(p, "ggplot")
  # every pair shares fewer than min_items items: all in the suppressed layer
  expect_equal(nrow(ggplot2::layer_data(p, 1)) + nrow(ggplot2::layer_data(p, 2)), 2 * nrow(tidy(agr)))
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
  expect_mla_error(ggplot2::autoplot(agr, annotators = "Ann9"), "plot_argument")
})

test_that("heat map: finite scores are never drawn as missing, suppressed pairs have their own key", {
  skip_if_not_installed("ggplot2")
  withr::local_seed(8)
  # rare labels and one contradicting annotator: scores below -1; a sparse
  # fifth annotator shares few items with the others
  arr <- array(0L, c(40, 6, 6), dimnames = list(NULL, paste0("a", 1:6), paste0("L", 1:6)))
  arr[, , 1] <- stats::rbinom(240, 1, 0.05)
  arr[, 5, ] <- 1L - arr[, 1, ]
  arr[-(1:4), 6, ] <- NA
  agr <- annotator_agreement(arr)
  pairs <- tidy(agr)
  expect_lt(min(pairs$estimate, na.rm = TRUE), -1)
  low <- pairs$n_items < agr$min_items
  expect_true(any(low))
  p <- ggplot2::autoplot(agr)
  tiles <- ggplot2::layer_data(p, 1)
  expect_equal(nrow(tiles), 2 * sum(!low))
  na_fill <- ggplot2::ggplot_build(p)$plot$scales$get_scales("fill")$na.value
  finite <- is.finite(rep(pairs$estimate[!low], 2))
  expect_true(all(finite))
  expect_false(any(tiles$fill == na_fill))
  # below -1: the end colour of the scale
  expect_true(any(p$data$value < -1))
  expect_identical(unique(tiles$fill[p$data$value < -1]), toupper("#b2182b"))
  # suppressed pairs: their own layer, fill and legend key
  gone <- ggplot2::layer_data(p, 2)
  expect_equal(nrow(gone), 2 * sum(low))
  expect_true(all(gone$fill != na_fill))
  built <- ggplot2::ggplot_build(p)
  key <- built$plot$scales$get_scales("colour")$get_labels()
  expect_identical(key, "fewer than 10 shared items")
  expect_match(p$labels$caption, paste(sum(low), "pairs sharing fewer than 10 items"))
  expect_match(p$labels$caption, "below -1 drawn in the end colour")
  # observed agreement has no suppressed pairs
  po <- ggplot2::autoplot(agr, value = "observed", label_tiles = FALSE)
  expect_length(po$layers, 1)
  expect_false(any(ggplot2::layer_data(po, 1)$fill == na_fill))
})

test_that("heat map: the lowest-scoring annotators stay in a limited selection", {
  skip_if_not_installed("ggplot2")
  withr::local_seed(9)
  arr <- simulate_annotations(60, 10, 4, prevalence = 0.3, scenario = "noisy",
                              error = c(rep(0.05, 9), 0.4))
  agr <- annotator_agreement(arr)
  worst <- agr$annotators$annotator[which.min(agr$annotators$estimate)]
  # every annotator has the same items, so "most items" alone keeps a1 to a4
  x <- ggplot2::autoplot(agr, n_annotators = 4)
  expect_true(worst %in% levels(x$data$annotator1))
  expect_identical(nlevels(x$data$annotator1), 4L)
})

test_that("value = 'observed' names the category scale on a single-label design", {
  skip_if_not_installed("ggplot2")
  d <- data.frame(item = rep(1:4, each = 3), annotator = rep(c("a", "b", "c"), 4),
                  lab = c("x", "y", "x", "x", "x", "x", "z", "z", "y", "y", "x", "z"))
  single <- annotator_agreement(annotations_long(d, item, annotator, lab, single_label = TRUE),
                                min_items = 1)
  p <- ggplot2::autoplot(single, value = "observed")
  expect_identical(p$labels$fill, "Category\nagreement")
  # the tiles hold the share of items on which the pair chose the same category
  ab <- p$data$value[p$data$annotator1 == "a" & p$data$annotator2 == "b"]
  expect_equal(ab, 0.5)
  multi <- annotator_agreement(annotations_long(bias_example, item, annotator, label, value))
  expect_identical(ggplot2::autoplot(multi, value = "observed")$labels$fill, "Hamming\nagreement")
})

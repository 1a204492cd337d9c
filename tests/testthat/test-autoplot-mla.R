skip_if_not_installed("ggplot2")

bias_fit <- function(...) mla(annotations_long(bias_example, item, annotator, label, value), ...)

test_that("labels plot: defined label coefficients with eq. 6 weights", {
  fit <- bias_fit()
  p <- ggplot2::autoplot(fit)
  expect_s3_class(p, "ggplot")
  pts <- ggplot2::layer_data(p, 3)
  lab <- tidy(fit, level = "label")
  lab <- lab[lab$baseline == "fleiss" & !is.na(lab$estimate), ]
  expect_identical(nrow(pts), 11L)
  expect_equal(sort(pts$x), sort(lab$estimate), tolerance = 1e-12)
  # point size increases with the weight
  o <- order(lab$weight)
  expect_true(all(diff(pts$size[order(pts$x)][order(lab$estimate)][o]) >= 0) ||
                all(diff(pts$size[match(lab$estimate, pts$x)][o]) >= 0))
  # corpus coefficient as dashed line
  expect_equal(ggplot2::layer_data(p, 2)$xintercept, 29 / 125, tolerance = 1e-12)
  expect_match(p$labels$caption, "20 labels with undefined coefficient not shown")
  # other primary baselines keep all 31 labels
  p2 <- ggplot2::autoplot(bias_fit(baseline = "ac1"))
  expect_identical(nrow(ggplot2::layer_data(p2, 3)), 31L)
})

test_that("labels plot: bootstrap intervals from tidy(boot, level = 'label')", {
  fit <- bias_fit()
  lab <- tidy(fit, level = "label")
  fake <- structure(list(), class = c("fake_mla_boot", "mla_boot"))
  registerS3method("tidy", "fake_mla_boot", function(x, level, ...) {
    out <- lab[lab$baseline %in% c("fleiss", "ac1"), ]
    out$conf.low <- out$estimate - 0.1
    out$conf.high <- out$estimate + 0.2
    out
  }, envir = asNamespace("generics"))
  p <- ggplot2::autoplot(fit, boot = fake)
  expect_s3_class(p, "ggplot")
  bars <- ggplot2::layer_data(p, 3)
  expect_identical(nrow(bars), 11L)
  expect_equal(bars$xmax - bars$xmin, rep(0.3, 11), tolerance = 1e-12)
  expect_match(p$labels$caption, "bootstrap")
  withr::local_seed(1)
  bs <- suppressWarnings(mla_boot(fit, R = 50))   # few items: some replicates undefined
  # 4 items and R = 50: the interval warnings are tested in test-boot*.R
  p_boot <- suppressWarnings(ggplot2::autoplot(fit, boot = bs))
  expect_s3_class(p_boot, "ggplot")
})

test_that("items plot marks items below the corpus chance baseline", {
  fit <- bias_fit()
  p <- ggplot2::autoplot(fit, type = "items")
  expect_s3_class(p, "ggplot")
  pts <- ggplot2::layer_data(p, 3)
  expect_equal(pts$y, sort(c(1, 0.04, 29 / 125, -43 / 125)), tolerance = 1e-12)
  # exactly one difficult item (item 4, -0.344), coloured differently
  expect_identical(length(unique(pts$colour)), 2L)
  expect_identical(sum(pts$colour == pts$colour[1]), 1L)
  expect_match(p$labels$caption, "1 of 4 items")
  # many items: no item names on the axis
  withr::local_seed(2)
  big <- mla(simulate_annotations(60, 3, 4, 0.3, scenario = "noisy", error = 0.3))
  pb <- ggplot2::autoplot(big, type = "items")
  expect_identical(nrow(ggplot2::layer_data(pb, 3)), 60L)
  expect_identical(pb$labels$x, "Items, sorted by agreement")
})

test_that("prevalence plot shows prevalence and specific agreement", {
  fit <- bias_fit()
  p <- ggplot2::autoplot(fit, type = "prevalence")
  expect_s3_class(p, "ggplot")
  d <- ggplot2::layer_data(p, 2)
  lab <- tidy(fit, level = "label")
  lab <- lab[lab$baseline == "fleiss", ]
  # 31 prevalences, 11 positive agreements (20 labels never selected), 31 negative
  expect_identical(as.vector(table(d$PANEL)), c(31L, 11L, 31L))
  expect_equal(sort(d$x[d$PANEL == 1]), sort(lab$prevalence), tolerance = 1e-12)
  expect_equal(sort(d$x[d$PANEL == 2]), sort(stats::na.omit(lab$positive_agreement)),
               tolerance = 1e-12)
  expect_match(p$labels$caption, "20 undefined")
})

test_that("plot arguments are validated", {
  fit <- bias_fit()
  expect_mla_snapshot({
    ggplot2::autoplot(fit, type = "label")
    ggplot2::autoplot(fit, type = "items", boot = 1)
    ggplot2::autoplot(fit, boot = 1)
    ggplot2::autoplot(fit, size = 2)
  })
  expect_error(ggplot2::autoplot(fit, boot = list()), class = "mlagreement_error_plot_argument")
})

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

test_that("label selection: names, limits and the universe are checked", {
  fit <- bias_fit(baseline = "ac1")
  p <- ggplot2::autoplot(fit, labels = c("L03", "L01", "L02"))
  expect_setequal(as.character(p$data$label), c("L01", "L02", "L03"))
  p <- ggplot2::autoplot(fit, n_labels = 5)
  expect_identical(nrow(ggplot2::layer_data(p, 3)), 5L)
  # the five largest weights are kept
  lab <- tidy(fit, level = "label")
  lab <- lab[lab$baseline == "ac1", ]
  expect_setequal(as.character(p$data$label), lab$label[order(-lab$weight)][1:5])
  expect_match(p$labels$caption, "5 of 31 labels shown")
  pv <- ggplot2::autoplot(fit, type = "prevalence", n_labels = 4)
  expect_identical(nlevels(pv$data$label), 4L)
  expect_error(ggplot2::autoplot(fit, labels = "nope"), class = "mlagreement_error_plot_argument")
  expect_error(ggplot2::autoplot(fit, n_labels = 0), class = "mlagreement_error_plot_argument")
  expect_error(ggplot2::autoplot(fit, type = "items", items = "nope"),
               class = "mlagreement_error_plot_argument")
})

test_that("items plot names the extreme items and selects items", {
  withr::local_seed(2)
  big <- mla(simulate_annotations(60, 3, 4, 0.3, scenario = "noisy", error = 0.3))
  p <- ggplot2::autoplot(big, type = "items", extremes = 2)
  it <- tidy(big, level = "item")
  it <- it[it$baseline == "fleiss" & !is.na(it$estimate), ]
  it <- it[order(it$estimate, it$item), ]
  named <- ggplot2::layer_data(p, 5)$label
  expect_setequal(named, as.character(c(it$item[1:2], it$item[nrow(it) - 0:1])))
  expect_match(p$labels$caption, paste0("Lowest: ", it$item[1]))
  expect_false(grepl("Lowest", ggplot2::autoplot(big, type = "items", extremes = 0)$labels$caption))
  sub <- ggplot2::autoplot(big, type = "items", items = c("i01", "i02", "i03"))
  expect_identical(nrow(ggplot2::layer_data(sub, 3)), 3L)
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

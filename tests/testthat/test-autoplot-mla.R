skip_if_not_installed("ggplot2")

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
  expect_mla_error(ggplot2::autoplot(fit, boot = list()), "plot_argument")
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
  expect_mla_error(ggplot2::autoplot(fit, labels = "nope"), "plot_argument")
  expect_mla_error(ggplot2::autoplot(fit, n_labels = 0), "plot_argument")
  expect_mla_error(ggplot2::autoplot(fit, type = "items", items = "nope"), "plot_argument")
})

test_that("items plot names the extreme items and selects items", {
  withr::local_seed(2)
  big <- mla(simulate_annotations(60, 3, 4, 0.3, scenario = "noisy", error = 0.3))
  p <- ggplot2::autoplot(big, type = "items", extremes = 2)
  it <- tidy(big, level = "item")
  it <- it[it$baseline == "fleiss" & !is.na(it$estimate), ]
  it <- it[order(it$estimate, it$item), ]
  named <- ggplot2::layer_data(p, 5)$label
  # one text per tied value of the 2 lowest and 2 highest, naming its items
  tied <- function(v) {
    items <- as.character(it$item[it$estimate == v])
    paste0(paste(head(items, 5), collapse = ", "), if (length(items) > 5) paste(" and", length(items) - 5, "more"))
  }
  values <- unique(it$estimate[it$estimate <= it$estimate[2] | it$estimate >= it$estimate[nrow(it) - 1]])
  # in the panel only ties of at most 5 items; the caption names every value
  small <- values[vapply(values, function(v) sum(it$estimate == v) <= 5L, TRUE)]
  expect_setequal(named, vapply(small, tied, ""))
  expect_identical(nrow(ggplot2::layer_data(p, 4)), sum(it$estimate %in% small))
  for (v in values) expect_match(gsub("\n", " ", p$labels$caption), tied(v), fixed = TRUE)
  expect_match(p$labels$caption, paste0("Lowest: ", it$item[1]))
  expect_false(grepl("Lowest", ggplot2::autoplot(big, type = "items", extremes = 0)$labels$caption))
  sub <- ggplot2::autoplot(big, type = "items", items = c("i01", "i02", "i03"))
  expect_identical(nrow(ggplot2::layer_data(sub, 3)), 3L)
})

test_that("autoplot() methods check their object and an items selection without coefficients", {
  fit <- bias_fit()
  methods <- c("mla", "mla_boot", "mla_annotator_agreement", "mla_analytic", "mla_simulation")
  for (m in methods) {
    method <- get(paste0("autoplot.", m), envir = asNamespace("mlagreement"))
    expect_mla_error(method(stats::lm(dist ~ speed, datasets::cars)), "plot_argument")
  }
  # items whose records have one annotation each have no coefficient
  arr <- array(c(1L, 0L, 1L, 1L, 0L, 1L, 0L, 1L, 1L, 0L, 1L, 0L), c(4, 3, 1),
               dimnames = list(paste0("i", 1:4), paste0("a", 1:3), "x"))
  arr[3:4, 2:3, ] <- NA
  few <- mla(arr)
  err <- expect_mla_error(ggplot2::autoplot(few, type = "items", items = c("i3", "i4")),
                          "plot_argument")
  expect_match(conditionMessage(err), "None of the 2 selected items", fixed = TRUE)
  expect_s3_class(ggplot2::autoplot(few, type = "items", items = c("i1", "i3")), "ggplot")
})

test_that("items plot: a large tie is named in the caption only, and a refusal says why", {
  # 30 items at perfect agreement, 10 in disagreement
  arr <- array(0L, c(40, 3, 2), dimnames = list(sprintf("i%02d", 1:40), NULL, NULL))
  arr[1:10, 1, 1] <- 1L
  arr[11:15, , 2] <- 1L
  fit <- mla(as_annotations(arr))
  p <- ggplot2::autoplot(fit, type = "items", extremes = 2)
  expect_match(gsub("\n", " ", p$labels$caption), "Highest: i11, i12, i13, i14, i15 and 25 more (1.00)",
               fixed = TRUE)
  expect_identical(length(p$layers), 3L)  # the lowest 10 tie too: no circle, no label
  # every label constant: the pooled chance agreement is 1, each item has two annotations
  const <- mla(array(0L, c(3, 2, 2)))
  expect_snapshot(ggplot2::autoplot(const, type = "items"), error = TRUE)
  expect_no_error(ggplot2::autoplot(mla(array(0L, c(3, 2, 2)), baseline = "ac1"), type = "items"))
})

test_that("with 30 items or fewer the extremes are named in the caption", {
  fit <- bias_fit()
  it <- tidy(fit, level = "item", baseline = "fleiss")
  low <- as.character(it$item[which.min(it$estimate)])
  high <- as.character(it$item[which.max(it$estimate)])
  p <- ggplot2::autoplot(fit, type = "items", extremes = 1)
  expect_match(gsub("\n", " ", p$labels$caption),
               sprintf("Lowest: %s (%.2f). Highest: %s (%.2f).", low, min(it$estimate), high, max(it$estimate)),
               fixed = TRUE)
  # every id is on the axis, sorted: no circles or text in the panel
  expect_identical(length(p$layers), 3L)
  expect_false(grepl("Lowest", ggplot2::autoplot(fit, type = "items", extremes = 0)$labels$caption))
})

test_that("labels plot: no label with a coefficient is refused with the reason", {
  const <- mla(array(0L, c(6, 3, 2)))
  expect_mla_snapshot(ggplot2::autoplot(const), "plot_argument")
  fit <- bias_fit()
  never <- tidy(fit, level = "label", baseline = "fleiss")
  never <- never$label[is.na(never$estimate)][1:2]
  err <- expect_mla_error(ggplot2::autoplot(fit, labels = never), "plot_argument")
  expect_match(conditionMessage(err), "No selected label has one", fixed = TRUE)
  expect_s3_class(ggplot2::autoplot(bias_fit(baseline = "ac1"), labels = never), "ggplot")
})

test_that("plots of category indicators of a single-label design name the multi-label baseline", {
  codes <- matrix(c("a", "a", "b", "c",  "a", "b", "b", "c",  "a", "a", "b", "b",
                    "c", "a", "b", "c",  "a", "a", "c", "c"), ncol = 4, byrow = TRUE)
  for (fit in list(mla(codes, labels = c("a", "b")), mla(codes, label_weights = c(a = 2)))) {
    p <- ggplot2::autoplot(fit)
    expect_identical(p$labels$x, "Label coefficient, pooled marginal (F) baseline")
    expect_no_match(p$labels$x, "kappa", fixed = TRUE)
  }
  # the single-label fit keeps its name
  expect_match(ggplot2::autoplot(mla(codes))$labels$x, "Fleiss' kappa", fixed = TRUE)
})

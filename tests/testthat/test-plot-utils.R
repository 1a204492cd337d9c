# Plot parts shared by the autoplot() methods (R/plot-utils.R), called
# directly: the theme, baseline and measure names and colours, and the
# choices that keep a plot readable (captions, axis text, label selection).
skip_if_not_installed("ggplot2")

test_that("theme_mla() is a complete minimal theme with the legend below", {
  th <- theme_mla()
  expect_s3_class(th, "theme")
  expect_identical(th$legend.position, "bottom")
  expect_s3_class(th$panel.grid.minor, "element_blank")
  expect_identical(th$plot.caption.position, "plot")
  expect_identical(th$strip.text$face, "bold")
  # built on theme_minimal(): no panel background
  expect_s3_class(th$panel.background, "element_blank")
})

test_that("baselines and measures get their display names, in baseline order", {
  f <- baseline_factor(c("pabak", "fleiss", "ac1", "fleiss"))
  expect_identical(levels(f), c("pooled marginal (F)", "AC1", "PABAK"))
  expect_identical(as.character(f), c("PABAK", "pooled marginal (F)", "AC1", "pooled marginal (F)"))
  expect_identical(display_measure(c("mla_ac1", "alpha_masi", "my_measure")),
                   c("MLA, AC1", "Alpha, MASI", "my_measure"))
  # the measures simulation_study() computes have display names
  withr::local_seed(1)
  st <- simulation_study(n_annotators = 3, n_items = 10, n_labels = 3, repeats = 1,
                         scenarios = "noisy", measures = c("mla", "alpha"))
  m <- unique(st$measure)
  expect_gt(length(m), 4)
  expect_false(any(display_measure(m) == m))
})

test_that("scale_colour_baseline() keeps one colour per baseline, unused ones too", {
  d <- data.frame(x = 1:2, y = 1:2, b = baseline_factor(c("ac1", "fleiss")))
  p <- ggplot2::ggplot(d, ggplot2::aes(x, y, colour = b)) + ggplot2::geom_point() +
    scale_colour_baseline()
  cols <- ggplot2::layer_data(p)$colour
  expect_identical(cols, c("#D55E00", "#0072B2"))
  built <- ggplot2::ggplot_build(p)
  sc <- built$plot$scales$get_scales("colour")
  expect_identical(sc$get_limits(), levels(d$b))   # drop = FALSE: PABAK in the legend
  expect_identical(sc$name, "Baseline")
})

test_that("wrap_caption() joins the parts and wraps them at the width", {
  expect_null(wrap_caption(c(NA, "")))
  expect_null(wrap_caption(character()))
  parts <- c(strrep("word ", 30), NA, "", "last sentence.")
  cap <- wrap_caption(parts, width = 40)
  lines <- strsplit(cap, "\n", fixed = TRUE)[[1]]
  expect_gt(length(lines), 1)
  expect_true(all(nchar(lines) <= 40))
  words <- function(s) strsplit(trimws(gsub("\\s+", " ", s)), " ", fixed = TRUE)[[1]]
  expect_identical(words(cap), words(paste(parts[c(1, 4)], collapse = " ")))
})

test_that("axis_text_size() fits n names into the space, or gives up below the minimum", {
  n <- c(1, 5, 20, 30, 37, 38, 100)
  size <- vapply(n, axis_text_size, 0)
  fits <- !is.na(size)
  # at most the maximum, and n names of that size (0.75 pt per pt of space) fit
  expect_true(all(size[fits] <= 8.8))
  expect_true(all(n[fits] * size[fits] <= 0.75 * 250 + 1e-12))
  expect_true(all(size[fits] >= 5))
  expect_identical(fits, n * 5 <= 0.75 * 250)      # NA exactly when 5 pt does not fit
  expect_equal(size[n == 30], 0.75 * 250 / 30)
  expect_identical(axis_text_size(1000, space_pt = 1e4), 7.5)
})

test_that("choose_labels() keeps the named labels, then the top ones by rank", {
  cand <- c("a", "b", "c", "d", "e")
  rank <- c(0.1, 0.9, 0.5, NA, 0.9)
  all <- choose_labels(cand, rank, NULL, NULL, 10, cand, "largest weights")
  expect_identical(all, list(labels = cand, note = NULL))
  top <- choose_labels(cand, rank, NULL, 3, 10, cand, "largest weights")
  # the three largest ranks (ties by position), in their original order
  expect_identical(top$labels, c("b", "c", "e"))
  expect_identical(top$note, "3 of 5 labels shown (largest weights); choose others with `labels`.")
  auto <- choose_labels(cand, rank, NULL, NULL, 2, cand, "w", arg = "labs")
  expect_identical(auto$labels, c("b", "e"))
  expect_match(auto$note, "^2 of 5 labels .* with `labs`\\.$")
  named <- choose_labels(cand, rank, c("d", "a"), NULL, 10, cand, "w")
  expect_identical(named$labels, c("a", "d"))
  expect_mla_error(choose_labels(cand, rank, "zz", NULL, 10, cand, "w"), "plot_argument")
})

test_that("check_plot_limit() takes NULL or a whole number of at least 1", {
  expect_null(check_plot_limit(NULL))
  expect_identical(check_plot_limit(3), 3L)
  err <- expect_mla_error(check_plot_limit(0, arg = "n_labels"), "plot_argument")
  expect_match(conditionMessage(err), "n_labels")
  expect_mla_error(check_plot_limit(2.5), "plot_argument")
})

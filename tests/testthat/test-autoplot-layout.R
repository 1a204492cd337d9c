# Every autoplot() type drawn at 7 x 5 in on the large designs of real
# studies (31 labels, an 800-annotator sparse crowd): no overlapping axis
# text, no tick label past the edge of the plot, no text of a text layer
# past its panel (where it is clipped), and no title, caption, axis title or
# legend wider than the plot. Measured on the drawn grob tree of a null PDF
# device.
skip_if_not_installed("ggplot2")

# Panels of a drawn gtable: their boxes on the device, in points.
panel_boxes <- function(g) {
  names <- g$layout$name[grepl("^panel", g$layout$name)]
  rows <- g$layout[g$layout$name %in% names, ]
  lapply(seq_len(nrow(rows)), function(r) {
    vp <- paste0(rows$name[r], ".", rows$t[r], "-", rows$r[r], "-", rows$b[r], "-", rows$l[r])
    grid::seekViewport(vp)
    lo <- grid::deviceLoc(grid::unit(0, "npc"), grid::unit(0, "npc"), valueOnly = TRUE)
    hi <- grid::deviceLoc(grid::unit(1, "npc"), grid::unit(1, "npc"), valueOnly = TRUE)
    grid::upViewport(0)
    c(x0 = lo$x, x1 = hi$x, y0 = lo$y, y1 = hi$y) * 72
  })
}

text_size <- function(p, element) {
  el <- ggplot2::calc_element(element, ggplot2::theme_get() + p$theme)
  if (inherits(el, "element_blank")) return(NA_real_)
  list(size = el$size, angle = if (is.null(el$angle)) 0 else el$angle)
}

string_pt <- function(s, size) {
  vapply(s, function(one) grid::convertWidth(grid::stringWidth(one), "pt", TRUE) *
           size / grid::get.gpar("fontsize")$fontsize, 1)
}

# Overlaps of the tick labels along one axis of each panel (and between
# neighbouring panels of a row): returns the offending label pairs.
axis_overlaps <- function(p, built, boxes, axis) {
  el <- text_size(p, if (axis == "x") "axis.text.x.bottom" else "axis.text.y.left")
  if (!is.list(el)) return(character())
  along_width <- (axis == "x") == (el$angle %% 180 == 0)
  spans <- list()
  for (i in seq_along(boxes)) {
    pp <- built$layout$panel_params[[i]][[axis]]
    labs <- pp$get_labels()
    pos <- pp$break_positions()
    ok <- !is.na(pos) & !is.na(labs)
    labs <- as.character(labs[ok]); pos <- pos[ok]
    if (length(labs) == 0L) next
    b <- boxes[[i]]
    b <- unname(b)
    centre <- if (axis == "x") b[1] + pos * (b[2] - b[1]) else b[3] + pos * (b[4] - b[3])
    extent <- if (along_width) string_pt(labs, el$size) else rep(el$size, length(labs))
    key <- if (axis == "x") round(b[3]) else round(b[1])
    spans[[length(spans) + 1L]] <- data.frame(key = key, lab = labs, lo = centre - extent / 2,
                                              hi = centre + extent / 2)
  }
  if (length(spans) == 0L) return(character())
  s <- do.call(rbind, spans)
  bad <- character()
  for (k in unique(s$key)) {
    r <- s[s$key == k, ]
    r <- r[order(r$lo), ]
    hit <- which(r$lo[-1] < r$hi[-nrow(r)])
    bad <- c(bad, paste(r$lab[hit], r$lab[hit + 1L], sep = " / "))
  }
  bad
}

# Tick labels that reach past the edges of the drawn plot (cut off there).
axis_edge_clips <- function(p, built, boxes, axis, width_pt, height_pt) {
  el <- text_size(p, if (axis == "x") "axis.text.x.bottom" else "axis.text.y.left")
  if (!is.list(el)) return(character())
  along_width <- (axis == "x") == (el$angle %% 180 == 0)
  bad <- character()
  for (i in seq_along(boxes)) {
    pp <- built$layout$panel_params[[i]][[axis]]
    labs <- pp$get_labels()
    pos <- pp$break_positions()
    ok <- !is.na(pos) & !is.na(labs)
    labs <- as.character(labs[ok]); pos <- pos[ok]
    if (length(labs) == 0L) next
    b <- unname(boxes[[i]])
    centre <- if (axis == "x") b[1] + pos * (b[2] - b[1]) else b[3] + pos * (b[4] - b[3])
    extent <- if (along_width) string_pt(labs, el$size) else rep(el$size, length(labs))
    limit <- if (axis == "x") width_pt else height_pt
    out <- centre - extent / 2 < -0.5 | centre + extent / 2 > limit + 0.5
    if (any(out)) bad <- c(bad, paste0(axis, " tick label ", labs[out], " past the plot edge"))
  }
  unique(bad)
}

# Text of geom_text() layers that reaches past its panel (clipped there).
text_layer_clips <- function(p, built, boxes) {
  bad <- character()
  for (l in seq_along(p$layers)) {
    if (!inherits(p$layers[[l]]$geom, "GeomText")) next
    d <- built$data[[l]]
    for (r in seq_len(nrow(d))) {
      panel <- as.integer(d$PANEL[r])
      pp <- built$layout$panel_params[[panel]]
      b <- unname(boxes[[panel]])
      x <- b[1] + (d$x[r] - pp$x.range[1]) / diff(pp$x.range) * (b[2] - b[1])
      w <- string_pt(as.character(d$label[r]), d$size[r] * ggplot2::.pt)
      lo <- x - d$hjust[r] * w
      if (lo < b[1] - 0.5 || lo + w > b[2] + 0.5) bad <- c(bad, paste0("text ", d$label[r], " past its panel"))
    }
  }
  bad
}

# A title grob has a flexible width: measure its text.
grob_width_pt <- function(grob) {
  if (inherits(grob, "titleGrob")) {
    texts <- Filter(function(ch) inherits(ch, "text"), grob$children)
    return(max(vapply(texts, function(t) grid::convertWidth(grid::grobWidth(t), "pt", TRUE), 1)))
  }
  grid::convertWidth(grid::grobWidth(grob), "pt", TRUE)
}

# Plot parts wider (or, for the y title, taller) than the plot.
clipped_parts <- function(g, width_pt, height_pt) {
  out <- character()
  for (nm in c("title", "subtitle", "caption", "xlab-b", "guide-box-bottom", "guide-box")) {
    idx <- which(g$layout$name == nm)
    if (length(idx) == 0L || inherits(g$grobs[[idx]], "zeroGrob")) next
    w <- grob_width_pt(g$grobs[[idx]])
    if (w > width_pt + 0.5) out <- c(out, paste0(nm, " (", round(w), " pt of ", width_pt, ")"))
  }
  idx <- which(g$layout$name == "ylab-l")
  if (length(idx) == 1L && !inherits(g$grobs[[idx]], "zeroGrob")) {
    text <- Filter(function(ch) inherits(ch, "text"), g$grobs[[idx]]$children)[[1]]
    h <- grid::convertWidth(grid::stringWidth(text$label), "pt", TRUE) *
      text$gp$fontsize / grid::get.gpar("fontsize")$fontsize
    if (h > height_pt) out <- c(out, "ylab-l")
  }
  out
}

layout_problems <- function(p, width = 7, height = 5, png = NULL) {
  if (!is.null(png)) ggplot2::ggsave(png, p, width = width, height = height, dpi = 96, bg = "white")
  grDevices::pdf(NULL, width = width, height = height)
  on.exit(grDevices::dev.off())
  g <- ggplot2::ggplotGrob(p)
  grid::grid.newpage()
  grid::grid.draw(g)
  boxes <- panel_boxes(g)
  built <- ggplot2::ggplot_build(p)
  c(axis_overlaps(p, built, boxes, "x"), axis_overlaps(p, built, boxes, "y"),
    axis_edge_clips(p, built, boxes, "x", width * 72, height * 72),
    axis_edge_clips(p, built, boxes, "y", width * 72, height * 72),
    text_layer_clips(p, built, boxes), clipped_parts(g, width * 72, height * 72))
}

artifact <- function(name) {
  dir <- Sys.getenv("MLA_TEST_ARTIFACTS", tempdir())
  dir.create(dir, showWarnings = FALSE, recursive = TRUE)
  file.path(dir, paste0("plot-", name, ".png"))
}

expect_readable <- function(p, name) {
  problems <- layout_problems(p, png = artifact(name))
  expect_identical(problems, character(), label = paste0(name, ": layout problems"))
}

large_designs <- function() {
  withr::local_seed(17)
  labels31 <- mla(annotations_long(bias_example, item, annotator, label, value), baseline = "ac1")
  sim31 <- simulate_annotations(300, 4, 31, prevalence = seq(0.02, 0.6, length.out = 31),
                                scenario = "noisy", error = 0.15)
  crowd <- crowd_design()
  list(bias = labels31, sim31 = mla(sim31), crowd_x = crowd, crowd = mla(crowd))
}
designs <- large_designs()

test_that("the layout check finds overlapping axis text and clipped captions", {
  fit <- designs$sim31
  crowded <- ggplot2::autoplot(fit) + ggplot2::theme(axis.text.y = ggplot2::element_text(size = 14))
  expect_true(any(grepl(" / ", layout_problems(crowded))))
  long <- ggplot2::autoplot(fit) + ggplot2::labs(caption = strrep("too long ", 40))
  expect_true(any(grepl("^caption", layout_problems(long))))
  tall <- ggplot2::autoplot(fit) + ggplot2::labs(y = strrep("too long ", 20))
  expect_true("ylab-l" %in% layout_problems(tall))
  ticks <- ggplot2::ggplot(data.frame(x = c(0, 1), y = 1, f = c("a", "b", "c", "d")),
                           ggplot2::aes(x, y)) + ggplot2::geom_point() +
    ggplot2::facet_wrap(~f, nrow = 1) +
    ggplot2::scale_x_continuous(breaks = c(0, 0.5, 1), labels = c("0.000", "0.500", "1.000"),
                                expand = c(0, 0)) +
    ggplot2::theme(panel.spacing = ggplot2::unit(0, "pt"))
  expect_true(any(grepl("1.000 / 0.000", layout_problems(ticks))))
  edge <- ggplot2::ggplot(data.frame(x = c(0, 0.8), y = 1), ggplot2::aes(x, y)) +
    ggplot2::geom_point() +
    ggplot2::scale_x_continuous(breaks = c(0, 0.8), labels = c("0.000", "0.800"), expand = c(0, 0))
  expect_true("x tick label 0.800 past the plot edge" %in% layout_problems(edge))
  expect_identical(layout_problems(edge + theme_mla()), character())  # the package's margin
  cut <- ggplot2::ggplot(data.frame(x = c(0, 1), y = 1, l = c("", "a long item name")),
                         ggplot2::aes(x, y, label = l)) + ggplot2::geom_text(hjust = 0)
  expect_true("text a long item name past its panel" %in% layout_problems(cut))
})

test_that("the report's plots are readable at 7 x 5 in, tied items all named", {
  withr::local_seed(3)
  fit <- designs$bias
  bs <- without_few_items_warning(mla_boot(fit, R = 50))
  expect_readable(without_interval_warnings(ggplot2::autoplot(fit, boot = bs)), "report-labels")
  expect_readable(ggplot2::autoplot(fit, type = "prevalence"), "report-prevalence")
  expect_readable(ggplot2::autoplot(annotator_agreement(designs$bias$annotations)), "report-annotators")
  # 40 items, three of them tied at the top (perfect agreement)
  arr <- array(stats::rbinom(40 * 3 * 4, 1, 0.4), c(40, 3, 4),
               dimnames = list(sprintf("item%02d", 1:40), NULL, NULL))
  arr[38:40, , ] <- rep(c(1, 0, 1, 0), each = 9)
  tied <- mla(as_annotations(arr))
  p <- ggplot2::autoplot(tied, type = "items", extremes = 3)
  named <- ggplot2::layer_data(p, 5)$label
  top <- tidy(tied, level = "item", baseline = tied$baseline)
  top <- top$item[top$estimate == max(top$estimate, na.rm = TRUE)]
  expect_true(all(vapply(as.character(top), function(i) any(grepl(i, named, fixed = TRUE)), TRUE)))
  expect_readable(p, "report-items-tied")
  expect_readable(ggplot2::autoplot(fit, type = "items"), "report-items")
})

test_that("label, prevalence and item plots are readable with 31 labels", {
  skip_long()
  for (d in c("bias", "sim31")) {
    fit <- designs[[d]]
    expect_readable(ggplot2::autoplot(fit), paste0(d, "-labels"))
    expect_readable(ggplot2::autoplot(fit, type = "prevalence"), paste0(d, "-prevalence"))
    expect_readable(ggplot2::autoplot(fit, type = "items"), paste0(d, "-items"))
  }
})

test_that("plots of an 800-annotator crowd are readable", {
  skip_long()
  fit <- designs$crowd
  expect_readable(ggplot2::autoplot(fit), "crowd-labels")
  expect_readable(ggplot2::autoplot(fit, type = "items"), "crowd-items")
  expect_readable(ggplot2::autoplot(fit, type = "prevalence"), "crowd-prevalence")
  agr <- annotator_agreement(designs$crowd_x)
  p <- ggplot2::autoplot(agr)
  expect_match(p$labels$caption, "40 of 79[0-9] annotators shown")
  # tiles with a score and pairs below min_items (their own layer) together
  drawn <- c(ggplot2::layer_data(p, 1)$x, if (length(p$layers) > 1) ggplot2::layer_data(p, 2)$x)
  expect_identical(nlevels(factor(drawn)), 40L)
  expect_readable(p, "crowd-annotators")
  expect_readable(ggplot2::autoplot(agr, n_annotators = 800, min_overlap = 2), "crowd-annotators-all")
})

test_that("bootstrap and simulation plots are readable", {
  skip_long()
  withr::local_seed(5)
  bs <- mla_boot(designs$sim31, R = 100)
  expect_readable(without_interval_warnings(ggplot2::autoplot(bs)), "boot-corpus")
  p <- without_interval_warnings(ggplot2::autoplot(bs, level = "label"))
  expect_match(p$labels$caption, "12 of 31 labels shown")
  expect_identical(length(unique(ggplot2::layer_data(p, 2)$PANEL)), 12L)
  expect_readable(p, "boot-label")
  expect_readable(without_interval_warnings(ggplot2::autoplot(designs$sim31, boot = bs)),
                  "sim31-labels-boot")
  st <- simulation_study(n_annotators = 3, n_items = 20, n_labels = 4, repeats = 2,
                         scenarios = c("noisy", "independent"), R = 5)
  p <- ggplot2::autoplot(st)
  expect_true("MLA, pooled marginal" %in% levels(p$data$measure))
  expect_false(any(levels(p$data$measure) %in% unique(st$measure)))
  expect_readable(p, "simulation")
  expect_readable(ggplot2::autoplot(analytic_agreement(), simulation = st), "analytic")
})

test_that("annotator bias plots are readable with 31 labels and an 800-annotator crowd", {
  b <- annotator_bias(simulate_annotations(300, 4, 31, prevalence = seq(0.02, 0.6, length.out = 31),
                                           scenario = "noisy", error = 0.15))
  expect_readable(ggplot2::autoplot(b), "bias-sim31")
  crowd <- suppressMessages(annotator_bias(designs$crowd_x))
  expect_readable(ggplot2::autoplot(crowd), "bias-crowd")
})

# Facet titles wider (top) or taller (right) than their panels, and a y axis
# title longer than the panels beside it: ggplot2 clips them.
grob_texts <- function(grob) {
  if (inherits(grob, "text")) return(list(grob))
  kids <- c(if (inherits(grob, "gtable")) grob$grobs, grob$children)
  unlist(lapply(kids, grob_texts), recursive = FALSE)
}
text_extent_pt <- function(t) {
  lines <- strsplit(as.character(t$label), "\n", fixed = TRUE)[[1]]
  size <- if (is.null(t$gp$fontsize)) grid::get.gpar("fontsize")$fontsize else t$gp$fontsize
  max(string_pt(lines, size))
}
cut_titles <- function(p, width = 7, height = 5) {
  grDevices::pdf(NULL, width = width, height = height)
  on.exit(grDevices::dev.off())
  g <- ggplot2::ggplotGrob(p)
  grid::grid.newpage()
  grid::grid.draw(g)
  boxes <- do.call(rbind, panel_boxes(g))
  room <- c(t = min(boxes[, "x1"] - boxes[, "x0"]), r = min(boxes[, "y1"] - boxes[, "y0"]),
            l = max(boxes[, "y1"]) - min(boxes[, "y0"]))
  bad <- character()
  for (i in grep("^strip-[tr]|^ylab-l$", g$layout$name)) {
    side <- if (g$layout$name[i] == "ylab-l") "l" else substr(g$layout$name[i], 7, 7)
    for (t in grob_texts(g$grobs[[i]])) {
      if (text_extent_pt(t) > room[[side]] + 0.5) bad <- c(bad, paste0(side, ": ", t$label))
    }
  }
  bad
}

test_that("long item ids, long label names and facet titles fit at 7 x 5 in", {
  withr::local_seed(1)
  x <- simulate_annotations(12, 3, 4, prevalence = 0.3, scenario = "noisy", error = 0.2)
  d <- as.data.frame(x)
  d$item <- paste0("https://example.org/corpus/documents/2024/batch-07/item_", d$item)
  fit <- mla(annotations_long(d, item, annotator, label, value))
  p <- ggplot2::autoplot(fit, type = "items")
  shown <- ggplot2::ggplot_build(p)$layout$panel_params[[1]]$x$get_labels()
  expect_true(all(nchar(shown) <= 20L))
  expect_false(anyDuplicated(shown) > 0)
  expect_true(all(grepl("...", shown, fixed = TRUE) & grepl("item_i[0-9]+$", shown)))
  expect_identical(cut_titles(p), character())
  expect_readable(p, "items-long-ids")
  # the full ids stay in tidy()
  expect_setequal(as.character(tidy(fit, level = "item", baseline = "fleiss")$item), unique(d$item))

  y <- simulate_annotations(40, 3, 6, prevalence = 0.2, scenario = "noisy", error = 0.1)
  d2 <- as.data.frame(y)
  d2$label <- paste("A very long label name describing category", as.integer(factor(d2$label)), "in detail")
  fit2 <- mla(annotations_long(d2, item, annotator, label, value))
  pv <- ggplot2::autoplot(fit2, type = "prevalence")
  expect_identical(cut_titles(pv), character())
  expect_readable(pv, "prevalence-long-labels")

  withr::local_seed(2)
  study <- simulation_study(n_annotators = c(3, 5), n_items = 20, n_labels = 5, repeats = 2,
                            measures = "mla")
  ps <- ggplot2::autoplot(study, measures = c("mla_fleiss", "mla_ac1", "mla_pabak"), by = "n_annotators")
  expect_identical(cut_titles(ps), character())
  expect_readable(ps, "simulation-by")
})

test_that("truncate_ids() keeps short ids and makes long ones short and distinct", {
  expect_identical(truncate_ids(c("a", "bb")), c("a", "bb"))
  ids <- paste0(strrep("x", 30), c("_001", "_002"))
  out <- truncate_ids(ids, 20)
  expect_true(all(nchar(out) == 20L))
  expect_identical(anyDuplicated(out), 0L)
  expect_true(all(endsWith(out, c("_001", "_002"))))
  mid <- paste0("p", c("A", "B"), strrep("y", 40))   # differ only near the start
  expect_identical(anyDuplicated(truncate_ids(mid, 20)), 0L)
  same_ends <- paste0(strrep("a", 12), c("1", "2"), strrep("b", 20))  # differ in the middle
  expect_identical(anyDuplicated(truncate_ids(same_ends, 20)), 0L)
})

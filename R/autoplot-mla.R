#' Plot a Multi-Label Agreement fit
#'
#' Draws one of three diagnostic plots of an [mla()] fit with ggplot2. The
#' plot is returned, not printed; add layers, scales or themes as usual.
#' Every plot stays readable at 7 x 5 in on large designs: axis text shrinks
#' with the number of labels, long captions are wrapped, and beyond 40
#' labels only the 40 that matter most are shown (said in the caption; choose
#' others with `labels` and `n_labels`).
#'
#' * `"labels"`: the label coefficients under the primary baseline, with the
#'   eq. 6 weight of each label as point size (labels with more weight move
#'   the corpus value more) and the corpus coefficient as a dashed line.
#'   With `boot` (an `mla_boot` from `mla_boot()`), bootstrap confidence
#'   intervals from `tidy(boot, level = "label")` (`conf.low`, `conf.high`)
#'   are added. Labels whose coefficient is undefined (e.g. never selected,
#'   under the pooled baseline) are left out and counted in the caption. When
#'   labels must be dropped, those with the largest weight are kept.
#' * `"items"`: the item-level coefficients (diagnostics relative to the
#'   corpus baseline, paper section 3.2), sorted. Items below 0 agree less
#'   than the corpus chance baseline predicts and are marked as difficult;
#'   the `extremes` lowest and highest items are named in the caption, so the
#'   difficult items can be found. Up to 30 items every item is named on the
#'   axis (ids longer than 20 characters shortened with an ellipsis; the full
#'   ids are in `tidy(fit, level = "item")`), so the extremes are its two
#'   ends; beyond 30 they are also circled and labelled in the panel.
#' * `"prevalence"`: each label's prevalence \eqn{p_j} next to its positive
#'   and negative specific agreement (paper section 3.6). When labels must be
#'   dropped, the most prevalent are kept.
#'
#' @param object An `mla` object.
#' @param type `"labels"`, `"items"` or `"prevalence"`.
#' @param boot Optional `mla_boot` object fitted on `object`, for confidence
#'   intervals in the `"labels"` plot.
#' @param labels Labels to show (`"labels"` and `"prevalence"` plots), a
#'   character vector of names of the fit's label universe; `NULL` = all.
#' @param n_labels Show at most this many labels; `NULL` = all up to 40.
#' @param items Items to show in the `"items"` plot; `NULL` = all.
#' @param extremes Number of lowest and of highest items named in the
#'   caption of the `"items"` plot, and marked in the panel when it has more
#'   than 30 items (0 = none).
#' @inheritParams mla
#' @return A ggplot object.
#' @family plots
#' @exportS3Method ggplot2::autoplot
#' @examplesIf rlang::is_installed("ggplot2")
#' fit <- mla(annotations_long(bias_example, item, annotator, label, value))
#' ggplot2::autoplot(fit)
#' ggplot2::autoplot(fit, labels = c("L01", "L02", "L03"))
#' ggplot2::autoplot(fit, type = "items", extremes = 1)
#' ggplot2::autoplot(fit, type = "prevalence", n_labels = 12)
autoplot.mla <- function(object, type = c("labels", "items", "prevalence"), boot = NULL,
                         labels = NULL, n_labels = NULL, items = NULL, extremes = 3, ...) {
  rlang::check_installed("ggplot2", reason = "to plot agreement results.")
  check_dots_empty0(...)
  check_inherits(object, "mla", "mla", class = "plot_argument")
  type <- check_choice(type, c("labels", "items", "prevalence"))
  n_labels <- check_plot_limit(n_labels)
  extremes <- check_whole(extremes, min = 0, class = "plot_argument")
  if (!is.null(boot) && type != "labels") {
    mla_abort(
      c("{.arg boot} is only used by {.code type = \"labels\"}.",
        "x" = "{.arg type} is {.val {type}}."),
      class = "plot_argument"
    )
  }
  if (!is.null(items)) {
    items <- check_choice(id_text(items), id_text(item_ids(object$annotations)),
                          multiple = TRUE, arg_name = "items", class = "plot_argument")
  }
  switch(type,
         labels = plot_mla_labels(object, boot, labels, n_labels),
         items = plot_mla_items(object, items, extremes),
         prevalence = plot_mla_prevalence(object, labels, n_labels))
}

# Display name of a fit's primary baseline.
fit_baseline_name <- function(fit, short = FALSE) {
  if (is_single_label_fit(fit)) return(c(baseline_display_single, conger_display_single)[[fit$baseline]])
  if (short) c(baseline_plot_short, conger_plot_short)[[fit$baseline]] else c(baseline_display, conger_display)[[fit$baseline]]
}

primary_label_rows <- function(fit) {
  # point values only: intervals come from the bootstrap when one is given
  lab <- generics::tidy(fit, level = "label", conf.int = FALSE)
  lab <- lab[lab$baseline == fit$baseline, ]
  lab$label <- as.character(lab$label)
  lab
}

# Labels with a value: at most n_labels (auto 40), ranked by `rank_by`; the
# y axis follows `order_by` (ties by universe order).
select_label_rows <- function(lab, fit, labels, n_labels, rank_by, why, order_by) {
  chosen <- choose_labels(lab$label, lab[[rank_by]], labels, n_labels, auto_max = 40L,
                          universe = fit$labels, why = why)
  lab <- lab[lab$label %in% chosen$labels, ]
  lab$label <- factor(lab$label, levels = lab$label[order(lab[[order_by]], match(lab$label, fit$labels))])
  list(rows = lab, note = chosen$note)
}

plot_mla_labels <- function(fit, boot, labels, n_labels, call = rlang::caller_env()) {
  lab <- primary_label_rows(fit)
  defined <- !is.na(lab$estimate)
  if (!is.null(labels)) defined <- defined & lab$label %in% labels
  n_undefined <- sum(is.na(lab$estimate) & (is.null(labels) | lab$label %in% labels))
  if (!any(defined)) abort_no_label_coefficient(fit, lab, labels, call)
  sel <- select_label_rows(lab[defined, ], fit, labels, n_labels, "weight",
                           "largest eq. 6 weights", "estimate")
  lab <- sel$rows
  corpus <- fit$corpus$estimate[fit$corpus$baseline == fit$baseline]
  p <- ggplot2::ggplot(lab, ggplot2::aes(x = .data$estimate, y = .data$label)) +
    ggplot2::geom_vline(xintercept = 0, colour = "grey70") +
    ggplot2::geom_vline(xintercept = corpus, linetype = "dashed", colour = "grey30")
  if (!is.null(boot)) {
    ci <- boot_label_intervals(boot, fit, call = call)
    lab <- merge(lab, ci, by = "label", all.x = TRUE, sort = FALSE)
    p <- p + ggplot2::geom_errorbarh(
      data = lab[!is.na(lab$conf.low), ],
      ggplot2::aes(xmin = .data$conf.low, xmax = .data$conf.high, y = .data$label),
      height = 0.25, colour = "grey40", inherit.aes = FALSE
    )
  }
  caption <- c(
    paste0("Dashed line: corpus coefficient ", format_fixed(corpus, 3), "."),
    if (!is.null(boot)) "Bars: bootstrap confidence intervals.",
    if (n_undefined > 0) paste0(n_undefined, " label", if (n_undefined > 1) "s" else "",
                                " with undefined coefficient not shown."),
    sel$note
  )
  p +
    ggplot2::geom_point(ggplot2::aes(size = .data$weight), colour = "#0072B2") +
    ggplot2::scale_size_area(name = "Weight (eq. 6)", max_size = 6) +
    scale_y_label_names() +
    ggplot2::labs(x = paste0("Label coefficient, ", fit_baseline_name(fit), " baseline"),
                  y = NULL, caption = wrap_caption(caption)) +
    theme_mla() +
    label_axis_theme(nlevels(lab$label), "y", space_pt = 300)
}

# No label (of the selection) has a coefficient under the primary baseline:
# an empty panel would say nothing, the notes of tidy() say why.
abort_no_label_coefficient <- function(fit, lab, labels, call) {
  chosen <- is.null(labels) | lab$label %in% labels
  why <- unique(stats::na.omit(lab$note[chosen]))
  other <- fit$label[fit$label$baseline != fit$baseline & !is.na(fit$label$estimate) &
                       (is.null(labels) | fit$label$label %in% labels), ]
  mla_abort(
    c("The {.val labels} plot needs at least one label with a coefficient.",
      "x" = "No {if (is.null(labels)) '' else 'selected '}label has one under the {fit_baseline_name(fit)} baseline{if (length(why)) paste0(': ', why[1]) else ''}.",
      "i" = if (nrow(other) > 0L) "Another baseline, such as {.code baseline = {deparse(other$baseline[1])}}, has label coefficients here."),
    class = "plot_argument", call = call
  )
}

# Axis text sized to the number of names on a discrete axis ("x" or "y");
# blank when even small text would overlap.
label_axis_theme <- function(n, axis, space_pt = 250) {
  size <- axis_text_size(n, space_pt)
  el <- if (is.na(size)) ggplot2::element_blank() else ggplot2::element_text(size = size)
  if (axis == "y") ggplot2::theme(axis.text.y = el) else ggplot2::theme(axis.text.x = el)
}

# Confidence intervals per label from an mla_boot (primary baseline).
boot_label_intervals <- function(boot, fit, call = rlang::caller_env()) {
  check_inherits(boot, "mla_boot", "mla_boot", call = call, class = "plot_argument")
  ci <- generics::tidy(boot, level = "label")
  needed <- c("label", "conf.low", "conf.high")
  if (!all(needed %in% names(ci))) {
    mla_abort("{.code tidy(boot, level = \"label\")} must have columns {.val {needed}}.",
              class = "plot_argument", call = call)
  }
  if ("baseline" %in% names(ci)) ci <- ci[ci$baseline == fit$baseline, ]
  unknown <- setdiff(ci$label, fit$labels)
  if (length(unknown) > 0L) {
    mla_abort(
      c("{.arg boot} must be a bootstrap of {.arg object}.",
        "x" = "It has labels the fit does not: {format_first(unknown)}."),
      class = "plot_argument", call = call
    )
  }
  as.data.frame(ci[needed])
}

plot_mla_items <- function(fit, items, extremes, call = rlang::caller_env()) {
  it <- generics::tidy(fit, level = "item")
  it <- it[it$baseline == fit$baseline, ]
  if (!is.null(items)) it <- it[id_text(it$item) %in% items, ]
  n_unpaired <- sum(is.na(it$observed))
  if (all(is.na(it$estimate))) abort_no_item_coefficient(fit, nrow(it), n_unpaired, call)
  it <- it[!is.na(it$estimate), ]
  it <- it[order(it$estimate, it$item), ]
  it$rank <- seq_len(nrow(it))
  it$difficult <- factor(ifelse(it$estimate < 0, "below chance", "at or above chance"),
                         levels = c("below chance", "at or above chance"))
  corpus <- fit$corpus$estimate[fit$corpus$baseline == fit$baseline]
  show_names <- nrow(it) <= 30L
  # up to 30 items the caption names them as the axis does
  ext <- item_extremes(if (show_names) axis_item_names(it) else it, extremes)
  caption <- c(
    paste0(sum(it$estimate < 0), " of ", nrow(it), " items below the corpus chance baseline (difficult)."),
    paste0("Dashed line: corpus coefficient ", format_fixed(corpus, 3), "."),
    if (n_unpaired > 0) paste0(n_unpaired, " item", if (n_unpaired > 1) "s" else "",
                               " with fewer than two annotations not shown."),
    ext$note
  )
  p <- ggplot2::ggplot(it, ggplot2::aes(x = .data$rank, y = .data$estimate)) +
    ggplot2::geom_hline(yintercept = 0, colour = "grey70") +
    ggplot2::geom_hline(yintercept = corpus, linetype = "dashed", colour = "grey30") +
    ggplot2::geom_point(ggplot2::aes(colour = .data$difficult), size = if (show_names) 2.5 else 1.5) +
    ggplot2::scale_colour_manual(values = c("below chance" = "#D55E00",
                                            "at or above chance" = "#0072B2"),
                                 name = NULL, drop = FALSE) +
    ggplot2::labs(x = if (show_names) NULL else "Items, sorted by agreement",
                  y = paste0("Item coefficient\n(", fit_baseline_name(fit, short = TRUE), ")"),
                  caption = wrap_caption(caption)) +
    theme_mla()
  # with every id on the axis the extremes are its ends: named in the caption only
  if (nrow(ext$rows) > 0L && !show_names) {
    p <- p +
      ggplot2::geom_point(data = ext$rows, shape = 21, size = 3, colour = "grey20", fill = NA) +
      ggplot2::geom_text(data = ext$text, ggplot2::aes(label = .data$item, hjust = .data$hjust),
                         size = 2.8, nudge_y = 0, vjust = 0.5)
  }
  if (show_names) {
    names <- axis_item_names(it)$item
    p <- p + ggplot2::scale_x_continuous(breaks = it$rank, labels = names) +
      item_axis_theme(names)
  }
  p
}

# Item coefficients are undefined when no item has two annotations, or all
# at once when the corpus chance agreement is 1 (they are relative to it).
abort_no_item_coefficient <- function(fit, n_items, n_unpaired, call) {
  corpus <- fit$notes$reason[fit$notes$level == "corpus" & fit$notes$baseline %in% fit$baseline]
  why <- if (n_unpaired == n_items) {
    c("x" = "None of the {n_items} selected item{?s} ha{?s/ve} two or more annotations.")
  } else {
    c("x" = "Item coefficients are relative to the corpus chance agreement, and the corpus coefficient is undefined{if (length(corpus)) paste0(': ', corpus[1]) else ''}.",
      "i" = "Another baseline, such as {.code baseline = \"ac1\"}, has item coefficients here.")
  }
  mla_abort(c("The {.val items} plot needs at least one item with a coefficient.", why),
            class = "plot_argument", call = call)
}

# Item ids as the x axis shows them: at most 20 characters (R/plot-utils.R).
axis_item_names <- function(it) {
  it$item <- truncate_ids(id_text(it$item))
  it
}

# Item names on the x axis: horizontal while they fit, else vertical.
item_axis_theme <- function(names) {
  per_tick <- 430 / max(length(names), 1)          # points per item on a 7 in panel
  widest <- max(nchar(names)) * 0.55 * 8.8
  if (widest < per_tick * 0.9) return(ggplot2::theme())
  ggplot2::theme(axis.text.x = ggplot2::element_text(angle = 90, hjust = 1, vjust = 0.5,
                                                     size = min(8.8, per_tick * 0.8)))
}

# The `n` lowest and `n` highest items and every item tied with one of them,
# named in the caption; a tied value of at most `kInPanelTies` items is also
# circled (`rows`) and labelled (`text`, all its items), while a larger tie
# (often hundreds of items at 1) would hide the colours and outgrow its label.
kInPanelTies <- 5L
item_extremes <- function(it, n) {
  n <- min(n, floor(nrow(it) / 2))
  if (n == 0L) return(list(rows = it[0, ], text = it[0, ], note = NULL))
  low <- which(it$estimate <= it$estimate[n])
  high <- setdiff(which(it$estimate >= it$estimate[nrow(it) - n + 1L]), low)
  small_ties <- function(idx) {
    value <- match(it$estimate[idx], unique(it$estimate[idx]))
    idx[tabulate(value)[value] <= kInPanelTies]
  }
  low_in <- small_ties(low)
  high_in <- small_ties(high)
  rows <- it[c(low_in, high_in), ]
  rows$item <- id_text(rows$item)
  groups <- function(idx, inner, hjust) {
    if (length(idx) == 0L) return(NULL)
    g <- it[idx, ]
    keys <- unique(g$estimate)
    out <- g[match(keys, g$estimate), ]
    out$rank <- vapply(keys, function(k) inner(g$rank[g$estimate == k]), 1)
    out$item <- vapply(keys, function(k) tied_names(g$item[g$estimate == k]), "")
    out$hjust <- rep(hjust, nrow(out))
    out
  }
  text <- rbind(groups(low_in, max, -0.3), groups(high_in, min, 1.3))
  show <- function(idx) {
    g <- it[idx, ]
    keys <- unique(g$estimate)
    paste0(vapply(keys, function(k) tied_names(g$item[g$estimate == k]), ""),
           " (", format_fixed(keys, 2), ")", collapse = ", ")
  }
  note <- paste0("Lowest: ", show(low), ".", if (length(high)) paste0(" Highest: ", show(high), "."))
  list(rows = rows, text = text, note = note)
}

tied_names <- function(items, n = kInPanelTies) {
  items <- id_text(items)
  out <- paste(utils::head(items, n), collapse = ", ")
  if (length(items) > n) out <- paste0(out, " and ", length(items) - n, " more")
  out
}

plot_mla_prevalence <- function(fit, labels, n_labels) {
  lab <- primary_label_rows(fit)
  lab <- lab[!is.na(lab$prevalence), ]
  sel <- select_label_rows(lab, fit, labels, n_labels, "prevalence",
                           "most prevalent", "prevalence")
  lab <- sel$rows
  quantities <- c("Prevalence", "Positive agreement", "Negative agreement")
  long <- tibble::tibble(
    label = factor(rep(as.character(lab$label), 3L), levels = levels(lab$label)),
    quantity = factor(rep(quantities, each = nrow(lab)), levels = quantities),
    value = c(lab$prevalence, lab$positive_agreement, lab$negative_agreement)
  )
  n_na <- sum(is.na(long$value))
  long <- long[!is.na(long$value), ]
  caption <- c(
    if (n_na > 0) paste0(n_na, " undefined specific agreement value", if (n_na > 1) "s" else "",
                         " (no positive or no negative decisions) not shown."),
    sel$note
  )
  ggplot2::ggplot(long, ggplot2::aes(x = .data$value, y = .data$label)) +
    ggplot2::geom_segment(ggplot2::aes(x = 0, xend = .data$value, yend = .data$label),
                          colour = "grey70") +
    ggplot2::geom_point(ggplot2::aes(colour = .data$quantity), size = 2.2,
                        show.legend = FALSE) +
    # narrow panels beside long label names: titles on two lines, never cut
    ggplot2::facet_wrap(ggplot2::vars(.data$quantity), nrow = 1,
                        labeller = ggplot2::label_wrap_gen(width = 10)) +
    scale_y_label_names() +
    ggplot2::scale_colour_manual(values = c("#555555", "#0072B2", "#D55E00")) +
    ggplot2::scale_x_continuous(limits = c(0, 1), breaks = c(0, 0.5, 1),
                                labels = c("0", "0.5", "1"), expand = c(0.04, 0)) +
    ggplot2::labs(x = NULL, y = NULL, caption = wrap_caption(caption)) +
    theme_mla() +
    label_axis_theme(nlevels(long$label), "y", space_pt = 290)
}

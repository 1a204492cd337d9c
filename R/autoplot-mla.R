#' Plot a Multi-Label Agreement fit
#'
#' Draws one of three diagnostic plots of an [mla()] fit with ggplot2. The
#' plot is returned, not printed; add layers, scales or themes as usual.
#'
#' * `"labels"`: the label coefficients under the primary baseline, with the
#'   eq. 6 weight of each label as point size (labels with more weight move
#'   the corpus value more) and the corpus coefficient as a dashed line.
#'   With `boot` (an `mla_boot` from `mla_boot()`), bootstrap confidence
#'   intervals from `tidy(boot, level = "label")` (`conf.low`, `conf.high`)
#'   are added. Labels whose coefficient is undefined (e.g. never selected,
#'   under the pooled baseline) are left out and counted in the caption.
#' * `"items"`: the item-level coefficients (diagnostics relative to the
#'   corpus baseline, paper section 3.2), sorted. Items below 0 agree less
#'   than the corpus chance baseline predicts and are marked as difficult.
#' * `"prevalence"`: each label's prevalence \eqn{p_j} next to its positive
#'   and negative specific agreement (paper section 3.6).
#'
#' @param object An `mla` object.
#' @param type `"labels"`, `"items"` or `"prevalence"`.
#' @param boot Optional `mla_boot` object fitted on `object`, for confidence
#'   intervals in the `"labels"` plot.
#' @param ... Must be empty.
#' @return A ggplot object.
#' @family plots
#' @exportS3Method ggplot2::autoplot
#' @examplesIf rlang::is_installed("ggplot2")
#' fit <- mla(annotations_long(bias_example, item, annotator, label, value))
#' ggplot2::autoplot(fit)
#' ggplot2::autoplot(fit, type = "items")
#' ggplot2::autoplot(fit, type = "prevalence")
autoplot.mla <- function(object, type = c("labels", "items", "prevalence"), boot = NULL, ...) {
  rlang::check_installed("ggplot2", reason = "to plot agreement results.")
  check_dots_empty0(...)
  type <- check_choice(type, c("labels", "items", "prevalence"))
  if (!is.null(boot) && type != "labels") {
    mla_abort(
      c("{.arg boot} is only used by {.code type = \"labels\"}.",
        "x" = "{.arg type} is {.val {type}}."),
      class = "plot_argument"
    )
  }
  switch(type,
         labels = plot_mla_labels(object, boot),
         items = plot_mla_items(object),
         prevalence = plot_mla_prevalence(object))
}

plot_mla_labels <- function(fit, boot, call = rlang::caller_env()) {
  lab <- fit$label[fit$label$baseline == fit$baseline, ]
  defined <- !is.na(lab$estimate)
  n_undefined <- sum(!defined)
  lab <- lab[defined, ]
  lab$label <- factor(lab$label, levels = lab$label[order(lab$estimate, lab$label)])
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
                                " with undefined coefficient not shown.")
  )
  p +
    ggplot2::geom_point(ggplot2::aes(size = .data$weight), colour = "#0072B2") +
    ggplot2::scale_size_area(name = "Weight (eq. 6)", max_size = 6) +
    ggplot2::labs(x = paste0("Label coefficient, ", baseline_display[[fit$baseline]], " baseline"),
                  y = NULL, caption = paste(caption, collapse = " ")) +
    theme_mla()
}

# Confidence intervals per label from an mla_boot, through its documented
# tidy() interface (primary baseline of the fit).
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

plot_mla_items <- function(fit) {
  items <- tidy(fit, level = "item")
  it <- items[items$baseline == fit$baseline, ]
  n_unpaired <- sum(is.na(it$estimate))
  it <- it[!is.na(it$estimate), ]
  it <- it[order(it$estimate, it$item), ]
  it$rank <- seq_len(nrow(it))
  it$difficult <- factor(ifelse(it$estimate < 0, "below chance", "at or above chance"),
                         levels = c("below chance", "at or above chance"))
  corpus <- fit$corpus$estimate[fit$corpus$baseline == fit$baseline]
  n_difficult <- sum(it$estimate < 0)
  caption <- c(
    paste0(n_difficult, " of ", nrow(it), " items below the corpus chance baseline (difficult)."),
    paste0("Dashed line: corpus coefficient ", format_fixed(corpus, 3), "."),
    if (n_unpaired > 0) paste0(n_unpaired, " item", if (n_unpaired > 1) "s" else "",
                               " with fewer than two annotations not shown.")
  )
  show_names <- nrow(it) <= 30L
  p <- ggplot2::ggplot(it, ggplot2::aes(x = .data$rank, y = .data$estimate)) +
    ggplot2::geom_hline(yintercept = 0, colour = "grey70") +
    ggplot2::geom_hline(yintercept = corpus, linetype = "dashed", colour = "grey30") +
    ggplot2::geom_point(ggplot2::aes(colour = .data$difficult), size = if (show_names) 2.5 else 1.5) +
    ggplot2::scale_colour_manual(values = c("below chance" = "#D55E00",
                                            "at or above chance" = "#0072B2"),
                                 name = NULL, drop = FALSE) +
    ggplot2::labs(x = if (show_names) NULL else "Items, sorted by agreement",
                  y = paste0("Item coefficient, ", baseline_display[[fit$baseline]], " baseline"),
                  caption = paste(caption, collapse = " ")) +
    theme_mla()
  if (show_names) {
    p <- p + ggplot2::scale_x_continuous(breaks = it$rank, labels = as.character(it$item))
  }
  p
}

plot_mla_prevalence <- function(fit) {
  lab <- fit$label[fit$label$baseline == fit$baseline, ]
  lab <- lab[!is.na(lab$prevalence), ]
  ord <- lab$label[order(lab$prevalence, lab$label)]
  quantities <- c("Prevalence", "Positive agreement", "Negative agreement")
  long <- tibble::tibble(
    label = factor(rep(lab$label, 3L), levels = ord),
    quantity = factor(rep(quantities, each = nrow(lab)), levels = quantities),
    value = c(lab$prevalence, lab$positive_agreement, lab$negative_agreement)
  )
  n_na <- sum(is.na(long$value))
  long <- long[!is.na(long$value), ]
  ggplot2::ggplot(long, ggplot2::aes(x = .data$value, y = .data$label)) +
    ggplot2::geom_segment(ggplot2::aes(x = 0, xend = .data$value, yend = .data$label),
                          colour = "grey70") +
    ggplot2::geom_point(ggplot2::aes(colour = .data$quantity), size = 2.2,
                        show.legend = FALSE) +
    ggplot2::facet_wrap(ggplot2::vars(.data$quantity), nrow = 1) +
    ggplot2::scale_colour_manual(values = c("#555555", "#0072B2", "#D55E00")) +
    ggplot2::scale_x_continuous(limits = c(0, 1), breaks = c(0, 0.5, 1)) +
    ggplot2::labs(x = NULL, y = NULL, caption = if (n_na > 0) {
      paste0(n_na, " undefined specific agreement value", if (n_na > 1) "s" else "",
             " (no positive or no negative decisions) not shown.")
    }) +
    theme_mla()
}

#' Plot each annotator's deviation from the pooled prevalence
#'
#' One panel per label: each annotator's prevalence minus the pooled
#' prevalence, with its interval (see [annotator_bias()]); an annotator who
#' uses a label more, or less, than the others lies off the zero line. The
#' panel titles give Cochran's Q p-value. On large designs the labels with
#' the largest deviations (at most 12) and the annotators with the most
#' decisions (at most 30) are drawn, and the caption says so.
#'
#' @param object An `mla_annotator_bias` object from [annotator_bias()].
#' @param labels Labels to show (names); `NULL` = the most biased ones.
#' @param n_labels Show at most this many labels; `NULL` = up to 12.
#' @param n_annotators Show at most this many annotators, those with the
#'   most decisions; `NULL` = up to 30.
#' @inheritParams mla
#' @return A ggplot object (not printed).
#' @family clinical coefficients
#' @exportS3Method ggplot2::autoplot
#' @examplesIf rlang::is_installed("ggplot2")
#' b <- annotator_bias(annotations_long(bias_example, item, annotator, label, value))
#' ggplot2::autoplot(b)
autoplot.mla_annotator_bias <- function(object, labels = NULL, n_labels = NULL,
                                        n_annotators = NULL, ...) {
  check_dots_empty0(...)
  rlang::check_installed("ggplot2", reason = "to plot annotator bias.")
  n_labels <- check_plot_limit(n_labels)
  n_annotators <- check_plot_limit(n_annotators)
  a <- object$annotators
  spread <- vapply(object$labels, function(l) {
    dev <- abs(a$deviation[a$label == l])
    if (all(is.na(dev))) NA_real_ else max(dev, na.rm = TRUE)
  }, numeric(1))
  chosen <- choose_labels(object$labels, spread, labels, n_labels, 12L, object$labels,
                          "largest deviations")
  totals <- tapply(a$n_items, a$annotator, sum)
  limit <- if (is.null(n_annotators)) 30L else n_annotators
  keep_ann <- names(sort(-totals))[seq_len(min(limit, length(totals)))]
  ann_note <- if (length(totals) > limit) {
    paste0(limit, " of ", length(totals), " annotators shown (most decisions); choose with `n_annotators`.")
  }
  rows <- a[a$label %in% chosen$labels & a$annotator %in% keep_ann & !is.na(a$deviation), ]
  q <- object$tests[object$tests$test == "cochran_q", ]
  title <- paste0(q$label, "\nQ p = ", ifelse(is.na(q$p.value), "NA", format.pval(q$p.value, digits = 2)))
  rows$panel <- factor(title[match(rows$label, q$label)], levels = title[match(chosen$labels, q$label)])
  rows$annotator <- factor(rows$annotator, levels = rev(keep_ann))
  level <- paste0(round(100 * object$conf.level), "%")
  # facet_wrap()'s grid: annotator names share one panel's height
  n_panels <- max(length(chosen$labels), 1L)
  panel_rows <- ceiling(n_panels / ceiling(sqrt(n_panels)))
  size <- axis_text_size(length(keep_ann), space_pt = 280 / panel_rows)
  if (is.na(size)) {
    ann_note <- c(ann_note, "Annotator names left out (too many to print); fewer with `n_annotators` or `labels`.")
  }
  ggplot2::ggplot(rows, ggplot2::aes(x = .data$deviation, y = .data$annotator)) +
    ggplot2::geom_vline(xintercept = 0, colour = "grey50", linetype = "dashed") +
    ggplot2::geom_errorbarh(ggplot2::aes(xmin = .data$conf.low, xmax = .data$conf.high),
                            height = 0.25, colour = "#0072B2", na.rm = TRUE) +
    ggplot2::geom_point(colour = "#0072B2", size = 1.8) +
    ggplot2::facet_wrap(~panel) +
    ggplot2::labs(x = "Prevalence minus pooled prevalence", y = NULL,
                  caption = wrap_caption(c(paste0("Bars: ", level, " Wald intervals (items as units)."),
                                           chosen$note, ann_note))) +
    theme_mla() +
    ggplot2::theme(axis.text.y = if (is.na(size)) ggplot2::element_blank() else
                     ggplot2::element_text(size = size))
}

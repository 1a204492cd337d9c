#' Plot the replicate distributions of a Multi-Label Agreement bootstrap
#'
#' Histograms of the bootstrap replicates with the observed value (solid
#' line) and the percentile interval (dashed lines).
#'
#' @param object An `mla_boot` object.
#' @param level `"corpus"` (one panel per baseline) or `"label"` (one panel
#'   per label, for `baseline`).
#' @param baseline For `level = "label"`, the baseline to show; the fit's
#'   primary baseline by default.
#' @param conf.level Level of the percentile interval drawn.
#' @param bins Number of histogram bins.
#' @param ... Must be empty.
#' @return A ggplot object (not printed).
#' @family bootstrap
#' @exportS3Method ggplot2::autoplot
#' @examplesIf rlang::is_installed("ggplot2")
#' fit <- mla(annotations_long(bias_example, item, annotator, label, value))
#' set.seed(1)
#' bs <- mla_boot(fit, R = 200)
#' ggplot2::autoplot(bs)
autoplot.mla_boot <- function(object, level = c("corpus", "label"), baseline = NULL,
                              conf.level = 0.95, bins = 30, ...) {
  check_dots_empty0(...)
  rlang::check_installed("ggplot2", reason = "to plot a bootstrap.")
  level <- check_choice(level, c("corpus", "label"))
  baseline <- if (is.null(baseline)) object$fit$baseline else check_choice(baseline, baseline_names)
  check_conf_level(conf.level)
  bins <- check_whole(bins, min = 1, class = "plot_argument")
  rows <- which(object$stats$level == level)
  if (level == "label") rows <- rows[object$stats$baseline[rows] == baseline]
  panel <- if (level == "corpus") object$stats$baseline[rows] else object$stats$label[rows]
  panel <- factor(panel, levels = unique(panel))
  reps <- tibble::tibble(
    panel = rep(panel, each = object$R),
    value = as.vector(object$t[, rows, drop = FALSE])
  )
  reps <- reps[is.finite(reps$value), ]
  ci <- suppressWarnings(boot_ci_matrix(object, rows, conf.level, "perc"))
  marks <- tibble::tibble(panel = panel, estimate = unname(object$t0[rows]),
                          conf.low = ci[, 1], conf.high = ci[, 2])
  ggplot2::ggplot(reps, ggplot2::aes(x = .data$value)) +
    ggplot2::geom_histogram(bins = bins, fill = "grey70", colour = "white") +
    ggplot2::geom_vline(data = marks, ggplot2::aes(xintercept = .data$estimate)) +
    ggplot2::geom_vline(data = marks, ggplot2::aes(xintercept = .data$conf.low), linetype = "dashed") +
    ggplot2::geom_vline(data = marks, ggplot2::aes(xintercept = .data$conf.high), linetype = "dashed") +
    ggplot2::facet_wrap(~panel, scales = "free") +
    ggplot2::labs(x = "Bootstrap replicate", y = "Count",
                  title = paste0("Bootstrap replicates (", object$R, ", resampling ",
                                 object$design$what, ")"))
}

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
#' @param labels For `level = "label"`, the labels to show (names); `NULL`
#'   = all up to `n_labels`.
#' @param n_labels For `level = "label"`, show at most this many labels,
#'   those with the largest eq. 6 weight; `NULL` = 12.
#' @inheritParams mla
#' @return A ggplot object (not printed).
#' @family bootstrap
#' @exportS3Method ggplot2::autoplot
#' @examplesIf rlang::is_installed("ggplot2")
#' set.seed(1)
#' fit <- mla(simulate_annotations(60, 4, 3, prevalence = 0.3, scenario = "noisy"))
#' bs <- mla_boot(fit, R = 200)
#' ggplot2::autoplot(bs)
#' ggplot2::autoplot(bs, level = "label", labels = c("L01", "L03"))
autoplot.mla_boot <- function(object, level = c("corpus", "label"), baseline = NULL,
                              conf.level = 0.95, bins = 30, labels = NULL, n_labels = NULL, ...) {
  check_dots_empty0(...)
  check_inherits(object, "mla_boot", "mla_boot", class = "plot_argument")
  rlang::check_installed("ggplot2", reason = "to plot a bootstrap.")
  level <- check_choice(level, c("corpus", "label"))
  baseline <- if (is.null(baseline)) object$fit$baseline else check_fit_baseline(baseline, object$fit)
  check_conf_level(conf.level)
  bins <- check_whole(bins, min = 1, class = "plot_argument")
  n_labels <- check_plot_limit(n_labels)
  if (!is.null(labels)) {
    labels <- check_choice(labels, object$fit$labels, multiple = TRUE, class = "plot_argument")
  }
  rows <- which(object$stats$level == level)
  note <- NULL
  if (level == "label") {
    rows <- rows[object$stats$baseline[rows] == baseline]
    sel <- boot_label_rows(object, rows, baseline, labels, n_labels)
    rows <- sel$rows
    note <- sel$note
  }
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
    # an undefined interval (constant replicates) has no line; the caption says so
    ggplot2::geom_vline(data = marks, ggplot2::aes(xintercept = .data$estimate), na.rm = TRUE) +
    ggplot2::geom_vline(data = marks, ggplot2::aes(xintercept = .data$conf.low), linetype = "dashed",
                        na.rm = TRUE) +
    ggplot2::geom_vline(data = marks, ggplot2::aes(xintercept = .data$conf.high), linetype = "dashed",
                        na.rm = TRUE) +
    ggplot2::facet_wrap(~panel, scales = "free",
                        labeller = ggplot2::labeller(panel = ggplot2::label_wrap_gen(24))) +
    ggplot2::scale_x_continuous(n.breaks = 3, guide = ggplot2::guide_axis(check.overlap = TRUE)) +
    ggplot2::scale_y_continuous(n.breaks = 3) +
    ggplot2::labs(x = "Bootstrap replicate", y = "Count",
                  title = paste0("Bootstrap replicates (", object$R, ", resampling ",
                                 object$design$what, ")"),
                  caption = wrap_caption(c(
                    paste0("Solid line: estimate; dashed lines: ", 100 * conf.level,
                           "% percentile interval."),
                    no_interval_note(marks$panel[!is.na(marks$estimate) & is.na(marks$conf.low)]),
                    note))) +
    theme_mla() +
    ggplot2::theme(strip.text = ggplot2::element_text(face = "bold", hjust = 0, size = 8.5),
                   axis.text = ggplot2::element_text(size = 7.5))
}

no_interval_note <- function(panels) {
  if (length(panels) == 0L) return(NULL)
  paste0("No interval (replicates constant or too few defined): ", format_first(as.character(panels)), ".")
}

# Label rows to draw: named labels, else the n with the largest eq. 6 weight.
boot_label_rows <- function(object, rows, baseline, labels, n_labels, call = rlang::caller_env()) {
  fit <- object$fit
  lab <- fit$label[fit$label$baseline == baseline, ]
  weight <- lab$weight[match(object$stats$label[rows], lab$label)]
  chosen <- choose_labels(object$stats$label[rows], weight, labels, n_labels, auto_max = 12L,
                          universe = fit$labels, why = "largest eq. 6 weights", call = call)
  list(rows = rows[object$stats$label[rows] %in% chosen$labels], note = chosen$note)
}

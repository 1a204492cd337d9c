#' Plot the analytic prevalence curves (paper Figure 1)
#'
#' Draws the closed-form coefficients of [analytic_agreement()] against the
#' prevalence, one panel per generator and one line per baseline, as in the
#' paper's Figure 1. Optionally overlays the results of a
#' [simulation_study()] (scenarios `"independent"` and `"noisy"`): the mean
#' over data sets at each prevalence, with a bar from the 10th to the 90th
#' percentile.
#'
#' @param object An `mla_analytic` tibble from [analytic_agreement()].
#' @param simulation Optional `mla_simulation` from [simulation_study()].
#' @inheritParams mla
#' @return A ggplot object.
#' @family plots
#' @exportS3Method ggplot2::autoplot
#' @examplesIf rlang::is_installed("ggplot2")
#' ggplot2::autoplot(analytic_agreement())
autoplot.mla_analytic <- function(object, simulation = NULL, ...) {
  rlang::check_installed("ggplot2", reason = "to plot agreement curves.")
  check_dots_empty0(...)
  check_inherits(object, "mla_analytic", "analytic_agreement", class = "plot_argument")
  curves <- as.data.frame(object)
  curves$generator <- generator_factor(curves$generator)
  curves$baseline <- baseline_factor(curves$baseline)
  p <- ggplot2::ggplot(curves, ggplot2::aes(x = .data$prevalence, y = .data$estimate,
                                            colour = .data$baseline)) +
    ggplot2::geom_hline(yintercept = 0, colour = "grey70") +
    ggplot2::geom_line(linewidth = 0.8, na.rm = TRUE)
  if (!is.null(simulation)) {
    check_inherits(simulation, "mla_simulation", "simulation_study", class = "plot_argument")
    sims <- simulation_points(simulation, c("independent", "noisy"))
    if (nrow(sims) > 0L) {
      sims$generator <- generator_factor(sims$scenario)
      p <- p +
        ggplot2::geom_linerange(data = sims, ggplot2::aes(ymin = .data$low, ymax = .data$high),
                                alpha = 0.6) +
        ggplot2::geom_point(data = sims, size = 1.8, shape = 21, fill = "white", stroke = 0.9)
    }
  }
  p +
    ggplot2::facet_wrap(ggplot2::vars(.data$generator), nrow = 1) +
    scale_colour_baseline() +
    ggplot2::scale_x_continuous(limits = c(0, 1), breaks = seq(0, 1, 0.25),
                                labels = c("0", "0.25", "0.5", "0.75", "1")) +
    ggplot2::labs(x = "Prevalence p", y = "Coefficient") +
    theme_mla()
}

#' Plot a simulation study
#'
#' Shows each measure's distribution over the simulated data sets of a
#' [simulation_study()]: the mean (point) and the 10th to 90th percentile
#' (bar) per prevalence level, one panel per scenario. `by` keeps one design
#' dimension separate (paper section 4: averaging over \eqn{n}, \eqn{N} and
#' \eqn{k} hides them).
#'
#' @param object An `mla_simulation` tibble from [simulation_study()].
#' @param measures Measures to show (default: all but `"floor_observed"`),
#'   by their codes in `object$measure`; the plot shows readable names.
#' @param by `NULL`, or one of `"n_annotators"`, `"n_items"`, `"n_labels"`:
#'   panel rows by that design dimension.
#' @inheritParams mla
#' @return A ggplot object.
#' @family plots
#' @exportS3Method ggplot2::autoplot
#' @examplesIf rlang::is_installed("ggplot2")
#' set.seed(1)
#' study <- simulation_study(n_annotators = 3, n_items = 20, n_labels = 5,
#'                           repeats = 3, measures = "mla")
#' ggplot2::autoplot(study)
autoplot.mla_simulation <- function(object, measures = NULL, by = NULL, ...) {
  rlang::check_installed("ggplot2", reason = "to plot simulation results.")
  check_dots_empty0(...)
  check_inherits(object, "mla_simulation", "simulation_study", class = "plot_argument")
  available <- unique(object$measure)
  if (is.null(measures)) measures <- setdiff(available, "floor_observed")
  measures <- check_choice(measures, available, multiple = TRUE)
  if (!is.null(by)) by <- check_choice(by, c("n_annotators", "n_items", "n_labels"))
  keys <- c("scenario", "prevalence_level", "measure", by)
  d <- as.data.frame(object)[object$measure %in% measures, ]
  stats <- summarise_groups(d, keys)
  stats$measure <- factor(display_measure(stats$measure), levels = rev(display_measure(measures)))
  stats$scenario <- factor(stats$scenario, levels = intersect(scenario_names, stats$scenario))
  dodge <- ggplot2::position_dodge(width = 0.6)
  p <- ggplot2::ggplot(stats, ggplot2::aes(x = .data$mean, y = .data$measure,
                                           colour = .data$prevalence_level)) +
    ggplot2::geom_vline(xintercept = 0, colour = "grey70") +
    ggplot2::geom_linerange(ggplot2::aes(xmin = .data$low, xmax = .data$high),
                            position = dodge, na.rm = TRUE) +
    ggplot2::geom_point(position = dodge, size = 1.8, na.rm = TRUE) +
    ggplot2::scale_colour_manual(values = rep_len(unname(okabe_ito), nlevels(stats$prevalence_level)),
                                 name = "Prevalence") +
    # few ticks without trailing zeros, and wider gaps between panels: the end
    # ticks of neighbouring narrow panels ("1.0-0.5") touched
    ggplot2::scale_x_continuous(breaks = simulation_breaks, labels = function(b) format(b, drop0trailing = TRUE, trim = TRUE),
                                guide = ggplot2::guide_axis(check.overlap = TRUE)) +
    ggplot2::labs(x = "Estimate (mean, 10th-90th percentile)", y = NULL) +
    theme_mla() +
    ggplot2::theme(panel.spacing.x = ggplot2::unit(2, "lines"))
  if (is.null(by)) {
    p + ggplot2::facet_wrap(ggplot2::vars(.data$scenario), nrow = 1)
  } else {
    # scenario names are plain words, wrapped to the panel; `by` keeps its name
    p + ggplot2::facet_grid(rows = ggplot2::vars(.data[[by]]), cols = ggplot2::vars(.data$scenario),
                            labeller = ggplot2::labeller(.rows = ggplot2::label_both,
                                                         .cols = ggplot2::label_wrap_gen(width = 10)))
  }
}

# Ticks of the simulation plot: a pretty sequence of at most 4 inside the limits.
simulation_breaks <- function(limits) {
  if (any(!is.finite(limits))) return(NULL)
  b <- pretty(limits, n = 3L)
  b <- b[b >= limits[1] - 1e-9 & b <= limits[2] + 1e-9]
  if (length(b) > 4L) b <- b[seq(1L, length(b), by = 2L)]
  b
}

generator_factor <- function(g) {
  lv <- c(independent = "Independent draws", noisy = "Noisy copies of a latent label")
  factor(lv[g], levels = lv)
}

# Mean and 10th / 90th percentiles of `estimate` by `keys`.
summarise_groups <- function(d, keys) {
  g <- interaction(d[keys], drop = TRUE, lex.order = TRUE)
  first <- !duplicated(g)
  out <- d[first, keys, drop = FALSE]
  est <- unname(split(d$estimate, g)[as.character(g[first])])
  q <- function(e, prob) if (all(is.na(e))) NA_real_ else unname(stats::quantile(e, prob, na.rm = TRUE))
  out$mean <- vapply(est, function(e) if (all(is.na(e))) NA_real_ else mean(e, na.rm = TRUE), 1)
  out$low <- vapply(est, q, 1, prob = 0.1)
  out$high <- vapply(est, q, 1, prob = 0.9)
  out
}

# Simulated MLA coefficients per scenario, prevalence value and baseline.
simulation_points <- function(simulation, scenarios) {
  d <- as.data.frame(simulation)
  d <- d[d$scenario %in% scenarios & d$measure %in% paste0("mla_", baseline_names), ]
  if (nrow(d) == 0L) return(d)
  d$baseline <- sub("^mla_", "", d$measure)
  out <- summarise_groups(d, c("scenario", "prevalence", "baseline"))
  out$baseline <- baseline_factor(out$baseline)
  out$estimate <- out$mean
  out
}

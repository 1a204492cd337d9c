#' Plot the annotators of an annotator model
#'
#' Each annotator's specificity (x) against sensitivity (y), one panel per
#' label (or one pooled panel; per category for single-label data). The
#' dashed diagonal \eqn{\alpha + \beta = 1} is where a spammer lies, whose
#' decisions do not depend on the truth; below it are adversarial
#' annotators. Points are coloured by the spammer score
#' \eqn{|\alpha + \beta - 1|}; those below `spammer` are drawn as triangles.
#'
#' @param object An [annotator_model()] fit.
#' @param labels Labels (panels) to draw; default the first 12.
#' @param spammer Spammer score below which an annotator is highlighted.
#' @inheritParams mla
#' @return A ggplot object.
#' @exportS3Method ggplot2::autoplot
#' @examplesIf rlang::is_installed("ggplot2")
#' set.seed(4)
#' x <- simulate_annotations(200, 6, 2, prevalence = 0.3, scenario = "noisy",
#'                           error = c(0.05, 0.1, 0.1, 0.2, 0.5, 0.5))
#' ggplot2::autoplot(annotator_model(x))
autoplot.mla_annotator_model <- function(object, labels = NULL, spammer = 0.2, ...) {
  check_dots_empty0(...)
  rlang::check_installed("ggplot2", reason = "to plot an annotator model.")
  spammer <- check_number_in(spammer, class = "plot_argument")
  rows <- tidy(object, level = "annotators")
  rows <- rows[!is.na(rows$spammer_score), , drop = FALSE]
  panels <- unique(rows$label)
  if (is.null(labels)) labels <- utils::head(panels, 12L)
  bad <- setdiff(labels, panels)
  if (length(bad) > 0L) {
    mla_abort(c("{.arg labels} must be labels of the fit.", "x" = "Unknown: {.val {format_first(bad)}}."),
              class = "plot_argument")
  }
  rows <- rows[rows$label %in% labels, , drop = FALSE]
  rows$label <- factor(rows$label, levels = labels)
  rows$flag <- ifelse(rows$spammer_score < spammer, "spammer", "informative")
  caption <- if (length(labels) < length(panels)) {
    paste0("First ", length(labels), " of ", length(panels), " labels (argument labels).")
  }
  ggplot2::ggplot(rows, ggplot2::aes(x = .data$specificity, y = .data$sensitivity)) +
    ggplot2::geom_abline(intercept = 1, slope = -1, linetype = "dashed", colour = "grey50") +
    ggplot2::geom_point(ggplot2::aes(colour = .data$spammer_score, shape = .data$flag), size = 2) +
    ggplot2::scale_colour_viridis_c(limits = c(0, 1), name = "Spammer score", option = "D",
                                    end = 0.9) +
    ggplot2::scale_shape_manual(values = c(informative = 16, spammer = 17), name = NULL,
                                labels = c(informative = "informative",
                                           spammer = paste0("score < ", spammer))) +
    ggplot2::coord_equal(xlim = c(0, 1), ylim = c(0, 1)) +
    ggplot2::facet_wrap(ggplot2::vars(.data$label)) +
    ggplot2::labs(x = "Specificity", y = "Sensitivity", caption = caption) +
    theme_mla()
}

#' Heat map of pairwise annotator agreement
#'
#' One tile per pair of annotators who share items, coloured by their
#' pooled-marginal coefficient (`value = "estimate"`) or Hamming agreement
#' (`value = "observed"`); the matrix is symmetric and pairs without shared
#' items are blank. Annotators are ordered by their mean agreement with the
#' others, so a drifting annotator ends up at an edge.
#'
#' @param object An `mla_annotator_agreement` object from
#'   [annotator_agreement()].
#' @param value `"estimate"` or `"observed"`.
#' @param label_tiles Print the values in the tiles? Default: when there are
#'   at most 12 annotators.
#' @param ... Must be empty.
#' @return A ggplot object (not printed).
#' @family annotator evaluation
#' @exportS3Method ggplot2::autoplot
#' @examplesIf rlang::is_installed("ggplot2")
#' agr <- annotator_agreement(annotations_long(bias_example, item, annotator, label, value))
#' ggplot2::autoplot(agr)
autoplot.mla_annotator_agreement <- function(object, value = c("estimate", "observed"),
                                             label_tiles = NULL, ...) {
  check_dots_empty0(...)
  rlang::check_installed("ggplot2", reason = "to plot annotator agreement.")
  value <- check_choice(value, c("estimate", "observed"))
  if (!is.null(label_tiles)) check_bool(label_tiles, class = "plot_argument")
  p <- object$pairs
  a <- object$annotators
  ord <- a$annotator[order(a[[value]], na.last = TRUE, decreasing = TRUE)]
  tiles <- data.frame(
    annotator1 = factor(c(p$annotator1, p$annotator2), levels = ord),
    annotator2 = factor(c(p$annotator2, p$annotator1), levels = rev(ord)),
    value = rep(p[[value]], 2),
    n_items = rep(p$n_items, 2)
  )
  if (is.null(label_tiles)) label_tiles <- length(ord) <= 12L
  title <- if (value == "estimate") "Pair coefficient\n(pooled marginal)" else "Hamming\nagreement"
  plt <- ggplot2::ggplot(tiles, ggplot2::aes(x = .data$annotator1, y = .data$annotator2,
                                             fill = .data$value)) +
    ggplot2::geom_tile(colour = "white") +
    ggplot2::coord_equal() +
    ggplot2::labs(x = NULL, y = NULL, fill = title) +
    ggplot2::theme_minimal() +
    ggplot2::theme(axis.text.x = ggplot2::element_text(angle = 45, hjust = 1),
                   panel.grid = ggplot2::element_blank())
  plt <- if (value == "estimate") {
    plt + ggplot2::scale_fill_gradient2(low = "#b2182b", mid = "#f7f7f7", high = "#2166ac",
                                        midpoint = 0, limits = c(-1, 1), na.value = "grey80")
  } else {
    plt + ggplot2::scale_fill_gradient(low = "#f7f7f7", high = "#2166ac", limits = c(0, 1),
                                       na.value = "grey80")
  }
  if (label_tiles) {
    plt <- plt + ggplot2::geom_text(
      ggplot2::aes(label = ifelse(is.na(.data$value), "NA", sprintf("%.2f", .data$value))),
      size = 3
    )
  }
  plt
}

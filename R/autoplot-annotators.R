#' Heat map of pairwise annotator agreement
#'
#' One tile per pair of annotators who share items, coloured by their
#' corpus-baseline score (`value = "estimate"`, see the Scales section of
#' [annotator_agreement()]) or observed agreement (`value = "observed"`:
#' Hamming agreement, or category agreement on a single-label design); the
#' matrix is symmetric and pairs without shared items (or with fewer than
#' `min_overlap`) are blank.
#'
#' The fill scale runs from -1 to 1 for `"estimate"`: scores below -1 (they
#' occur with rare labels) are drawn in the end colour, not as missing, and
#' the caption counts them; tiles keep their values in the text labels. Pairs
#' that share fewer than the object's `min_items` items have no score; they
#' are drawn in their own grey with a legend entry ("fewer than `min_items`
#' shared items") and counted in the caption, apart from scores that are
#' undefined for another reason (darker grey, the scale's missing colour).
#'
#' By default annotators are ordered by hierarchical clustering (average
#' linkage on 1 - `value`), so groups of annotators who agree with each
#' other form blocks (e.g. a target group and a control group); `order =
#' "mean"` orders them by their mean agreement with the others, so a
#' drifting annotator ends up at an edge. On large crowds only
#' `n_annotators` annotators are drawn (40 by default): the three that
#' `print()` flags (lowest `estimate`), then
#' those with the most items; the caption says so.
#'
#' @param object An `mla_annotator_agreement` object from
#'   [annotator_agreement()].
#' @param value `"estimate"` or `"observed"`.
#' @param label_tiles Print the values in the tiles? Default: when there are
#'   at most 12 annotators.
#' @param annotators Annotators to show (names); `NULL` = all.
#' @param n_annotators Show at most this many annotators, those with the
#'   most items; `NULL` = all up to 40.
#' @param min_overlap Pairs sharing fewer items are left blank.
#' @param order `"cluster"`, `"mean"` or `"none"` (the order of `object`).
#' @inheritParams mla
#' @return A ggplot object (not printed).
#' @family annotator evaluation
#' @exportS3Method ggplot2::autoplot
#' @examplesIf rlang::is_installed("ggplot2")
#' agr <- annotator_agreement(annotations_long(bias_example, item, annotator, label, value))
#' ggplot2::autoplot(agr)
#' ggplot2::autoplot(agr, order = "mean", value = "observed")
autoplot.mla_annotator_agreement <- function(object, value = c("estimate", "observed"),
                                             label_tiles = NULL, annotators = NULL,
                                             n_annotators = NULL, min_overlap = 1,
                                             order = c("cluster", "mean", "none"), ...) {
  check_dots_empty0(...)
  check_inherits(object, "mla_annotator_agreement", "annotator_agreement", class = "plot_argument")
  rlang::check_installed("ggplot2", reason = "to plot annotator agreement.")
  value <- check_choice(value, c("estimate", "observed"))
  order <- check_choice(order, c("cluster", "mean", "none"))
  if (!is.null(label_tiles)) check_bool(label_tiles, class = "plot_argument")
  n_annotators <- check_plot_limit(n_annotators)
  min_overlap <- check_whole(min_overlap, min = 1, class = "plot_argument")
  sel <- select_annotators(object, annotators, n_annotators, min_overlap)
  p <- sel$pairs
  ord <- order_annotators(sel$annotators, sel$scores[[value]], p, value, order)
  tiles <- data.frame(
    annotator1 = factor(c(p$annotator1, p$annotator2), levels = ord),
    annotator2 = factor(c(p$annotator2, p$annotator1), levels = rev(ord)),
    value = rep(p[[value]], 2),
    n_items = rep(p$n_items, 2)
  )
  tiles$suppressed <- is.na(tiles$value) & tiles$n_items < object$min_items
  if (is.null(label_tiles)) label_tiles <- length(ord) <= 12L
  border <- if (length(ord) <= 60L) "white" else "transparent"
  title <- if (value == "estimate") "Pair score\n(corpus baseline)" else
    if (isTRUE(object$single_label)) "Category\nagreement" else "Hamming\nagreement"
  size <- axis_text_size(length(ord), space_pt = 300)
  axis_el <- if (is.na(size)) ggplot2::element_blank() else ggplot2::element_text(size = size)
  plt <- ggplot2::ggplot(tiles[!tiles$suppressed, ],
                         ggplot2::aes(x = .data$annotator1, y = .data$annotator2, fill = .data$value)) +
    ggplot2::geom_tile(colour = border) +
    ggplot2::scale_x_discrete(drop = FALSE) + ggplot2::scale_y_discrete(drop = FALSE) +
    ggplot2::coord_equal() +
    ggplot2::labs(x = NULL, y = NULL, fill = title,
                  caption = wrap_caption(c(sel$note, heat_notes(p, value, object$min_items)))) +
    theme_mla() +
    ggplot2::theme(axis.text.x = if (is.na(size)) axis_el else
                     ggplot2::element_text(size = size, angle = 90, hjust = 1, vjust = 0.5),
                   axis.text.y = axis_el,
                   legend.position = "right",
                   panel.grid = ggplot2::element_blank())
  plt <- plt + heat_fill_scale(value) + heat_suppressed_layer(tiles, object$min_items, border)
  if (label_tiles) {
    plt <- plt + ggplot2::geom_text(
      data = tiles,
      ggplot2::aes(label = ifelse(.data$suppressed, "",
                                  ifelse(is.na(.data$value), "NA", sprintf("%.2f", .data$value)))),
      size = 3
    )
  }
  plt
}

# Pairs below min_items: their own tile layer and a colour legend key (the
# fill legend is the continuous scale).
heat_suppressed_layer <- function(tiles, min_items, border) {
  gone <- tiles[tiles$suppressed, ]
  if (nrow(gone) == 0L) return(list())
  key <- paste0("fewer than ", min_items, " shared items")
  list(
    ggplot2::geom_tile(data = gone, ggplot2::aes(colour = key), fill = heat_suppressed_fill),
    ggplot2::scale_colour_manual(
      name = NULL, values = stats::setNames(border, key),
      guide = ggplot2::guide_legend(override.aes = list(fill = heat_suppressed_fill, colour = "grey60"),
                                    order = 2)
    )
  )
}

heat_suppressed_fill <- "grey88"

# Caption notes: pairs without a score for too little support, and scores
# drawn at the end of the scale.
heat_notes <- function(pairs, value, min_items) {
  if (value != "estimate" || nrow(pairs) == 0L) return(character())
  n_low <- sum(is.na(pairs$estimate) & pairs$n_items < min_items)
  n_clamped <- sum(pairs$estimate < -1, na.rm = TRUE)
  c(if (n_low > 0) paste0(count_noun(n_low, "pair"), " sharing fewer than ", min_items,
                          " items (min_items) have no score (light grey)."),
    if (n_clamped > 0) paste0(count_noun(n_clamped, "pair"), " with a score below -1 drawn in the end colour."))
}

heat_fill_scale <- function(value) {
  if (value == "estimate") {
    ggplot2::scale_fill_gradient2(low = "#b2182b", mid = "#f7f7f7", high = "#2166ac",
                                  midpoint = 0, limits = c(-1, 1), oob = scales::squish,
                                  na.value = "grey50", guide = ggplot2::guide_colourbar(order = 1))
  } else {
    ggplot2::scale_fill_gradient(low = "#f7f7f7", high = "#2166ac", limits = c(0, 1),
                                 oob = scales::squish, na.value = "grey50",
                                 guide = ggplot2::guide_colourbar(order = 1))
  }
}

# Annotators and pairs to draw: the named ones, at most n of them (the three
# lowest scores, then the most items); returns a caption note.
select_annotators <- function(object, annotators, n_max, min_overlap, call = rlang::caller_env()) {
  a <- object$annotators
  p <- object$pairs
  all_names <- id_text(a$annotator)
  if (!is.null(annotators)) {
    annotators <- check_choice(id_text(annotators), all_names, multiple = TRUE,
                               arg_name = "annotators", call = call, class = "plot_argument")
    a <- a[all_names %in% annotators, ]
  }
  notes <- character()
  limit <- if (is.null(n_max)) 40L else n_max
  if (nrow(a) > limit) {
    flagged <- utils::head(order(a$estimate, na.last = NA), min(3L, limit))
    rest <- setdiff(order(-a$n_items, seq_len(nrow(a))), flagged)
    a <- a[sort(c(flagged, rest[seq_len(limit - length(flagged))])), ]
    notes <- c(notes, paste0(limit, " of ", length(all_names),
                             " annotators shown (the lowest scores, then the most items); choose with `annotators` or `n_annotators`."))
  }
  keep <- id_text(a$annotator)
  p <- p[p$annotator1 %in% keep & p$annotator2 %in% keep, ]
  if (min_overlap > 1L) {
    n_low <- sum(p$n_items < min_overlap)
    p <- p[p$n_items >= min_overlap, ]
    if (n_low > 0) notes <- c(notes, paste0(count_noun(n_low, "pair"), " sharing fewer than ",
                                            min_overlap, " items left blank."))
  }
  list(annotators = keep, scores = a, pairs = p, note = notes)
}

# Annotator order: hierarchical clustering on 1 - value (pairs without a
# value are as far apart as the scale allows), mean agreement with the
# others (`score`, from the object's annotator table), or as given.
order_annotators <- function(ann, score, pairs, value, order) {
  if (order == "mean") return(ann[order(score, na.last = TRUE, decreasing = TRUE)])
  if (order == "none" || length(ann) < 3L) return(ann)
  n <- length(ann)
  m <- matrix(NA_real_, n, n, dimnames = list(ann, ann))
  i <- match(pairs$annotator1, ann)
  j <- match(pairs$annotator2, ann)
  m[cbind(i, j)] <- pairs[[value]]
  m[cbind(j, i)] <- pairs[[value]]
  far <- if (value == "estimate") 2 else 1
  d <- 1 - m
  d[is.na(d)] <- far
  diag(d) <- 0
  tree <- stats::hclust(stats::as.dist(d), method = "average")
  ann[tree$order]
}

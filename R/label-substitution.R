#' Which labels annotators use instead of one another
#'
#' A \eqn{k \times k} table over the declared labels: for every item and
#' every ordered pair of two different annotators of it, entry \eqn{(j, l)}
#' counts how often the first annotator selected label \eqn{j} while the
#' second selected label \eqn{l}. The diagonal counts agreement on a label;
#' a large off-diagonal entry next to small diagonal ones shows two labels
#' that annotators use for the same thing (say `sexist` and
#' `sex_harassment`), a dependence Hamming agreement, which compares the
#' labels one at a time, does not see.
#' Cost: one pass over the records and two cross-products of the label columns
#' (items x labels and records x labels).
#'
#' Per item with record vectors \eqn{v_r} (1 = selected) and their sum
#' \eqn{s}, the item adds \eqn{\sum_{r \ne q} v_r v_q^\top = s s^\top -
#' \sum_r v_r v_r^\top}; the table is the sum over items and is symmetric. Missing decisions count as not
#' selected (a pair counts only the decisions both annotators made).
#'
#' On multi-label data a record that selects both \eqn{j} and \eqn{l} adds
#' to the \eqn{(j, l)} entries of its pairs too, so compare an off-diagonal
#' entry with what the labels' co-occurrence within records explains.
#'
#' @inheritParams mla
#' @return An object of class `mla_substitution`: a list with `count` (the
#'   \eqn{k \times k} matrix, labels as dimnames), `share` (each row divided
#'   by its sum: given that one annotator selected \eqn{j}, the share of the
#'   other annotators' selections on the item that are \eqn{l}; `NA` for
#'   labels never selected on a pairable item), `labels` and `n_pairs` (ordered
#'   pairs of records of the same item). [tidy()][tidy.mla_substitution] gives
#'   the long form, [autoplot()][autoplot.mla_substitution] a heat map.
#' @family comparison measures
#' @export
#' @examples
#' codes <- matrix(c("pos", "pos", "neg", "neu", "neg", "neg", "neu", "pos",
#'                   "neu", "neu", "pos", "pos"), nrow = 4)
#' sub <- label_substitution(codes)
#' sub$count
#' tidy(sub)
label_substitution <- function(x, ...) {
  check_dots_empty0(...)
  a <- as_annotations(x)
  m <- item_annotator_counts(a)
  n_pairs <- sum(as.double(m) * (m - 1))
  check_pairable(sum(m >= 2), what = "A label substitution table")
  count <- label_substitution_cpp(record_values(a), length(label_names(a)), record_item(a) - 1L,
                                  n_items(a))
  dimnames(count) <- list(label_names(a), label_names(a))
  row_sum <- rowSums(count)
  share <- count / ifelse(row_sum > 0, row_sum, NA_real_)
  structure(
    list(count = count, share = share, labels = label_names(a), n_pairs = n_pairs),
    class = "mla_substitution"
  )
}

#' @export
print.mla_substitution <- function(x, ...) {
  check_dots_empty0(...)
  cat(format(x), sep = "\n")
  invisible(x)
}

#' @export
format.mla_substitution <- function(x, ...) {
  check_dots_empty0(...)
  off <- x$count
  diag(off) <- 0
  top <- which(upper.tri(off) & off > 0, arr.ind = TRUE)
  ord <- order(-off[top])[seq_len(min(5L, nrow(top)))]
  cli::cli_format_method({
    cli::cli_text("{.cls mla_substitution}: {length(x$labels)} labels, ",
                  "{format(x$n_pairs, big.mark = ',')} ordered pairs of annotations of the same item")
    for (r in ord) {
      j <- top[r, 1]
      l <- top[r, 2]
      cli::cli_text("{.val {x$labels[j]}} meets {.val {x$labels[l]}} {off[j, l]} time{?s} ",
                    "(agreement on them: {x$count[j, j]} and {x$count[l, l]})")
    }
  })
}

#' Tidy a label substitution table
#'
#' @param x An `mla_substitution` object from [label_substitution()].
#' @inheritParams mla
#' @return A tibble with one row per pair of labels: `label1`, `label2` (in
#'   declared order, as factors), `count` and `share` (see
#'   [label_substitution()]).
#' @export
#' @examples
#' codes <- matrix(c("a", "a", "b", "b", "b", "a", "c", "c"), nrow = 4)
#' tidy(label_substitution(codes))
tidy.mla_substitution <- function(x, ...) {
  check_dots_empty0(...)
  k <- length(x$labels)
  fast_tibble(
    label1 = factor(rep(x$labels, times = k), levels = x$labels),
    label2 = factor(rep(x$labels, each = k), levels = x$labels),
    count = as.vector(x$count),
    share = as.vector(x$share)
  )
}

#' Heat map of a label substitution table
#'
#' @param object An `mla_substitution` object from [label_substitution()].
#' @param fill `"share"` (rows sum to 1) or `"count"`.
#' @inheritParams mla
#' @return A ggplot: label of one annotator (rows) against label of another
#'   (columns), filled by `fill`.
#' @exportS3Method ggplot2::autoplot
#' @examplesIf rlang::is_installed("ggplot2")
#' codes <- matrix(c("a", "a", "b", "b", "b", "a", "c", "c"), nrow = 4)
#' ggplot2::autoplot(label_substitution(codes))
autoplot.mla_substitution <- function(object, fill = c("share", "count"), ...) {
  check_dots_empty0(...)
  fill <- check_choice(fill, c("share", "count"))
  rlang::check_installed("ggplot2", "to plot a label substitution table.")
  d <- tidy(object)
  d$label1 <- factor(d$label1, levels = rev(levels(d$label1)))
  ggplot2::ggplot(d, ggplot2::aes(x = .data$label2, y = .data$label1, fill = .data[[fill]])) +
    ggplot2::geom_tile(colour = "white") +
    ggplot2::scale_fill_gradient(low = "#F7FBFF", high = "#08306B", na.value = "grey90",
                                 name = if (fill == "share") "Share of row" else "Count") +
    ggplot2::labs(x = "Label of the other annotator", y = "Label of one annotator",
                  title = "Label substitution",
                  caption = "Pairs of different annotators of the same item") +
    theme_mla() +
    ggplot2::theme(axis.text.x = ggplot2::element_text(angle = 45, hjust = 1),
                   panel.grid = ggplot2::element_blank())
}

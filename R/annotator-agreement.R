#' Pairwise agreement between annotators
#'
#' Diagnostics for every pair of annotators who share at least one item, and
#' a per-annotator summary, so an annotator who drifts from the others stands
#' out. Only pairs that share items are formed, in one C++ pass over the
#' items, so sparse crowdsourcing designs with many annotators stay cheap.
#'
#' For annotators \eqn{a} and \eqn{b}, the shared items are those on which
#' both have at least one (non-missing) decision.
#' * `observed` is their Hamming agreement: the share of agreeing decisions
#'   among the item x label cells where both decided.
#' * `expected` and `estimate` are the pooled-marginal (Fleiss/Scott)
#'   Multi-Label Agreement of the pair on their shared items, exactly what
#'   [mla()] gives on the two-annotator subset of those items: per label,
#'   \eqn{p_j} pools the two annotators' decisions (Gwet's unequal-raters
#'   mean of \eqn{x_{ij}/m_{ij}}), \eqn{A_e = \mathrm{mean}_j\,[p_j^2 + (1-p_j)^2]},
#'   and the coefficient is \eqn{1 - D_o / (1 - A_e)}. With complete label
#'   vectors \eqn{D_o = 1 -} `observed`; when single decisions are missing,
#'   [mla()] averages the label-wise disagreement over labels, so `estimate`
#'   does too. A pair whose labels are all constant on their shared items has
#'   `estimate = NA` (zero chance disagreement).
#'
#' Per annotator: `n_items` annotated, `n_partners` (annotators they share an
#' item with), `prevalence` (share of positive decisions among all of their
#' decisions), `observed` (Hamming agreement pooled over every decision they
#' share with any other annotator) and `estimate` (mean of their pair
#' coefficients weighted by the number of shared items, undefined pairs
#' left out).
#'
#' @param x An `annotations` object, or anything [as_annotations()] takes.
#' @param ... Must be empty.
#' @return An object of class `mla_annotator_agreement`; use
#'   [tidy()][tidy.mla_annotator_agreement] for the pair and annotator
#'   tibbles and [autoplot()][autoplot.mla_annotator_agreement] for a heat map.
#' @family annotator evaluation
#' @references
#' Menzner, T. and Leidner, J. L. (2026). Multi-Label Agreement: A Flexible
#' Framework for Inter-Annotator Reliability. Preprint.
#'
#' Gwet, K. L. (2014). Handbook of Inter-Rater Reliability (4th ed.).
#' Advanced Analytics.
#' @export
#' @examples
#' agr <- annotator_agreement(annotations_long(bias_example, item, annotator, label, value))
#' agr
#' tidy(agr)
#' tidy(agr, level = "annotators")
annotator_agreement <- function(x, ...) {
  check_dots_empty0(...)
  x <- as_annotations(x)
  sums <- annotation_pair_sums(x)
  n_pairs <- length(sums$a)
  if (n_pairs == 0L) {
    mla_abort(
      c("{.arg x} must have two annotators who annotated a common item.",
        "x" = "No item has decisions from two annotators."),
      class = "no_pairs"
    )
  }
  ids <- as.character(x$annotators)
  pairs <- pair_table(ids, sums)
  annotators <- annotator_summary(ids, sums)
  structure(
    list(pairs = pairs, annotators = annotators, labels = x$labels,
         n_items = n_items(x)),
    class = "mla_annotator_agreement"
  )
}

# C++ pair sums on any annotations object (every value from the estimator
# kernel, undefined ones NA).
annotation_pair_sums <- function(x) pair_sums_cpp(annotation_view(x))

# One row per pair, ordered by annotators.
pair_table <- function(ids, sums) {
  ord <- order(sums$a, sums$b)
  tibble::tibble(
    annotator1 = ids[sums$a[ord] + 1L],
    annotator2 = ids[sums$b[ord] + 1L],
    n_items = as.integer(sums$n_items[ord]),
    n_decisions = as.integer(sums$n_decisions[ord]),
    observed = sums$observed[ord],
    expected = 1 - sums$w[ord],
    estimate = sums$estimate[ord]
  )
}

annotator_summary <- function(ids, sums) {
  tibble::tibble(
    annotator = ids,
    n_items = as.integer(sums$ann_items),
    n_partners = tabulate(c(sums$a, sums$b) + 1L, nbins = length(ids)),
    prevalence = sums$ann_prevalence,
    observed = sums$ann_observed,
    estimate = sums$ann_estimate
  )
}

#' Tidy annotator agreement diagnostics
#'
#' @param x An `mla_annotator_agreement` object from [annotator_agreement()].
#' @param level `"pairs"`: one row per pair of annotators who share items
#'   (`annotator1`, `annotator2`, `n_items`, `n_decisions`, `observed`,
#'   `expected`, `estimate`); `"annotators"`: one row per annotator
#'   (`annotator`, `n_items`, `n_partners`, `prevalence`, `observed`,
#'   `estimate`). See [annotator_agreement()] for the definitions.
#' @param ... Must be empty.
#' @return A tibble.
#' @family annotator evaluation
#' @export
#' @examples
#' agr <- annotator_agreement(annotations_long(bias_example, item, annotator, label, value))
#' tidy(agr, level = "annotators")
#' @method tidy mla_annotator_agreement
tidy.mla_annotator_agreement <- function(x, level = c("pairs", "annotators"), ...) {
  check_dots_empty0(...)
  level <- check_choice(level, c("pairs", "annotators"))
  x[[level]]
}

#' @export
print.mla_annotator_agreement <- function(x, ...) {
  cat(format(x, ...), sep = "\n")
  invisible(x)
}

#' @export
format.mla_annotator_agreement <- function(x, ...) {
  a <- x$annotators
  p <- x$pairs
  low <- a[order(a$estimate, na.last = TRUE), ]
  low <- low[!is.na(low$estimate), ][seq_len(min(3L, sum(!is.na(low$estimate)))), ]
  cli::cli_format_method({
    cli::cli_text("{.cls mla_annotator_agreement}: {nrow(a)} annotator{?s}, ",
                  "{nrow(p)} pair{?s} sharing items, {length(x$labels)} label{?s}")
    defined <- p$estimate[!is.na(p$estimate)]
    if (length(defined) > 0) {
      cli::cli_text("Pair coefficients (pooled marginal): median {format_fixed(stats::median(defined))}, ",
                    "range {format_fixed(min(defined))} to {format_fixed(max(defined))}",
                    if (anyNA(p$estimate)) paste0(" (", sum(is.na(p$estimate)), " undefined)") else "")
    } else {
      cli::cli_text("Pair coefficients (pooled marginal): all undefined (constant labels).")
    }
    if (nrow(low) > 0) {
      cli::cli_text("Lowest mean agreement: ",
                    paste0(low$annotator, " (", format_fixed(low$estimate), ")", collapse = ", "))
    }
    cli::cli_text("Use {.code tidy(x, level = \"pairs\")} or {.code tidy(x, level = \"annotators\")}.")
  })
}

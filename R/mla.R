#' Multi-Label Agreement
#'
#' Computes average pairwise Hamming agreement over full binary label vectors
#' and its chance-corrected forms under three baseline models, at corpus,
#' label and item level (Menzner and Leidner 2026, section 3).
#'
#' For label \eqn{j} let \eqn{p_j} be its pooled prevalence and \eqn{A_{o,j}}
#' its average pairwise agreement. The baselines are
#' \deqn{A^{(F)}_{e,j} = p_j^2 + (1-p_j)^2, \quad A^{(AC1)}_{e,j} = 2p_j(1-p_j),
#'   \quad A^{(PB)}_{e,j} = 1/2,}
#' corpus \eqn{A_o} and \eqn{A_e} are their means over labels, and
#' \deqn{A_{ml} = \frac{A_o - A_e}{1 - A_e} = \frac{\sum_j (1 - A_{e,j}) A_j}{\sum_j (1 - A_{e,j})}}
#' (eq. 6): the corpus value is the chance-disagreement-weighted average of
#' the label coefficients \eqn{A_j}. The `weight` column of
#' `tidy(fit, level = "label")` reports these weights normalised to sum to 1.
#'
#' Cost: one counting pass over the annotations, made when the
#' `annotations` object is built; everything else comes from its tables.
#'
#' @section Conditional floor (eq. 7):
#' The floor is the smallest observed agreement any annotation with the same
#' design and the same number of positive decisions per label could have.
#' For complete designs it is the paper's eq. 7 (positives spread as evenly
#' as possible over items). With missing decisions it is the same minimum
#' over placements of the label's positives on the items, each item with its
#' own number of decisions \eqn{m_{ij}}; items with one decision can absorb a
#' positive without adding agreement. `floor_observed` is this minimum;
#' `floor` normalises it with the observed baseline. With label weights or a
#' structure the corpus floor is the weighted mean of the variables'
#' floors, weighted as the estimate. A nominal variable (the corpus of a
#' single-label design, a label group) has the same floor over its
#' categories: the smallest agreement of any item x category table with the
#' same category totals and items' numbers of decisions, computed exactly;
#' it is `NA`, with a note, when the items have too many different numbers
#' of decisions for the exact solver's budget, and with category weights.
#'
#' @section Missing decisions:
#' `NA` is never a "not selected". Per label, an item enters the observed
#' agreement when it has at least two decisions on it,
#' \eqn{A_{o,ij} = [x(x-1) + (m-x)(m-x-1)] / [m(m-1)]}, and enters the
#' prevalence \eqn{p_j} (the mean of \eqn{x_{ij}/m_{ij}}) when it has at least
#' one (Gwet's unequal-raters formulas, as in irrCAC). Corpus \eqn{A_o} and
#' \eqn{A_e} are means over labels with a pairable item. When whole label
#' vectors are missing this is the mean of the item values \eqn{A_{o,i}}; when
#' single decisions are missing each label uses its own pairable items. On
#' complete data every formula is exactly the paper's. Items with one
#' annotation count in the prevalences but not in observed agreement; their
#' item rows have `observed = NA`.
#'
#' @section Undefined values:
#' A coefficient with a zero denominator (under the pooled baseline, a label
#' no one, or everyone, selects) is `NA`, never `NaN` or `Inf`; the reasons are
#' listed by `summary()` and kept in `fit$notes`. A design on which nothing
#' can be estimated (fewer than two annotators, no item with two decisions) is
#' an error.
#'
#' @param x An `annotations` object, or anything [as_annotations()] takes.
#' @param baseline The primary baseline: `"fleiss"` (pooled marginal,
#'   Fleiss/Scott, the paper's F), `"ac1"` (Gwet), `"pabak"` or `"conger"`
#'   (annotator-specific marginals, Conger/Cohen). The first three are always
#'   computed, the others being sensitivity analyses; `"conger"` adds its rows
#'   to them (see the section *Annotator-specific chance*).
#' @param labels Optional subset of the declared labels to analyse (character).
#'   Restricting the universe changes AC1 and PABAK but not the pooled
#'   coefficient (paper Table 2). On a single-label design, a subset of the
#'   categories is analysed as multi-label data: the Hamming agreement of the
#'   chosen categories' category-versus-rest indicators, not Fleiss' kappa,
#'   AC1 or Brennan-Prediger of the categories; the fit's notes (`summary()`,
#'   the `note` column of `tidy()`) say so. The coefficients read only the
#'   decisions on these labels; the design columns of [glance()][glance.mla]
#'   still describe the whole object.
#' @param ... Must be empty.
#' @inheritParams annotations_long
#' @return An object of class `mla`. Use [tidy()][tidy.mla] and
#'   [glance()][glance.mla] for tibbles; `print(fit, digits = 2)` and
#'   `print(summary(fit), digits = 2)` set the printed decimals (4).
#' @references
#' Menzner, T. and Leidner, J. L. (2026). Multi-Label Agreement: A Flexible
#' Framework for Inter-Annotator Reliability. Preprint.
#'
#' Gwet, K. L. (2014). Handbook of Inter-Rater Reliability (4th ed.).
#' Advanced Analytics.
#' @export
#' @examples
#' fit <- mla(annotations_long(bias_example, item, annotator, label, value))
#' fit
#' tidy(fit)
#' tidy(fit, level = "label")
#' glance(fit)
#'
#' # Table 2 of the paper: drop the never-selected labels
#' used <- paste0("L", sprintf("%02d", 1:11))
#' tidy(mla(annotations_long(bias_example, item, annotator, label, value), labels = used))
#'
#' # chance from each annotator's own marginal (Conger/Cohen) beside the others
#' tidy(mla(annotations_long(bias_example, item, annotator, label, value), baseline = "conger"))
mla <- function(x, baseline = c("fleiss", "ac1", "pabak", "conger"), labels = NULL, ...,
                label_weights = NULL, label_groups = NULL, label_tree = NULL,
                weights = "identity", threads = mla_threads()) {
  check_dots_empty0(...)
  baseline <- check_choice(baseline, all_baseline_names)
  threads <- check_threads(threads)
  x <- as_annotation_source(x, threads = threads)  # R/annotation-generics.R
  structure <- list(label_weights = label_weights, label_groups = label_groups,
                    label_tree = label_tree)
  mla_fit(x, baseline, labels, structure, weights, threads, call = rlang::current_env())
}

# mla() on the records: one estimator path; a label structure, category
# weights and single-label designs are inputs of it.
mla_records <- function(x, baseline, labels, structure, weights, threads, call) {
  cols <- select_labels(x, labels, call = call)
  counts <- if (identical(cols, seq_along(label_names(x)))) {
    list(tally = label_tally(x), annotator_records = annotator_record_counts(x))
  } else {
    count_labels(x, cols, keep_counts = FALSE, threads = threads)  # reads only these labels
  }
  tally <- counts$tally
  check_estimable(x, tally, counts$annotator_records, call = call)
  st <- resolve_label_structure(x, structure$label_weights, structure$label_groups,
                                structure$label_tree, cols, call = call)
  if (is_group_of_every_category(x, st)) st <- NULL
  if (!is.null(st)) {
    if (baseline == "conger") abort_structure_conger(call)
    return(structured_mla(x, cols, st, baseline, weights, call = call))  # R/label-structure-fit.R
  }
  fit <- new_mla(x, cols, mla_estimates(tally), tally, baseline)
  # a subset of the categories is not a single-label design: its labels are
  # category-versus-rest indicators, noted by new_mla()
  if (is_single_label(x) && length(cols) == length(label_names(x))) {
    # category weights replace the corpus rows, and have no eq. 7 floor
    fit <- single_label_corpus(fit, tally, with_floor = !uses_category_weights(weights, call))
  }
  fit <- apply_category_weights(fit, x, weights, call = call)
  if (baseline == "conger") fit <- add_conger(fit, x, cols, tally, call = call)  # R/conger.R
  fit
}

abort_structure_conger <- function(call) {
  mla_abort(
    c("{.arg baseline} {.val conger} needs plain labels, without a label structure.",
      "i" = "Drop {.arg label_weights}, {.arg label_groups} and {.arg label_tree}, or use a pooled baseline."),
    class = "structure_conger", call = call
  )
}

select_labels <- function(x, labels, call = rlang::caller_env()) {
  if (is.null(labels)) return(seq_along(label_names(x)))
  labels <- check_label_universe(labels, call = call)
  idx <- match(labels, label_names(x))
  if (anyNA(idx)) {
    mla_abort(
      c("{.arg labels} must be declared labels of {.arg x}.",
        "x" = "Not declared: {.val {labels[is.na(idx)]}}."),
      class = "unknown_label", call = call
    )
  }
  idx
}

# Works from the label tables: row m of `cnt` counts items with m decisions.
# `annotator_records`: each annotator's records with a decision on the labels
# analysed (all of them by default).
check_estimable <- function(x, tally, annotator_records = annotator_record_counts(x),
                            call = rlang::caller_env()) {
  if (sum(tally$cnt) == 0) {
    mla_abort("{.arg x} must contain at least one non-missing decision.",
              class = "no_data", call = call)
  }
  n_ann <- sum(annotator_records > 0)
  if (n_ann < 2L) {
    mla_abort(
      c("{.arg x} must have at least 2 annotators with decisions.",
        "x" = "It has {n_ann}."),
      class = "one_annotator", call = call
    )
  }
  if (nrow(tally$cnt) < 2L || sum(tally$cnt[-1, ]) == 0) {
    mla_abort(
      c("{.arg x} must have at least one item with two decisions on the same label.",
        "x" = "No item was annotated twice, so no pair of decisions can be compared."),
      class = "no_pairs", call = call
    )
  }
}

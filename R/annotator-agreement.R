#' Pairwise agreement between annotators
#'
#' Diagnostics for every pair of annotators who share at least one item, and
#' a per-annotator summary, so an annotator who drifts from the others stands
#' out. Cost: one pass over the items, forming only the pairs that share an
#' item.
#'
#' For annotators \eqn{a} and \eqn{b}, the shared items are those on which
#' both have at least one (non-missing) decision.
#' * `observed` is their Hamming agreement: the share of agreeing decisions
#'   among the item x label cells where both decided.
#' * `expected` is the corpus chance agreement of the pooled-marginal
#'   (Fleiss/Scott) baseline, \eqn{A_e} of [mla()] on all of `x`, and
#'   `estimate` is \eqn{1 - (1 - \mathrm{observed}) / (1 - A_e)}: the pair's
#'   agreement against the chance agreement of the whole corpus, like the
#'   item diagnostics of [mla()] (paper section 3.2). The corpus baseline is
#'   estimated from every annotation, so it is stable however few items a
#'   pair shares; a pair's own marginals are not (a pair that shares one item
#'   and agrees has chance agreement 1, so its own coefficient is undefined,
#'   and one that disagrees gets -1).
#' * `pair_estimate` is that pair's own pooled-marginal coefficient, exactly
#'   what [mla()] gives on the two-annotator subset of the shared items (per
#'   label, \eqn{p_j} pools the two annotators' decisions), for crossed
#'   designs where every pair shares many items.
#'
#' On a single-label design (`single_label = TRUE`), `observed` and
#' `expected` are on the category scale of [mla()]'s \eqn{A_o} and
#' \eqn{A_e}: `observed` is the share of shared items on which the two chose
#' the same category, `expected` Fleiss' chance agreement \eqn{\sum_k p_k^2},
#' and `n_decisions` counts the items compared (one category decision each).
#' `estimate` is the same on either scale (two one-hot records disagree on
#' 2 of the \eqn{q} category cells or on none).
#'
#' Per annotator (annotator versus the rest): `n_items` annotated,
#' `n_shared_items` (items they share with at least one other annotator),
#' `n_partners`, `prevalence` (share of positive decisions among all of their
#' decisions; times the number of labels, the labels they tick per record),
#' `observed` (Hamming agreement pooled over every decision they share with
#' any other annotator; on a single-label design, the share of those
#' comparisons that choose the same category), `estimate`, the same
#' corpus-baseline score of `observed`, and `kappa`, a coefficient with the
#' annotator's own chance term (see Scales).
#'
#' @section Scales:
#' `estimate` (pairs and annotators) is a rescaled Hamming agreement, not a
#' kappa: it runs from \eqn{1 - 1/(1 - A_e)} (every shared decision
#' disagrees) to 1, and with rare labels \eqn{A_e} is close to 1, so scores
#' far below -1 are ordinary (-2.85 at \eqn{A_e = 0.74}). Because every
#' annotator shares one chance term, the annotator `estimate` ranks exactly
#' as `observed` does; over many mostly-unticked labels that largely ranks
#' how many labels an annotator ticks. `print()` shows each flagged
#' annotator's prevalence, and says so when the ranking mostly follows
#' prevalence: when, over the ranked annotators (at least 4), the Spearman
#' correlation between `estimate` and `prevalence` (the whole ranking) or
#' their Pearson correlation (a few annotators who tick far more than the
#' rest) exceeds 0.8 in absolute value.
#'
#' `pair_estimate` is a pooled-marginal (Scott-type) coefficient, at least
#' -1 when both annotators decided every label of their shared items.
#'
#' `kappa` compares the annotator with the rest of the crowd, Cohen-style,
#' with the annotator's own marginal. Each of their decisions on item
#' \eqn{i} and label \eqn{j} is compared with each of the other decisions
#' there; over these comparisons on label \eqn{j}, \eqn{D_j} is the share
#' that disagree, \eqn{p_j} the share in which the annotator said 1 and
#' \eqn{q_j} the share in which the other annotator did, so the chance
#' disagreement is \eqn{E_j = p_j(1 - q_j) + q_j(1 - p_j)}. Labels are pooled
#' as in the paper's eq. 6:
#' \deqn{\kappa_a = 1 - \frac{\sum_j D_j}{\sum_j E_j}}
#' over the labels with comparisons. It lies in \eqn{[-1, 1]}: an annotator
#' who ticks many labels is judged against the chance agreement their own
#' rate implies. With two annotators and one label it is Cohen's kappa. It
#' needs the records (`NA` on a summary made by [annotation_counts()] or a
#' database table) and, like `estimate`, `min_items` shared items.
#'
#' @section Large designs:
#' The pair table grows with the square of the number of annotators who
#' share items. When its estimated size exceeds the option
#' `mlagreement.max_memory` (bytes; default `8 * 2^30`) the call fails at
#' once with an error of class `mlagreement_error_pairs_too_large` that
#' names the size. `pairs = FALSE` avoids the pair table.
#'
#' @inheritParams mla
#' @param min_items Smallest number of shared items a pair or an annotator
#'   needs for an `estimate` (see Minimum support).
#' @param pairs `TRUE` (default) for the pair table; `FALSE` for the
#'   per-annotator rows only, computed in one pass linear in the records
#'   (the same `n_items`, `n_shared_items`, `prevalence`, `observed` and
#'   `estimate`; `n_partners` is `NA` and the pair table has no rows). Use it
#'   when the pairs are too many to hold (see Large designs).
#' @param ... Must be empty (so that a mistyped argument, such as `min_item`, is an
#'   error rather than a partial match).
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
#' tidy(agr, level = "light")
annotator_agreement <- function(x, ..., min_items = 10, pairs = TRUE) {
  check_dots_empty0(...)
  min_items <- check_whole(min_items, min = 1)
  check_bool(pairs)
  x <- as_annotation_source(x)  # R/annotation-generics.R
  sums <- annotator_sums(x, pairs)
  if (!any(sums$has_pair)) {
    mla_abort(
      c("{.arg x} must have two annotators who annotated a common item.",
        "x" = "No item has decisions from two annotators."),
      class = "no_pairs"
    )
  }
  ids <- annotator_ids(x)
  w <- corpus_chance_disagreement(x)
  annotators <- annotator_summary(x, ids, sums, w, min_items)
  annotators$kappa <- annotator_kappa(x)  # R/annotation-generics.R
  annotators$kappa[annotators$n_shared_items < min_items] <- NA_real_
  kappas <- if (pairs) pair_cohen_kappas(x, sums$a, sums$b)  # R/light.R
  pair_rows <- pair_table(ids, sums, w, min_items, kappas$corpus)
  if (!pairs) {  # (a summary brings its pair table anyway: not shown either)
    annotators$n_partners <- NA_integer_
    pair_rows <- pair_rows[0, ]
  }
  structure(
    list(pairs = on_category_scale(x, pair_rows),  # R/single-label.R
         annotators = on_category_scale(x, annotators), labels = label_names(x),
         n_items = n_items(x), min_items = min_items,
         expected = on_category_scale(x, list(expected = 1 - w))$expected, pair_table = pairs,
         single_label = is_single_label(x), has_kappa = has_records(x),
         prevalence_rho = prevalence_rank_correlation(annotators$estimate, annotators$prevalence),
         light = light_table(label_names(x), kappas)),
    class = "mla_annotator_agreement"
  )
}

# pair_sums_cpp() with its last line of defence: the core reports
# std::bad_alloc instead of raising it.
pair_sums_checked <- function(view, call = rlang::caller_env()) {
  sums <- pair_sums_cpp(view)
  if (isTRUE(sums$out_of_memory)) {
    mla_abort(
      c("Not enough memory for the annotator pairs of {view$n_annotators} annotator{?s}.",
        "i" = "Free memory, or use {.code annotator_agreement(pairs = FALSE)} for the per-annotator rows only."),
      class = "memory", call = call
    )
  }
  sums
}

# Upper bound on the annotator pairs that share an item, and the record
# comparisons that form them (doubles: they can pass the integer range).
pair_design_size <- function(x) {
  m <- as.double(item_annotator_counts(x))
  J <- as.double(n_annotators(x))
  comparisons <- sum(m * (m - 1) / 2)
  list(comparisons = comparisons, pairs = min(J * (J - 1) / 2, comparisons))
}

check_pair_memory <- function(bytes, n_pairs, what, hint, call = rlang::caller_env()) {
  # `what` is plain text: cli substitutes it, it does not parse its markup
  check_memory(bytes, paste0(what, " for up to ",
                             format(n_pairs, big.mark = ",", scientific = FALSE), " annotator pairs"),
               hint, class = "pairs_too_large", call = call)
}

# Each record's item, decisions, positives and its item's totals per label.
record_item_totals <- function(x) {
  v <- record_values(x)
  item <- record_item(x)
  dec <- !is.na(v)
  pos <- dec & v == 1
  pos[is.na(pos)] <- FALSE
  m_item <- rowsum(dec + 0, item)
  x_item <- rowsum(pos + 0, item)
  at <- match(item, as.integer(rownames(m_item)))
  list(item = item, dec = dec, pos = pos, m = m_item[at, , drop = FALSE],
       x = x_item[at, , drop = FALSE])
}

# Per-annotator sums without the pair table, linear in the records: on item i
# and label j a decision meets m_ij - 1 others. Integer sums, so equal to the
# sums over the annotator's pairs.
annotator_sums_linear <- function(x) {
  t <- record_item_totals(x)
  dec <- t$dec
  pos <- t$pos
  m_r <- t$m
  x_r <- t$x
  same <- ifelse(pos, x_r - 1, m_r - x_r - 1) * dec
  joint <- (m_r - 1) * dec
  J <- n_annotators(x)
  ann <- record_annotator(x)
  by_ann <- function(v) {
    s <- numeric(J)
    r <- rowsum(v, ann)
    s[as.integer(rownames(r))] <- r[, 1]
    s
  }
  agree <- by_ann(rowSums(same))
  joint <- by_ann(rowSums(joint))
  decisions <- by_ann(rowSums(dec))
  ratio <- function(a, b) ifelse(b > 0, a / b, NA_real_)
  list(a = integer(0), b = integer(0), n_items = numeric(0), n_decisions = numeric(0),
       observed = numeric(0), estimate = numeric(0),
       ann_items = by_ann(as.double(rowSums(dec) > 0)),
       ann_prevalence = ratio(by_ann(rowSums(pos)), decisions),
       ann_observed = ratio(agree, joint),
       has_pair = any(tabulate(t$item[rowSums(dec) > 0], n_items(x)) >= 2L))
}


# Agreement against the corpus baseline: 1 - (1 - observed) / w, NA below
# the minimum support or when the corpus baseline is degenerate.
corpus_baseline_estimate <- function(observed, support, w, min_items) {
  est <- if (is.finite(w) && w > 0) 1 - (1 - observed) / w else rep(NA_real_, length(observed))
  est[support < min_items] <- NA_real_
  est
}

pair_table <- function(ids, sums, w, min_items, cohen = NULL) {
  ord <- order(sums$a, sums$b)
  if (is.null(cohen)) cohen <- rep(NA_real_, length(sums$a))
  n_items <- as.integer(sums$n_items[ord])
  tibble::tibble(
    annotator1 = ids[sums$a[ord] + 1L],
    annotator2 = ids[sums$b[ord] + 1L],
    n_items = n_items,
    n_decisions = as.integer(sums$n_decisions[ord]),
    observed = sums$observed[ord],
    expected = 1 - w,
    estimate = corpus_baseline_estimate(sums$observed[ord], n_items, w, min_items),
    pair_estimate = ifelse(n_items < min_items, NA_real_, sums$estimate[ord]),
    cohen_kappa = cohen[ord]
  )
}

annotator_summary <- function(x, ids, sums, w, min_items) {
  shared <- shared_items_per_annotator(x)
  tibble::tibble(
    annotator = ids,
    n_items = as.integer(sums$ann_items),
    n_shared_items = shared,
    n_partners = tabulate(c(sums$a, sums$b) + 1L, nbins = length(ids)),
    prevalence = sums$ann_prevalence,
    observed = sums$ann_observed,
    estimate = corpus_baseline_estimate(sums$ann_observed, shared, w, min_items)
  )
}


#' Tidy annotator agreement diagnostics
#'
#' @param x An `mla_annotator_agreement` object from [annotator_agreement()].
#' @param level `"pairs"`: one row per pair of annotators who share items
#'   (`annotator1`, `annotator2`, `n_items`, `n_decisions`, `observed`,
#'   `expected`, `estimate`, `pair_estimate`, `cohen_kappa`); `"annotators"`:
#'   one row per annotator (`annotator`, `n_items`, `n_shared_items`,
#'   `n_partners`, `prevalence`, `observed`, `estimate`, `kappa`); `"light"`:
#'   Light's kappa for the corpus and each label (`level`, `label`,
#'   `estimate`, `n_pairs`). See [annotator_agreement()] for the definitions.
#' @inheritParams mla
#' @return A tibble.
#' @family annotator evaluation
#' @export
#' @examples
#' agr <- annotator_agreement(annotations_long(bias_example, item, annotator, label, value))
#' tidy(agr, level = "annotators")
#' @method tidy mla_annotator_agreement
tidy.mla_annotator_agreement <- function(x, level = c("pairs", "annotators", "light"), ...) {
  check_dots_empty0(...)
  level <- check_choice(level, c("pairs", "annotators", "light"))
  x[[level]]
}

#' Set-based comparison measures of multi-label agreement
#'
#' The measures the Multi-Label Agreement paper sets next to MLA (Menzner and
#' Leidner 2026, sections 2.1 and 3.7): average pairwise MASI and Jaccard
#' similarity, Augmented kappa (Rosenberg and Binkowski 2004), \eqn{A_m}
#' (Bhowmick et al. 2008) and boot-F1 (Marchal et al. 2022). They look at the
#' sets of selected labels, so joint omissions count for little or nothing;
#' each has its own chance model (or none), so their values are not on one
#' scale and should not be compared with each other or with MLA as if they
#' were.
#' Cost: one pass over the records builds their label sets; each pair of
#' annotations of an item is then compared once, and boot-F1 redraws each
#' annotator pair's comparisons `R` times.
#'
#' @section Measures:
#' Let \eqn{A} and \eqn{B} be the label sets two annotators gave one item.
#' * `masi`: mean over items of the mean MASI similarity over the item's
#'   pairs of annotations, \eqn{J(A, B) \cdot M(A, B)} with the Jaccard
#'   similarity \eqn{J} and \eqn{M} = 1 (identical), 2/3 (one set a proper
#'   subset of the other), 1/3 (other overlap), 0 (disjoint), as in
#'   [krippendorff_alpha()]. Two empty sets count as identical (1). Not
#'   chance-corrected.
#' * `jaccard`: the same average with \eqn{J(A, B) = |A \cap B| / |A \cup B|}
#'   (1 for two empty sets).
#' * `augmented_kappa`: Rosenberg and Binkowski (2004) split one unit of mass
#'   over the labels of an annotation (primary and secondary label weighted
#'   \eqn{p} and \eqn{1 - p}); for unordered sets every selected label gets
#'   \eqn{1 / |A|}, and an empty set is its own category ("none") with mass 1.
#'   For annotators \eqn{c, c'} on their shared items,
#'   \eqn{P_o} is the mean over items of \eqn{\sum_l w_c(l) w_{c'}(l)} and
#'   \eqn{P_e = \sum_l \bar w_c(l) \bar w_{c'}(l)} with each annotator's own
#'   mean weights (Cohen-style marginals); \eqn{\kappa_{cc'} = (P_o - P_e) /
#'   (1 - P_e)}. The estimate is the mean over annotator pairs (pairs with
#'   \eqn{P_e = 1} are left out and counted in the note).
#' * `am`: every unordered pair of labels is a nominal variable with the
#'   values both selected, neither selected, or one of them (Bhowmick et al.
#'   2008, as the paper describes it). For annotators \eqn{c, c'},
#'   \eqn{A_o} is the share of (shared item, label pair) combinations with
#'   the same value and \eqn{A_e = \sum_v P_c(v) P_{c'}(v)} with each
#'   annotator's distribution of the three values over their shared items
#'   and all label pairs; \eqn{A_m = (\bar A_o - \bar A_e) / (1 - \bar A_e)}
#'   with means over annotator pairs. The label inventory is the labels
#'   selected at least once in `x`, not the declared universe.
#' * `boot_f1`: for each annotator pair, the observed F1 is the mean over
#'   shared items of the Dice coefficient \eqn{2|A \cap B| / (|A| + |B|)}
#'   (1 for two empty sets; F1 of one annotator against the other), and the
#'   chance F1 is its mean over `R` bootstrap replicates in which both
#'   annotators' sets on the shared items are drawn with replacement,
#'   independently, from their own sets on those items; boot-F1 is the mean
#'   over annotator pairs of \eqn{(F1 - F1_{chance}) / (1 - F1_{chance})}
#'   (pairs with chance F1 = 1 are left out). The chance term converges to
#'   the mean Dice over all combinations of the two annotators' sets. The
#'   seed is drawn from R's generator, so `set.seed()` makes the result
#'   reproducible; it is stored in `attr(result, "seed")`. Each annotator
#'   pair has its own stream, so the result does not depend on `threads`.
#'
#' @section Decisions and the paper's worked example:
#' The original definitions leave choices open for multi-label sets of any
#' size and for missing annotations. The choices above are those that
#' reproduce the paper's values on the reconstruction of its worked example
#' ([bias_example]): Augmented kappa 0.253 and \eqn{A_m} 0.281 (with the 11
#' selected labels; with all 31 declared labels no array consistent with the
#' paper reaches 0.281), and boot-F1 about 0.366 (per-item Dice, per-pair
#' adjustment). The Bhowmick et al. text could not be consulted; the \eqn{A_m}
#' variant is inferred from the paper's description and its value. The
#' paper's MASI value 0.509 cannot come from any annotation consistent with
#' the paper's other numbers (the largest attainable average MASI is 0.393);
#' on `bias_example` average MASI is 0.3296. The package does not tune to
#' 0.509.
#'
#' @section Missing annotations:
#' Whole missing records (an annotator who did not see an item) are simply
#' absent: average MASI and Jaccard are means over items with at least two
#' annotations of the within-item mean over pairs, and the annotator-pair
#' measures use the items both annotators annotated. Records with some but
#' not all labels missing are not sets and are an error.
#'
#' @inheritParams mla_boot
#' @inheritParams krippendorff_alpha
#' @param R Number of bootstrap replicates for the chance term of boot-F1.
#' @return A tibble with columns `measure` (`"masi"`, `"jaccard"`,
#'   `"augmented_kappa"`, `"am"`, `"boot_f1"`), `estimate` and `note` (how it
#'   was computed). The seed of boot-F1 is in `attr(result, "seed")`.
#' @family comparison measures
#' @references
#' Passonneau, R. J. (2006). Measuring agreement on set-valued items (MASI)
#' for semantic and pragmatic annotation. *Proceedings of LREC 2006*, 831-836.
#'
#' Rosenberg, A. and Binkowski, E. (2004). Augmenting the kappa statistic to
#' determine interannotator reliability for multiply labeled data points.
#' *Proceedings of HLT-NAACL 2004: Short Papers*, 77-80.
#' <https://aclanthology.org/N04-4020>
#'
#' Bhowmick, P. K., Basu, A. and Mitra, P. (2008). An agreement measure for
#' determining inter-annotator reliability of human judgements on affective
#' text. *Coling 2008 Workshop on Human Judgements in Computational
#' Linguistics*, 58-65.
#'
#' Marchal, M., Scholman, M., Yung, F. and Demberg, V. (2022). Establishing
#' annotation quality in multi-label annotations. *Proceedings of COLING
#' 2022*, 3659-3668. <https://aclanthology.org/2022.coling-1.322>
#'
#' Menzner, T. and Leidner, J. L. (2026). Multi-Label Agreement: A Flexible
#' Framework for Inter-Annotator Reliability. Preprint, sections 2.1, 3.7.
#' @export
#' @examples
#' set.seed(1)
#' agreement_measures(annotations_long(bias_example, item, annotator, label, value),
#'                    R = 200)
agreement_measures <- function(x, R = 1000, threads = mla_threads(), ...) {
  check_dots_empty0(...)
  R <- check_whole(R, min = 1, class = "replicates")
  threads <- check_threads(threads)
  a <- as_annotations(x)
  seed <- sample.int(.Machine$integer.max, 2L)
  k_used <- sum(colSums(label_tally(a)$sx) > 0)
  sets <- set_measures_impl(a, k_used, R, seed, threads)
  if (sets$bad_record >= 0) {
    abort_partial_record(a, sets$bad_record, "Set-based measures")
  }
  check_pairable(sets$n_items, what = "The agreement measures")
  pm <- sets$pairs
  n_pairs <- nrow(pm)

  ak_ok <- pm$ak_expected < 1
  ak <- if (any(ak_ok)) {
    mean((pm$ak_observed[ak_ok] - pm$ak_expected[ak_ok]) / (1 - pm$ak_expected[ak_ok]))
  } else {
    NA_real_
  }
  am <- if (k_used >= 2) {
    ao <- mean(pm$am_observed)
    ae <- mean(pm$am_expected)
    if (ae < 1) (ao - ae) / (1 - ae) else NA_real_
  } else {
    NA_real_
  }
  f1_ok <- pm$f1_chance < 1
  f1 <- if (any(f1_ok)) {
    mean((pm$f1_observed[f1_ok] - pm$f1_chance[f1_ok]) / (1 - pm$f1_chance[f1_ok]))
  } else {
    NA_real_
  }
  left_out <- function(ok) {
    if (all(ok)) "" else paste0(" (", sum(!ok), " pair(s) with chance agreement 1 left out)")
  }
  out <- tibble::tibble(
    measure = c("masi", "jaccard", "augmented_kappa", "am", "boot_f1"),
    estimate = c(sets$similarity_masi, sets$similarity_jaccard, ak, am, f1),
    note = c(
      paste0("mean over ", sets$n_items, " items of the mean pairwise MASI similarity ",
             "(factors 1, 2/3, 1/3, 0; two empty sets = 1); not chance-corrected"),
      paste0("mean over ", sets$n_items, " items of the mean pairwise Jaccard similarity ",
             "(two empty sets = 1); not chance-corrected"),
      paste0("mean of Cohen-style kappas over ", sum(ak_ok), " annotator pairs",
             left_out(ak_ok), "; each selected label weighs 1/(set size), ",
             "an empty set is the category 'none'"),
      if (k_used >= 2) {
        paste0(k_used, " labels selected at least once, ", choose(k_used, 2),
               " label pairs; (mean A_o - mean A_e) / (1 - mean A_e) over ",
               n_pairs, " annotator pairs")
      } else {
        "undefined: fewer than two labels were ever selected"
      },
      paste0("mean over ", sum(f1_ok), " annotator pairs", left_out(f1_ok),
             " of (F1 - chance) / (1 - chance); F1 = mean per-item Dice; chance from R = ",
             R, " bootstrap replicates")
    )
  )
  attr(out, "seed") <- seed
  out
}

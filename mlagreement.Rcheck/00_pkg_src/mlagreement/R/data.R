#' Worked example of the Multi-Label Agreement paper
#'
#' Four news sentences, three annotators and a pre-specified taxonomy of 31
#' bias types (paper section 3.7), in long format: one row per decision.
#'
#' The paper's Table 1 is not in its text. This is a reconstruction that
#' reproduces every Multi-Label Agreement number the paper publishes for the
#' example (item agreements 1, 83/93, 85/93, 79/93; \eqn{A_e^{(F)}} =
#' 27.5278/31; coefficients 0.2320 / 0.9031 / 0.8280; \eqn{p_r} = 7/93; the
#' floors; Table 2), and also Augmented kappa 0.253, Am 0.281 and boot-F1
#' about 0.366. Those MLA numbers depend only on the item pair sums and the
#' label totals, so they hold for every array consistent with the paper; the
#' label-level values of Table 3 depend on the reconstruction. The paper's
#' MASI value 0.509 cannot be reached by any array consistent with its other
#' numbers (the attainable maximum is 0.393).
#'
#' Labels `L01`-`L11` are used (numbered by first appearance); `L12`-`L31`
#' are never selected but belong to the declared universe.
#'
#' @format A data frame with 372 rows and 4 columns:
#' \describe{
#'   \item{item}{Sentence, 1-4.}
#'   \item{annotator}{Annotator, 1-3.}
#'   \item{label}{Bias type, a factor with all 31 declared levels.}
#'   \item{value}{1 selected, 0 not selected.}
#' }
#' @source Menzner, T. and Leidner, J. L. (2026). Multi-Label Agreement: A
#'   Flexible Framework for Inter-Annotator Reliability. Preprint, section 3.7;
#'   reconstruction of Table 1 by the package authors.
"bias_example"

#' ConvAbuse abuse types
#'
#' Multi-label abuse types given by 8 annotators to 4,185 user turns of
#' conversations with two conversational AI systems (CarbonBot and
#' E.L.I.Z.A.), from the ConvAbuse corpus. One row per decision: each
#' (item, annotator) record has a row for each of the 7 type labels. An
#' annotator who did not see an item has no rows (a missing annotation, not
#' zeros). Items have 2 to 7 annotators.
#'
#' The source contains repeated annotations: in 345 (item, annotator) pairs the
#' same annotator labelled the same item two or three times. `convabuse_types`
#' keeps the first annotation of each pair; the later ones are in
#' `convabuse_repeats` with their `occurrence` (2 or 3), so
#' `rbind(convabuse_types, convabuse_repeats[1:4])` is the full source and
#' `annotations_long(..., duplicates = "first")` gives back `convabuse_types`.
#'
#' @format `convabuse_types`: a data frame with 86,877 rows:
#' \describe{
#'   \item{item}{Item id (`ex<N>`, N the smallest source row of the item).}
#'   \item{annotator}{`Annotator1` ... `Annotator8`.}
#'   \item{label}{Abuse type, a factor with 7 levels.}
#'   \item{value}{1 selected, 0 not selected.}
#' }
#' `convabuse_repeats`: 2,499 rows, the same columns plus `occurrence`.
#' @source Cercas Curry, A., Abercrombie, G. and Rieser, V. (2021). ConvAbuse:
#'   Data, Analysis, and Benchmarks for Nuanced Abuse Detection in
#'   Conversational AI. Proceedings of EMNLP 2021, 7388-7403.
#'   \doi{10.18653/v1/2021.emnlp-main.587}. Licensed CC BY 4.0
#'   (<https://creativecommons.org/licenses/by/4.0/>); converted to long
#'   format (ids and type decisions only, no text).
"convabuse_types"

#' @rdname convabuse_types
"convabuse_repeats"

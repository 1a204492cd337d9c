# Each annotator pair's own Cohen kappa (pair_cohen.h) and Light's kappa, their
# mean over pairs (Light 1971; irr::kappam.light()).

#' @rdname annotator_agreement
#' @section Cohen's and Light's kappa:
#' `cohen_kappa` in the pair rows is the pair's own Cohen kappa, chance from
#' each annotator's own marginal on the cells both decided (per label
#' \eqn{1 - D_{o,j} / D_{e,j}} with \eqn{D_{e,j} = p_a (1 - p_b) + p_b (1 - p_a)};
#' for several labels \eqn{1 - \sum_j D_{o,j} / \sum_j D_{e,j}}, eq. 6 for
#' two annotators; Cohen's kappa over the categories on a single-label
#' design). It is what `mla(baseline = "conger")` gives for the two
#' annotators on their shared decisions. Light's kappa is the mean of the
#' pairs' Cohen kappas over the pairs where it is defined:
#' `tidy(x, level = "light")` gives it for the corpus and for every label
#' (`n_pairs` pairs averaged). With missing decisions every pair uses the
#' cells both decided (pairwise), where `irr::kappam.light()` keeps only
#' items rated by everyone; on complete data the two agree. It has no
#' analytic standard error here (irr's is one under the null of no
#' agreement). A summary without records ([annotation_counts()]) has no
#' Cohen kappas: the column is `NA`, with a message.
#' @references
#' Light, R. J. (1971). Measures of response agreement for qualitative data:
#' some generalizations and alternatives. *Psychological Bulletin*, 76(5),
#' 365-377. \doi{10.1037/h0031643}
#' @name annotator_agreement
NULL

# list(corpus, label) of the pairs (a, b), 0-based; NULL without records.
pair_cohen_kappas <- function(x, a, b) UseMethod("pair_cohen_kappas")
pair_cohen_kappas.annotations <- function(x, a, b) {
  pair_cohen_cpp(annotation_view(x), as.integer(a), as.integer(b), is_single_label(x))
}
pair_cohen_kappas.annotation_counts <- function(x, a, b) {
  cli::cli_inform(
    c("i" = "The pairs' Cohen kappas and Light's kappa need the annotation records; a summary has none, so they are {.code NA}."),
    class = "mlagreement_message_no_cohen"
  )
  NULL
}

# Light's kappa rows: the corpus, then one per label.
light_table <- function(labels, kappas) {
  if (is.null(kappas)) {
    kappas <- list(corpus = NA_real_, label = matrix(NA_real_, 1L, length(labels)))
  }
  mean_defined <- function(v) if (any(!is.na(v))) mean(v, na.rm = TRUE) else NA_real_
  tibble::tibble(
    level = c("corpus", rep("label", length(labels))),
    label = c(NA_character_, labels),
    estimate = c(mean_defined(kappas$corpus), apply(kappas$label, 2, mean_defined)),
    n_pairs = as.integer(c(sum(!is.na(kappas$corpus)), colSums(!is.na(kappas$label))))
  )
}

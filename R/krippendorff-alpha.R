#' Krippendorff's alpha with set, categorical and custom distances
#'
#' Krippendorff's alpha for multi-label annotations, with each annotation (the
#' label vector one annotator gave one item) treated as one value and compared
#' with a distance between label vectors or label sets (Menzner and Leidner
#' 2026, section 3.4). The exact finite-sample coincidence form is used:
#' \deqn{\alpha = 1 - D_o / D_e,}
#' \deqn{D_o = \frac{1}{n} \sum_i \frac{1}{m_i - 1} \sum_{r \ne s \in i} d(r, s),
#'   \qquad D_e = \frac{1}{n (n - 1)} \sum_{r \ne s} d(r, s),}
#' where items with \eqn{m_i \ge 2} annotations are the pairable units,
#' \eqn{n = \sum_i m_i} is the number of pairable values, the inner sum of
#' \eqn{D_o} runs over the ordered pairs of annotations of item \eqn{i}, and
#' \eqn{D_e} over all ordered pairs of pairable values (drawn without
#' replacement). Items with a single annotation do not enter.
#'
#' Cost: Hamming and nominal alpha reuse the tables of the counting pass; the
#' other distances take one pass over the records plus work that grows with
#' the number of distinct label sets.
#'
#' @section Distances:
#' * `"hamming"`: normalised Hamming distance, the share of labels on which
#'   two vectors differ. Joint omissions count as agreement. Per label,
#'   \eqn{\alpha_H = 1 - \sum_j D_{o,j} / \sum_j D_{e,j}} with the binary
#'   coincidences of each label, so single missing decisions are allowed
#'   (each label uses its own pairable values); on data where whole vectors
#'   are present or absent this is exactly alpha with normalised Hamming
#'   distance, and on one-hot coded single-label data it is nominal alpha. On
#'   complete data \eqn{\alpha_H = 1 - D_o / (\frac{M}{M-1} D_e^{(\infty)})},
#'   \eqn{M} the number of annotations and \eqn{D_e^{(\infty)} = 1 - A_e^{(F)}}
#'   of [mla()] (paper section 3.4). `observed_disagreement` and
#'   `expected_disagreement` are the means of \eqn{D_{o,j}} and \eqn{D_{e,j}}
#'   over the labels with a pairable item.
#' * `"jaccard"`: \eqn{1 - |A \cap B| / |A \cup B|} on the sets of selected
#'   labels. Joint omissions do not count. Two empty sets are identical
#'   (distance 0).
#' * `"masi"`: \eqn{1 - J(A, B) \cdot M(A, B)} with \eqn{J} the Jaccard
#'   similarity and the monotonicity factor \eqn{M} = 1 for identical sets,
#'   2/3 when one set is a proper subset of the other, 1/3 when they overlap
#'   otherwise and 0 when they are disjoint (Passonneau 2006). Two empty sets
#'   are identical (distance 0); an empty and a non-empty set are disjoint
#'   (distance 1).
#'
#' A record with some but not all labels missing cannot be a set and is an
#' error for the set distances (whole missing records are simply absent).
#'
#' @section Single-label designs (ordered and numeric categories):
#' On a single-label design (a matrix of codes, or
#' `annotations_long(..., single_label = TRUE)`) the default is `"nominal"`,
#' and Krippendorff's (2011) metrics compare the one category of each
#' annotation through the coincidence matrix
#' \eqn{o_{ck} = \sum_u n_{uc} (n_{uk} - [c = k]) / (m_u - 1)}:
#' * `"nominal"`: \eqn{\delta_{ck} = [c \ne k]}.
#' * `"ordinal"`: \eqn{\delta_{ck} = (\sum_{g=c}^{k} n_g - (n_c + n_k)/2)^2}
#'   with \eqn{n_g} the coincidence marginals; categories are ranked in their
#'   declared order (unused ones add nothing).
#' * `"interval"`: \eqn{(v_c - v_k)^2}, and `"ratio"`:
#'   \eqn{((v_c - v_k) / (v_c + v_k))^2}, with \eqn{v} the categories' numeric
#'   values (the labels read as numbers; labels that are not numbers are an
#'   error, and so are negative values for `"ratio"`).
#'
#' `"hamming"`, `"jaccard"` and `"masi"` are allowed on these designs and
#' give the nominal estimate (on one-category sets they differ from the
#' nominal distance only in scale). The single-label metrics are an error
#' on multi-label designs. On Krippendorff's reliability data (12 units, 4
#' coders, missing values) they give 0.743, 0.815, 0.849 and 0.797.
#'
#' @section Custom distances between label sets:
#' `distance` may be a function, or a list of functions and names (its
#' names name the rows; unnamed functions are `"custom"`, `"custom2"`, ...):
#' * A function of three arguments `function(n_a, n_b, n_ab)` is a distance
#'   of the set sizes \eqn{|A|}, \eqn{|B|} and \eqn{|A \cap B|}, like Jaccard
#'   (`1 - n_ab / (n_a + n_b - n_ab)`), Dice, overlap or "any overlap"
#'   (`as.numeric(n_ab == 0 & n_a + n_b > 0)`). It is evaluated once on every
#'   size triple the data can hold (vectorised when it is: it is first called
#'   with vectors). Cost: that of the built-in Jaccard distance.
#' * A function of two arguments `function(a, b)` gets two label sets as
#'   character vectors (the selected labels, `character(0)` for an empty set)
#'   and may use anything, e.g. a taxonomy. Cost: one call per pair of
#'   distinct label sets present, \eqn{S(S-1)/2} calls for \eqn{S} distinct
#'   sets (a progress bar shows for long runs).
#'
#' Both must give finite, non-negative values, zero on identical sets and
#' symmetric (for the general form, symmetry is checked on the pairs of the
#' first 30 distinct sets); otherwise a classed error
#' (`mlagreement_error_distance`) names the offending pair.
#'
#' @section Other implementations:
#' * NLTK's `masi_distance()` uses the rounded factors 0.67 and 0.33 and
#'   divides by zero for two empty sets; its `jaccard_distance()` does too.
#' * DKPro Statistics' `MASISetAnnotationDistanceFunction` computes
#'   \eqn{d = (1 - J)(1 - M)}, not \eqn{1 - J M}, and puts an empty and a
#'   non-empty set at distance 1/3. On DKPro's own set-valued example (see
#'   the examples) it gives alpha 0.2529, where the definition above gives
#'   0.2731.
#' * `irr::kripp.alpha()` (nominal) equals the Hamming alpha on one-hot data
#'   when there are two coders or some values are missing; on complete data
#'   with more than two coders it returns a different value, which a brute
#'   force over all pairs of values (the definition above) does not confirm:
#'   without a missing value it weights a unit's pairs by 1 instead of
#'   \eqn{1 / (m_u - 1)}, and the \eqn{n - 1} of the expected disagreement
#'   no longer cancels. This affects all four of its metrics.
#' * irrCAC's `krippen.alpha.raw()` gives the interval and ratio alpha with
#'   `weights = "quadratic"` and `"ratio"` (rounded to 5 digits), on the
#'   categories' values; given `categ.labels` it turns them into text and
#'   weighs by ranks instead. Its `"ordinal"` weights are Gwet's, from the
#'   ranks alone, not Krippendorff's ordinal metric, which depends on the
#'   categories' frequencies.
#'
#' @section Undefined values:
#' When the expected disagreement is 0 (every pairable value is the same)
#' alpha is undefined: `estimate` is `NA` with a warning. A design without an
#' item with two annotations is an error.
#'
#' @inheritParams mla
#' @param distance One or more of `"hamming"`, `"jaccard"`, `"masi"` (the
#'   default for multi-label designs: all three), `"nominal"` (the default
#'   for single-label designs), `"ordinal"`, `"interval"`, `"ratio"`
#'   (single-label designs only); or a distance function of
#'   `(n_a, n_b, n_ab)` or of `(a, b)`; or a list of these (see the sections
#'   on single-label designs and custom distances).
#' @param threads Number of threads for the set distances and the bootstrap; results do not
#'   depend on it.
#' @return A tibble with one row per distance: `distance`,
#'   `observed_disagreement` (\eqn{D_o}), `expected_disagreement`
#'   (\eqn{D_e}), `estimate` (alpha), `n_items` (pairable items) and
#'   `n_values` (pairable annotations).
#' @family comparison measures
#' @references
#' Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability.
#' Annenberg School for Communication, University of Pennsylvania.
#'
#' Passonneau, R. J. (2006). Measuring agreement on set-valued items (MASI)
#' for semantic and pragmatic annotation. *Proceedings of LREC 2006*, 831-836.
#'
#' Menzner, T. and Leidner, J. L. (2026). Multi-Label Agreement: A Flexible
#' Framework for Inter-Annotator Reliability. Preprint, section 3.4.
#'
#' Meyer, C. M., Mieskes, M., Stab, C. and Gurevych, I. (2014). DKPro
#' Agreement: An open-source Java library for measuring inter-rater
#' agreement. *Proceedings of COLING 2014: System Demonstrations*, 105-109.
#' @export
#' @examples
#' krippendorff_alpha(annotations_long(bias_example, item, annotator, label, value))
#'
#' # DKPro's set-valued example: 2 coders x 9 items over {A, B, C}
#' sets <- list(
#'   list(c(), c()), list("A", c()), list("A", "A"), list("A", "B"),
#'   list(c("A", "B"), "A"), list(c("A", "B"), c("A", "C")),
#'   list(c("A", "B", "C"), c("A", "B", "C")), list("C", c("A", "C")),
#'   list("C", c("A", "C"))
#' )
#' arr <- array(0L, c(9, 2, 3), dimnames = list(NULL, NULL, c("A", "B", "C")))
#' for (i in 1:9) for (k in 1:2) arr[i, k, sets[[i]][[k]]] <- 1L
#' krippendorff_alpha(arr)
#'
#' # nominal alpha: single-label codes, one-hot encoded
#' codes <- matrix(c("a", "a", "b", NA, "b", "b", "a", "c"), nrow = 4)
#' krippendorff_alpha(codes, distance = "hamming")
#'
#' # Krippendorff's reliability data: ordered, numeric categories
#' kd <- matrix(c(1, 2, 3, 3, 2, 1, 4, 1, 2, NA, NA, NA,  1, 2, 3, 3, 2, 2, 4, 1, 2, 5, NA, 3,
#'                NA, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, NA,  1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, NA), 12, 4)
#' krippendorff_alpha(kd, c("nominal", "ordinal", "interval", "ratio"))
#'
#' # custom set distances: Dice from the set sizes, and a general one
#' dice <- function(n_a, n_b, n_ab) ifelse(n_a + n_b == 0, 0, 1 - 2 * n_ab / (n_a + n_b))
#' any_overlap <- function(a, b) as.numeric(length(intersect(a, b)) == 0 && length(c(a, b)) > 0)
#' krippendorff_alpha(arr, list(dice = dice, "jaccard", any_overlap = any_overlap))
krippendorff_alpha <- function(x, distance = c("hamming", "jaccard", "masi", "nominal",
                                                "ordinal", "interval", "ratio"),
                               R = 0, conf.level = 0.95, threads = mla_threads(), ...,
                               level = c("corpus", "label"),
                               label_weights = NULL, label_groups = NULL, label_tree = NULL) {
  check_dots_empty0(...)
  threads <- check_threads(threads)
  level <- check_choice(level, c("corpus", "label"))
  a <- as_annotation_source(x)  # R/annotation-generics.R
  if (level == "label") {  # R/alpha-labels.R
    if (!is.null(label_weights) || !is.null(label_groups) || !is.null(label_tree)) {
      mla_abort(
        c("{.code level = \"label\"} gives the binary alpha of each label, without a label structure.",
          "i" = "Drop {.arg label_weights}, {.arg label_groups} and {.arg label_tree}, or use {.code level = \"corpus\"}."),
        class = "alpha_level"
      )
    }
    return(alpha_label_level(a, distance, missing(distance), R, conf.level, threads))
  }
  st <- resolve_label_structure(a, label_weights, label_groups, label_tree)  # R/label-structure.R
  if (!is.null(st)) require_records(a, "labels with structure")
  if (!is.null(st) && missing(distance)) distance <- "hamming"
  specs <- resolve_distances(distance, a, use_default = missing(distance) && is.null(st))
  check_source_distances(a, specs, call = rlang::current_env())
  specs <- attach_label_structure(specs, st, R)
  kinds <- vapply(specs, `[[`, "", "kind")
  rows <- list()
  if (any(kinds %in% c("jaccard", "masi", "size"))) {
    set_specs <- specs[kinds %in% c("jaccard", "masi", "size")]
    rows <- alpha_set_source_rows(a, set_specs, threads, call = rlang::current_env())
  }
  for (s in specs) {
    rows[[s$name]] <- switch(s$kind,
      hamming = if (is.null(s$structure)) alpha_hamming(a) else alpha_structured(a, s$structure),
      category = alpha_category_row(a, s$metric, call = rlang::current_env()),
      pair = alpha_pair_row(a, s, call = rlang::current_env()),
      rows[[s$name]]
    )
  }
  out <- alpha_table(names(specs), rows[names(specs)])
  alpha_intervals(out, a, R, conf.level, specs, threads)  # R/alpha-intervals.R
}

# Jaccard and MASI from the set engine.
alpha_builtin_set_rows <- function(a, specs, threads, call = rlang::caller_env()) {
  res <- set_alpha_impl(a, with_expected = TRUE, threads = threads, call = call)
  check_set_record(a, res, "The Jaccard and MASI distances", call = call)
  check_pairable(res$n_items, call = call)
  rows <- list()
  for (s in specs) {
    rows[[s$name]] <- list(
      observed = res[[paste0("observed_", s$kind)]],
      expected = res[[paste0("expected_", s$kind)]],
      n_items = res$n_items, n_values = res$n_values
    )
  }
  rows
}

# The result tibble, warning where alpha is undefined.
alpha_table <- function(distance, rows) {
  observed <- vapply(rows, `[[`, numeric(1), "observed")
  expected <- vapply(rows, `[[`, numeric(1), "expected")
  undefined <- expected == 0
  if (any(undefined)) {
    mla_warn(
      c("Alpha is undefined for distance{?s} {.val {distance[undefined]}}: the expected disagreement is 0.",
        "i" = "Every pairable annotation is the same; the estimate is {.code NA}."),
      class = "undefined"
    )
  }
  # new_tibble(): the columns are built here with the right lengths
  out <- tibble::new_tibble(list(
    distance = distance,
    observed_disagreement = unname(observed),
    expected_disagreement = unname(expected),
    estimate = unname(ifelse(undefined, NA_real_, 1 - observed / expected)),
    n_items = unname(vapply(rows, `[[`, numeric(1), "n_items")),
    n_values = unname(vapply(rows, `[[`, numeric(1), "n_values"))
  ), nrow = length(distance))
  out
}

check_pairable <- function(n_items, what = "Alpha", call = rlang::caller_env()) {
  if (n_items == 0) {
    mla_abort(
      c("{what} cannot be computed without an item with two or more annotations.",
        "x" = "No item has two complete annotations."),
      class = "unpairable", call = call
    )
  }
}


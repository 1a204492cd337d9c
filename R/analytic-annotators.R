# The annotator-sampling component of the variance, added to the items'
# linearised variance by tidy(fit, annotators = "random").

#' @rdname tidy.mla
#' @section Annotators as a sample:
#' With `annotators = "fixed"` (the default) the standard errors condition
#' on the annotators who took part: the estimand is the agreement of these
#' annotators on the population of items. With `annotators = "random"` the
#' annotators are a sample from a population of annotators too, and the
#' variance adds the annotators' component to the items' one,
#' \deqn{\widehat{\mathrm{var}}(c) = \widehat{\mathrm{var}}_{items}(c) +
#'   \frac{J - 1}{J} \sum_{a=1}^{J} (c_{(-a)} - \bar c_{(\cdot)})^2,}
#' the jackknife over the \eqn{J} annotators with decisions (on the label,
#' for a label row; on the group's labels, for a group row) (\eqn{c_{(-a)}}:
#' the coefficient without annotator \eqn{a}; Gwet 2008, *Psychometrika*,
#' for the rater component of the single-label coefficients, and the same
#' for the multi-label ones). The interval and test then use Student's t
#' with Satterthwaite's degrees of freedom for the sum of the two parts.
#' Both parts contain the item-by-annotator interaction, so the sum errs on
#' the wide side. With fewer than 8 annotators the annotator part rests on
#' few values and the interval is unreliable; a message says so. It needs
#' the records (not a summary), an unweighted fit and a fit without the
#' `"conger"` baseline, which is refused: Conger's chance agreement comes
#' from the marginals of the annotators at hand, so it describes these
#' annotators and not a population of them (refit with a pooled baseline,
#' or keep `annotators = "fixed"`). A fit with a label structure leaves out
#' each annotator from the records of its structure.
#' @param annotators `"fixed"` (condition on the annotators) or `"random"`
#'   (annotators sampled from a population of annotators; see the section
#'   *Annotators as a sample*).
#' @references
#' Gwet, K. L. (2008). Variance estimation of nominal-scale inter-rater
#' reliability with random selection of raters. *Psychometrika*, 73(3),
#' 407-430. \doi{10.1007/s11336-007-9054-8}
#' @name tidy.mla
NULL

# Fewer annotators than this make the annotator part unreliable.
kMinRandomAnnotators <- 8L

# The annotator part of the variance at `level` and its degrees of freedom.
annotator_variance <- function(fit, level, threads = mla_threads(), call = rlang::caller_env()) {
  a <- require_records(fit$annotations, "annotators sampled from a population", arg = "x",
                       call = call)
  if (!is.null(fit$weights)) {
    mla_abort(
      c("{.code annotators = \"random\"} needs an unweighted fit.",
        "x" = "{.arg x} uses {.val {fit$weights$name}} category weights.",
        "i" = "Use {.code annotators = \"fixed\"}, or {.fn mla_boot} over items."),
      class = "annotator_variance", call = call
    )
  }
  if (has_conger(fit)) {
    mla_abort(
      c("{.code annotators = \"random\"} needs a fit without the {.val conger} baseline.",
        "x" = "{.arg x} has it: Conger's chance agreement comes from the marginals of the annotators at hand, so it describes these annotators, not a population of them.",
        "i" = "Refit with a pooled baseline, e.g. {.code mla(data, baseline = \"fleiss\")}, for {.code annotators = \"random\"}; or keep {.code annotators = \"fixed\"} for the Conger rows."),
      class = "annotator_variance", call = call
    )
  }
  data <- annotator_record_data(fit, threads)  # R/boot.R
  n_ann <- data$n_annotators
  if (n_ann < 3L) {
    mla_abort(
      c("{.code annotators = \"random\"} needs at least 3 annotators with decisions.",
        "x" = "{.arg x} has {n_ann}."),
      class = "annotator_variance", call = call
    )
  }
  if (n_ann < kMinRandomAnnotators) {
    cli::cli_inform(
      c("!" = "With {n_ann} annotators the annotator part of the variance rests on few values: treat the interval as rough.",
        "i" = "It is reliable from about {kMinRandomAnnotators} annotators on."),
      class = "mlagreement_message_few_annotators"
    )
  }
  jack <- boot_jack_records_cpp(data$view, data$slot, n_ann, threads, data$single_label,
                                data$structure)
  n_corpus <- nrow(fit$corpus)
  cols <- if (level == "corpus") seq_len(n_corpus) else n_corpus + seq_len(nrow(fit$label))
  mask <- stat_annotators(fit)[, cols, drop = FALSE]
  list(var = annotator_jackknife_variance(jack[, cols, drop = FALSE], mask),
       df = colSums(mask) - 1)
}

# Which of the fit's annotators (rows, numbered as the annotator engines
# number them: those with a decision on the fit's labels) each statistic
# reads (columns: corpus rows, then label rows): a label row only the
# annotators with a decision on that label, a group row those on its members.
# Leaving out an annotator a statistic does not read changes nothing, so
# such annotators would add leave-one-out values equal to the estimate and
# count towards J.
stat_annotators <- function(fit) {
  dec <- conger_tallies_cpp(annotation_view(fit$annotations, fit$label_index))$decisions
  dec <- dec[rowSums(dec) > 0, , drop = FALSE] > 0
  groups <- fit$structure$groups
  reads <- vapply(fit$label$label, function(l) {
    j <- match(l, fit$labels)
    if (is.na(j)) j <- match(fit$structure$labels[groups[[l]]], fit$labels)
    rowSums(dec[, j, drop = FALSE]) > 0
  }, logical(nrow(dec)))
  cbind(matrix(TRUE, nrow(dec), nrow(fit$corpus)), matrix(reads, nrow(dec)))
}

# The jackknife variance of each column of `jack` (annotators x statistics)
# over the annotators its column of `mask` marks.
annotator_jackknife_variance <- function(jack, mask) {
  vapply(seq_len(ncol(jack)), function(s) jackknife_variance(jack[mask[, s], s]), numeric(1))
}

# (J - 1) / J sum (theta_(-a) - mean)^2 over the defined values; NA when a
# leave-one-out value is undefined (the coefficient then depends on whether
# that annotator took part in a way the variance cannot capture).
jackknife_variance <- function(theta) {
  if (anyNA(theta) || length(theta) < 2L) return(NA_real_)
  J <- length(theta)
  (J - 1) / J * sum((theta - mean(theta))^2)
}

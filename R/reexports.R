#' Tidy, glance and augment the package's results
#'
#' `tidy()`, `glance()` and `augment()` are the generics of the generics
#' package (broom's vocabulary), re-exported here. The methods for the
#' package's objects are documented with them:
#' * [tidy.mla()] and [glance.mla()]: corpus, label and item tables of an
#'   [mla()] fit, with analytic standard errors;
#' * [augment.mla()]: the fit's item values beside the input;
#' * [tidy.mla_boot()] and [glance.mla_boot()]: bootstrap intervals of
#'   [mla_boot()];
#' * [tidy.mla_annotator_agreement()]: pair and annotator rows of
#'   [annotator_agreement()];
#' * [tidy.annotation_counts()]: the tables of a sufficient-statistics
#'   summary ([annotation_counts()]);
#' * [tidy.mla_substitution()]: the label substitution table of
#'   [label_substitution()].
#' * [tidy.mla_annotator_model()], [glance.mla_annotator_model()] and
#'   [augment.mla_annotator_model()]: annotators, items, labels and
#'   confusion matrices of [annotator_model()].
#'
#' @param x An object of the package.
#' @param ... Arguments of the method.
#' @return A tibble.
#' @name tidiers
#' @aliases tidy glance augment
#' @importFrom generics tidy glance augment
#' @export tidy glance augment
#' @examples
#' fit <- mla(annotations_long(bias_example, item, annotator, label, value))
#' tidy(fit)
#' glance(fit)
NULL

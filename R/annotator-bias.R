#' Do annotators use the labels at different rates?
#'
#' Tests of marginal homogeneity per label, each annotator's prevalence and
#' its deviation from the pooled prevalence with an interval, and the bias
#' and prevalence indices of Byrt, Bishop and Carlin (1993) that belong
#' beside PABAK. Annotator bias in this sense is what
#' [simulate_annotations()]'s `bias` generates.
#' Cost: one pass over the records x labels decisions for each annotator's and
#' each complete item's sums.
#'
#' @section Tests (`tidy(level = "tests")`):
#' * `cochran_q`, per label: Cochran's Q for the binary decisions of the
#'   \eqn{k} annotators on the items every one of them decided,
#'   \eqn{Q = (k - 1) (k \sum_a T_a^2 - N^2) / (k N - \sum_i R_i^2)}
#'   (\eqn{T_a} an annotator's positives, \eqn{R_i} an item's, \eqn{N}
#'   their total), \eqn{\chi^2_{k - 1}} under homogeneity.
#' * `mcnemar`, per label, for two annotators: McNemar's test on the same
#'   items, with the continuity correction unless `correct = FALSE`
#'   (`stats::mcnemar.test()`; without it, it is Cochran's Q).
#' * `stuart_maxwell` and `bhapkar`, for two annotators of a single-label
#'   design (one row each, `label = NA`): marginal homogeneity of the
#'   \eqn{q \times q} table of their categories on the items both rated,
#'   \eqn{d^\top S^{-1} d} and \eqn{d^\top (S - d d^\top / n)^{-1} d} on
#'   \eqn{q - 1} categories, \eqn{d} the differences of the two margins
#'   (`irr::stuart.maxwell.mh()`, `irr::bhapkar()`). Categories without
#'   discordant ratings (every item the annotators put there, both put
#'   there) are left out: their rows of \eqn{S} are zero. `irr::bhapkar()`
#'   stops on such a table, and `irr::stuart.maxwell.mh()` drops every
#'   category whose two margins are equal, discordant ratings or not, so
#'   the statistics agree except where a category has equal margins and
#'   discordant ratings.
#'
#' A statistic that cannot be computed (no complete item, every complete
#' item unanimous, no discordant pair) is `NA` with the reason in `note`.
#'
#' @section Prevalences (`tidy(level = "annotators")`):
#' Per label and annotator, `prevalence` is the share of positive decisions
#' among the annotator's decisions on that label, over every item they
#' decided; `pooled_prevalence` is the share among all decisions on the
#' label, and `deviation` the difference. Its standard error linearises
#' both ratios over items (the sampling units: decisions on one item are
#' correlated), \eqn{\mathrm{Var} = \sum_i u_i^2} with
#' \eqn{u_i = (x_{ia} - p_a m_{ia}) / M_a - (x_i - \bar p m_i) / M}; the
#' interval is the Wald interval. For two annotators on complete data it
#' is half the classical Wald interval for a paired difference of
#' proportions, \eqn{p_1 - p_2}. Missing decisions only drop out of the
#' sums.
#'
#' @section Bias and prevalence indices (`tidy(level = "indices")`):
#' On the items all \eqn{k} annotators decided, per label:
#' `prevalence_index` \eqn{PI = 2 \bar p - 1} (\eqn{\bar p} the mean of
#' the annotators' prevalences), `pabak` \eqn{= 2 p_o - 1} (\eqn{p_o} the
#' mean pairwise agreement), and `bias_index`: for two annotators
#' \eqn{BI = p_1 - p_2} (first minus second annotator, in the object's
#' order), for \eqn{k > 2} the non-negative
#' \eqn{BI = \sqrt{4 \sum_a (p_a - \bar p)^2 / (k (k - 1))}}, which keeps
#' the relation of Byrt et al.,
#' \deqn{\kappa = \frac{PABAK - PI^2 + BI^2}{1 - PI^2 + BI^2},}
#' where \eqn{\kappa} (`kappa`) is Cohen's kappa for two annotators and
#' Conger's (1980) for more: its chance agreement, the mean over annotator
#' pairs of \eqn{p_a p_b + (1 - p_a)(1 - p_b)}, is \eqn{(1 + PI^2 - BI^2) / 2}.
#' For two annotators, \eqn{PI = (a - d) / n} and \eqn{BI = (b - c) / n} of
#' the 2 x 2 table.
#'
#' Items that lack a decision from some annotator on a label are left out
#' of that label's tests and indices (never imputed), with a message
#' counting them.
#'
#' @inheritParams mla
#' @param conf.level Confidence level of the deviation intervals.
#' @param correct Continuity correction of McNemar's test.
#' @return An object of class `mla_annotator_bias`; [tidy()] gives the
#'   `"annotators"`, `"tests"` and `"indices"` tibbles, `autoplot()` the
#'   deviations with their intervals.
#' @family clinical coefficients
#' @references
#' Byrt, T., Bishop, J. and Carlin, J. B. (1993). Bias, prevalence and
#' kappa. Journal of Clinical Epidemiology, 46(5), 423-429.
#' \doi{10.1016/0895-4356(93)90018-V}
#'
#' Cochran, W. G. (1950). The comparison of percentages in matched samples.
#' Biometrika, 37(3/4), 256-266. \doi{10.1093/biomet/37.3-4.256}
#'
#' Stuart, A. (1955). A test for homogeneity of the marginal distributions
#' in a two-way classification. Biometrika, 42(3/4), 412-416.
#'
#' Maxwell, A. E. (1970). Comparing the classification of subjects by two
#' independent judges. British Journal of Psychiatry, 116, 651-655.
#'
#' Bhapkar, V. P. (1966). A note on the equivalence of two test criteria
#' for hypotheses in categorical data. Journal of the American Statistical
#' Association, 61(313), 228-235.
#'
#' Conger, A. J. (1980). Integration and generalization of kappas for
#' multiple raters. Psychological Bulletin, 88(2), 322-328.
#' \doi{10.1037/0033-2909.88.2.322}
#' @export
#' @examples
#' b <- annotator_bias(annotations_long(bias_example, item, annotator, label, value))
#' b
#' tidy(b, level = "tests")
#' tidy(b, level = "indices")
annotator_bias <- function(x, conf.level = 0.95, correct = TRUE, ...) {
  check_dots_empty0(...)
  check_conf_level(conf.level)
  check_bool(correct)
  x <- as_annotation_source(x)
  require_records(x, "annotator_bias()")
  J <- n_annotators(x)
  if (J < 2L) {
    mla_abort(c("{.arg x} must have at least 2 annotators.", "x" = "It has {J}."),
              class = "no_pairs")
  }
  d <- bias_decisions(x)
  complete <- complete_item_sums(d, J)
  report_incomplete_items(complete, label_names(x), J)
  tests <- bias_tests(complete, label_names(x), J, correct)
  if (is_single_label(x) && J == 2L) tests <- rbind(tests, category_homogeneity(x, d))
  structure(
    list(annotators = prevalence_deviations(d, label_names(x), annotator_ids(x), conf.level),
         tests = tests, indices = bias_indices(complete, label_names(x), J),
         labels = label_names(x), n_items = n_items(x), n_annotators = J,
         conf.level = conf.level, single_label = is_single_label(x)),
    class = "mla_annotator_bias"
  )
}

# Decisions as records x labels 0/1 tables, with the items' (x, m).
bias_decisions <- function(x) {
  v <- record_values(x)
  dec <- !is.na(v)
  pos <- dec & v == 1L
  pos[is.na(pos)] <- FALSE
  counts <- item_label_counts(x)
  list(dec = dec + 0, pos = pos + 0, item = record_item(x), annotator = record_annotator(x),
       item_x = counts$x, item_m = counts$m, J = n_annotators(x))
}

# Sums by annotator (J rows, annotators without records get 0).
sum_by_annotator <- function(v, annotator, J) {
  out <- matrix(0, J, ncol(v))
  s <- rowsum(v, annotator)
  out[as.integer(rownames(s)), ] <- s
  out
}

prevalence_deviations <- function(d, labels, ids, conf.level) {
  J <- d$J
  M_a <- sum_by_annotator(d$dec, d$annotator, J)
  p_a <- sum_by_annotator(d$pos, d$annotator, J) / M_a
  M <- colSums(d$item_m)
  pooled <- colSums(d$item_x) / M
  # linearised deviations: u_i = A_ia / M_a - B_i / M (see the help page)
  B <- d$item_x - sweep(d$item_m, 2L, pooled, `*`)
  A <- d$pos - d$dec * p_a[d$annotator, , drop = FALSE]
  A[is.na(A)] <- 0
  s_aa <- sum_by_annotator(A^2, d$annotator, J)
  s_ab <- sum_by_annotator(A * B[d$item, , drop = FALSE], d$annotator, J)
  s_bb <- matrix(colSums(B^2), J, length(labels), byrow = TRUE)
  M_mat <- matrix(M, J, length(labels), byrow = TRUE)
  scale <- s_aa / M_a^2 + s_bb / M_mat^2
  variance <- scale - 2 * s_ab / (M_a * M_mat)
  # the expanded square cancels: where the deviations agree exactly (every
  # u_i = 0) it leaves rounding noise of about 1e-16 * scale, whose root
  # (1e-9) would pass for a standard error. A true variance below 1e-12 *
  # scale would need some 1e12 items.
  variance[variance <= kRoundingVariance * scale] <- 0
  se <- sqrt(pmax(variance, 0))
  deviation <- p_a - matrix(pooled, J, length(labels), byrow = TRUE)
  z <- stats::qnorm(1 - (1 - conf.level) / 2)
  # a standard error of 0 gives no interval (as in tidy(<mla>))
  interval_limit <- function(v) ifelse(is.finite(v) & as.vector(se) > 0, v, NA_real_)
  tibble::tibble(
    label = rep(labels, each = J),
    annotator = rep(ids, times = length(labels)),
    n_items = as.integer(M_a),
    prevalence = finite_or_na(as.vector(p_a)),
    pooled_prevalence = rep(finite_or_na(pooled), each = J),
    deviation = finite_or_na(as.vector(deviation)),
    std.error = finite_or_na(as.vector(se)),
    conf.low = interval_limit(as.vector(deviation - z * se)),
    conf.high = interval_limit(as.vector(deviation + z * se))
  )
}

finite_or_na <- function(v) ifelse(is.finite(v), v, NA_real_)

# Per label, on the items all J annotators decided: their number, each
# annotator's positives T_a, the items' positives R_i and the sums needed.
complete_item_sums <- function(d, J) {
  complete <- d$item_m == J
  on_complete <- complete[d$item, , drop = FALSE]
  T_a <- sum_by_annotator(d$pos * on_complete, d$annotator, J)
  R <- d$item_x * complete
  list(n = colSums(complete), n_decided = colSums(d$item_m > 0), T_a = T_a,
       N = colSums(R), sum_R2 = colSums(R^2),
       agree = colSums((R * (R - 1) + (J - R) * (J - R - 1)) * complete),
       both = colSums(complete & d$item_x == J))
}

report_incomplete_items <- function(complete, labels, J) {
  left <- complete$n_decided - complete$n
  if (!any(left > 0)) return(invisible())
  worst <- which.max(left)
  cli::cli_inform(c("i" = paste0(
    "Cochran's Q, McNemar and the bias and prevalence indices use the items with a decision ",
    "from all {J} annotators: on {sum(left > 0)} of {length(labels)} label{?s} items with ",
    "fewer decisions are left out (most on {.val {labels[worst]}}: {left[worst]} of ",
    "{complete$n_decided[worst]} item{?s})."
  )))
}

kRoundingVariance <- 1e-12

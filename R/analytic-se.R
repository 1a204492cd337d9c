# Analytic standard errors, intervals and tests of an `mla` fit: Gwet's
# linearisation over items as irrCAC implements it, generalised to
# multi-label corpus coefficients (influence.h). Computed by tidy.mla() and
# confint(), never by mla(), so a fit stays one counting pass.

#' @rdname tidy.mla
#' @section Analytic standard errors:
#' With `conf.int = TRUE` (the default) the corpus and label rows get
#' `std.error`, `statistic`, `p.value`, `conf.low` and `conf.high` from Gwet's
#' linearisation over items (Gwet 2014, chapter 5; irrCAC's
#' `fleiss.kappa.raw()`, `gwet.ac1.raw()` and `bp.coeff.raw()`). Each item
#' \eqn{i} gets an influence term \eqn{c_i^*} whose mean over the \eqn{n}
#' sampled items is the coefficient \eqn{c}; both the observed and the chance
#' part of the ratio are linearised:
#' \deqn{c_i^* = \frac{n}{n_2} [m_i \ge 2] \frac{A_{o,i} - A_e}{1 - A_e}
#'   - (1 - c) \frac{e'(p) (x_i / m_i - p)}{1 - A_e},}
#' \deqn{\widehat{\mathrm{var}}(c) = \frac{1 - f}{n (n - 1)} \sum_i (c_i^* - c)^2,
#'   \quad f = n / N,}
#' where \eqn{n_2} counts items with two decisions and \eqn{e'(p) = dA_e/dp}
#' is \eqn{4p - 2} (Fleiss), \eqn{2 - 4p} (AC1) and 0 (PABAK). A label row
#' uses the label's own items (\eqn{n} = items with a decision on it), so it
#' equals irrCAC's `coeff.se` on that label's 0/1 column, given irrCAC only
#' the rows with a decision (on rows without any, `fleiss.kappa.raw()` and
#' `gwet.ac1.raw()` return `NaN` and `conger.kappa.raw()` counts them in
#' \eqn{n}). The corpus row
#' averages the items' observed and chance terms over the labels with a
#' pairable item (each label scaled by its own \eqn{n/n_{2,j}} and
#' \eqn{n/n_{1,j}}), \eqn{n} = items with a decision on one of them; on one
#' label it is the label row. Single-label designs use irrCAC's
#' \eqn{q}-category formulas for the corpus rows, with the category weights
#' of a weighted fit (`mla(weights = )`). Fits with a label structure
#' (`label_weights`, `label_groups`, `label_tree`) linearise each variable
#' with these formulas (a group: its categories, "none" included when
#' used) and weight the variables' observed and chance terms by
#' \eqn{u_v}, as the estimate does; a group's row is that of the group
#' alone.
#'
#' `conf.low` and `conf.high` are `estimate` \eqn{\mp t_{n-1} \cdot}
#' `std.error`; the upper bound is capped at 1, as irrCAC does, and the lower
#' bound is not capped (it can fall below the smallest value the coefficient
#' can take). `statistic` is `estimate / std.error` and `p.value`
#' the **two-sided** Student-t p-value (\eqn{n - 1} degrees of freedom) of
#' H0: coefficient = 0 (irrCAC prints the one-sided `1 - pt()`; halve ours
#' for it when the estimate is positive). The test uses the same linearised
#' variance as the interval, estimated around the observed coefficient (not
#' under the null), as irrCAC does; `irr::kappam.fleiss()` instead divides by
#' the standard error under the null of no agreement, so its z and p-value
#' differ from these. When the standard error is 0 (every item's influence
#' term equals the estimate, as under perfect agreement) `statistic`,
#' `p.value`, `conf.low` and `conf.high` are `NA` and `note` says why: a
#' zero-width interval \eqn{[\hat c, \hat c]} would claim a certainty that
#' a sample of items cannot give, and no exact bound exists for these
#' coefficients without a model of the annotators. All five are `NA` where
#' the coefficient is undefined or fewer than two items were rated.
#'
#' Percent agreement and specific agreement get their own standard errors and
#' intervals, in columns named for the quantity: `observed.std.error`,
#' `observed.conf.low`, `observed.conf.high` on corpus and label rows
#' (percent agreement \eqn{A_o}, the linearisation of irrCAC's
#' `pa.coeff.raw()`: influence terms \eqn{(n / n_2) [m_i \ge 2] A_{o,i}}), and
#' on label rows `positive_agreement.std.error`, `positive_agreement.conf.low`,
#' `positive_agreement.conf.high` and the same for `negative_agreement`.
#' Specific agreement is a ratio of item sums,
#' \eqn{PA = \sum_i a_i / \sum_i b_i} with \eqn{a_i = x_i (x_i - 1)} and
#' \eqn{b_i = x_i (m_i - 1)} over pairable items (negatives alike); its
#' delta-method influence terms are \eqn{PA + n (a_i - PA\, b_i) / \sum_i b_i}.
#' They use the same variance formula, \eqn{t_{n-1}} interval, cap at 1 and
#' rule for a zero standard error (`NA` limits) as the coefficients.
#'
#' The estimator treats items as a sample from a population of `N` items
#' (`N = Inf`: no finite-population correction) and the annotators as fixed.
#' Use [mla_boot()] when annotators are a sample too
#' (`resample = "annotators"` or `"both"`) or when items come in clusters or
#' strata.
#'
#' Cost: one pass over the per-item counts that the annotations keep from
#' their construction (arrays with more than 15 annotators are recounted);
#' `conf.int = FALSE` skips it.
#' @param conf.int Add the analytic standard errors, tests and intervals
#'   (corpus and label levels)?
#' @param conf.level Confidence level of the intervals.
#' @param N Size of the item population, for the finite-population
#'   correction \eqn{1 - n/N}; `Inf` (default) for none.
#' @references
#' Gwet, K. L. (2008). Computing inter-rater reliability and its variance in
#' the presence of high agreement. *British Journal of Mathematical and
#' Statistical Psychology*, 61(1), 29-48. \doi{10.1348/000711006X126600}
#' @name tidy.mla
NULL

analytic_inference <- function(fit, level, conf.level, N, annotators = "fixed",
                               threads = mla_threads(), inputs = influence_inputs_once(fit, threads),
                               call = rlang::caller_env()) {
  if (!is.null(fit$structure)) {
    sums <- inputs()$structured(level)  # R/label-structure-fit.R
    return(structured_inference(fit, level, conf.level, N, annotators, sums, call = call))
  }
  if (annotators == "random") {
    require_records(fit$annotations, "annotators sampled from a population", call = call)
  }
  if (!has_item_cells(fit$annotations)) {
    # the linearisation sums over items: a summary of plain tables has none
    est <- if (level == "corpus") fit$corpus$estimate else fit$label$estimate
    cli::cli_inform(
      c("i" = "Analytic standard errors need the per-item counts; a summary built from plain tables has none, so they are {.code NA}."),
      class = "mlagreement_message_no_inference", .frequency = "regularly",
      .frequency_id = "mlagreement_counts_inference"
    )
    return(inference_columns(est, rep(NA_real_, length(est)), rep(0, length(est)), conf.level, N))
  }
  f <- analytic_influence(fit, level, inputs())
  if (level == "corpus") {
    sum_sq <- f$sum_sq
    n <- rep(f$n, length(sum_sq))
    est <- fit$corpus$estimate
  } else {
    sum_sq <- as.vector(f$sum_sq)  # labels x baselines: tidy's row order
    n <- rep_baselines(f$n)
    est <- fit$label$estimate
  }
  if (has_conger(fit)) {  # R/conger.R
    g <- conger_influence(fit, level)
    sum_sq <- c(sum_sq, g$sum_sq)
    n <- c(n, g$n)
  }
  extra <- if (annotators == "random") annotator_variance(fit, level, threads, call = call)
  inference_columns(est, sum_sq, n, conf.level, N, extra)
}

# Standard error, t statistic, two-sided p-value and t interval from the sums
# of squared influence deviations; `extra` (var, df) adds the annotators' part
# of the variance, with Satterthwaite's degrees of freedom.
inference_columns <- function(estimate, sum_sq, n, conf.level, N, extra = NULL) {
  fpc <- if (is.finite(N)) 1 - n / N else 1
  ok <- n >= 2 & !is.na(estimate) & !is.na(sum_sq)
  v_items <- rep(NA_real_, length(estimate))
  v_items[ok] <- fpc * sum_sq[ok] / (n[ok] * (n[ok] - 1))
  df <- n - 1
  if (!is.null(extra)) {
    ok <- ok & !is.na(extra$var)
    v_total <- v_items + extra$var
    df <- satterthwaite_df(v_items, n - 1, extra$var, extra$df)
    v_items <- v_total
  }
  se <- rep(NA_real_, length(estimate))
  se[ok] <- sqrt(v_items[ok])
  # equal influence terms leave rounding noise (about 1e-16) in their sum of
  # squares; a true standard error below kRoundingSE would need some 1e20 items
  se[ok & se < kRoundingSE] <- 0
  # a zero standard error (e.g. perfect agreement) leaves the test statistic
  # undefined, not infinite
  testable <- ok & se > 0
  statistic <- p_value <- rep(NA_real_, length(estimate))
  statistic[testable] <- estimate[testable] / se[testable]
  p_value[testable] <- 2 * stats::pt(-abs(statistic[testable]), df[testable])
  # no interval where the standard error is 0 (tidy() says why in `note`)
  half <- rep(NA_real_, length(estimate))
  half[testable] <- stats::qt(1 - (1 - conf.level) / 2, df[testable]) * se[testable]
  list(
    std.error = se,
    statistic = statistic,
    p.value = p_value,
    conf.low = estimate - half,
    conf.high = pmin(1, estimate + half)
  )
}

kRoundingSE <- 1e-10

# Degrees of freedom of a sum of two variance estimates (Satterthwaite 1946).
satterthwaite_df <- function(v1, df1, v2, df2) {
  df <- (v1 + v2)^2 / (v1^2 / df1 + v2^2 / df2)
  ifelse(is.finite(df), df, pmin(df1, df2))
}

# The kernel's influence sums (sum_sq, n) of the fit's labels at `level`.
analytic_influence <- function(fit, level, inputs) {
  if (level == "corpus") inputs$corpus() else inputs$labels()
}

# The influence sums of a fit, shared by the coefficients' and the shares'
# columns of one tidy() call: corpus() and labels() each read the item cells
# once, on first use, for the coefficients and the shares together (a
# structured fit: structured(level) from one structure pass).
influence_inputs_once <- function(fit, threads) {
  value <- NULL
  function() {
    if (is.null(value)) value <<- influence_inputs(fit, threads)
    value
  }
}

influence_inputs <- function(fit, threads) {
  a <- fit$annotations
  cols <- fit$label_index
  if (!is.null(fit$structure)) {  # one structure pass, its sums per level once
    pass <- structure_pass(a, fit$structure, cols, keep_items = TRUE)
    sums <- list()
    structured <- function(level) {
      if (is.null(sums[[level]])) sums[[level]] <<- structured_influence_sums(fit$structure, pass, level)
      sums[[level]]
    }
    return(list(structured = structured))
  }
  # the item cells and label tables, read on first use (a weighted fit's
  # corpus rows need neither)
  tables <- NULL
  on_cells <- function(f) {
    if (is.null(tables)) tables <<- influence_tables(a, cols, threads)
    f(tables$cells, tables$cnt, tables$sx, tables$sdis)
  }
  sums <- list()
  corpus <- function() {
    if (is.null(sums$corpus)) {
      sums$corpus <<- if (!is.null(fit$weights)) {
        weighted_influence_cpp(item_label_counts(a)$x, fit$weights$matrix)
      } else if (is.list(fit$single_label)) {
        on_cells(single_label_influence_cpp)
      } else {
        on_cells(corpus_influence_cpp)
      }
    }
    sums$corpus
  }
  labels <- function() {
    if (is.null(sums$labels)) sums$labels <<- on_cells(label_influence_cpp)
    sums$labels
  }
  list(corpus = corpus, labels = labels)
}

# The item cells of the labels cols (stored codes, else a count) and their
# tables by m.
influence_tables <- function(a, cols, threads) {
  cells <- item_cells(a, cols)
  if (is.null(cells)) {
    counts <- item_count_cells(a, cols, threads = threads)  # R/annotation-generics.R
    cells <- list(n_items = nrow(counts$x), label_cols = as.integer(cols) - 1L, x4 = NULL,
                  x = counts$x, m = counts$m)
  }
  tally <- lapply(label_tally(a)[c("cnt", "sx", "sdis")], function(t) t[, cols, drop = FALSE])
  c(list(cells = cells), tally)
}

check_population <- function(N, n, call = rlang::caller_env()) {
  if (!is.numeric(N) || length(N) != 1L || is.na(N) || N < n) {
    mla_abort(
      c("{.arg N} must be a single number at least the number of items ({n}), or {.code Inf}.",
        "x" = "It is {describe_value(N)}."),
      class = "population", call = call
    )
  }
  as.double(N)
}

#' Compare the agreement of two conditions
#'
#' The difference between two [mla()] fits on every baseline, with a
#' bootstrap interval and p-value: a paired item bootstrap when the fits
#' share items (two annotator groups on the same items, or the same
#' annotators before and after a guideline revision), independent item
#' bootstraps otherwise.
#' Cost: with paired items, each fit is refitted on the common items; then `R`
#' item-bootstrap replicates of each fit, as [mla_boot()] draws them.
#'
#' @section Paired and independent modes:
#' * **Paired** (the default when the fits share item ids): both fits are
#'   restricted to their common items, in the same order, and refitted; the
#'   estimates are those of the common items. Both are bootstrapped with the
#'   same seed. The item bootstrap's draws depend only on the seed and the number
#'   of items, so replicate \eqn{b} draws the same items for `a` and `b`, and
#'   the replicate differences carry the correlation between the conditions.
#' * **Independent** (`paired = FALSE`, or no shared items): each fit is
#'   bootstrapped over its own items with its own seed, as for two samples.
#'
#' The interval is the percentile interval of the \eqn{R} replicate
#' differences (interpolated as in [boot::boot.ci()]). The p-value of H0: no
#' difference is the two-sided bootstrap p-value
#' \deqn{p = \min\left(1, 2 \min\left(\frac{1 + \#\{d_b \le 0\}}{R + 1},
#'   \frac{1 + \#\{d_b \ge 0\}}{R + 1}\right)\right),}
#' the share of replicate differences on the far side of 0 with the usual
#' \eqn{+1} correction, so it is never 0. Replicates in which a coefficient is
#' undefined are dropped, with a warning that says how many. Each condition
#' needs at least 2 items with two or more decisions (a classed error,
#' `mlagreement_error_compare_items`), and fewer than 20 give a warning; when
#' every replicate difference is the same, the interval and p-value are `NA`.
#' The null hypothesis is conditional on the two annotator groups and the
#' items' population: it says nothing about other annotators. Everything is reproducible under [set.seed()] and
#' identical for any number of threads.
#'
#' @section Annotators as a sample:
#' With `annotators = "fixed"` (the default) the test conditions on the
#' annotators of each condition: it asks whether these annotators agree
#' differently in the two conditions, not whether two populations of
#' annotators do. Two groups drawn from one population of heterogeneous
#' annotators differ by chance, and the fixed test then rejects more often
#' than its level. With `annotators = "random"` each condition's annotators
#' are a sample of their own: the variance of the difference adds both
#' conditions' annotator jackknife (see [tidy.mla()], section *Annotators as
#' a sample*) to the replicates' variance, and the interval and p-value use
#' Student's t with Satterthwaite's degrees of freedom for the three parts
#' (items: number of items with a decision - 1; each condition's annotators:
#' their number - 1).
#'
#' @param a,b Two `mla` fits with the same labels, category weights and
#'   label structure (`label_weights`, `label_groups`, `label_tree`);
#'   label weights that differ by a common factor are the same (eq. 6
#'   divides by their sum).
#' @inheritParams mla_boot
#' @inheritParams tidy.mla
#' @param annotators `"fixed"` or `"random"` (see the section *Annotators as
#'   a sample*).
#' @param paired `TRUE` for the paired item bootstrap on the common items,
#'   `FALSE` for independent bootstraps, `NULL` (default) for paired when the
#'   fits share at least two item ids. Item ids identify items: two samples
#'   that reuse ids (1, 2, ...) for different items need `paired = FALSE`.
#' @return A tibble of class `mla_compare` with one row per baseline:
#'   `baseline`, `estimate_a`, `estimate_b`, `difference` (a - b),
#'   `conf.low`, `conf.high`, `p.value`. Attributes keep `R`, `paired`, the
#'   seeds, the number of items and the replicate differences
#'   (`attr(x, "replicates")`).
#' @seealso [mla_boot()] for the interval of one fit.
#' @export
#' @examples
#' # Two annotator groups on the same items (paired)
#' set.seed(1)
#' x <- simulate_annotations(60, 6, 4, prevalence = 0.3, scenario = "noisy")
#' group_1 <- mla(x[, 1:3, ])
#' group_2 <- mla(x[, 4:6, ])
#' cmp <- mla_compare(group_1, group_2, R = 200)
#' cmp
#'
#' # Independent samples of items
#' y <- simulate_annotations(80, 3, 4, prevalence = 0.3, scenario = "noisy", error = 0.2)
#' # (simulated items reuse the ids item1, item2, ...: say they differ)
#' mla_compare(mla(x[, 1:3, ]), mla(y), R = 200, paired = FALSE)
mla_compare <- function(a, b, R = 2000, paired = NULL, conf.level = 0.95,
                        threads = mla_threads(), ..., annotators = c("fixed", "random")) {
  check_dots_empty0(...)
  annotators <- check_choice(annotators, c("fixed", "random"))
  check_inherits(a, "mla", "mla", class = "compare_fit")
  check_inherits(b, "mla", "mla", class = "compare_fit")
  R <- check_whole(R, min = 2, class = "replicates")
  check_conf_level(conf.level)
  threads <- check_threads(threads)
  check_same_kind(a, b)
  check_same_labels(a, b)
  check_same_weights(a, b)
  check_same_structure(a, b)  # R/label-structure-fit.R
  common <- intersect(id_text(item_ids(a$annotations)), id_text(item_ids(b$annotations)))
  if (is.null(paired)) paired <- length(common) >= 2L
  check_bool(paired)
  if (paired) {
    check_common_items(common)
    a <- refit_items(a, common)
    b <- refit_items(b, common)
    seeds <- rep(list(sample.int(.Machine$integer.max, 2L)), 2L)
  } else {
    seeds <- list(sample.int(.Machine$integer.max, 2L), sample.int(.Machine$integer.max, 2L))
  }
  check_compare_items(a, "a")
  check_compare_items(b, "b")
  ta <- compare_replicates(a, seeds[[1]], R, threads)
  tb <- compare_replicates(b, seeds[[2]], R, threads)
  ann_var <- if (annotators == "random") {
    list(a = annotator_variance(a, "corpus", threads), b = annotator_variance(b, "corpus", threads),
         # the items the bootstrap draws (R/boot-units.R)
         df_items = min(n_rated_items(a, threads), n_rated_items(b, threads)) - 1)
  }
  both <- seq_len(min(ncol(ta), ncol(tb)))  # conger, the last column, when both have it
  new_mla_compare(a, b, ta[, both, drop = FALSE] - tb[, both, drop = FALSE], conf.level, R,
                  paired, seeds, ann_var)
}

# Corpus coefficients of R item-bootstrap replicates of a fit (R x baselines).
compare_replicates <- function(fit, seed, R, threads) {
  data <- boot_data(fit, "items", threads = threads)
  units <- boot_units(NULL, NULL, data$n_items, boot_rated_items(data))
  t <- boot_run(data, units, "items", seed, R, threads)
  if (has_conger(fit)) t <- insert_conger_columns(t, conger_boot(fit, seed, R, units))  # R/conger.R
  t[, seq_len(nrow(fit$corpus)), drop = FALSE]
}

n_rated_items <- function(fit, threads) sum(fit_record_counts(fit, threads)$item_annotators > 0L)

# The fit on a subset of its items, with the same labels and primary baseline.
refit_items <- function(fit, items) {
  a <- fit$annotations
  sub <- a[items, , fit$label_index]
  # all categories of a single-label design stay one: keep the mark
  if (is.list(fit$single_label)) sub <- mark_single_label(sub, check = FALSE)
  structure <- if (is.null(fit$structure)) list() else structure_arguments(fit$structure)
  do.call(mla, c(list(sub, baseline = fit$baseline,
                      weights = if (is.null(fit$weights)) "identity" else fit$weights$matrix),
                 structure))
}

new_mla_compare <- function(a, b, replicates, conf.level, R, paired, seeds, ann_var = NULL,
                            call = rlang::caller_env()) {
  # the baselines both fits have (conger when both asked for it)
  bl <- intersect(fit_baselines(a), fit_baselines(b))
  est_a <- a$corpus$estimate[match(bl, fit_baselines(a))]
  est_b <- b$corpus$estimate[match(bl, fit_baselines(b))]
  replicates <- replicates[, seq_along(bl), drop = FALSE]
  difference <- est_a - est_b
  p_value <- rep(NA_real_, length(bl))
  ci <- replicate_intervals(replicates, difference, bl, conf.level, "perc", upper = Inf,
                            call = call)
  for (k in seq_along(bl)) {
    d <- replicates[, k]
    d <- d[!is.na(d)]
    if (is.na(difference[k]) || length(d) < 2L) next
    if (!is.null(ann_var)) {
      # the replicates' variance (items) plus both groups' annotators' part
      parts <- c(stats::var(d), ann_var$a$var[k], ann_var$b$var[k])
      df <- sum(parts)^2 / sum(parts^2 / c(ann_var$df_items, ann_var$a$df[k], ann_var$b$df[k]))
      se <- sqrt(sum(parts))
      ci[k, ] <- if (is.na(se) || se == 0) NA_real_ else
        difference[k] + c(-1, 1) * stats::qt(1 - (1 - conf.level) / 2, df) * se
      if (!is.na(se) && se > 0) p_value[k] <- 2 * stats::pt(-abs(difference[k]) / se, df)
      next
    }
    # constant differences carry no evidence either way (replicate_intervals() warned)
    if (max(d) == min(d)) next
    p_value[k] <- min(1, 2 * min((1 + sum(d <= 0)) / (length(d) + 1),
                                 (1 + sum(d >= 0)) / (length(d) + 1)))
  }
  colnames(replicates) <- bl
  out <- tibble::tibble(
    baseline = bl,
    estimate_a = est_a,
    estimate_b = est_b,
    difference = difference,
    conf.low = ci[, 1],
    conf.high = ci[, 2],
    p.value = p_value
  )
  tibble::new_tibble(out, class = "mla_compare", R = R, paired = paired, seeds = seeds,
                     annotators = if (is.null(ann_var)) "fixed" else "random",
                     conf.level = conf.level, primary = a$baseline,
                     n_items = c(a = a$design$n_items, b = b$design$n_items),
                     replicates = replicates)
}

# Weighted and unweighted coefficients (or two weightings) measure different
# things: their difference is no comparison of agreement.
check_same_weights <- function(a, b, call = rlang::caller_env()) {
  if (identical(a$weights$matrix, b$weights$matrix)) return(invisible())
  name <- function(fit) if (is.null(fit$weights)) "identity" else fit$weights$name
  mla_abort(
    c("{.arg a} and {.arg b} must use the same category weights.",
      "x" = "{.arg a} uses {.val {name(a)}} weights, {.arg b} {.val {name(b)}} weights.",
      "i" = "Refit both with the same {.code mla(x, weights = )}."),
    class = "compare_weights", call = call
  )
}

check_same_labels <- function(a, b, call = rlang::caller_env()) {
  if (identical(a$labels, b$labels)) return(invisible())
  mla_abort(
    c("{.arg a} and {.arg b} must be fits on the same labels, in the same order.",
      "x" = "{.arg a} has {length(a$labels)} label{?s} ({format_first(a$labels, 4)}), {.arg b} has {length(b$labels)} ({format_first(b$labels, 4)}).",
      "i" = "Refit with {.code mla(x, labels = ...)} to compare on a common universe."),
    class = "compare_labels", call = call
  )
}

# Categories of a single-label design are not labels of a multi-label one,
# even under the same names: their coefficients measure different things.
check_same_kind <- function(a, b, call = rlang::caller_env()) {
  single <- c(a = is_single_label_fit(a), b = is_single_label_fit(b))
  if (single[["a"]] == single[["b"]]) return(invisible())
  kind <- ifelse(single, "single-label (mutually exclusive categories)", "multi-label")
  mla_abort(
    c("{.arg a} and {.arg b} must both be multi-label or both single-label fits.",
      "x" = "{.arg a} is {kind[['a']]}, {.arg b} is {kind[['b']]}."),
    class = "compare_labels", call = call
  )
}

# A condition whose items cannot vary in a replicate has a constant bootstrap
# distribution: its p-value would be an artefact of R alone.
check_compare_items <- function(fit, arg, call = rlang::caller_env()) {
  n <- fit$design$n_pairable_items
  if (n >= 2L) {
    check_boot_items(n, "items with two or more decisions", arg, call)
    return(invisible())
  }
  mla_abort(
    c("Each condition must have at least 2 items with two or more decisions to compare.",
      "x" = "{.arg {arg}} has {n}{if (n < fit$design$n_items) paste0(' (of ', fit$design$n_items, ' items)') else ''}.",
      "i" = "With fewer, its bootstrap replicates cannot vary and the p-value would mean nothing."),
    class = "compare_items", call = call
  )
}

check_common_items <- function(common, call = rlang::caller_env()) {
  if (length(common) >= 2L) return(invisible())
  mla_abort(
    c("A paired comparison needs at least two items shared by {.arg a} and {.arg b}.",
      "x" = "They share {length(common)}.",
      "i" = "Use {.code paired = FALSE} for independent samples of items."),
    class = "compare_items", call = call
  )
}

#' @export
print.mla_compare <- function(x, ...) {
  mode <- if (attr(x, "paired")) "paired item bootstrap on the common items" else "independent item bootstraps"
  n <- attr(x, "n_items")
  cat(cli::format_inline("Agreement difference a - b: {mode}, R = {attr(x, 'R')}, ",
                         "{compare_interval_text(x)}; ",
                         "{n[['a']]} and {n[['b']]} items"), "\n", sep = "")
  print(tibble::as_tibble(unclass_compare(x)), ...)
  invisible(x)
}

# The kind of interval: percentile, or Student's t when annotators are a sample.
compare_interval_text <- function(x) {
  kind <- if (identical(attr(x, "annotators"), "random")) {
    "t intervals (items and annotators as samples)"
  } else {
    "percentile intervals"
  }
  paste(format_percent(attr(x, "conf.level")), kind)
}

unclass_compare <- function(x) {
  attributes(x)[c("R", "paired", "seeds", "annotators", "conf.level", "primary", "n_items",
                  "replicates")] <- NULL
  class(x) <- c("tbl_df", "tbl", "data.frame")
  x
}

#' @rdname mla_compare
#' @param object An `mla_compare` result.
#' @exportS3Method ggplot2::autoplot
autoplot.mla_compare <- function(object, ...) {
  check_dots_empty0(...)
  rlang::check_installed("ggplot2", reason = "to plot a comparison.")
  df <- unclass_compare(object)
  df$baseline_name <- baseline_factor(df$baseline)
  ggplot2::ggplot(df, ggplot2::aes(x = .data$difference, y = .data$baseline_name)) +
    ggplot2::geom_vline(xintercept = 0, colour = "grey50", linetype = "dashed") +
    ggplot2::geom_errorbarh(ggplot2::aes(xmin = .data$conf.low, xmax = .data$conf.high),
                            height = 0.2, na.rm = TRUE) +
    ggplot2::geom_point(size = 2.5, na.rm = TRUE) +
    ggplot2::labs(x = "Difference in agreement (a - b)", y = NULL,
                  caption = paste0(if (attr(object, "paired")) "Paired" else "Independent",
                                   " item bootstrap, R = ", attr(object, "R"), "; ",
                                   compare_interval_text(object))) +
    theme_mla()
}

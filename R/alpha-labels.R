# krippendorff_alpha(level = "label"): the Hamming distance is the mean of the
# per-label disagreements, so label j's alpha is the binary alpha of its 0/1
# column, from the same per-label sums as the corpus value; with R > 0 the
# same item replicates give its interval and jackknife SE.

#' @rdname krippendorff_alpha
#' @section Label level:
#' With `level = "label"` (Hamming distance only) the result has one row per
#' label: `term` (`"<label>:hamming"`, as the label rows of [tidy.mla()]),
#' `label`, `distance` and the columns of the corpus result, where
#' `estimate` is the binary alpha of the label's 0/1 column (equal to nominal
#' alpha of that column, e.g. `irr::kripp.alpha()`), `n_items` its items
#' with two or more decisions and `n_values` their decisions. The corpus
#' Hamming alpha is not the mean of these: it pools the labels'
#' disagreements before the ratio. `R > 0` adds `std.error`, `conf.low` and
#' `conf.high` per label from the same replicates as the corpus row. The
#' estimates read only the label tables, so a summary ([annotation_counts()],
#' a database table) gives them too; intervals need the records.
#' @param level `"corpus"` (default): one row per distance; `"label"`: one
#'   row per label (Hamming distance only).
#' @name krippendorff_alpha
NULL

alpha_label_level <- function(a, distance, use_default, R, conf.level, threads,
                              call = rlang::caller_env()) {
  check_label_level_distance(distance, a, use_default, call)
  R <- check_alpha_replicates(R, call)  # R/alpha-intervals.R
  check_conf_level(conf.level, arg = "conf.level", call = call)
  if (R > 0L) require_records(a, "bootstrap intervals of label-level alpha", call = call)
  tot <- label_alpha_sums(label_tally(a))
  estimate <- hamming_label_alpha_from_sums(tot$n, tot$n1, tot$dis)
  n <- tot$n
  labels <- as.character(label_names(a))
  k <- length(labels)
  out <- tibble::new_tibble(list(
    term = paste0(labels, ":hamming"),
    label = labels,
    distance = rep("hamming", k),
    observed_disagreement = ifelse(n > 0, tot$dis / pmax(n, 1), NA_real_),
    expected_disagreement = ifelse(n > 1, 2 * tot$n1 * (n - tot$n1) / (n * pmax(n - 1, 1)), NA_real_),
    estimate = estimate,
    n_items = tot$n_items,
    n_values = n
  ), nrow = k)
  warn_undefined_labels(labels[is.na(estimate)], call)
  if (R == 0L) return(out)
  used <- !is.na(estimate)
  if (any(used)) {
    check_boot_items(min(out$n_items[used]), "items with two or more decisions", "x", call, min = 3L)
  }
  cols <- list(n = seq_len(k), n1 = k + seq_len(k), dis = 2L * k + seq_len(k))
  label_intervals(out, hamming_item_terms(a), cols, R, conf.level, threads, call)
}

# Per label, over its items with m >= 2 decisions: the decisions n, the
# positive ones n1, the summed within-item disagreement 2 x (m - x) / (m - 1)
# and the items, from the label tables (records and summaries alike).
label_alpha_sums <- function(tally) {
  m <- seq_len(nrow(tally$cnt))
  pair <- m >= 2L
  per_m <- function(t, f) unname(colSums(f * t[pair, , drop = FALSE]))
  list(n = per_m(tally$cnt, m[pair]), n1 = per_m(tally$sx, 1),
       dis = per_m(tally$sdis, 2 / (m[pair] - 1)), n_items = per_m(tally$cnt, 1))
}

check_label_level_distance <- function(distance, a, use_default, call) {
  if (use_default) return(invisible())
  if (is.character(distance) && all(distance == "hamming")) return(invisible())
  if (is.character(distance) && all(distance == "nominal") && is_single_label(a)) return(invisible())
  mla_abort(
    c("{.code level = \"label\"} is available for the Hamming distance only.",
      "x" = "{.arg distance} is {.val {if (is.character(distance)) distance else \"a function\"}}.",
      "i" = "Set distances compare whole label sets, so they have no per-label value."),
    class = "alpha_level", call = call
  )
}

warn_undefined_labels <- function(undefined, call) {
  if (length(undefined) == 0L) return(invisible())
  mla_warn(
    c("Alpha is undefined for label{?s} {.val {undefined}}.",
      "i" = "Every pairable decision on {cli::qty(length(undefined))}{?it/them} is the same (or no item has two); the estimate is {.code NA}."),
    class = "undefined", call = call
  )
}

# Per-label percentile intervals and jackknife SEs.
label_intervals <- function(out, terms, cols, R, conf.level, threads, call = rlang::caller_env()) {
  seed <- sample.int(.Machine$integer.max, 2L)
  no_sets <- list(start = numeric(), set = integer(), count = numeric(), n_sets = 0L)
  res <- alpha_boot_sums(terms, no_sets, list(), seed, R, threads)
  reps <- hamming_label_alpha_from_sums(res$sums[, cols$n, drop = FALSE],
                                        res$sums[, cols$n1, drop = FALSE],
                                        res$sums[, cols$dis, drop = FALSE])
  tot <- colSums(terms)
  k <- length(cols$n)
  se <- rep(NA_real_, k)
  for (j in seq_len(k)) {
    if (is.na(out$estimate[j])) next
    own <- terms[, cols$n[j]] > 0
    left <- function(col) tot[col] - terms[own, col]
    theta <- hamming_label_alpha_from_sums(left(cols$n[j]), left(cols$n1[j]), left(cols$dis[j]))
    se[j] <- jackknife_from_values(theta)
  }
  ci <- replicate_intervals(reps, out$estimate, out$label, conf.level, "perc",
                            na_hint = kNaHintAlpha, call = call)
  out$std.error <- se
  out$conf.low <- ci[, 1]
  out$conf.high <- ci[, 2]
  out
}

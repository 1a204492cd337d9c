# Bootstrap intervals for krippendorff_alpha(R > 0): items are resampled
# with replacement and alpha recomputed from reweighted per-item statistics,
# never from the records. For Hamming distance alpha is a function of three
# per-label sums over the pairable items (m >= 2): n_j = sum m, n1_j = sum x,
# dis_j = sum 2 x (m - x) / (m - 1) (the kernel's hamming_alpha()), so a
# replicate with item multiplicities w is W %*% (those per-item terms).
# Multiplicities come from R's generator (sample.int), so set.seed() makes
# intervals reproducible and the thread count cannot change them.
#
# Jaccard and MASI need, per replicate, the reweighted counts of every
# distinct label set and their S x S distance sums (src/mlagreement/set_*.h);
# that engine is not written yet, so their rows get NA intervals and a warning.

#' @rdname krippendorff_alpha
#' @section Intervals:
#' With `R > 0` the result gains `std.error` (the standard deviation of the
#' replicates), `conf.low` and `conf.high` (the percentile interval at
#' `conf.level`, interpolated as in [boot::boot.ci()]) from `R` bootstrap
#' replicates over items. Each replicate reweights the items' per-label
#' statistics; it never revisits the records. Replicates are drawn with R's
#' random number generator, so [set.seed()] makes them reproducible and
#' `threads` does not change them. Intervals are available for the Hamming
#' distance (and so for nominal alpha of one-hot single-label data); the
#' Jaccard and MASI rows get `NA` intervals with a warning.
#' @param R Number of bootstrap replicates over items; 0 (default) for none.
#' @param conf.level Confidence level of the bootstrap interval.
#' @name krippendorff_alpha
NULL

alpha_intervals <- function(out, a, R, conf.level, call = rlang::caller_env()) {
  R <- check_whole(R, min = 0, arg = "R", call = call, class = "replicates")
  check_conf_level(conf.level, arg = "conf.level", call = call)
  if (R == 0L) return(out)
  n <- nrow(out)
  se <- low <- high <- rep(NA_real_, n)
  # nominal alpha of a single-label design is Hamming alpha of its one-hot labels
  ham <- which(out$distance == "hamming" | (out$distance == "nominal" & is_single_label(a)))
  if (length(ham) > 0L && any(!is.na(out$estimate[ham]))) {
    t <- hamming_alpha_replicates(a, R)
    t <- t[!is.na(t)]
    for (h in ham[!is.na(out$estimate[ham])]) {
      if (length(t) < 2L) break
      se[h] <- stats::sd(t)
      ci <- boot_interval(t, out$estimate[h], conf.level, "perc")$ci
      low[h] <- ci[1]
      high[h] <- ci[2]
    }
  }
  without <- setdiff(out$distance, out$distance[ham])
  if (length(without) > 0L) {
    cli::cli_warn(
      c("Bootstrap intervals are not available for distance{?s} {.val {without}} yet.",
        "i" = "Their {.field std.error}, {.field conf.low} and {.field conf.high} are {.code NA}; {.code distance = \"hamming\"} has intervals."),
      class = "mlagreement_warning_no_interval", call = call
    )
  }
  out$std.error <- se
  out$conf.low <- low
  out$conf.high <- high
  out
}

# R bootstrap replicates of Hamming alpha over items.
hamming_alpha_replicates <- function(a, R) {
  counts <- item_label_counts(a)
  x <- counts$x
  m <- counts$m
  pair <- m >= 2L
  terms <- list(
    n = ifelse(pair, m, 0),
    n1 = ifelse(pair, x, 0),
    dis = ifelse(pair, 2 * x * (m - x) / pmax(m - 1, 1), 0)
  )
  n_items <- nrow(x)
  # replicates in chunks of at most 5e6 multiplicities (40 MB)
  chunk <- max(1L, min(R, 5e6 %/% max(n_items, 1L)))
  out <- numeric(R)
  for (start in seq(1L, R, by = chunk)) {
    b <- seq.int(start, min(R, start + chunk - 1L))
    w <- vapply(b, function(i) tabulate(sample.int(n_items, n_items, replace = TRUE), n_items),
                numeric(n_items))
    w <- t(w)
    out[b] <- hamming_alpha_from_sums(w %*% terms$n, w %*% terms$n1, w %*% terms$dis)
  }
  out
}

# Alpha of each row of the per-label sums (replicates x labels): means of the
# label disagreements over labels with a pairable value, as hamming_alpha().
hamming_alpha_from_sums <- function(n, n1, dis) {
  used <- n > 0
  observed <- ifelse(used, dis / ifelse(used, n, 1), 0)
  expected <- ifelse(n > 1, 2 * n1 * (n - n1) / (n * pmax(n - 1, 1)), 0)
  k_used <- rowSums(used)
  d_o <- rowSums(observed) / k_used
  d_e <- rowSums(expected * used) / k_used
  ifelse(d_e > 0, 1 - d_o / d_e, NA_real_)
}

# Bootstrap intervals when annotators are resampled: the replicates'
# deviations are rescaled before their quantiles are taken.

# The replicates the intervals and standard errors use. Drawing J annotators
# with replacement, the bootstrap's variance of an average over annotators is
# (J - 1) / J times the unbiased one, so the deviations from t0 are scaled by
# sqrt(J / (J - 1)), J counting the annotators each statistic reads (the
# items' own factor is left as it is).
interval_replicates <- function(object, idx) {
  t <- object$t[, idx, drop = FALSE]
  if (object$resample == "items") return(t)
  J <- boot_stat_n_annotators(object)[idx]
  t0 <- matrix(object$t0[idx], nrow(t), length(idx), byrow = TRUE)
  t0 + (t - t0) * matrix(sqrt(J / (J - 1)), nrow(t), length(idx), byrow = TRUE)
}

# Which annotators each statistic reads (stat_annotators(), cached) and how many.
boot_stat_annotators <- function(object) {
  cache <- object$cache
  if (is.environment(cache) && !is.null(cache$stat_annotators)) return(cache$stat_annotators)
  mask <- stat_annotators(object$fit)  # R/analytic-annotators.R
  if (is.environment(cache)) cache$stat_annotators <- mask
  mask
}

boot_stat_n_annotators <- function(object) colSums(boot_stat_annotators(object))

# Quantile intervals of an average over J annotators in effect use a variance
# from J values with the normal quantile, and undercover (bench/README.md). The
# deviations from t0 are widened by t_df / z: df = J - 1 for annotators alone,
# Satterthwaite's df of the item and annotator jackknives for the two-way
# bootstrap. Standard errors are not widened.
interval_t_replicates <- function(object, idx, level) {
  t <- interval_replicates(object, idx)
  if (object$resample == "items") return(t)
  q <- (1 + level) / 2
  widen <- stats::qt(q, annotator_interval_df(object)[idx]) / stats::qnorm(q)
  t0 <- matrix(object$t0[idx], nrow(t), length(idx), byrow = TRUE)
  t0 + (t - t0) * matrix(widen, nrow(t), length(idx), byrow = TRUE)
}

# Degrees of freedom of every statistic's interval, cached.
annotator_interval_df <- function(object) {
  cache <- object$cache
  if (is.environment(cache) && !is.null(cache$interval_df)) return(cache$interval_df)
  data <- boot_engine_data(object)
  df_ann <- boot_stat_n_annotators(object) - 1
  df <- df_ann
  if (object$resample == "both") {
    jack_ann <- boot_jackknife(data, object$units, "annotators", object$threads)
    item_data <- boot_data(object$fit, "items", object$threads)
    jack_items <- boot_jackknife(item_data, object$units, "items", object$threads)
    v_ann <- annotator_jackknife_variance(jack_ann, boot_stat_annotators(object))  # R/analytic-annotators.R
    v_items <- apply(jack_items, 2L, jackknife_variance)
    df <- satterthwaite_df(v_items, nrow(jack_items) - 1, v_ann, df_ann)  # R/analytic-se.R
    df[!is.finite(df)] <- df_ann[!is.finite(df)]
  }
  if (is.environment(cache)) cache$interval_df <- df
  df
}

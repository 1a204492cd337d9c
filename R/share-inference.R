# Standard errors and intervals of percent agreement (`observed`) and of
# positive / negative specific agreement (label rows): analytic ones from the
# kernel's influence sums (agreement_shares.h) for tidy(<mla>, conf.int =
# TRUE), item bootstrap ones for tidy(<mla_boot>).

share_names <- c("observed", "positive_agreement", "negative_agreement")

# Columns `<share>.std.error`, `.conf.low`, `.conf.high` for the rows of
# tidy(fit, level).
share_inference <- function(fit, level, conf.level, N, threads = mla_threads(),
                            inputs = influence_inputs_once(fit, threads)) {
  shares <- if (level == "corpus") share_names[1] else share_names
  n_rows <- if (level == "corpus") nrow(fit$corpus) else nrow(fit$label)
  if (!is.null(fit$structure)) {
    return(structured_share_inference(fit, level, conf.level, N, inputs()$structured(level)))  # R/label-structure-fit.R
  }
  if (!has_item_cells(fit$annotations)) {
    na <- rep(NA_real_, n_rows)
    return(share_columns(shares, lapply(shares, function(s) list(std.error = na, conf.low = na, conf.high = na))))
  }
  res <- share_influence(fit, level, inputs())
  cols <- lapply(seq_along(shares), function(s) {
    inf <- inference_columns(res$estimate[, s], res$sum_sq[, s], res$n, conf.level, N)
    inf[c("std.error", "conf.low", "conf.high")]
  })
  share_columns(shares, cols)
}

share_columns <- function(shares, cols) {
  out <- list()
  for (s in seq_along(shares)) {
    for (col in names(cols[[s]])) out[[paste0(shares[s], ".", col)]] <- cols[[s]][[col]]
  }
  out
}

# Estimates, influence sums and n of the shares, one row per row of tidy().
share_influence <- function(fit, level, inputs) {
  if (level == "corpus") {
    f <- inputs$corpus()  # with the coefficients' (R/analytic-se.R)
    k <- nrow(fit$corpus)
    return(list(estimate = matrix(fit$corpus$observed, k, 1L),
                sum_sq = matrix(f$observed_sum_sq, k, 1L), n = rep(f$n, k)))
  }
  f <- inputs$labels()$shares  # with the coefficients' (R/analytic-se.R)
  rows <- rep(seq_len(nrow(f$estimate)), length(fit_baselines(fit)))  # tidy's label rows: label-major per baseline
  list(estimate = f$estimate[rows, , drop = FALSE], sum_sq = f$sum_sq[rows, , drop = FALSE],
       n = f$n[rows])
}

# Item bootstrap replicates of positive and negative agreement (R x 2k) with
# the draws of the item replicates of the same seed; NULL unless items were
# resampled. Computed on first need and cached, so mla_boot() itself costs one
# engine pass.
boot_specific <- function(x) {
  if (x$resample != "items") return(NULL)
  cache <- x$cache
  if (is.environment(cache) && !is.null(cache$specific)) return(cache$specific)
  data <- boot_label_cells(x)
  u <- x$units
  spec <- list(t = specific_boot_cpp(data$x, data$m, x$seed, x$R, u$unit_of_item, u$n_units,
                                     u$order, u$start))
  if (is.environment(cache)) cache$specific <- spec
  spec
}

# The share columns of the label rows of tidy(<mla_boot>); NA unless items
# were resampled.
boot_specific_columns <- function(x, conf.level, type, call = rlang::caller_env()) {
  lab <- x$fit$label
  k <- length(x$fit$labels)
  shares <- share_names[-1]
  specific <- boot_specific(x)
  if (is.null(specific)) {
    na <- rep(NA_real_, nrow(lab))
    return(share_columns(shares, rep(list(list(std.error = na, conf.low = na, conf.high = na)), 2L)))
  }
  first <- match(x$fit$labels, lab$label)
  t0 <- c(lab$positive_agreement[first], lab$negative_agreement[first])
  names <- paste0(rep(x$fit$labels, 2L), ":", rep(shares, each = k))
  accel <- if (type == "bca") specific_acceleration(x) else NULL
  ci <- replicate_intervals(specific$t, t0, names, conf.level, type, accel, call = call)
  se <- apply(specific$t, 2, stats::sd, na.rm = TRUE)
  se[is.na(t0)] <- NA_real_
  # per baseline the labels, then a structured fit's groups (no specific agreement)
  n_baselines_fit <- length(fit_baselines(x$fit))
  rows <- rep(c(seq_len(k), rep(NA_integer_, nrow(lab) / n_baselines_fit - k)), n_baselines_fit)
  cols <- lapply(1:2, function(s) {
    j <- (s - 1L) * k + rows
    list(std.error = unname(se[j]), conf.low = ci[j, 1], conf.high = ci[j, 2])
  })
  share_columns(shares, cols)
}

# The items x labels tables of the fit's labels in the engine's inputs (a
# structured fit's engine also holds its groups' categories).
boot_label_cells <- function(x) {
  data <- boot_engine_data(x)
  if (is.null(data$structure)) return(data)
  k <- seq_len(data$structure$n_closed)
  list(x = data$x[, k, drop = FALSE], m = data$m[, k, drop = FALSE])
}

# BCa's acceleration of positive and negative agreement.
specific_acceleration <- function(x) {
  data <- boot_label_cells(x)
  jack <- specific_jack_cpp(data$x, data$m, x$units$unit_start, x$units$unit_items)
  vapply(seq_len(ncol(jack)), function(s) {
    L <- jackknife_influence(jack[, s])
    sum(L^3) / (6 * sum(L^2)^1.5)
  }, numeric(1))
}

# Bootstrap confidence intervals, with boot::boot.ci()'s order-statistic
# interpolation and formulas (Davison and Hinkley 1997, 5.2-5.3), so both give
# the same numbers on as_boot() output.

#' Confidence intervals from a Multi-Label Agreement bootstrap
#'
#' * `"perc"`: percentile interval, the \eqn{\alpha/2} and
#'   \eqn{1-\alpha/2} quantiles of the replicates.
#' * `"basic"`: the percentile interval reflected about the estimate,
#'   \eqn{2\hat\theta - q_{1-\alpha/2}, 2\hat\theta - q_{\alpha/2}}.
#' * `"norm"`: normal approximation with bootstrap bias correction,
#'   \eqn{\hat\theta - b \pm z_{1-\alpha/2} s} (\eqn{b}, \eqn{s}: replicate
#'   bias and standard deviation).
#' * `"bca"`: bias-corrected and accelerated percentile interval; the bias
#'   correction comes from the share of replicates below the estimate, the
#'   acceleration from the jackknife over the resampled unit (leave one item,
#'   cluster or annotator out, as [jackknife_se()]). Not
#'   available for `resample = "both"`, which has no single resampled unit.
#'
#' Quantiles are interpolated on the normal scale as in [boot::boot.ci()]
#' (order statistics \eqn{k = \lfloor (R + 1) \alpha \rfloor} and \eqn{k + 1}),
#' so with items resampled every type gives the same limits as
#' `boot::boot.ci()` on [as_boot()] output (BCa with
#' `L = b$mla_influence[, i]`), except that limits are capped at 1, the
#' largest value of every coefficient, as the analytic intervals of
#' [tidy()][tidy.mla] and irrCAC's are (`boot::boot.ci()` does not cap, so
#' its `"basic"` and `"norm"` limits can pass 1). With annotators resampled the replicates'
#' deviations from the estimate are widened by \eqn{t_\nu / z} at the
#' requested level before the quantiles are taken (see [mla_boot()],
#' section *Which design*); `as_boot()` carries the replicates without that
#' level-dependent widening, so `boot::boot.ci()` gives the narrower,
#' normal-quantile interval there. Replicates in which
#' a coefficient is undefined (a label nobody selects in that replicate) are
#' left out of its interval, with a warning that counts them (`as_boot()`
#' says how many too, since `boot::boot.ci()` drops them without a word). A
#' statistic whose replicates are all equal gets `NA` limits with a warning,
#' not a zero-width interval. Item-level values are
#' diagnostics relative to the corpus baseline and get no intervals.
#'
#' @param object An `mla_boot` object from [mla_boot()].
#' @param parm Statistics: names (see `object$stats$name`, e.g. `"fleiss"` or
#'   `"L01:ac1"`) or column numbers; all by default.
#' @inheritParams confint.mla
#' @param type `"bca"` (default; `"perc"` for `resample = "both"`),
#'   `"perc"`, `"basic"` or `"norm"`. BCa is the default because it covers
#'   best of the bootstrap intervals in small samples (`vignette("uncertainty")`).
#' @return A matrix with one row per statistic and columns for the lower and
#'   upper limits, like [stats::confint()].
#' @family bootstrap
#' @references
#' Davison, A. C. and Hinkley, D. V. (1997). Bootstrap Methods and their
#' Application. Cambridge University Press. \doi{10.1017/CBO9780511802843}
#'
#' Efron, B. (1987). Better bootstrap confidence intervals. Journal of the
#' American Statistical Association 82(397), 171-185.
#' \doi{10.1080/01621459.1987.10478410}
#' @export
#' @examples
#' set.seed(1)
#' fit <- mla(simulate_annotations(60, 4, 3, prevalence = 0.3, scenario = "noisy"))
#' bs <- mla_boot(fit, R = 500)
#' confint(bs, c("fleiss", "ac1", "pabak"))
#' confint(bs, "fleiss", type = "perc")
confint.mla_boot <- function(object, parm, level = 0.95,
                             type = c("bca", "perc", "basic", "norm"), ...) {
  check_dots_empty0(...)
  type <- boot_type(type, object)
  check_conf_level(level)
  idx <- boot_parm(object, parm)
  ci <- boot_ci_matrix(object, idx, level, type)
  pct <- paste(format(100 * c((1 - level) / 2, (1 + level) / 2), trim = TRUE,
                      scientific = FALSE, digits = 3), "%")
  dimnames(ci) <- list(object$stats$name[idx], pct)
  ci
}

# The interval type: BCa by default, the percentile interval for the
# two-way bootstrap (no single resampled unit for BCa's jackknife).
boot_type <- function(type, object, call = rlang::caller_env()) {
  types <- c("bca", "perc", "basic", "norm")
  if (identical(type, types)) return(if (object$resample == "both") "perc" else "bca")
  check_choice(type, types, arg_name = "type", call = call)
}

boot_parm <- function(object, parm, call = rlang::caller_env()) {
  p <- nrow(object$stats)
  if (missing(parm) || is.null(parm)) return(seq_len(p))
  if (is.character(parm)) {
    idx <- match(parm, object$stats$name)
    if (anyNA(idx)) {
      mla_abort(c("{.arg parm} must name statistics of the bootstrap.",
                  "x" = "Unknown: {format_first(parm[is.na(idx)])}.",
                  "i" = "Names are {format_first(object$stats$name)}."),
                class = "boot_parm", call = call)
    }
    return(idx)
  }
  if (is.numeric(parm) && all(!is.na(parm)) && all(parm >= 1 & parm <= p & parm == trunc(parm))) {
    return(as.integer(parm))
  }
  mla_abort(c("{.arg parm} must be statistic names or column numbers between 1 and {p}.",
              "x" = "It is {.obj_type_friendly {parm}}."),
            class = "boot_parm", call = call)
}

boot_ci_matrix <- function(object, idx, level, type, call = rlang::caller_env()) {
  if (type == "bca" && object$resample == "both") {
    mla_abort(c("BCa intervals need a single resampled unit for the jackknife.",
                "x" = "{.arg object} resampled {.val {object$resample}}.",
                "i" = "Use {.code type = \"perc\"} (or resample items or annotators)."),
              class = "boot_bca", call = call)
  }
  accel <- if (type == "bca") boot_acceleration(object) else NULL
  replicate_intervals(interval_t_replicates(object, idx, level), object$t0[idx], object$stats$name[idx],
                      level, type, accel[idx], call = call)
}

# Limits of each column of the replicates t (R x statistics) about t0, capped
# at `upper` (1, the largest value of every coefficient; Inf for differences).
# Warns once about undefined replicates, constant replicates (no zero-width
# "95% interval") and extreme order statistics.
replicate_intervals <- function(t, t0, names, level, type = "perc", accel = NULL,
                                na_hint = kNaHintNotes, upper = 1,
                                call = rlang::caller_env()) {
  out <- matrix(NA_real_, ncol(t), 2L)
  undefined <- constant <- character()
  extreme <- FALSE
  for (s in seq_len(ncol(t))) {
    ts <- t[, s]
    fin <- is.finite(ts)
    if (is.na(t0[[s]]) || sum(fin) < 2L) next
    if (!all(fin)) {
      undefined <- c(undefined, paste0(names[s], " (", format_count(sum(!fin)),
                                       " of ", format_count(length(fin)), ")"))
    }
    ts <- ts[fin]
    if (max(ts) == min(ts)) {
      constant <- c(constant, names[s])
      next
    }
    res <- boot_interval(ts, t0[[s]], level, type, accel[s])
    out[s, ] <- pmin(upper, res$ci)
    extreme <- extreme || res$extreme
  }
  if (length(undefined) > 0L) {
    mla_warn(c("Some replicates are undefined ({.code NA}) for {length(undefined)} statistic{?s}: {format_first(undefined)}.",
               "i" = na_hint),
             class = "boot_na", call = call)
  }
  if (length(constant) > 0L) {
    mla_warn(c("Every replicate is the same for {length(constant)} statistic{?s}: {format_first(constant)}.",
               "i" = "{cli::qty(length(constant))}{?Its/Their} interval{?s} {?is/are} {.code NA}: a zero-width interval would claim a certainty the sample cannot give (e.g. perfect agreement on every item)."),
             class = "boot_constant", call = call)
  }
  if (extreme) {
    mla_warn(c("Extreme order statistics were used as interval endpoints.",
               "i" = "Increase {.arg R} for this confidence level."),
             class = "boot_extreme", call = call)
  }
  out
}

kNaHintNotes <- "Their intervals use the defined replicates only; a label with a {.field note} in {.code tidy()} rests on too little information."
kNaHintAlpha <- "Their intervals use the defined replicates only: alpha is undefined in a replicate whose pairable values are all the same."

# Fewest resampled items (or clusters) for bootstrap and jackknife intervals
# without a warning; fewer than 2 cannot vary at all.
boot_min_items <- 20L

# min = 3 where the standard error is a jackknife over items: with 2 items the
# leave-one-out values are single-item estimates, the same for any data.
check_boot_items <- function(n, what = "items", arg = "fit", call = rlang::caller_env(),
                             min = 2L) {
  if (n < min) {
    why <- if (min > 2L && n == 2L) {
      "With 2, each leave-one-out value is that of a single item and the same number, so the jackknife standard error would be 0 whatever the data."
    } else {
      "With fewer, every replicate is the estimate itself."
    }
    mla_abort(
      c("Bootstrap and jackknife intervals need at least {min} {what} to resample.",
        "x" = "{.arg {arg}} has {n}.", "i" = why),
      class = "boot_items", call = call
    )
  }
  if (n < boot_min_items) {
    mla_warn(
      c("Bootstrap intervals from {n} {what} are unreliable.",
        "i" = "Below {boot_min_items} {what} bootstrap intervals undercover (about 0.85-0.93 for a 95% BCa interval at 10 items); prefer the analytic t interval of {.code tidy(fit)}."),
      class = "few_items", call = call
    )
  }
  invisible(n)
}

# Influence values from leave-one-out values (boot's usual.jack convention).
jackknife_influence <- function(tj) {
  if (anyNA(tj)) return(rep(NA_real_, length(tj)))
  n <- length(tj)
  (n - 1) * (mean(tj) - tj)
}

# BCa's acceleration from the jackknife influence values, computed once per
# object (cached, as the jackknife).
boot_acceleration <- function(x) {
  cache <- x$cache
  if (is.environment(cache) && !is.null(cache$accel)) return(cache$accel)
  L <- boot_jack_influence(x)
  accel <- vapply(seq_len(ncol(L)), function(s) sum(L[, s]^3) / (6 * sum(L[, s]^2)^1.5), numeric(1))
  if (is.environment(cache)) cache$accel <- accel
  accel
}

boot_interval <- function(t, t0, conf, type, a = NULL) {
  alpha <- (1 + c(-conf, conf)) / 2
  switch(type,
    perc = norm_inter(t, alpha),
    basic = {
      q <- norm_inter(t, (1 + c(conf, -conf)) / 2)
      list(ci = 2 * t0 - q$ci, extreme = q$extreme)
    },
    norm = {
      bias <- mean(t) - t0
      merr <- sqrt(stats::var(t)) * stats::qnorm((1 + conf) / 2)
      list(ci = c(t0 - bias - merr, t0 - bias + merr), extreme = FALSE)
    },
    bca = {
      w <- stats::qnorm(sum(t < t0) / length(t))
      if (!is.finite(w) || !is.finite(a)) {
        list(ci = c(NA_real_, NA_real_), extreme = FALSE)
      } else {
        z <- stats::qnorm(alpha)
        norm_inter(t, stats::pnorm(w + (w + z) / (1 - a * (w + z))))
      }
    }
  )
}

# Quantiles by interpolation on the normal scale between order statistics
# k and k + 1, k = floor((R + 1) alpha) (boot's norm.inter()).
norm_inter <- function(t, alpha) {
  R <- length(t)
  rk <- (R + 1) * alpha
  extreme <- !all(rk > 1 & rk < R)
  k <- trunc(rk)
  ts <- sort(t)
  out <- numeric(length(alpha))
  for (i in seq_along(alpha)) {
    if (k[i] == rk[i] && k[i] >= 1 && k[i] <= R) {
      out[i] <- ts[k[i]]
    } else if (k[i] <= 0) {
      out[i] <- ts[1L]
    } else if (k[i] >= R) {
      out[i] <- ts[R]
    } else {
      z <- stats::qnorm(alpha[i])
      z1 <- stats::qnorm(k[i] / (R + 1))
      z2 <- stats::qnorm((k[i] + 1) / (R + 1))
      out[i] <- ts[k[i]] + (z - z1) / (z2 - z1) * (ts[k[i] + 1L] - ts[k[i]])
    }
  }
  list(ci = out, extreme = extreme)
}

#' Jackknife standard errors of a Multi-Label Agreement bootstrap
#'
#' Leaves out one resampled unit at a time (an item, a cluster or an
#' annotator, as in the bootstrap) and computes
#' \eqn{\sqrt{(n-1)/n \sum_u (\hat\theta_{(-u)} - \bar\theta_{(\cdot)})^2}}.
#' Strata are ignored. Cost: no refits; linear in the units for items and
#' clusters, in the records for annotators.
#'
#' @param x An `mla_boot` object with `resample = "items"` or `"annotators"`.
#' @param level `"corpus"` or `"label"`.
#' @return A tibble with the key columns of [tidy.mla()] (`baseline`, and
#'   `label` for labels), `estimate`, `jackknife_se` and `n_units`.
#' @family bootstrap
#' @references
#' Efron, B. and Stein, C. (1981). The jackknife estimate of variance. The
#' Annals of Statistics 9(3), 586-596. \doi{10.1214/aos/1176345462}
#' @export
#' @examples
#' set.seed(1)
#' fit <- mla(simulate_annotations(60, 4, 3, prevalence = 0.3, scenario = "noisy"))
#' jackknife_se(mla_boot(fit, R = 50))
jackknife_se <- function(x, level = c("corpus", "label")) {
  check_inherits(x, "mla_boot", "mla_boot", class = "boot_object")
  level <- check_choice(level, c("corpus", "label"))
  if (x$resample == "both") {
    mla_abort(c("A jackknife needs a single resampled unit.",
                "x" = "{.arg x} resampled {.val {x$resample}}."),
              class = "boot_jackknife")
  }
  rows <- which(x$stats$level == level)
  jack <- boot_jack_values(x)
  read <- boot_jack_units(x)
  se <- vapply(rows, function(s) sqrt(jackknife_variance(jack[read[, s], s])), numeric(1))
  keys <- x$stats[rows, if (level == "label") c("label", "baseline") else "baseline"]
  tibble::add_column(keys, estimate = unname(x$t0[rows]), jackknife_se = se,
                     n_units = as.integer(colSums(read)[rows]))
}

# The units each statistic's jackknife runs over (units x statistics): every
# item or cluster; with annotators resampled, the annotators it reads.
boot_jack_units <- function(x) {
  if (x$resample == "annotators") return(boot_stat_annotators(x))  # R/boot-ci-annotators.R
  matrix(TRUE, nrow(boot_jack_values(x)), length(x$t0))
}

# Jackknife influence values (units x statistics), 0 for an annotator a
# statistic does not read.
boot_jack_influence <- function(x) {
  jack <- boot_jack_values(x)
  read <- boot_jack_units(x)
  L <- matrix(0, nrow(jack), ncol(jack))
  for (s in seq_len(ncol(jack))) L[read[, s], s] <- jackknife_influence(jack[read[, s], s])
  L
}

boot_engine_data <- function(x) {
  if (is.null(x$engine)) boot_data(x$fit, x$resample) else x$engine
}

# Leave-one-unit-out coefficients (units x statistics), NULL for the two-way
# design; computed on first need and kept in the object's cache.
boot_jack_values <- function(x, threads = x$threads) {
  if (x$resample == "both") return(NULL)
  cache <- x$cache
  if (is.environment(cache) && !is.null(cache$jack)) return(cache$jack)
  jack <- boot_jackknife(boot_engine_data(x), x$units, x$resample, threads)
  colnames(jack) <- x$stats$name
  if (is.environment(cache)) cache$jack <- jack
  jack
}

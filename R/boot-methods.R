#' Tidy, glance at and convert a Multi-Label Agreement bootstrap
#'
#' `tidy()` returns the columns of [tidy.mla()] for the corpus or label level
#' plus `std.error` (standard deviation of the replicates), `conf.low` and
#' `conf.high` (see [confint.mla_boot()] for the interval types). Label rows
#' also carry `positive_agreement.std.error`, `positive_agreement.conf.low`,
#' `positive_agreement.conf.high` and the same for `negative_agreement`:
#' specific agreement over the same item draws (`NA` when annotators were
#' resampled). Percent agreement gets no bootstrap interval here; its
#' analytic one is in `tidy(x$fit)`. `glance()` returns one row describing
#' the bootstrap: `R`, `resample` (`"items"`, `"annotators"` or `"both"`),
#' `unit` (what was drawn: items or clusters), `n_units`, `n_strata`, `seed`
#' (the seed of the replicates, to repeat them), `baseline` (the primary
#' one), and its corpus `estimate` and `std.error`. `as_boot()` returns a
#' [boot::boot()] object (`t0`, `t`, `R`, a `statistic` that recomputes the
#' coefficients from resampled unit indices), so [boot::boot.ci()] and the
#' rest of that ecosystem work; for BCa pass the jackknife influence values
#' kept in `$mla_influence`, e.g.
#' `boot::boot.ci(b, type = "bca", index = 1, L = b$mla_influence[, 1])`.
#' Without `L`, `boot.ci()` estimates them by regression on
#' `boot::boot.array()`, which cannot rebuild this package's draws from
#' `seed` (R's generator is not the one used): the BCa limits are then
#' wrong, with warnings about `.Random.seed`.
#'
#' @param x An `mla_boot` object from [mla_boot()].
#' @param level `"corpus"` or `"label"` (item values get no intervals: they
#'   are diagnostics relative to the corpus baseline).
#' @param type Interval type: `"bca"` (default; `"perc"` for
#'   `resample = "both"`), `"perc"`, `"basic"` or `"norm"` (see
#'   [confint.mla_boot()]).
#' @inheritParams mla
#' @inheritParams tidy.mla
#' @return `tidy()`, `glance()`: tibbles. `as_boot()`: an object of class
#'   `boot`.
#' @family bootstrap
#' @export
#' @method tidy mla_boot
#' @examples
#' set.seed(1)
#' fit <- mla(simulate_annotations(60, 4, 3, prevalence = 0.3, scenario = "noisy"))
#' bs <- mla_boot(fit, R = 500)
#' tidy(bs)
#' tidy(bs, conf.level = 0.9, type = "basic")
#' glance(bs)
#' if (rlang::is_installed("boot")) {
#'   b <- as_boot(bs)
#'   boot::boot.ci(b, type = c("perc", "norm"), index = 1)
#' }
tidy.mla_boot <- function(x, level = c("corpus", "label"), conf.level = 0.95,
                          type = c("bca", "perc", "basic", "norm"), ...) {
  check_dots_empty0(...)
  if (identical(level, "item")) {
    mla_abort(c("{.arg level} must be {.val corpus} or {.val label}.",
                "x" = "Item values are diagnostics relative to the corpus baseline; they get no intervals."),
              class = "boot_level")
  }
  level <- check_choice(level, c("corpus", "label"))
  type <- boot_type(type, x)  # R/boot-ci.R
  check_conf_level(conf.level)
  rows <- which(x$stats$level == level)
  ci <- boot_ci_matrix(x, rows, conf.level, type)
  out <- tidy(x$fit, level = level, conf.int = FALSE)
  out$std.error <- boot_std_error(x, rows)
  out$conf.low <- ci[, 1]
  out$conf.high <- ci[, 2]
  if (level == "label") {
    shares <- boot_specific_columns(x, conf.level, type)  # R/share-inference.R
    out <- tibble::new_tibble(c(as.list(out), shares), nrow = nrow(out))
  }
  out
}

#' @rdname tidy.mla_boot
#' @method glance mla_boot
#' @export
glance.mla_boot <- function(x, ...) {
  check_dots_empty0(...)
  d <- x$design
  prim <- which(x$stats$level == "corpus" & x$stats$baseline == x$fit$baseline)
  tibble::tibble(
    R = x$R,
    resample = x$resample,
    unit = d$unit,
    n_units = d$n_units,
    n_strata = d$n_strata,
    seed = paste(x$seed, collapse = "-"),
    baseline = x$fit$baseline,
    estimate = unname(x$t0[prim]),
    std.error = boot_std_error(x, prim)
  )
}

# The bootstrap standard errors of statistics `idx`: the replicates' standard
# deviation (NA where the coefficient itself is undefined). No interval is
# computed, so none of the intervals' warnings arise.
boot_std_error <- function(x, idx) {
  se <- apply(interval_replicates(x, idx), 2, stats::sd, na.rm = TRUE)  # R/boot-ci-annotators.R
  se[is.na(x$t0[idx])] <- NA_real_
  unname(se)
}

#' @rdname tidy.mla_boot
#' @export
as_boot <- function(x) {
  rlang::check_installed("boot", reason = "to convert a bootstrap to a `boot` object.")
  check_inherits(x, "mla_boot", "mla_boot", class = "boot_object")
  statistic <- boot_index_statistic(x)
  n <- if (x$resample == "both") x$design$n_items else x$design$n_units
  strata <- if (x$resample == "items" && x$design$stratified) {
    u <- x$units
    s <- integer(u$n_units)
    for (h in seq_len(u$n_strata)) {
      idx <- seq.int(u$start[h] + 1L, length.out = u$start[h + 1L] - u$start[h])
      s[u$order[idx] + 1L] <- h
    }
    s
  } else {
    rep(1L, n)
  }
  L <- if (x$resample == "both") NULL else boot_jack_influence(x)  # R/boot-ci.R
  inform_na_replicates(x)
  structure(
    list(
      t0 = x$t0, t = unname(interval_replicates(x, seq_along(x$t0))), R = x$R,
      data = seq_len(n), seed = x$seed,
      statistic = statistic, sim = "ordinary", call = quote(mla_boot(fit)),
      stype = "i", strata = strata, weights = rep(1 / n, n),
      mla_influence = L
    ),
    class = "boot", boot_type = "boot"
  )
}

# boot::boot.ci() leaves non-finite replicates out without a word, as
# confint() does with a warning: say how many there are.
inform_na_replicates <- function(x) {
  bad <- colSums(!is.finite(x$t))
  if (!any(bad > 0)) return(invisible())
  which_bad <- paste0(x$stats$name[bad > 0], " (", bad[bad > 0], ")")
  cli::cli_inform(
    c("i" = "{sum(bad > 0)} statistic{?s} {?has/have} undefined ({.code NA}) replicates: {format_first(which_bad)}.",
      " " = "{.fn boot::boot.ci} leaves them out without a word; {.fn confint} and {.fn tidy} warn."),
    class = "mlagreement_message_boot_na"
  )
}

# statistic(data, i) for boot: i are resampled unit indices.
boot_index_statistic <- function(x) {
  data <- boot_engine_data(x)
  u <- x$units
  resample <- x$resample
  function(d, i) {
    if (resample == "items") {
      n <- u$n_units
      uw <- tabulate(i, n)
      w <- if (length(u$unit_of_item)) uw[u$unit_of_item + 1L] else uw
      drop(boot_stats_items_cpp(data$x, data$m, data$max_m, matrix(as.integer(w)),
                                isTRUE(data$single_label), data$structure))
    } else if (resample == "annotators") {
      aw <- matrix(tabulate(i, data$n_annotators))
      drop(boot_records_statistic(data, aw))
    } else {
      mla_abort("A two-way bootstrap has no single index statistic.", class = "boot_statistic")
    }
  }
}

#' @export
format.mla_boot <- function(x, ...) {
  check_dots_empty0(...)
  d <- x$design
  prim <- which(x$stats$level == "corpus" & x$stats$baseline == x$fit$baseline)
  type <- boot_type(c("bca", "perc", "basic", "norm"), x)
  ci <- suppressWarnings(boot_ci_matrix(x, which(x$stats$level == "corpus"), 0.95, type))
  cor <- x$stats$level == "corpus"
  se <- apply(x$t[, cor, drop = FALSE], 2, stats::sd, na.rm = TRUE)
  lines <- paste0(baseline_label(x$stats$baseline[cor]), ": ", format_fixed(x$t0[cor]),
                  " (SE ", format_fixed(se), ", 95% ", if (type == "bca") "BCa" else "percentile",
                  " CI ", format_fixed(ci[, 1]), " to ",
                  format_fixed(ci[, 2]), ")")
  cli::cli_format_method({
    cli::cli_rule(left = "Multi-Label Agreement bootstrap")
    cli::cli_text("{x$R} replicates resampling {d$what} ({d$n_units} unit{?s}",
                  if (d$n_strata > 1) ", {d$n_strata} strata" else "", "); seed ",
                  "{paste(x$seed, collapse = '-')}")
    cli::cli_text("Primary: {lines[prim]}")
    cli::cli_text("Sensitivity: {paste(lines[-prim], collapse = '; ')}")
  })
}

#' @export
print.mla_boot <- function(x, ...) {
  check_dots_empty0(...)
  cat(format(x), sep = "\n")
  invisible(x)
}

# `boot` must be a bootstrap of `fit`: the same labels, primary baseline,
# design counts and corpus values (cheap, and different for another data set,
# label subset or baseline).
check_boot_of_fit <- function(boot, fit, arg = "boot", fit_arg = "fit",
                              call = rlang::caller_env()) {
  b <- boot$fit
  if (!inherits(b, "mla")) {
    mla_abort("{.arg {arg}} must be an {.cls mla_boot} from {.code mla_boot()}, with its fit.",
              class = "boot_mismatch", call = call)
  }
  counts <- c("n_items", "n_annotators", "n_records")
  differs <- c(
    labels = !identical(as.character(b$labels), as.character(fit$labels)),
    baseline = !identical(b$baseline, fit$baseline),
    design = !identical(as.double(unlist(b$design[counts])), as.double(unlist(fit$design[counts]))),
    values = !isTRUE(all.equal(b$corpus[c("observed", "expected")], fit$corpus[c("observed", "expected")],
                               check.attributes = FALSE, tolerance = 1e-12))
  )
  if (!any(differs)) return(invisible())
  what <- switch(
    names(differs)[differs][1],
    labels = "Its fit has {length(b$labels)} label{?s} ({format_first(b$labels)}), {.arg {fit_arg}} {length(fit$labels)} ({format_first(fit$labels)}).",
    baseline = "Its fit has primary baseline {.val {b$baseline}}, {.arg {fit_arg}} {.val {fit$baseline}}.",
    design = "Its fit has {b$design$n_items} item{?s}, {b$design$n_annotators} annotator{?s} and {b$design$n_records} record{?s}; {.arg {fit_arg}} {fit$design$n_items}, {fit$design$n_annotators} and {fit$design$n_records}.",
    values = "Its fit has other observed or chance agreement than {.arg {fit_arg}}: it was fitted on other data."
  )
  mla_abort(c("{.arg {arg}} must be a bootstrap of {.arg {fit_arg}} ({.code mla_boot({fit_arg})}).",
              "x" = what),
            class = "boot_mismatch", call = call)
}

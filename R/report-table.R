#' Tables for a reliability report
#'
#' The two tables that the reporting recommendations of Menzner and Leidner
#' (2026, section 5) ask for, with readable column names and every value
#' rounded to `digits` decimals, ready for [knitr::kable()] or `print()`:
#'
#' * `"baselines"`: one row per baseline, the primary first (recommendation
#'   3: a pre-specified chance model, the others a sensitivity analysis):
#'   observed agreement \eqn{A_o}, chance agreement \eqn{A_e}, the
#'   coefficient, its conditional floor (eq. 7) where defined, its
#'   standard error and confidence interval (recommendation 5).
#' * `"labels"`: one row per label of the declared universe, in its order,
#'   under the primary baseline (recommendation 4): prevalence, observed
#'   agreement, coefficient and interval, eq. 6 weight, floor (multi-label
#'   designs), and positive and negative specific agreement.
#'
#' Intervals are those of `boot` ([tidy.mla_boot()], its default interval
#' type) when it is given, else the analytic ones of [tidy.mla()] (Gwet's
#' linearisation over items, annotators fixed).
#'
#' Values are rounded here, once: a value that rounds to zero is printed as
#' 0, never as `-0.000` or in scientific notation, and `format()` gives every
#' number of the table the same decimals. In an R Markdown chunk the table
#' prints as a `knitr::kable()` table.
#' Cost: rounding and arranging the fit's tables (and `boot`'s intervals); no
#' data are read.
#'
#' @inheritParams mla_boot
#' @param level `"baselines"` or `"labels"`.
#' @param boot `NULL` or an `mla_boot` object of `fit` from [mla_boot()]
#'   (`mla_boot(fit)`); a bootstrap of another fit (other data, labels or
#'   primary baseline) is refused.
#' @inheritParams tidy.mla
#' @param digits Decimals of every value.
#' @param x An `mla_report_table`.
#' @param ... Passed on to [print.data.frame()] (`print()`), ignored by
#'   `format()`.
#' @return A data frame of class `mla_report_table` (numbers rounded to
#'   `digits`); `format()` returns it as text with fixed decimals.
#' @export
#' @examples
#' fit <- mla(annotations_long(bias_example, item, annotator, label, value))
#' report_table(fit)
#' head(report_table(fit, "labels"))
#' if (rlang::is_installed("knitr")) knitr::kable(format(report_table(fit)))
report_table <- function(fit, level = c("baselines", "labels"), boot = NULL,
                         conf.level = 0.95, digits = 3) {
  check_inherits(fit, "mla", "mla")
  level <- check_choice(level, c("baselines", "labels"))
  if (!is.null(boot)) {
    check_inherits(boot, "mla_boot", "mla_boot")
    check_boot_of_fit(boot, fit)  # R/boot-methods.R
  }
  check_conf_level(conf.level)
  digits <- check_whole(digits, min = 0, max = 10)
  single <- is_single_label_fit(fit)
  ci_name <- paste0(format(100 * conf.level), "% CI ", c("lower", "upper"))
  tab <- if (level == "baselines") {
    report_baselines(fit, boot, conf.level, single)
  } else {
    report_labels(fit, boot, conf.level, single)
  }
  names(tab)[names(tab) %in% c("conf.low", "conf.high")] <- ci_name
  numeric <- vapply(tab, is.double, TRUE)
  tab[numeric] <- lapply(tab[numeric], round_report, digits = digits)
  structure(tab, class = c("mla_report_table", "data.frame"), digits = digits,
            row.names = seq_len(nrow(tab)))
}

report_baselines <- function(fit, boot, conf.level, single) {
  cor <- generics::tidy(fit, conf.level = conf.level)
  cor <- cor[order(cor$baseline != fit$baseline), ]
  ci <- report_intervals(cor, boot, "corpus", conf.level, "baseline")
  out <- data.frame(
    Baseline = unname(baseline_label(cor$baseline, single)),
    Role = ifelse(cor$baseline == fit$baseline, "primary", "sensitivity"),
    `Observed agreement` = cor$observed, `Chance agreement` = cor$expected,
    Coefficient = cor$estimate, check.names = FALSE, stringsAsFactors = FALSE
  )
  if (!all(is.na(cor$floor))) out$Floor <- cor$floor
  cbind(out, ci)[c(names(out), "Standard error", "conf.low", "conf.high")]
}

report_labels <- function(fit, boot, conf.level, single) {
  lab <- generics::tidy(fit, level = "label", conf.level = conf.level, baseline = fit$baseline)
  lab <- lab[order(match(lab$label, fit$labels)), ]
  ci <- report_intervals(lab, boot, "label", conf.level, "label")
  out <- data.frame(Label = as.character(lab$label), Prevalence = lab$prevalence,
                    `Observed agreement` = lab$observed, Coefficient = lab$estimate,
                    check.names = FALSE, stringsAsFactors = FALSE)
  if (single) names(out)[1] <- "Category"
  out <- cbind(out, ci[c("conf.low", "conf.high")])
  out$`Weight (eq. 6)` <- lab$weight
  if (!single) out$Floor <- lab$floor
  out$`Positive agreement` <- lab$positive_agreement
  out$`Negative agreement` <- lab$negative_agreement
  out
}

# conf.low / conf.high for the rows of `tab`: the bootstrap's when given, else
# the analytic ones.
report_intervals <- function(tab, boot, level, conf.level, key) {
  if (!is.null(boot)) {
    ci <- suppressWarnings(generics::tidy(boot, level = level, conf.level = conf.level))
    tab <- tab[c(key, "baseline")]
    at <- match(paste(tab[[key]], tab$baseline), paste(ci[[key]], ci$baseline))
    tab[c("std.error", "conf.low", "conf.high")] <- ci[at, c("std.error", "conf.low", "conf.high")]
  }
  data.frame(`Standard error` = tab$std.error, conf.low = tab$conf.low,
             conf.high = tab$conf.high, check.names = FALSE)
}

# Rounded to `digits`; + 0 turns a negative zero into 0.
round_report <- function(x, digits) round(x, digits) + 0

#' @rdname report_table
#' @export
format.mla_report_table <- function(x, ...) {
  digits <- attr(x, "digits")
  if (is.null(digits)) digits <- 3L
  out <- as.data.frame(unclass(x), check.names = FALSE, stringsAsFactors = FALSE)
  numeric <- vapply(out, is.double, TRUE)
  out[numeric] <- lapply(out[numeric], format_fixed, digits = digits)
  out
}

# Rows and columns of a report table stay a report table.
#' @export
`[.mla_report_table` <- function(x, ...) {
  out <- NextMethod()
  if (!is.data.frame(out)) return(out)
  structure(out, class = class(x), digits = attr(x, "digits"))
}

#' @rdname report_table
#' @export
print.mla_report_table <- function(x, ...) {
  out <- format(x)
  # text left, numbers right
  text <- !vapply(x, is.numeric, TRUE)
  out[text] <- lapply(names(out)[text], function(nm) {
    format(c(nm, out[[nm]]))[-1L]
  })
  print(out, right = TRUE, row.names = FALSE, ...)
  invisible(x)
}

# In R Markdown: a kable() table, numbers right-aligned.
#' @exportS3Method knitr::knit_print
knit_print.mla_report_table <- function(x, ...) {
  align <- ifelse(vapply(x, is.numeric, TRUE), "r", "l")
  knitr::knit_print(knitr::kable(format(x), align = align), ...)
}

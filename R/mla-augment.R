#' Item-level diagnostics of a Multi-Label Agreement fit
#'
#' `augment()` returns one row per item, ready to join back to the user's own
#' item table: the item's number of annotators, its observed agreement
#' \eqn{A_{o,i}} and its coefficient against each corpus baseline (the
#' wide form of `tidy(fit, level = "item")`). Item values are diagnostics
#' relative to the corpus baseline, not reliability estimates of their own
#' (paper section 3.2).
#'
#' @param x An `mla` object.
#' @param data Optional data frame with an `item` column. Its rows are kept,
#'   in their order, and the diagnostics are added by item id (`NA` for items
#'   the fit does not have). Its other columns must not be named like the
#'   diagnostics added (an error of class `mlagreement_error_augment_data`).
#' @inheritParams mla
#' @return A tibble: `item`, `n_annotators`, `observed`, and `.estimate_fleiss`,
#'   `.estimate_ac1`, `.estimate_pabak`, and `.estimate_conger` for a fit with
#'   `baseline = "conger"`; with `data`, its columns followed by these
#'   (without a second `item`).
#' @export
#' @examples
#' fit <- mla(annotations_long(bias_example, item, annotator, label, value))
#' augment(fit)
#' augment(fit, data = data.frame(item = c(3, 1), source = c("news", "blog")))
#' @method augment mla
augment.mla <- function(x, data = NULL, ...) {
  check_dots_empty0(...)
  items <- item_table(x)
  n <- nrow(items) / length(x$corpus_w)
  out <- tibble::tibble(item = items$item[seq_len(n)],
                        n_annotators = items$n_annotators[seq_len(n)],
                        observed = items$observed[seq_len(n)])
  # the pooled baselines, and conger when the fit has its item rows
  for (b in c(baseline_names, if (has_conger(x)) "conger")) {
    out[[paste0(".estimate_", b)]] <- items$estimate[items$baseline == b]
  }
  if (is.null(data)) return(out)
  check_data_frame(data)
  if (!"item" %in% names(data)) {
    mla_abort(c("{.arg data} must have an {.field item} column to join on.",
                "x" = "Its columns are {.val {names(data)}}."),
              class = "augment_data")
  }
  clash <- intersect(names(data), names(out)[-1L])
  if (length(clash) > 0) {
    mla_abort(c("{.arg data} must not have columns named like the diagnostics {.fn augment} adds.",
                "x" = "{cli::qty(length(clash))}Column{?s} {.field {clash}} {?is/are} in both.",
                "i" = "Rename {cli::qty(length(clash))}{?it/them} in {.arg data} first."),
              class = "augment_data")
  }
  at <- match_values(data$item, out$item)
  tibble::as_tibble(cbind(as.data.frame(data), as.data.frame(out[at, -1L])))
}

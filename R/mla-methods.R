#' Tidy and glance at a Multi-Label Agreement fit
#'
#' `tidy()` returns one tibble per level, `glance()` a one-row summary.
#'
#' Columns by level:
#' * `"corpus"`: `baseline`, `observed` (\eqn{A_o}), `expected` (\eqn{A_e}),
#'   `estimate` (\eqn{A_{ml}}), `floor_observed` (\eqn{A_{o,min}}), `floor`
#'   (normalised floor, eq. 7). One row per baseline.
#' * `"label"`: `label`, `baseline`, `prevalence` (\eqn{p_j}), `observed`,
#'   `expected`, `estimate` (label coefficient), `weight` (eq. 6 weight,
#'   normalised to sum to 1 over labels), `floor` (normalised label floor),
#'   `positive_agreement`, `negative_agreement` (specific agreement).
#' * `"item"`: `item`, `n_annotators`, `baseline`, `observed` (\eqn{A_{o,i}}),
#'   `estimate`. Item values are diagnostics relative to the corpus baseline,
#'   not reliability estimates of their own (paper section 3.2).
#'
#' @param x An `mla` object.
#' @param level `"corpus"`, `"label"` or `"item"`.
#' @param ... Must be empty.
#' @return A tibble.
#' @export
#' @examples
#' fit <- mla(annotations_long(bias_example, item, annotator, label, value))
#' tidy(fit)
#' tidy(fit, level = "item")
#' glance(fit)
#' @method tidy mla
tidy.mla <- function(x, level = c("corpus", "label", "item"), ...) {
  check_dots_empty0(...)
  level <- check_choice(level, c("corpus", "label", "item"))
  switch(level, corpus = x$corpus, label = x$label, item = item_table(x))
}

#' @rdname tidy.mla
#' @method glance mla
#' @export
glance.mla <- function(x, ...) {
  check_dots_empty0(...)
  d <- x$design
  primary <- x$corpus[x$corpus$baseline == x$baseline, ]
  tibble::tibble(
    n_items = d$n_items,
    n_annotators = d$n_annotators,
    n_labels = d$n_labels,
    n_records = d$n_records,
    missing_share = d$missing_share,
    prevalence = d$prevalence,
    observed = primary$observed,
    baseline = x$baseline,
    estimate = primary$estimate
  )
}


#' @export
format.mla <- function(x, ...) {
  d <- x$design
  cor <- x$corpus
  prim <- cor[cor$baseline == x$baseline, ]
  others <- cor[cor$baseline != x$baseline, ]
  per_item <- annotators_per_item_text(d)
  cli::cli_format_method({
    cli::cli_rule(left = "Multi-Label Agreement")
    cli::cli_text("Design: {d$n_items} item{?s}, {d$n_annotators} annotator{?s} ({per_item}), ",
                  "{d$n_labels} label{?s}, {count_noun(d$n_records, 'record')}, ",
                  "{format_percent(d$missing_share)} missing")
    cli::cli_text("Label universe: {d$n_labels} declared, ",
                  "{length(d$never_selected)} never selected; raw prevalence ",
                  "p_r = {format_fixed(d$prevalence)}")
    cli::cli_text("Primary, {baseline_label(x$baseline)}: {.strong A_ml = {format_fixed(prim$estimate)}} ",
                  "(A_o = {format_fixed(prim$observed)}, A_e = {format_fixed(prim$expected)})")
    cli::cli_text("Sensitivity: ", paste0(
      baseline_label(others$baseline), " ", format_fixed(others$estimate),
      " (A_e = ", format_fixed(others$expected), ")", collapse = "; "))
    cli::cli_text("Conditional floor: A_o,min = {format_fixed(prim$floor_observed)}; normalised ",
                  paste0(baseline_short(cor$baseline), " ", format_fixed(cor$floor), collapse = ", "))
    if (nrow(x$notes) > 0) {
      cli::cli_text("{nrow(x$notes)} undefined value{?s} ({.code NA}); see {.code summary()}.")
    }
  })
}

#' @export
print.mla <- function(x, ...) {
  cat(format(x, ...), sep = "\n")
  invisible(x)
}

#' @export
summary.mla <- function(object, ...) {
  check_dots_empty0(...)
  structure(
    list(fit = object,
         labels = object$label[object$label$baseline == object$baseline, ],
         notes = object$notes),
    class = "summary.mla"
  )
}

#' @export
print.summary.mla <- function(x, ...) {
  print(x$fit)
  cat("\nLabels under the primary baseline:\n")
  print(x$labels, n = Inf)
  if (nrow(x$notes) > 0) {
    cat("\nUndefined values (NA):\n")
    groups <- split(x$notes, paste(x$notes$level, x$notes$baseline, x$notes$reason, sep = "\r"))
    for (g in groups) {
      where <- if (g$level[1] == "corpus") "corpus" else paste0("label", if (nrow(g) > 1) "s", " ", format_first(g$label, 8))
      cat("* ", g$baseline[1], ", ", where, ": ", g$reason[1], "\n", sep = "")
    }
  }
  invisible(x)
}

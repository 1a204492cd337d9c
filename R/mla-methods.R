#' Tidy and glance at a Multi-Label Agreement fit
#'
#' `tidy()` returns one tibble per level, `glance()` a one-row summary.
#'
#' Columns by level:
#' * `"corpus"`: `term` (the baseline, for broom-consuming code such as
#'   `rsample::int_pctl()`), `baseline`, `observed` (\eqn{A_o}), `expected` (\eqn{A_e}),
#'   `estimate` (\eqn{A_{ml}}), `floor_observed` (\eqn{A_{o,min}}), `floor`
#'   (normalised floor, eq. 7). One row per baseline.
#' * `"label"`: `term` (`"<label>:<baseline>"`, the names of
#'   [mla_boot()]'s statistics), `label`, `baseline`, `prevalence` (\eqn{p_j}), `observed`,
#'   `expected`, `estimate` (label coefficient), `weight` (eq. 6 weight,
#'   normalised to sum to 1 over labels), `floor` (normalised label floor),
#'   `positive_agreement`, `negative_agreement` (specific agreement).
#' * corpus and label levels with `conf.int = TRUE`: also `std.error`,
#'   `statistic`, `p.value`, `conf.low`, `conf.high` (analytic, see below),
#'   and `observed.std.error`, `observed.conf.low`, `observed.conf.high` for
#'   percent agreement; label rows also `positive_agreement.std.error`,
#'   `positive_agreement.conf.low`, `positive_agreement.conf.high` and the
#'   same for `negative_agreement`.
#' * corpus and label levels: `note`, why a value is `NA` (the reasons
#'   `summary()` lists), rests on too little information or has no interval;
#'   `NA` where there is nothing to say.
#' * `glance()`: `n_items`, `n_annotators`, `n_labels`, `n_records`
#'   (item x annotator records with a decision), `missing_share` (share of
#'   the decisions the stored records should carry that are missing),
#'   `prevalence` (mean label prevalence \eqn{p_j}), `observed`,
#'   `baseline`, `estimate` (the primary baseline's corpus row), `design`
#'   (`"multi-label"`, `"single-label"` or the label structure), `coverage`
#'   (share of the item x annotator grid with a record with a decision),
#'   `n_unassigned` (grid cells without a record), `n_empty_records`
#'   (records without any decision), `n_missing_decisions` (missing decisions
#'   inside records), `pooled_prevalence` (share of positive decisions),
#'   `n_pairable_items` (items with at least two annotators: the items that
#'   enter observed agreement \eqn{A_o}; the others have no pair to compare).
#'   The counts of records, cells and annotators describe the annotations
#'   object, also under `mla(labels = )`: a record with decisions only on
#'   other labels counts as a record missing its decisions on the analysed
#'   ones, and an item whose second record decides only other labels counts
#'   as pairable while its item agreement is `NA`.
#' * `"item"`: `item`, `n_annotators`, `baseline`, `observed` (\eqn{A_{o,i}}),
#'   `estimate`. Item values are diagnostics relative to the corpus baseline,
#'   not reliability estimates of their own (paper section 3.2).
#'
#' @param x An `mla` object.
#' @param level `"corpus"`, `"label"` or `"item"`.
#' @param baseline `NULL` (every baseline) or one of `"fleiss"`, `"ac1"`,
#'   `"pabak"` (and `"conger"` for `mla(baseline = "conger")`): only that baseline's rows, so that `level = "item"` gives one
#'   row per item.
#' @inheritParams mla
#' @return A tibble.
#' @export
#' @examples
#' fit <- mla(annotations_long(bias_example, item, annotator, label, value))
#' tidy(fit)
#' tidy(fit, level = "item")
#' glance(fit)
#' @method tidy mla
tidy.mla <- function(x, level = c("corpus", "label", "item"), conf.int = TRUE,
                     conf.level = 0.95, N = Inf, annotators = c("fixed", "random"), ...,
                     baseline = NULL) {
  check_dots_empty0(...)
  level <- check_choice(level, c("corpus", "label", "item"))
  annotators <- check_choice(annotators, c("fixed", "random"))
  check_bool(conf.int)
  check_conf_level(conf.level)
  N <- check_population(N, x$design$n_items)
  if (!is.null(baseline)) baseline <- check_fit_baseline(baseline, x)  # R/conger.R
  if (level == "item") {
    items <- item_table(x)
    # one row per item: the easy path to a table for a paper
    if (!is.null(baseline)) items <- items[items$baseline == baseline, , drop = FALSE]
    return(items)
  }
  out <- switch(level, corpus = x$corpus, label = x$label)
  out$note <- notes_in_rows(out, x$notes, level)  # R/mla-result.R
  term <- if (level == "corpus") out$baseline else paste0(out$label, ":", out$baseline)
  out <- tibble::add_column(out, term = term, .before = 1L)
  if (conf.int) {
    inputs <- influence_inputs_once(x, mla_threads())  # R/analytic-se.R
    cols <- analytic_inference(x, level, conf.level, N, annotators, inputs = inputs,
                               call = rlang::current_env())
    out$note <- zero_se_note(out$note, cols$std.error)
    shares <- share_inference(x, level, conf.level, N, inputs = inputs)  # R/share-inference.R
    # one new tibble: each column assignment would validate the whole frame
    out <- tibble::new_tibble(c(as.list(out), cols, shares), nrow = nrow(out))
  }
  if (is.null(baseline)) out else out[out$baseline == baseline, , drop = FALSE]
}

# The reason a row with a standard error of 0 has no interval, added to its note.
zero_se_note <- function(note, se) {
  why <- "standard error 0 (every item's influence term equals the estimate): no interval"
  append_note(note, ifelse(se == 0 & !is.na(se), why, NA_character_))  # R/mla-result.R
}

#' @rdname tidy.mla
#' @method glance mla
#' @export
glance.mla <- function(x, ...) {
  check_dots_empty0(...)
  d <- x$design
  primary <- x$corpus[x$corpus$baseline == x$baseline, ]
  counts <- d$counts
  tibble::tibble(
    n_items = d$n_items,
    n_annotators = d$n_annotators,
    n_labels = d$n_labels,
    n_records = d$n_records,
    missing_share = d$missing_share,
    prevalence = d$prevalence,
    observed = primary$observed,
    baseline = x$baseline,
    estimate = primary$estimate,
    design = if (!is.null(x$structure)) structure_text(x$structure) else if (is_single_label_fit(x)) "single-label" else "multi-label",
    coverage = d$coverage,
    n_unassigned = counts$n_unassigned,
    n_empty_records = counts$n_empty_records,
    n_missing_decisions = counts$n_missing_decisions,
    pooled_prevalence = d$pooled_prevalence,
    n_pairable_items = as.integer(d$n_pairable_items)
  )
}


#' @export
format.mla <- function(x, ..., digits = 4L) {
  check_dots_empty0(...)
  digits <- check_whole(digits, min = 0, max = 15)
  d <- x$design
  single <- is_single_label_fit(x)
  cli::cli_format_method({
    cli::cli_rule(left = if (single) "Single-label agreement" else "Multi-Label Agreement")
    cli::cli_text("Design: {d$n_items} item{?s}, {d$n_annotators} annotator{?s} ",
                  "({annotators_per_item_text(d)}), ",
                  "{count_noun(d$n_labels, if (single) 'category' else 'label')}")
    for (line in format_design_counts(d$counts)) cli::cli_text(line)
    unpaired <- unpaired_items_text(d)
    if (!is.null(unpaired)) cli::cli_text(unpaired)
    if (!is.null(d$categories_of)) {
      scope <- category_indicator_scope(d$n_labels, d$categories_of, !is.null(x$structure))
      cli::cli_text("Single-label data{scope}, ",
                    "as category-versus-rest labels (not a single-label coefficient)")
    }
    # group names are the user's: substituted, so cli never reads them as markup
    if (!is.null(x$structure)) cli::cli_text("Distance: {structure_text(x$structure)}")
    cli::cli_text(prevalence_text(d, single, digits))
    format_mla_estimates(x, single, digits)
    if (length(d$sparse_labels) > 0) {
      cli::cli_text("Too little information (no item with two positive, or two negative, ",
                    "decisions): {.val {utils::head(d$sparse_labels, 5)}}; see {.code note} in {.code tidy()}.")
    }
    n_undefined <- sum(!is.na(x$notes$baseline))
    if (n_undefined > 0) {
      cli::cli_text("{n_undefined} undefined value{?s} ({.code NA}); see {.code summary()}.")
    }
  })
}

# Items with fewer than two records have no pair of annotations: said when
# some are left out of observed agreement, since A_o rests on the others.
unpaired_items_text <- function(d) {
  if (is.null(d$n_pairable_items)) return(NULL)
  n_out <- d$n_items - d$n_pairable_items
  if (n_out <= 0) return(NULL)
  paste0(format_count(n_out), " of ", format_count(d$n_items), " items ",
         if (n_out == 1) "has" else "have",
         " fewer than 2 annotators and ", if (n_out == 1) "does" else "do", " not enter A_o")
}

prevalence_text <- function(d, single, digits = 4L) {
  if (single) {
    return(paste0("Categories: ", d$n_labels, " declared, ", length(d$never_selected), " never used"))
  }
  pooled <- if (format_fixed(d$pooled_prevalence, digits) != format_fixed(d$prevalence, digits)) {
    paste0(" (share of positive decisions ", format_fixed(d$pooled_prevalence, digits), ")")
  } else {
    ""
  }
  paste0("Label universe: ", d$n_labels, " declared, ", length(d$never_selected),
         " never selected; mean label prevalence p = ", format_fixed(d$prevalence, digits), pooled)
}

format_mla_estimates <- function(x, single, digits = 4L) {
  fixed <- function(v) format_fixed(v, digits)
  cor <- x$corpus
  prim <- cor[cor$baseline == x$baseline, ]
  others <- cor[cor$baseline != x$baseline, ]
  name <- if (single) "estimate" else "A_ml"
  cli::cli_text("Primary, {baseline_label(x$baseline, single)}: ",
                "{.strong {name} = {fixed(prim$estimate)}} ",
                "(A_o = {fixed(prim$observed)}, A_e = {fixed(prim$expected)})")
  cli::cli_text("Sensitivity: ", paste0(
    baseline_label(others$baseline, single), " ", fixed(others$estimate),
    " (A_e = ", fixed(others$expected), ")", collapse = "; "))
  if (single) {
    alpha <- x$single_label$alpha
    cli::cli_text("Krippendorff's alpha (nominal): {fixed(alpha)}; ",
                  "label rows of {.code tidy()} are category-versus-rest coefficients")
  }
  if (is.na(prim$floor_observed)) {
    cli::cli_text("Conditional floor (eq. 7): undefined for this design")
  } else {
    cli::cli_text("Conditional floor: A_o,min = {fixed(prim$floor_observed)}; normalised ",
                  paste0(baseline_short(cor$baseline), " ", fixed(cor$floor), collapse = ", "))
  }
}

#' @export
print.mla <- function(x, ..., digits = 4L) {
  check_dots_empty0(...)
  cat(format(x, digits = digits), sep = "\n")
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
print.summary.mla <- function(x, ..., digits = 4L) {
  check_dots_empty0(...)
  print(x$fit, digits = digits)
  cat("\nLabels under the primary baseline:\n")
  print(x$labels, n = Inf)
  # notes without a baseline describe the analysis, not an undefined value
  general <- is.na(x$notes$baseline)
  print_summary_notes(x$notes[!general, , drop = FALSE], "Undefined values (NA):")
  print_summary_notes(x$notes[general, , drop = FALSE], "Notes:")
  invisible(x)
}

print_summary_notes <- function(notes, title) {
  if (nrow(notes) == 0L) return(invisible())
  cat("\n", title, "\n", sep = "")
  groups <- split(notes, paste(notes$level, notes$baseline, notes$reason, sep = "\r"))
  for (g in groups) {
    where <- if (g$level[1] == "corpus") "corpus" else if (all(is.na(g$label))) "labels" else
      paste0("label", if (nrow(g) > 1) "s", " ", format_first(g$label, 8))
    cat("* ", if (!is.na(g$baseline[1])) paste0(g$baseline[1], ", "), where, ": ", g$reason[1], "\n", sep = "")
  }
}

#' Analytic confidence intervals of a Multi-Label Agreement fit
#'
#' The t intervals of [tidy()][tidy.mla] with `conf.int = TRUE` (Gwet's
#' linearisation over items) as a matrix, like [stats::confint()]. For
#' bootstrap intervals use [mla_boot()] and [confint()][confint.mla_boot];
#' the statistics have the same names.
#'
#' @param object An `mla` object from [mla()].
#' @param parm Statistics: the corpus coefficients by baseline (`"fleiss"`,
#'   `"ac1"`, ...) and the label coefficients as `"<label>:<baseline>"`
#'   (the `term` column of `tidy()`), or their positions in that order; all
#'   by default.
#' @param level Confidence level.
#' @inheritParams mla
#' @return A matrix with one row per statistic and columns for the lower and
#'   upper limits, the same numbers as `conf.low` and `conf.high` of `tidy()`.
#' @seealso [tidy.mla()] for the standard errors, tests and the other columns.
#' @export
#' @examples
#' fit <- mla(annotations_long(bias_example, item, annotator, label, value))
#' confint(fit)
#' confint(fit, "fleiss", level = 0.9)
confint.mla <- function(object, parm, level = 0.95, ...) {
  check_dots_empty0(...)
  check_conf_level(level)
  corpus_terms <- object$corpus$baseline
  label_terms <- paste0(object$label$label, ":", object$label$baseline)
  terms <- c(corpus_terms, label_terms)
  idx <- if (missing(parm) || is.null(parm)) seq_along(terms) else mla_parm(parm, terms)
  # the label rows cost another pass over the counts: only when asked for
  levels <- c("corpus", if (any(idx > length(corpus_terms))) "label")
  rows <- do.call(rbind, lapply(levels, function(lv) {
    out <- generics::tidy(object, level = lv, conf.int = TRUE, conf.level = level)
    out[c("term", "conf.low", "conf.high")]
  }))
  at <- match(terms[idx], rows$term)
  pct <- paste(format(100 * c((1 - level) / 2, (1 + level) / 2), trim = TRUE,
                      scientific = FALSE, digits = 3), "%")
  matrix(c(rows$conf.low[at], rows$conf.high[at]), ncol = 2L,
         dimnames = list(terms[idx], pct))
}

mla_parm <- function(parm, terms, call = rlang::caller_env()) {
  if (is.character(parm) && !anyNA(parm)) {
    idx <- match(parm, terms)
    if (anyNA(idx)) {
      mla_abort(c("{.arg parm} must name statistics of the fit.",
                  "x" = "Unknown: {format_first(parm[is.na(idx)])}.",
                  "i" = "Names are {format_first(terms)}."),
                class = "parm", call = call)
    }
    return(idx)
  }
  if (is.numeric(parm) && length(parm) > 0L && !anyNA(parm) &&
      all(parm >= 1 & parm <= length(terms) & parm == trunc(parm))) {
    return(as.integer(parm))
  }
  mla_abort(c("{.arg parm} must be statistic names or positions between 1 and {length(terms)}.",
              "x" = "It is {.obj_type_friendly {parm}}."),
            class = "parm", call = call)
}

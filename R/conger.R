# The annotator-specific baseline "conger" (conger.h), computed when
# mla(baseline = "conger") asks and added beside the three baselines. Point
# estimates need the annotator x label tallies; standard errors and replicates
# need each record's decision.

#' @rdname mla
#' @section Annotator-specific chance (`baseline = "conger"`):
#' The three default baselines pool the annotators' marginals (or use none),
#' as the paper does on purpose (section 6). `baseline = "conger"` adds rows
#' with chance agreement from each annotator's own marginal, Conger's (1980)
#' generalisation of Cohen's kappa, in Gwet's unequal-raters form under
#' missing decisions (irrCAC's `conger.kappa.raw()`). For label \eqn{j} let
#' \eqn{p_{gj}} be annotator \eqn{g}'s share of positive decisions among its
#' own decisions on the label, over the \eqn{r_j} annotators with a decision
#' on it, and \eqn{q_{gj} = 1 - p_{gj}}. Chance agreement is the mean over
#' ordered pairs of distinct annotators of the agreement of two independent
#' draws from their marginals:
#' \deqn{1 - A^{(C)}_{e,j} = \frac{1}{r_j (r_j - 1)} \sum_{g \ne h}
#'   (p_{gj} q_{hj} + q_{gj} p_{hj}).}
#' Observed agreement is that of the other baselines. The corpus value uses
#' the same construction as the other baselines: \eqn{A_e} is the mean over
#' the labels with a pairable item of \eqn{A^{(C)}_{e,j}}, so with
#' \eqn{D_j = 1 - A_{o,j}} and \eqn{W_j = 1 - A^{(C)}_{e,j}}
#' \deqn{A^{(C)}_{ml} = \frac{A_o - A_e}{1 - A_e} = \frac{\sum_j (W_j - D_j)}{\sum_j W_j}
#'   = \sum_j \frac{W_j}{\sum_l W_l} \left(1 - \frac{D_j}{W_j}\right)
#'   = \sum_j \omega_j A^{(C)}_j,}
#' eq. 6 with weights \eqn{\omega_j} proportional to the label's
#' annotator-specific chance disagreement (the `weight` column of its label
#' rows). On a single-label design the corpus row is Conger's kappa for
#' \eqn{q} categories, \eqn{p_e = \sum_{k,l} w_{kl} \frac{1}{r(r-1)}
#' \sum_{g \ne h} p_{gk} p_{hl}}, with the category weights of `weights`
#' (Cohen's weighted kappa for two annotators). Its standard errors
#' (`tidy(conf.int = TRUE)`) are Gwet's linearisation (irrCAC's `coeff.se`;
#' the corpus row combines the labels' terms as for the other baselines) and
#' [mla_boot()] resamples items for it; item rows compare each item's
#' agreement with this corpus chance term. It is computed only when asked
#' for: it needs the records (an [annotation_counts()] summary raises an
#' error of class `mlagreement_error_needs_records`), and the other tables
#' keep their shape. Annotators without a decision on a label
#' do not enter its chance term.
#' @references
#' Conger, A. J. (1980). Integration and generalization of kappas for
#' multiple raters. *Psychological Bulletin*, 88(2), 322-328.
#' \doi{10.1037/0033-2909.88.2.322}
#' @name mla
NULL

# Adds the conger corpus and label rows (and notes) to a fit on the records.
add_conger <- function(fit, x, cols, tally, call = rlang::caller_env()) {
  tallies <- conger_tallies_cpp(annotation_view(x, cols))
  est <- conger_estimates_cpp(tally$cnt, tally$sx, tally$sdis, tallies$positives,
                              tallies$decisions)
  lab <- fit$label[fit$label$baseline == "fleiss", , drop = FALSE]
  lab$baseline <- "conger"
  lab$expected <- est$label$expected
  lab$estimate <- est$label$estimate
  lab$weight <- est$label$weight
  lab$floor <- est$label$floor
  fit$label <- fast_tibble_rbind(fit$label, lab)
  row <- fit$corpus[1L, , drop = FALSE]
  row$baseline <- "conger"
  cor <- if (is.list(fit$single_label)) conger_single_corpus(fit, tallies) else est$corpus
  row$observed <- cor$observed
  row$expected <- cor$expected
  row$estimate <- cor$estimate
  row$floor_observed <- cor$floor_observed
  row$floor <- cor$floor
  fit$corpus <- fast_tibble_rbind(fit$corpus, row)
  fit$corpus_w <- c(fit$corpus_w, 1 - row$expected)  # item rows against this chance term
  fit$notes <- conger_notes(fit$notes, fit$labels, est, cor)
  fit$conger <- list(n_annotators = est$label$n_annotators)
  fit
}

# Conger's kappa for the q categories (weighted when the fit is): chance from
# the annotators' category counts.
conger_single_corpus <- function(fit, tallies) {
  W <- if (is.null(fit$weights)) diag(ncol(tallies$positives)) else fit$weights$matrix
  pe <- conger_chance_cpp(tallies$positives, tallies$decisions[, 1], W)
  pa <- fit$corpus$observed[1L]
  fo <- fit$corpus$floor_observed[1L]  # the nominal floor; NA for weighted fits
  undefined <- is.na(pe) || pe >= 1
  list(observed = pa, expected = pe, estimate = if (undefined) NA_real_ else (pa - pe) / (1 - pe),
       floor_observed = fo, floor = if (undefined) NA_real_ else (fo - pe) / (1 - pe),
       reason = if (undefined) 4L else 0L,
       why = "only one category in use: chance agreement is 1")
}

conger_notes <- function(notes, labels, est, cor) {
  reason <- est$label$reason
  keep <- reason > 0L
  corpus_bad <- cor$reason > 0L
  fast_tibble(
    level = c(notes$level, if (corpus_bad) "corpus", rep("label", sum(keep))),
    label = c(notes$label, if (corpus_bad) NA_character_, labels[keep]),
    baseline = c(notes$baseline, if (corpus_bad) "conger", rep("conger", sum(keep))),
    reason = c(notes$reason, if (corpus_bad) cor$why %||% undefined_reasons[cor$reason],
               undefined_reasons[reason[keep]])
  )
}

# Row-binds two tibbles with the same columns without vctrs' checks.
fast_tibble_rbind <- function(a, b) {
  cols <- lapply(names(a), function(n) c(a[[n]], b[[n]]))
  names(cols) <- names(a)
  tibble::new_tibble(cols, nrow = nrow(a) + nrow(b))
}

has_conger <- function(fit) !is.null(fit$conger)

check_fit_baseline <- function(baseline, fit, call = rlang::caller_env()) {
  check_choice(baseline, fit_baselines(fit), call = call)
}

# Sums of squared influence deviations and n of the conger rows at `level`.
conger_influence <- function(fit, level) {
  a <- fit$annotations
  W <- if (is.null(fit$weights)) matrix(0, 0, 0) else fit$weights$matrix
  single <- is.list(fit$single_label)
  if (single && is.null(fit$weights)) W <- diag(length(fit$labels))
  conger_influence_cpp(annotation_view(a, fit$label_index), level == "corpus", single, W)
}

# Item bootstrap replicates of the conger rows (R x (1 + labels)), with the
# draws of the other engines for the same seed and units.
conger_boot <- function(fit, seed, R, units) {
  check_boot_conger(fit, "items")
  single <- is.list(fit$single_label)
  W <- if (!is.null(fit$weights)) fit$weights$matrix else diag(if (single) length(fit$labels) else 0)
  conger_boot_cpp(annotation_view(fit$annotations, fit$label_index), single, W, seed, R,
                  units$unit_of_item, units$n_units, units$order, units$start)
}

conger_jack <- function(fit, units) {
  single <- is.list(fit$single_label)
  W <- if (!is.null(fit$weights)) fit$weights$matrix else diag(if (single) length(fit$labels) else 0)
  conger_jack_cpp(annotation_view(fit$annotations, fit$label_index), single, W,
                  units$unit_start, units$unit_items)
}

# The conger rows have item replicates only.
check_boot_conger <- function(fit, resample, call = rlang::caller_env()) {
  if (!has_conger(fit) || resample == "items") return(invisible())
  mla_abort(
    c("{.arg resample} must be {.val items} for a fit with the {.val conger} baseline.",
      "x" = "{.arg resample} is {.val {resample}}.",
      "i" = "Resample items, or bootstrap {.code mla(x)} with the pooled baselines."),
    class = "boot_conger", call = call
  )
}

# Inserts the conger replicates into the engines' matrix t in the order of
# boot_stat_table().
insert_conger_columns <- function(t, conger) {
  cbind(t[, seq_len(n_baselines), drop = FALSE], conger[, 1L, drop = FALSE],
        t[, -seq_len(n_baselines), drop = FALSE], conger[, -1L, drop = FALSE])
}

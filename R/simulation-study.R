#' Simulation study of agreement measures (paper Table 4)
#'
#' Runs the factorial design of the paper's section 4: for every scenario,
#' prevalence level, number of annotators \eqn{n}, items \eqn{N} and labels
#' \eqn{k}, it draws `repeats` data sets with [simulate_annotations()] (all
#' labels sharing the prevalence) and computes every agreement measure the
#' package offers on each. Unlike the paper's Table 4, the result keeps every
#' dimension separate: average over them yourself ([summary()] does so for
#' Table 4) or plot them with [autoplot()][autoplot.mla_simulation].
#'
#' @details
#' Each data set gets its own seed, drawn from R's random number generator
#' when the study starts (so [set.seed()] makes the whole study
#' reproducible). The seed is in the result: `set.seed(seed)` followed by
#' `simulate_annotations()` with the row's design returns exactly that data
#' set. The measures therefore never change the simulated data, whichever are
#' requested; the study restores the random number generator state it found
#' after drawing the seeds.
#'
#' Measures (column `measure`):
#' * `"mla"`: `"observed"` (\eqn{A_o}), `"mla_fleiss"`, `"mla_ac1"`,
#'   `"mla_pabak"` (the corpus coefficients of [mla()]) and
#'   `"floor_observed"` (the conditional floor \eqn{A_{o,min}}, eq. 7).
#'   Always available; these are computed by the same code as [mla()].
#' * `"alpha"`: Krippendorff's alpha with Hamming, Jaccard and MASI distance
#'   (`"alpha_hamming"`, `"alpha_jaccard"`, `"alpha_masi"`), from
#'   `krippendorff_alpha()`.
#' * `"comparison"`: the measures of `agreement_measures()` (average MASI
#'   and Jaccard similarity, Augmented kappa, Am, boot-F1 with `R`
#'   bootstrap replicates), under their own names.
#'
#' A measure that is undefined on a data set (e.g. a coefficient whose
#' chance agreement is 1) is `NA`.
#'
#' Cost: one counting pass per data set for `"mla"`; the set-based measures
#' cost more, boot-F1 most (`R` replicates per data set), so use
#' `measures = "mla"` for exploratory runs.
#'
#' @param n_annotators,n_items,n_labels Design values (whole numbers;
#'   \eqn{n \ge 2}, \eqn{N, k \ge 1}). Every combination is run.
#' @param prevalence Named probabilities, one per prevalence level; names
#'   become `prevalence_level` (unnamed values are named by their value).
#' @param scenarios Generators of [simulate_annotations()].
#' @param repeats Number of data sets per design cell.
#' @param error Flip probability of the `"noisy"` generator.
#' @param measures Groups of measures to compute: any of `"mla"`, `"alpha"`,
#'   `"comparison"`. `NULL` (default) computes every group whose functions
#'   are available.
#' @param R Bootstrap replicates for boot-F1 (the paper used 100).
#' @inheritParams mla
#' @return `simulation_study()`: a tibble of class `mla_simulation` with one row per data set and
#'   measure: `scenario`, `prevalence_level` (factor), `prevalence`,
#'   `n_annotators`, `n_items`, `n_labels`, `replicate`, `seed`, `measure`,
#'   `estimate`.
#' @family simulation
#' @references
#' Menzner, T. and Leidner, J. L. (2026). Multi-Label Agreement: A Flexible
#' Framework for Inter-Annotator Reliability. Preprint, section 4, Table 4.
#' @export
#' @examples
#' set.seed(1)
#' study <- simulation_study(n_annotators = 3, n_items = 20, n_labels = 5,
#'                           repeats = 2, measures = "mla")
#' study
#' summary(study)
simulation_study <- function(n_annotators = c(3, 5, 10),
                             n_items = c(20, 50, 100),
                             n_labels = c(5, 10, 25),
                             prevalence = c(high = 0.8, moderate = 0.5, low = 0.2),
                             scenarios = c("perfect", "noisy", "independent", "minimum"),
                             repeats = 20, error = 0.1, measures = NULL, R = 100, ...) {
  check_dots_empty0(...)
  n_annotators <- unique(check_whole(n_annotators, min = 2, vector = TRUE, class = "simulation_argument"))
  n_items <- unique(check_whole(n_items, min = 1, vector = TRUE, class = "simulation_argument"))
  n_labels <- unique(check_whole(n_labels, min = 1, vector = TRUE, class = "simulation_argument"))
  prevalence <- check_prevalence_levels(prevalence)
  scenarios <- check_choice(scenarios, scenario_names, multiple = TRUE)
  repeats <- check_whole(repeats, min = 1, class = "simulation_argument")
  error <- check_number_in(error, class = "simulation_argument")
  R <- check_whole(R, min = 1, class = "simulation_argument")
  check_simulation_size(max(n_items), max(n_annotators), max(n_labels))
  if (is.null(measures)) measures <- measure_groups
  measures <- check_choice(measures, measure_groups, multiple = TRUE)

  design <- expand.grid(
    replicate = seq_len(repeats), n_labels = n_labels, n_items = n_items,
    n_annotators = n_annotators, level = seq_along(prevalence),
    scenario = scenarios, KEEP.OUT.ATTRS = FALSE, stringsAsFactors = FALSE
  )
  design <- design[rev(names(design))]
  n_sims <- nrow(design)
  design$seed <- sample.int(.Machine$integer.max, n_sims)
  seed_state <- get0(".Random.seed", envir = globalenv(), inherits = FALSE)
  on.exit(restore_rng(seed_state), add = TRUE)

  results <- vector("list", n_sims)
  bar <- progress_start("Simulating", total = n_sims)
  on.exit(progress_close(bar), add = TRUE)
  for (s in seq_len(n_sims)) {
    d <- design[s, ]
    set.seed(d$seed)
    sim <- simulate_array(d$n_items, d$n_annotators, d$n_labels,
                          rep(prevalence[[d$level]], d$n_labels), d$scenario,
                          rep(error, d$n_annotators), rep(0, d$n_annotators), 0)
    results[[s]] <- study_measures(sim$values, measures, R)
    cli::cli_progress_update(id = bar)
  }

  n_meas <- lengths(lapply(results, `[[`, "estimate"))
  rows <- rep(seq_len(n_sims), n_meas)
  out <- tibble::tibble(
    scenario = design$scenario[rows],
    prevalence_level = factor(names(prevalence)[design$level[rows]], levels = names(prevalence)),
    prevalence = unname(prevalence[design$level[rows]]),
    n_annotators = design$n_annotators[rows],
    n_items = design$n_items[rows],
    n_labels = design$n_labels[rows],
    replicate = design$replicate[rows],
    seed = design$seed[rows],
    measure = unlist(lapply(results, `[[`, "measure"), use.names = FALSE),
    estimate = unlist(lapply(results, `[[`, "estimate"), use.names = FALSE)
  )
  failed <- sum(vapply(results, `[[`, integer(1), "failed"))
  if (failed > 0L) {
    mla_warn("{failed} measure value{?s} could not be computed and {?is/are} {.code NA}.",
             class = "measure_na")
  }
  tibble::new_tibble(out, class = "mla_simulation")
}

scenario_names <- c("perfect", "noisy", "independent", "minimum")

# The corpus MLA values as mla() computes them, without its result tibbles.
mla_corpus_values <- function(a) {
  est <- mla_estimates(label_tally(a))$corpus
  c(observed = est$observed,
    stats::setNames(est$estimate, paste0("mla_", baseline_names)),
    floor_observed = est$floor_observed)
}

study_measures <- function(values, measures, R) {
  a <- as_annotations(values)
  est <- list()
  failed <- 0L
  if ("mla" %in% measures) est <- c(est, as.list(mla_corpus_values(a)))
  if ("alpha" %in% measures) {
    res <- try_measure(krippendorff_alpha(a, distance = c("hamming", "jaccard", "masi")))
    if (is.null(res)) {
      failed <- failed + 3L
      est <- c(est, alpha_hamming = NA_real_, alpha_jaccard = NA_real_, alpha_masi = NA_real_)
    } else {
      est <- c(est, stats::setNames(as.list(res$estimate), paste0("alpha_", res$distance)))
    }
  }
  if ("comparison" %in% measures) {
    res <- try_measure(agreement_measures(a, R = R))
    if (is.null(res)) {
      failed <- failed + 1L
      est <- c(est, comparison = NA_real_)
    } else {
      est <- c(est, stats::setNames(as.list(res$estimate), res$measure))
    }
  }
  list(measure = names(est), estimate = as.double(unlist(est, use.names = FALSE)),
       failed = failed)
}

try_measure <- function(expr) {
  tryCatch(suppressWarnings(expr), mlagreement_error = function(e) NULL)
}

measure_groups <- c("mla", "alpha", "comparison")

# Puts back the RNG state found after drawing the seeds.
restore_rng <- function(state) {
  if (is.null(state)) {
    if (exists(".Random.seed", envir = globalenv(), inherits = FALSE)) {
      rm(".Random.seed", envir = globalenv())
    }
  } else {
    assign(".Random.seed", state, envir = globalenv())
  }
}

#' @rdname simulation_study
#' @param object An `mla_simulation` result.
#' @param by Columns to group by; `summary()` averages `estimate` over all
#'   others (by default over \eqn{n}, \eqn{N}, \eqn{k} and the repeats, as
#'   the paper's Table 4 does) and returns `mean`, `sd`, `n` (non-missing
#'   values) and `n_missing`.
#' @export
summary.mla_simulation <- function(object, by = c("scenario", "prevalence_level", "measure"),
                                   ...) {
  check_dots_empty0(...)
  by <- check_choice(by, setdiff(names(object), "estimate"), multiple = TRUE)
  keys <- unique(as.data.frame(object)[by])
  groups <- interaction(as.data.frame(object)[by], drop = TRUE, lex.order = TRUE)
  kg <- interaction(keys, drop = TRUE, lex.order = TRUE)
  est <- unname(split(object$estimate, groups)[as.character(kg)])
  out <- tibble::as_tibble(keys)
  out$mean <- vapply(est, function(e) if (all(is.na(e))) NA_real_ else mean(e, na.rm = TRUE), 1)
  out$sd <- vapply(est, function(e) if (sum(!is.na(e)) < 2L) NA_real_ else stats::sd(e, na.rm = TRUE), 1)
  out$n <- vapply(est, function(e) sum(!is.na(e)), 1L)
  out$n_missing <- vapply(est, function(e) sum(is.na(e)), 1L)
  out
}

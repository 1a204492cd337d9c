#' Design-aware bootstrap for Multi-Label Agreement
#'
#' Resamples the study the way it was designed (paper section 5.5) and
#' recomputes every corpus coefficient and every label coefficient under all
#' three baselines for each replicate. Use [confint()][confint.mla_boot],
#' [tidy()][tidy.mla_boot], [glance()][glance.mla_boot], [jackknife_se()],
#' [as_boot()] and `autoplot()` on the result.
#'
#' Cost: per replicate, one pass over the per-item counts when items are
#' resampled, over the records when annotators are.
#'
#' @section Which design:
#' * `"items"` (default) treats items as sampled from a population of items
#'   and the annotators as fixed. Items are drawn with replacement (an item
#'   drawn twice counts twice); with `cluster`, whole clusters of items (for
#'   example sentences of one document) are drawn; with `strata`, each stratum
#'   keeps its number of units. The units are the items (clusters) with a
#'   decision on the fit's labels, the items its estimates and standard
#'   errors count: items stored without any (an array's empty rows, items
#'   decided only on labels outside `mla(labels = )`) are not drawn, so the
#'   same data in any storage gives the same replicates (for ids of the
#'   same type, which set the items' order: see [annotations_long()]). This
#'   is valid for crossed designs and for sparse (crowdsourcing) designs in
#'   which annotators are nested in items, because each item carries its
#'   own annotators along.
#' * `"annotators"` treats the annotators as sampled from a population of
#'   annotators and the items as fixed (crossed designs, where every
#'   annotator rates many items). Annotators are drawn with replacement; a
#'   pair formed by two copies of the same original annotator is not a pair
#'   (it would agree with itself by construction), so for item \eqn{i} and
#'   label \eqn{j}, with \eqn{c_a} copies of annotator \eqn{a} and decision
#'   \eqn{v_a},
#'   \deqn{D_{ij} = \frac{2 X (M - X)}{M^2 - \sum_a c_a^2}, \quad X = \sum_a c_a v_a,
#'   \quad M = \sum_a c_a,}
#'   i.e. disagreement among ordered pairs of copies of distinct originals;
#'   items with fewer than two distinct original annotators drop out of the
#'   replicate's observed agreement, and prevalences use every copy. Counting
#'   self-pairs instead would add perfect agreement and bias every replicate
#'   upwards. Holding items fixed, these intervals miss the items' part of
#'   the variance; treat them as a sensitivity analysis.
#' * `"both"` draws annotators and items (or clusters, within strata)
#'   independently for each replicate; use it when both items and
#'   annotators are meant to generalise.
#'
#' The annotators resampled are the \eqn{J} with a decision on the fit's
#' labels (`mla(labels = )`). Drawing them with replacement, the bootstrap's
#' variance of an average over annotators is \eqn{(J-1)/J} times the unbiased one, so
#' whenever annotators are resampled the intervals, standard errors and
#' [as_boot()] scale the replicates' deviations from the estimate by
#' \eqn{\sqrt{J/(J-1)}} (`$t` keeps the replicates as drawn). The spread
#' over annotators is then still estimated from \eqn{J} values, so the
#' intervals of [confint()][confint.mla_boot] widen the deviations further by
#' \eqn{t_{\nu, 1-\alpha/2} / z_{1-\alpha/2}}: \eqn{\nu = J - 1} when
#' annotators alone are resampled, and for `"both"` Satterthwaite's degrees
#' of freedom of the item and annotator jackknife variances (as in
#' `tidy(fit, annotators = "random")`; coverage in `vignette("uncertainty")`).
#'
#' A fit with category weights ([mla()]'s `weights`) is resampled by items
#' (with clusters and strata as above): its corpus replicates are the
#' weighted coefficients, its label replicates the unweighted
#' category-versus-rest ones. Annotator resampling is refused for it. A fit
#' with a label structure (`label_weights`, `label_groups`, `label_tree`)
#' is resampled like any other, every corpus, label and group row from the
#' same draws.
#'
#' Fewer than 2 items (or clusters) to resample are an error, and fewer than
#' 20 give a warning: with so few items bootstrap intervals cover less than
#' their level and less than the analytic t interval of [tidy()][tidy.mla]
#' (`vignette("uncertainty")`). A statistic whose replicates are all equal
#' (perfect agreement on every item, say) gets no interval (`NA`, with a
#' warning) rather than a zero-width one.
#'
#' With `resample = "items"` the label rows of [tidy()][tidy.mla_boot] also
#' carry intervals for positive and negative specific agreement, from the
#' same item draws.
#'
#' Designs that cannot be resampled meaningfully are refused: annotator
#' resampling needs at least three annotators with decisions on the fit's
#' labels, and annotators who each rated at least two items (median); in
#' sparse designs where every annotator sees only a handful of items,
#' resample items. Annotator resampling on a design where these annotators
#' annotated less than half of their items x annotators cells gives a note
#' (class
#' `mlagreement_message_sparse_annotators`).
#'
#' @section Reproducibility:
#' A seed is drawn from R's generator (so [set.seed()] governs it) and stored
#' in `$seed`; every replicate is identical whatever the number of
#' `threads`. A progress bar shows for long runs. Ctrl-C stops the bootstrap
#' with R's `interrupt` condition, and a rerun after [set.seed()] gives the
#' replicates of an uninterrupted run.
#'
#' @param fit An `mla` object from [mla()].
#' @param R Number of bootstrap replicates (a whole number >= 2).
#' @param resample `"items"`, `"annotators"` or `"both"` (see Details).
#' @param cluster Optional cluster of each item (items of a cluster are
#'   resampled together): a vector with one value per item in
#'   `fit$annotations$items` order, or named by item.
#' @param strata Optional stratum of each item, given like `cluster`;
#'   units are resampled within strata. Clusters must not cross strata.
#' @param threads Number of threads; results do not depend on it.
#' @param ... Must be empty.
#' @return An object of class `mla_boot`: `t0` (observed coefficients), `t`
#'   (an `R` x statistics matrix of replicates), `stats` (a tibble naming the
#'   columns: `level`, `label`, `baseline`, `name`), `seed`, `R`, `resample`,
#'   `design`, the `fit` and `engine`, the resampling engines' inputs.
#'   Leave-one-unit-out values for BCa and [jackknife_se()] are computed on
#'   first need and kept in the environment `cache`, so later calls reuse
#'   them (copies of the object share that cache).
#' @family bootstrap
#' @references
#' Menzner, T. and Leidner, J. L. (2026). Multi-Label Agreement: A Flexible
#' Framework for Inter-Annotator Reliability. Preprint, section 5.5.
#'
#' Davison, A. C. and Hinkley, D. V. (1997). Bootstrap Methods and their
#' Application. Cambridge University Press. \doi{10.1017/CBO9780511802843}
#'
#' McCullagh, P. (2000). Resampling and exchangeable arrays. Bernoulli 6(2),
#' 285-301. \doi{10.2307/3318577}
#'
#' Lemire, D. (2019). Fast random integer generation in an interval. ACM
#' Transactions on Modeling and Computer Simulation 29(1).
#' \doi{10.1145/3230636}
#' @export
#' @examples
#' set.seed(1)
#' fit <- mla(simulate_annotations(60, 4, 3, prevalence = 0.3, scenario = "noisy"))
#' bs <- mla_boot(fit, R = 500)
#' bs
#' tidy(bs)
#' confint(bs, c("fleiss", "ac1", "pabak"), type = "perc")
mla_boot <- function(fit, R = 2000, resample = c("items", "annotators", "both"),
                     cluster = NULL, strata = NULL, threads = mla_threads(), ...) {
  check_dots_empty0(...)
  check_inherits(fit, "mla", "mla", class = "boot_fit")
  R <- check_whole(R, min = 2, class = "replicates")
  n_stats <- nrow(boot_stat_table(fit))
  check_memory(8 * as.double(R) * n_stats,
               paste0("The replicates (", format(R, big.mark = ","), " x ", n_stats, " statistics)"),
               "Use fewer replicates {.arg R}, or fewer labels ({.code mla(labels = )}).",
               class = "replicates")
  resample <- check_choice(resample, c("items", "annotators", "both"))
  threads <- check_threads(threads)
  if (resample == "annotators" && (!is.null(cluster) || !is.null(strata))) {
    mla_abort(
      c("{.arg cluster} and {.arg strata} must be {.code NULL} when {.arg resample} is {.val annotators}.",
        "i" = "They describe items; use {.code resample = \"both\"} to resample items and annotators."),
      class = "boot_design"
    )
  }
  data <- boot_data(fit, resample, threads = threads)
  cluster <- check_item_vector(cluster, data$items, arg = "cluster")
  strata <- check_item_vector(strata, data$items, arg = "strata")
  rated <- if (resample != "annotators") boot_rated_items(data)  # R/boot-units.R
  units <- boot_units(cluster, strata, data$n_items, rated)
  if (resample != "annotators") {
    check_boot_items(units$n_units, if (is.null(cluster)) "items" else "clusters")
  }
  seed <- sample.int(.Machine$integer.max, 2L)
  t <- boot_run(data, units, resample, seed, R, threads)
  if (has_conger(fit)) t <- insert_conger_columns(t, conger_boot(fit, seed, R, units))  # R/conger.R
  new_mla_boot(fit, t, seed, R, resample, units, cluster, strata, threads, engine = data)
}

# What the engines need: item cell codes for items, the records' view for
# annotators.
boot_data <- function(fit, resample, threads = mla_threads(), call = rlang::caller_env()) {
  a <- fit$annotations
  cols <- fit$label_index
  check_boot_weights(fit, resample, call = call)
  if (resample != "items") {
    require_records(a, "annotator resampling", arg = "fit", call = call)
    data <- annotator_record_data(fit, threads)
    check_annotator_design(data, call = call)
    return(data)
  }
  if (!is.null(fit$structure)) return(structure_item_data(fit, call = call))  # R/label-structure-fit.R
  cells <- item_count_cells(a, cols, threads = threads, call = call)  # R/annotation-generics.R
  data <- boot_item_data(cells)
  data$single_label <- is_single_label_fit(fit)
  # weighted fits: the weighted coefficients from the same draws
  if (!is.null(fit$weights)) data$weighted <- list(counts = cells$x, matrix = fit$weights$matrix)
  if (has_conger(fit)) data$conger <- fit  # R/conger.R: its replicates read the records
  data
}

boot_item_data <- function(cells) {
  x <- cells$x
  m <- cells$m
  max_m <- max(m)
  list(x = x, m = m, max_m = max_m, n_items = nrow(x), n_labels = ncol(x), items = cells$items,
       codes = boot_codes_cpp(x, m))
}

# The annotator bootstrap's and jackknife's inputs: the fit's records, or
# for a structured fit the structure pass's columns of each record.
annotator_record_data <- function(fit, threads) {
  data <- boot_record_data(fit, threads)
  data$single_label <- is_single_label_fit(fit)
  if (!is.null(fit$structure)) data <- add_structure_records(data, fit)  # R/label-structure-fit.R
  data
}

# The records read in place; the annotators drawn are the fit's annotators
# (slot: 0-based index among them, -1 for the others).
boot_record_data <- function(fit, threads) {
  a <- fit$annotations
  counts <- fit_record_counts(fit, threads)  # R/mla-result.R
  per_annotator <- counts$annotator_records
  active <- which(per_annotator > 0)
  slot <- rep(-1L, n_annotators(a))
  slot[active] <- seq_along(active) - 1L
  list(view = annotation_view(a, fit$label_index), slot = slot, n_annotators = length(active),
       annotator_records = per_annotator[active], n_items = n_items(a),
       n_labels = length(fit$label_index), annotator_names = a$annotators[active],
       items = item_ids(a), rated = counts$item_annotators > 0L)
}

# Coefficients for annotator multiplicities aw (annotators x B) and item
# multiplicities iw (items x B; NULL: every item once).
boot_records_statistic <- function(data, aw, iw = NULL) {
  if (is.null(iw)) iw <- matrix(0L, data$n_items, 0L)
  boot_stats_records_cpp(data$view, data$slot, data$n_annotators, aw, iw, isTRUE(data$single_label),
                         data$structure)
}

check_annotator_design <- function(data, call = rlang::caller_env()) {
  per_annotator <- data$annotator_records
  if (length(per_annotator) < 3L) {
    mla_abort(
      c("Annotator resampling needs at least 3 annotators with decisions.",
        "x" = "{.arg fit} has {length(per_annotator)}.",
        "i" = "With so few annotators the bootstrap has almost no distinct replicates; use {.code resample = \"items\"}."),
      class = "boot_annotators", call = call
    )
  }
  if (stats::median(per_annotator) < 2) {
    mla_abort(
      c("Annotator resampling needs annotators who each rated several items.",
        "x" = "The median annotator rated {stats::median(per_annotator)} item{?s}.",
        "i" = "In sparse designs annotators are nested in items; use {.code resample = \"items\"}."),
      class = "boot_annotators", call = call
    )
  }
  coverage <- sum(per_annotator) / (as.double(data$n_items) * length(per_annotator))
  note_sparse_annotator_resampling(coverage)  # R/design-summary.R
}

# Runs the replicates in chunks of about `kBootChunkSeconds` (the streams keep
# their generators between chunks, so chunking does not change the
# replicates): the progress bar moves and Ctrl-C is honoured between chunks.
boot_run <- function(data, units, resample, seed, R, threads) {
  run <- boot_run_cpp(seed, R, data$n_label_rows %||% data$n_labels)
  chunk <- if (resample == "items") {
    function(per_stream) {
      boot_items_cpp(run, data$codes, data$n_items, data$n_labels, data$max_m,
                     units$unit_of_item, units$n_units, units$order, units$start,
                     per_stream, threads, isTRUE(data$single_label), data$structure)
    }
  } else {
    function(per_stream) {
      boot_records_cpp(run, data$view, data$slot, data$n_annotators, resample == "both",
                       units$unit_of_item, units$n_units, units$order, units$start,
                       per_stream, threads, data$single_label, data$structure)
    }
  }
  bar <- progress_start("Bootstrapping", total = R)
  on.exit(progress_close(bar), add = TRUE)
  per_stream <- 1
  done <- 0
  while (done < R) {
    started <- proc.time()[["elapsed"]]
    done <- chunk(per_stream)
    per_stream <- boot_next_chunk(per_stream, proc.time()[["elapsed"]] - started)
    cli::cli_progress_update(id = bar, set = done)
  }
  t <- boot_run_result_cpp(run)
  if (!is.null(data$weighted)) {
    t[, seq_len(n_baselines)] <- weighted_boot_cpp(data$weighted$counts, data$weighted$matrix,
                                                   seed, R, units$unit_of_item, units$n_units,
                                                   units$order, units$start)
  }
  t
}

# Seconds a chunk should take: a lively progress bar and a prompt Ctrl-C.
kBootChunkSeconds <- 0.2

# Replicates per stream for the next chunk, growing at most 8-fold.
boot_next_chunk <- function(per_stream, elapsed, target = kBootChunkSeconds) {
  grown <- if (elapsed <= 0) 8 * per_stream else per_stream * target / elapsed
  max(1, floor(min(grown, 8 * per_stream, .Machine$integer.max)))
}

# Every progress bar of the package, closed by the caller's
# `on.exit(progress_close(bar), add = TRUE)`; closing never raises (cli's
# deferred auto-close can, on Ctrl-C), so an interrupted loop leaves only R's
# `interrupt` condition.
progress_start <- function(name, total) {
  cli::cli_progress_bar(name, total = total, clear = TRUE, .auto_close = FALSE)
}

progress_close <- function(bar) {
  tryCatch(cli::cli_progress_done(id = bar), error = function(e) NULL,
           interrupt = function(e) NULL)
}

boot_jackknife <- function(data, units, resample, threads) {
  if (resample == "items") {
    jack <- boot_jack_items_cpp(data$codes, data$n_items, data$n_labels, data$max_m,
                                units$unit_start, units$unit_items, threads, isTRUE(data$single_label),
                                data$structure)
    if (!is.null(data$weighted)) {
      jack[, seq_len(n_baselines)] <- weighted_jack_cpp(data$weighted$counts, data$weighted$matrix,
                                                        units$unit_start, units$unit_items)
    }
    if (!is.null(data$conger)) jack <- insert_conger_columns(jack, conger_jack(data$conger, units))
    return(jack)
  }
  if (resample == "annotators") {
    return(boot_jack_records_cpp(data$view, data$slot, data$n_annotators, threads,
                                 isTRUE(data$single_label), data$structure))
  }
  NULL
}

# `engine` keeps the engines' inputs so that BCa, jackknife_se(), tidy() and
# as_boot() reuse them; `cache` holds the jackknife once computed.
new_mla_boot <- function(fit, t, seed, R, resample, units, cluster, strata, threads,
                         engine = NULL) {
  stats <- boot_stat_table(fit)
  t0 <- c(fit$corpus$estimate, fit$label$estimate)
  names(t0) <- stats$name
  colnames(t) <- stats$name
  n_units <- switch(resample,
    items = units$n_units,
    annotators = engine$n_annotators,
    both = units$n_units
  )
  design <- list(
    resample = resample,
    unit = switch(resample, items = if (is.null(cluster)) "item" else "cluster",
                  annotators = "annotator", both = if (is.null(cluster)) "item x annotator" else "cluster x annotator"),
    what = switch(resample, items = if (is.null(cluster)) "items" else "clusters of items",
                  annotators = "annotators",
                  both = if (is.null(cluster)) "annotators and items" else "annotators and clusters of items"),
    n_units = n_units,
    n_strata = if (resample == "annotators") 1L else units$n_strata,
    n_items = fit$design$n_items,
    n_annotators = fit$design$n_annotators,
    clustered = !is.null(cluster),
    stratified = !is.null(strata)
  )
  structure(
    list(t0 = t0, t = t, stats = stats, seed = seed, R = R,
         resample = resample, design = design, cluster = cluster, strata = strata,
         units = units, threads = threads, fit = fit, engine = engine,
         cache = new.env(parent = emptyenv())),
    class = "mla_boot"
  )
}

boot_stat_table <- function(fit) {
  lab <- fit$label
  tibble::tibble(
    level = c(rep("corpus", nrow(fit$corpus)), rep("label", nrow(lab))),
    label = c(rep(NA_character_, nrow(fit$corpus)), lab$label),
    baseline = c(fit$corpus$baseline, lab$baseline),
    name = c(fit$corpus$baseline, paste0(lab$label, ":", lab$baseline))
  )
}

# Estimation with a label structure. The C++ pass closes the records, checks
# the groups and counts per item; its tables hold the k closed labels, then
# each group's categories (its labels, then "none").

structure_pass <- function(a, st, cols = NULL, keep_items = FALSE, call = rlang::caller_env()) {
  if (keep_items) {  # x and m per item and column, twice over for R's copy
    n_cols <- length(st$labels) + sum(lengths(st$groups) + 1L)
    check_memory(16 * as.double(n_items(a)) * n_cols,
                 paste0("The per-item counts of ", n_items(a), " items x ", n_cols, " structure columns"),
                 "Use fewer labels, or {.code conf.int = FALSE}.", class = "memory", call = call)
  }
  res <- structure_pass_cpp(annotation_view(a, cols), structure_core(st), nrow(label_tally(a)$cnt),
                            keep_items)
  if (res$bad_record >= 0) abort_group_record(a, st, res, call)
  res
}

# The structure as the C++ core takes it (LabelStructure, 0-based).
structure_core <- function(st) {
  list(parent = st$parent, closure_order = st$closure_order, free = as.integer(st$free - 1L),
       groups = lapply(st$groups, function(j) as.integer(j - 1L)), weights = unname(st$weights))
}

abort_group_record <- function(a, st, res, call) {
  r <- res$bad_record + 1
  g <- res$bad_group + 1L
  selected <- st$labels[st$groups[[g]]][record_values(a)[r, st$groups[[g]]] %in% 1]
  abort_record(record_ids(a, r), "A record must select at most one label of each group of {.arg label_groups}.",
               "selects {.val {selected}} of group {.val {names(st$groups)[g]}}{if (st$tree) ' (after adding the ancestors of label_tree)' else ''}",
               c("i" = "A group is one nominal variable: its labels exclude one another."),
               class = "label_group_record", call = call)
}

# The variables in the pass's columns: free labels (0-based), each group's
# first column and number of labels, and the weights.
structure_variables <- function(st) {
  size <- lengths(st$groups)
  first <- length(st$labels) + c(0L, cumsum(size + 1L))[seq_along(size)]
  list(free = as.integer(st$free - 1L), group_first = as.integer(first),
       group_size = as.integer(size), weights = unname(st$weights))
}

structure_estimates <- function(tab, st) {
  v <- structure_variables(st)
  structured_estimates_cpp(tab$cnt, tab$sx, tab$sdis, v$free, v$group_first, v$group_size, v$weights)
}

# mla() with a label structure: the label rows of the closed labels (the
# plain ones without a taxonomy), corpus and item rows from the variables.
structured_mla <- function(x, cols, st, baseline, weights, call = rlang::caller_env()) {
  if (!identical(weights, "identity")) {
    mla_abort(c("{.arg weights} and a label structure cannot be combined.",
                "i" = "Category weights are for single-label designs; give {.arg label_groups} or {.arg weights}."),
              class = "label_structure", call = call)
  }
  pass <- structure_pass(x, st, cols, call = call)
  k <- seq_along(st$labels)
  closed <- list(cnt = pass$cnt[, k, drop = FALSE], sx = pass$sx[, k, drop = FALSE],
                 sdis = pass$sdis[, k, drop = FALSE], item_disagreement = pass$item_disagreement)
  fit <- new_mla(x, cols, mla_estimates(closed), closed, baseline, structured = TRUE)
  structure_fit(fit, st, structure_estimates(pass, st))
}

structure_fit <- function(fit, st, est) {
  var <- est$variable
  cor <- est$corpus
  k <- length(st$labels)
  n_free <- length(st$free)
  w <- matrix(NA_real_, k, n_baselines)  # grouped labels enter through their group
  w[st$free, ] <- var$weight[seq_len(n_free), , drop = FALSE]
  fit$label$weight <- as.vector(w)
  if (length(st$groups) > 0L) fit$label <- add_group_rows(fit$label, st, var, n_free)
  fit$corpus$observed <- rep(cor$observed, n_baselines)
  fit$corpus$expected <- cor$expected
  fit$corpus$estimate <- cor$estimate
  fit$corpus$floor_observed <- cor$floor_observed
  fit$corpus$floor <- cor$floor
  fit$corpus_w <- cor$w
  fit$structure <- st
  g <- n_free + seq_along(st$groups)
  no_floor <- names(st$groups)[is.na(var$floor[g, 1]) & !is.na(var$observed[g])]
  if (length(no_floor) > 0L) {
    fit$notes <- add_nominal_floor_notes(fit$notes, c("corpus", rep("label", length(no_floor))),
                                         c(NA_character_, no_floor))
  }
  fit
}

# One row per group and baseline (the group as a nominal variable), merged
# into the label rows.
add_group_rows <- function(label_tbl, st, var, n_free) {
  g <- n_free + seq_along(st$groups)
  members <- vapply(st$groups, function(j) paste(st$labels[j], collapse = ", "), "")
  rows <- list(
    label = rep_baselines(names(st$groups)),
    baseline = baseline_column(length(g)),
    prevalence = NA_real_,
    observed = rep_baselines(var$observed[g]),
    expected = as.vector(var$expected[g, , drop = FALSE]),
    estimate = as.vector(var$estimate[g, , drop = FALSE]),
    weight = as.vector(var$weight[g, , drop = FALSE]),
    floor = as.vector(var$floor[g, , drop = FALSE]),
    positive_agreement = NA_real_, negative_agreement = NA_real_,
    note = rep_baselines(paste0("group (one nominal variable): ", members))
  )
  n <- length(rows$label)
  cols <- lapply(names(label_tbl), function(nm) {
    v <- rows[[nm]]
    c(label_tbl[[nm]], if (length(v) == 1L) rep(v, n) else v)
  })
  names(cols) <- names(label_tbl)
  ord <- order(match(cols$baseline, baseline_names), seq_along(cols$baseline))
  do.call(fast_tibble, lapply(cols, `[`, ord))
}

# Krippendorff's alpha with the structured distance. Weights alone apply to
# the label tables of the counting pass; groups and a taxonomy need the
# closing and grouping pass.
alpha_structured <- function(a, st, call = rlang::caller_env()) {
  t <- label_tally(a)
  tab <- if (length(st$groups) == 0L && !st$tree) t else structure_pass(a, st, call = call)
  est <- structure_estimates(tab, st)
  if (!(est$alpha$n_used > 0)) check_pairable(0, call = call)
  pairable <- !is.na(t$item_disagreement)
  list(observed = est$alpha$observed, expected = est$alpha$expected,
       n_items = sum(pairable), n_values = sum(item_annotator_counts(a)[pairable]))
}

# The distances krippendorff_alpha() computes with a structure: Hamming only.
attach_label_structure <- function(specs, st, R, call = rlang::caller_env()) {
  if (is.null(st)) return(specs)
  kinds <- vapply(specs, `[[`, "", "kind")
  if (any(kinds != "hamming")) {
    mla_abort(
      c("A label structure defines a Hamming-type distance: use {.code distance = \"hamming\"}.",
        "x" = "{.arg distance} also asks for {.val {names(specs)[kinds != 'hamming']}}."),
      class = "label_structure", call = call
    )
  }
  if (!identical(R, 0) && !identical(R, 0L)) {
    mla_abort(
      c("Bootstrap intervals of alpha are not available with a label structure yet.",
        "i" = "Use {.code R = 0}."),
      class = "label_structure", call = call
    )
  }
  lapply(specs, function(s) c(s, list(structure = st)))
}

structure_text <- function(st) {
  parts <- c(
    if (st$weighted) "label weights" else if (length(st$groups) == 0L && !st$tree) "equal label weights",
    if (length(st$groups) > 0L) paste0("groups ", paste(names(st$groups), collapse = ", ")),
    if (st$tree) "taxonomy (ancestor closure)"
  )
  paste0("labels with structure: ", paste(parts, collapse = "; "))
}

# The arguments of mla() that give the structure `st` back (refits on items).
structure_arguments <- function(st) {
  has_parent <- st$parent >= 0L
  list(
    label_weights = stats::setNames(unname(st$weights), c(st$labels[st$free], names(st$groups))),
    label_groups = if (length(st$groups) > 0L) lapply(st$groups, function(j) st$labels[j]),
    label_tree = if (st$tree) stats::setNames(st$labels[st$parent[has_parent] + 1L], st$labels[has_parent])
  )
}

# mla_compare() compares fits of one structure (or none). Weights count up to
# a common factor, as eq. 6 normalises them.
check_same_structure <- function(a, b, call = rlang::caller_env()) {
  if (identical(a$structure, b$structure)) return(invisible())
  layout <- function(st) st[setdiff(names(st), c("weights", "weighted"))]
  if (!is.null(a$structure) && !is.null(b$structure) &&
      identical(layout(a$structure), layout(b$structure))) {
    return(check_same_label_weights(a$structure, b$structure, call))
  }
  text <- function(fit) if (is.null(fit$structure)) "no label structure" else structure_text(fit$structure)
  mla_abort(
    c("{.arg a} and {.arg b} must use the same label structure.",
      "x" = "{.arg a} uses {text(a)}, {.arg b} {text(b)}.",
      "i" = "Refit both with the same {.arg label_weights}, {.arg label_groups} and {.arg label_tree}."),
    class = "compare_structure", call = call
  )
}

check_same_label_weights <- function(sa, sb, call) {
  wa <- sa$weights / sum(sa$weights)
  wb <- sb$weights / sum(sb$weights)
  # rounding of the sums aside, equal normalised weights are one estimand
  relative <- abs(wa - wb) / pmax(abs(wa), abs(wb))
  n_differ <- sum(relative > 1e-10)
  if (n_differ == 0L) return(invisible())
  # one changed weight moves every normalised one: name the largest change
  v <- which.max(relative)
  name <- c(sa$labels[sa$free], names(sa$groups))[v]
  values <- format_distinct(wa[[v]], wb[[v]])
  more <- if (n_differ > 1) paste0(" (the largest of ", n_differ, " differences)") else ""
  mla_abort(
    c("{.arg a} and {.arg b} must use the same {.arg label_weights}, up to a common factor.",
      "x" = "The normalised weight of {.val {name}} is {values[1]} in {.arg a}, {values[2]} in {.arg b}{more}.",
      "i" = "Normalised weights are the weights divided by their sum, as eq. 6 uses them."),
    class = "compare_structure", call = call
  )
}

# The item bootstrap's inputs for a structured fit: the codes of the
# structure pass's columns and what a replicate reports
# (write_structure_stats() in structured_estimates.h).
structure_item_data <- function(fit, call = rlang::caller_env()) {
  pass <- structure_pass(fit$annotations, fit$structure, fit$label_index, keep_items = TRUE, call = call)
  data <- boot_item_data(list(x = pass$x, m = pass$m, items = item_ids(fit$annotations)))
  add_structure_stats(data, fit$structure)
}

add_structure_stats <- function(data, st) {
  data$structure <- c(list(n_closed = length(st$labels)), structure_variables(st))
  data$n_label_rows <- length(st$labels) + length(st$groups)
  data
}

# The annotator engines' inputs for a structured fit: each record's columns
# of the structure pass (structure_records() in structure_records.h), so that the
# engines weigh records by annotator copies as on plain labels.
add_structure_records <- function(data, fit) {
  a <- fit$annotations
  values <- structure_records_cpp(annotation_view(a, fit$label_index), structure_core(fit$structure))
  dense <- is_dense_layout(a)  # records in the array's order: no ids to scatter by
  data$view <- record_view(values, ncol(values), if (dense) integer() else record_item(a) - 1L,
                           n_items(a), if (dense) integer() else record_annotator(a) - 1L,
                           n_annotators(a))
  add_structure_stats(data, fit$structure)
}

# tidy(conf.int = TRUE) on a structured fit: the corpus and group rows from
# the structure's influence terms (structured_influence.h), the label rows
# as a plain fit's (each closed label a binary label). `f`: the influence
# sums of structured_influence_sums() (influence_inputs() makes them once).
structured_inference <- function(fit, level, conf.level, N, annotators, f,
                                 call = rlang::caller_env()) {
  sum_sq <- if (level == "corpus") f$sum_sq else as.vector(rbind(f$labels$sum_sq, f$groups$sum_sq))
  n <- if (level == "corpus") f$n else c(f$labels$n, f$groups$n)
  est <- if (level == "corpus") fit$corpus$estimate else fit$label$estimate
  extra <- if (annotators == "random") annotator_variance(fit, level, call = call)  # R/analytic-annotators.R
  inference_columns(est, sum_sq, rep(n, length.out = length(est)), conf.level, N, extra)
}

# Percent agreement (corpus and group rows) and the closed labels' specific
# agreement of a structured fit, as share_inference() gives them, from the
# same sums `f`.
structured_share_inference <- function(fit, level, conf.level, N, f) {
  if (level == "corpus") {
    k <- nrow(fit$corpus)
    inf <- inference_columns(fit$corpus$observed, rep(f$observed_sum_sq, k), rep(f$n, k), conf.level, N)
    return(share_columns(share_names[1], list(inf[c("std.error", "conf.low", "conf.high")])))
  }
  n_groups <- length(f$groups$n)
  shares <- f$labels$shares
  observed <- c(shares$sum_sq[, 1], f$groups$observed_sum_sq)
  n <- rep(c(shares$n, f$groups$n), n_baselines)
  cols <- lapply(seq_along(share_names), function(s) {
    est <- if (s == 1L) fit$label$observed else rep(c(shares$estimate[, s], rep(NA, n_groups)), n_baselines)
    sum_sq <- if (s == 1L) observed else c(shares$sum_sq[, s], rep(NA, n_groups))
    inf <- inference_columns(est, rep(sum_sq, length.out = length(est)), n, conf.level, N)
    inf[c("std.error", "conf.low", "conf.high")]
  })
  share_columns(share_names, cols)
}

# The influence sums of a structured fit: the corpus's, or those of the label
# rows (closed labels through the plain kernel, shares included) and of each
# group alone.
structured_influence_sums <- function(st, pass, level) {
  v <- structure_variables(st)
  influence <- function(corpus) {
    structured_influence_cpp(pass$x, pass$m, pass$cnt, pass$sx, pass$sdis, v$free, v$group_first,
                             v$group_size, v$weights, corpus)
  }
  if (level == "corpus") return(influence(TRUE))
  k <- seq_along(st$labels)
  closed <- function(t) t[, k, drop = FALSE]
  cells <- list(n_items = nrow(pass$x), label_cols = k - 1L, x4 = NULL, x = closed(pass$x),
                m = closed(pass$m))
  tables <- list(closed(pass$cnt), closed(pass$sx), closed(pass$sdis))
  labels <- label_influence_cpp(cells, tables[[1]], tables[[2]], tables[[3]])
  groups <- influence(FALSE)
  g <- length(st$free) + seq_along(st$groups)
  list(labels = labels, groups = list(sum_sq = groups$sum_sq[g, , drop = FALSE], n = groups$n[g],
                                      observed_sum_sq = groups$observed_sum_sq[g]))
}

# Intervals for krippendorff_alpha(R > 0) from per-item summaries, never the
# records (DESIGN.md, "Notes on the R side"; set_boot.h).

#' @rdname krippendorff_alpha
#' @section Intervals:
#' With `R > 0` the result gains `std.error`, `conf.low` and `conf.high`.
#' `std.error` is the jackknife standard error over items (each item with a
#' pairable value left out in turn; \eqn{\sqrt{(g - 1)/g \sum (\hat\alpha_{(i)}
#' - \bar\alpha)^2}}); it needs at least 3 such items (with 2, each
#' leave-one-out value is a one-item alpha, the same number for any data).
#' `conf.low` and `conf.high` are the percentile interval at `conf.level`
#' (interpolated as in [boot::boot.ci()]) of `R` bootstrap replicates over
#' the items with a decision, drawn from the streams of [mla_boot()]
#' (replicate `b` resamples the same items as `mla_boot(resample = "items")`
#' with the same seed), so
#' [set.seed()] makes them reproducible and `threads` does not change them.
#' Intervals are available for the Hamming, Jaccard and MASI
#' distances, custom set-size distances `function(n_a, n_b, n_ab)`, and the
#' nominal, ordinal, interval and ratio alpha of single-label data (the
#' coincidence matrix of a replicate is the multiplicity-weighted sum of the
#' items' coincidences, so the ordinal metric's marginals are the
#' replicate's own); general distances `function(a, b)` get `NA` with a
#' warning. `R` must be 0 or at least 2. Fewer than 2 pairable items are an
#' error and fewer than 20 give a warning (see [mla_boot()]); a distance
#' whose replicates are all equal gets `NA` limits with a warning, not a
#' zero-width interval. Set
#' distances need an \eqn{S \times S} matrix of the distances between the
#' \eqn{S} distinct label sets; designs where it would be too large are
#' refused with an error that gives its size. Cost: per replicate, one pass
#' over per-item summaries, not over the records.
#' @param R Number of bootstrap replicates over items; 0 (default) for none.
#' @param conf.level Confidence level of the bootstrap interval.
#' @name krippendorff_alpha
NULL

alpha_intervals <- function(out, a, R, conf.level, specs = NULL, threads = mla_threads(),
                            call = rlang::caller_env()) {
  R <- check_alpha_replicates(R, call)
  check_conf_level(conf.level, arg = "conf.level", call = call)
  if (R == 0L) return(out)
  require_records(a, "bootstrap intervals (R > 0)", call = call)
  kinds <- interval_kinds(out, a, specs)
  n <- nrow(out)
  se <- rep(NA_real_, n)
  reps <- matrix(NA_real_, R, n)
  has <- !is.na(kinds) & !is.na(out$estimate)
  if (any(has)) check_boot_items(min(out$n_items[has]), "items with two or more values", "x", call,
                                   min = 3L)
  seed <- sample.int(.Machine$integer.max, 2L)
  sums <- has & kinds != "category"
  # the items mla_boot() draws: those with a decision (R/boot-units.R)
  rated <- item_annotator_counts(a) > 0L
  if (any(sums)) {
    design <- rated_design_rows(alpha_item_design(a, specs[sums], kinds[sums], call = call), rated)
    reps[, sums] <- alpha_replicates(design, seed, R, threads)
    se[sums] <- alpha_jackknife_se(design)
  }
  for (h in which(has & kinds == "category")) {  # ordinal, interval, ratio: coincidence_boot.h
    cat <- category_alpha_inputs(a, specs[[h]]$metric)
    cat$counts <- cat$counts[rated, , drop = FALSE]
    reps[, h] <- category_alpha_boot_cpp(cat$counts, cat$metric, cat$values, seed, R)
    se[h] <- jackknife_from_values(category_alpha_jack_cpp(cat$counts, cat$metric, cat$values))
  }
  ci <- replicate_intervals(reps, out$estimate, out$distance, conf.level, "perc",
                            na_hint = kNaHintAlpha, call = call)
  ci[!has, ] <- NA_real_
  warn_no_interval(out$distance[is.na(kinds)], call)
  out$std.error <- se
  out$conf.low <- ci[, 1]
  out$conf.high <- ci[, 2]
  out
}

# R = 0 (no intervals) or at least 2 replicates: one replicate has no spread.
check_alpha_replicates <- function(R, call) {
  R <- check_whole(R, min = 0, arg = "R", call = call, class = "replicates")
  if (R == 1L) {
    mla_abort(c("{.arg R} must be 0 (no intervals) or at least 2 bootstrap replicates.",
                "x" = "It is 1: one replicate has no spread."),
              class = "replicates", call = call)
  }
  R
}

# The kernel's inputs of ordinal, interval or ratio alpha.
category_alpha_inputs <- function(a, metric) {
  list(counts = item_label_counts(a)$x, metric = match(metric, category_metrics) - 1L,
       values = category_values(a))
}

# The interval kind of each row; NA for none.
interval_kinds <- function(out, a, specs) {
  kinds <- if (is.null(specs)) out$distance else vapply(specs, `[[`, "", "kind")
  metric <- if (is.null(specs)) rep(NA_character_, nrow(out)) else
    vapply(specs, function(s) if (is.null(s$metric)) NA_character_ else s$metric, "")
  # nominal alpha of a single-label design is Hamming alpha of its one-hot labels
  kinds[out$distance == "nominal" & is_single_label(a)] <- "hamming"
  kinds[kinds == "category" & metric %in% c("ordinal", "interval", "ratio")] <- "cat"
  kinds[!kinds %in% c("hamming", "jaccard", "masi", "size", "cat")] <- NA_character_
  kinds[kinds %in% "cat"] <- "category"
  kinds
}

warn_no_interval <- function(without, call) {
  if (length(without) == 0L) return(invisible())
  mla_warn(
    c("Bootstrap intervals are not available for distance{?s} {.val {without}}.",
      "i" = "Their {.field std.error}, {.field conf.low} and {.field conf.high} are {.code NA}; Hamming, Jaccard, MASI, set-size and the single-label distances have intervals."),
    class = "no_interval", call = call
  )
}

# The design's rows of the items with a decision; the others have no terms
# and no set entries, so the set offsets of the kept items stay valid.
rated_design_rows <- function(design, rated) {
  if (all(rated)) return(design)
  design$terms <- design$terms[rated, , drop = FALSE]
  if (length(design$sets$start) > 0L) {
    design$sets$start <- design$sets$start[c(which(rated), length(rated) + 1L)]
  }
  design
}

# Per-item summaries of every row that gets an interval: `terms` (items x
# columns, the linear parts), the sets' counts per item and the distance
# matrices, and where each row's quantities sit.
alpha_item_design <- function(a, specs, kinds, call = rlang::caller_env()) {
  n <- n_items(a)
  design <- list(kinds = kinds, terms = matrix(0, n, 0L), D = list(),
                 sets = list(start = numeric(), set = integer(), count = numeric(), n_sets = 0L))
  if (any(kinds == "hamming")) {
    h <- hamming_item_terms(a)
    design$hamming <- ncol(design$terms) + seq_len(ncol(h))
    design$n_labels <- ncol(h) / 3L
    design$terms <- cbind(design$terms, h)
  }
  set_rows <- kinds != "hamming"
  if (any(set_rows)) {
    s <- set_item_terms(a, specs[set_rows], kinds[set_rows], call)
    design$m_col <- ncol(design$terms) + 1L
    design$obs_col <- design$m_col + seq_len(ncol(s$obs))
    design$terms <- cbind(design$terms, s$m, s$obs)
    design[c("D", "sets", "rec_set")] <- s[c("D", "sets", "rec_set")]
  }
  design
}

# Items x 3k: the per-label terms n, n1, dis of every item's pairable cells.
hamming_item_terms <- function(a) {
  counts <- item_label_counts(a)
  x <- counts$x
  m <- counts$m
  pair <- m >= 2L
  cbind(ifelse(pair, m, 0), ifelse(pair, x, 0), ifelse(pair, 2 * x * (m - x) / pmax(m - 1, 1), 0))
}

# The set summaries: m_i, obs_i per distance, the items' set counts and the
# distance matrices.
set_item_terms <- function(a, specs, kinds, call) {
  rs <- alpha_record_sets_cpp(annotation_view(a))
  check_set_memory(rs, set_core_args(a), call = call)
  check_set_record(a, rs, call = call)  # R/alpha-custom.R
  n_sets <- nrow(rs$incidence)
  check_distance_memory(n_sets, length(kinds), call)
  D <- set_distance_matrices(rs$incidence, specs, kinds, call)
  groups <- length(rs$gstart) - 1L
  item_of_group <- pairable_set_items(a, groups)
  n <- n_items(a)
  sets <- alpha_item_sets_cpp(rs$gstart, rs$rec_set, item_of_group - 1L, n, n_sets, D)
  m <- numeric(n)
  m[item_of_group] <- diff(rs$gstart)
  obs <- sets$quad / pmax(m - 1, 1)
  list(m = m, obs = obs, D = D, rec_set = rs$rec_set,
       sets = list(start = sets$start, set = sets$set, count = sets$count, n_sets = n_sets))
}

check_distance_memory <- function(n_sets, n_distances, call) {
  bytes <- 8 * n_sets^2 * n_distances
  if (bytes <= 1e9) return(invisible())
  mla_abort(
    c("Bootstrap intervals for set distances need {n_distances} {cli::qty(n_distances)}matri{?x/ces} of the distances between the {n_sets} distinct label sets ({format(bytes / 1e9, digits = 3)} GB).",
      "x" = "That is more than the 1 GB allowed.",
      "i" = "Use {.code R = 0}, fewer set distances, or {.code distance = \"hamming\"}."),
    class = "alpha_boot_memory", call = call
  )
}

# S x S distance matrices from the distinct sets' sizes and intersections.
set_distance_matrices <- function(incidence, specs, kinds, call) {
  inc <- incidence * 1
  inter <- tcrossprod(inc)
  size <- rowSums(inc)
  n <- length(size)
  sa <- matrix(size, n, n)
  sb <- t(sa)
  union <- sa + sb - inter
  # masked assignments, not ifelse(): no computing both branches over S x S
  jac <- inter / pmax(union, 1)
  jac[union == 0] <- 1
  lapply(seq_along(kinds), function(d) {
    switch(kinds[d],
      jaccard = 1 - jac,
      masi = {
        sim <- jac * (1 / 3)
        subset <- inter == sa | inter == sb
        sim[subset] <- jac[subset] * (2 / 3)
        sim[inter == 0] <- 0
        sim[inter == sa & inter == sb] <- 1
        1 - sim
      },
      size = {
        grid <- data.frame(a = c(sa), b = c(sb), i = c(inter), possible = TRUE)
        matrix(evaluate_size_distance(specs[[d]]$fn, specs[[d]]$name, grid, call), n, n)
      }
    )
  })
}

# The items with at least two complete records, in item order.
pairable_set_items <- function(a, groups) {
  n <- n_items(a)
  if (groups == n) return(seq_len(n))
  complete <- rowSums(is.na(record_values(a))) == 0L
  which(tabulate(record_item(a)[complete], n) >= 2L)
}

alpha_replicates <- function(design, seed, R, threads = 1L) {
  res <- alpha_boot_sums(design$terms, design$sets, design$D, seed, R, threads)
  alpha_from_design_sums(design, res$sums, res$quad)
}

# The engine's item sums and quadratic forms of R replicates, 2 streams per
# thread at a time (progress and interrupts between chunks; chunking does not
# change the replicates).
alpha_boot_sums <- function(terms, sets, D, seed, R, threads) {
  n_streams <- boot_streams_cpp()
  bounds <- unique(c(seq.int(0L, n_streams, by = min(n_streams, 2L * threads)), n_streams))
  chunks <- vector("list", length(bounds) - 1L)
  bar <- progress_start("Bootstrapping alpha", total = length(chunks))  # R/boot.R
  on.exit(progress_close(bar), add = TRUE)
  for (ch in seq_along(chunks)) {
    chunks[[ch]] <- alpha_boot_cpp(terms, sets$start, sets$set, sets$count, sets$n_sets, D,
                                   as.integer(seed), as.integer(R), bounds[ch], bounds[ch + 1L],
                                   as.integer(threads))
    cli::cli_progress_update(id = bar)
  }
  list(sums = do.call(rbind, lapply(chunks, `[[`, "sums")),
       quad = do.call(rbind, lapply(chunks, `[[`, "quad")))
}

# Alpha of each row from item sums (rows = replicates or left-out items).
alpha_from_design_sums <- function(design, sums, quad) {
  out <- matrix(NA_real_, nrow(sums), length(design$kinds))
  d <- 0L
  for (h in seq_along(design$kinds)) {
    if (design$kinds[h] == "hamming") {
      k <- design$n_labels
      s <- sums[, design$hamming, drop = FALSE]
      out[, h] <- hamming_alpha_from_sums(s[, seq_len(k), drop = FALSE],
                                          s[, k + seq_len(k), drop = FALSE],
                                          s[, 2L * k + seq_len(k), drop = FALSE])
    } else {
      d <- d + 1L
      out[, h] <- set_alpha_from_sums(sums[, design$m_col], sums[, design$obs_col[d]], quad[, d])
    }
  }
  out
}

set_alpha_from_sums <- function(n, obs, quad) {
  expected <- ifelse(n > 1, quad / (n * pmax(n - 1, 1)), 0)
  ifelse(expected > 0, 1 - (obs / pmax(n, 1)) / expected, NA_real_)
}

# The binary alpha of each label from the per-label sums (replicates x labels).
hamming_label_alpha_from_sums <- function(n, n1, dis) {
  observed <- dis / ifelse(n > 0, n, 1)
  expected <- ifelse(n > 1, 2 * n1 * (n - n1) / (n * pmax(n - 1, 1)), 0)
  ifelse(expected > 0, 1 - observed / expected, NA_real_)
}

# Hamming alpha of each row of the per-label sums (as hamming_alpha()).
hamming_alpha_from_sums <- function(n, n1, dis) {
  used <- n > 0
  observed <- ifelse(used, dis / ifelse(used, n, 1), 0)
  expected <- ifelse(n > 1, 2 * n1 * (n - n1) / (n * pmax(n - 1, 1)), 0)
  k_used <- rowSums(used)
  d_o <- rowSums(observed) / k_used
  d_e <- rowSums(expected * used) / k_used
  ifelse(d_e > 0, 1 - d_o / d_e, NA_real_)
}

# Leave-one-item-out alpha, exact from the item sums.
alpha_leave_one_out <- function(design) {
  terms <- design$terms
  used <- rowSums(terms != 0) > 0
  sums <- sweep(-terms[used, , drop = FALSE], 2L, colSums(terms), `+`)
  quad <- matrix(0, sum(used), length(design$D))
  if (length(design$D) > 0L) {
    st <- design$sets
    n_s <- tabulate(design$rec_set + 1L, st$n_sets)
    item_of_entry <- rep.int(seq_len(nrow(terms)), diff(st$start))
    for (d in seq_along(design$D)) {
      Dn <- drop(design$D[[d]] %*% n_s)
      Q <- sum(n_s * Dn)
      cDn <- numeric(nrow(terms))
      cDn[sort(unique(item_of_entry))] <- rowsum(st$count * Dn[st$set + 1L], item_of_entry)[, 1]
      cDc <- terms[, design$obs_col[d]] * pmax(terms[, design$m_col] - 1, 1)
      quad[, d] <- (Q - 2 * cDn + cDc)[used]
    }
  }
  alpha_from_design_sums(design, sums, quad)
}

# Jackknife SE of each row over its items with a pairable value.
alpha_jackknife_se <- function(design) {
  theta <- alpha_leave_one_out(design)
  used <- which(rowSums(design$terms != 0) > 0)
  vapply(seq_along(design$kinds), function(h) {
    cols <- if (design$kinds[h] == "hamming") design$hamming else design$m_col
    own <- rowSums(design$terms[used, cols, drop = FALSE] != 0) > 0
    jackknife_from_values(theta[own, h])
  }, numeric(1))
}

jackknife_from_values <- function(t) {
  g <- length(t)
  if (g < 2L || anyNA(t)) return(NA_real_)
  sqrt((g - 1) / g * sum((t - mean(t))^2))
}

# Labels with structure: weights, mutually exclusive groups, taxonomies, for
# test-label-structure.R and test-label-structure-fit.R. References are plain
# R, straight from the definitions: the structured distance of two
# annotations, alpha by brute force over all pairs of values (ref_alpha(),
# helper-alpha.R), and MLA from explicit pairs of records.

# Closes an annotation (0/1 vector named by label) under the taxonomy and
# returns its variables: free labels (0/1) and groups (the selected label or
# "none").
ref_variables <- function(v, labels, groups = list(), parent = NULL) {
  names(v) <- labels
  if (!is.null(parent)) {
    for (l in labels[v == 1]) {
      p <- if (l %in% names(parent)) parent[[l]] else NA
      while (!is.null(p) && !is.na(p)) {
        v[[p]] <- 1
        p <- if (p %in% names(parent)) parent[[p]] else NA
      }
    }
  }
  free <- setdiff(labels, unlist(groups))
  out <- as.list(as.character(v[free]))
  names(out) <- free
  for (g in names(groups)) {
    sel <- groups[[g]][v[groups[[g]]] == 1]
    out[[g]] <- if (length(sel) == 0) "none" else sel
  }
  out
}

ref_variable_weights <- function(vars, weights) {
  u <- stats::setNames(rep(1, length(vars)), vars)
  u[names(weights)] <- weights
  u
}

# d(r, s) = sum_v u_v [r_v != s_v] / sum_v u_v
ref_structured_distance <- function(labels, groups = list(), parent = NULL, weights = NULL) {
  function(r, s) {
    a <- ref_variables(r, labels, groups, parent)
    b <- ref_variables(s, labels, groups, parent)
    u <- ref_variable_weights(names(a), weights)
    sum(u * (unlist(a) != unlist(b))) / sum(u)
  }
}

# Per variable, from explicit records: each item's share of agreeing ordered
# pairs, category counts and decisions, Gwet's category prevalences ("none"
# of a group only when used) and chance agreement per baseline.
ref_structured_variables <- function(a, groups = list(), parent = NULL) {
  by_item <- ref_records_by_item(a)
  vars <- lapply(by_item, function(recs) lapply(recs, ref_variables, a$labels, groups, parent))
  names_v <- c(setdiff(a$labels, unlist(groups)), names(groups))
  out <- lapply(names_v, function(v) {
    vals <- lapply(vars, function(recs) vapply(recs, function(r) r[[v]], ""))
    cats <- if (v %in% names(groups)) c(groups[[v]], "none") else c("0", "1")
    item_ao <- vapply(vals, function(x) {
      m <- length(x)
      if (m < 2) return(NA_real_)
      pairs <- outer(x, x, `==`)
      (sum(pairs) - m) / (m * (m - 1))
    }, numeric(1))
    counts <- t(vapply(vals, function(x) as.numeric(table(factor(x, cats))), numeric(length(cats))))
    colnames(counts) <- cats
    pi <- stats::setNames(ref_prevalence(counts, lengths(vals)), cats)
    if (v %in% names(groups) && pi[["none"]] == 0) pi <- pi[names(pi) != "none"]
    # eq. 7: the smallest agreement over placements of the label's positives
    # or of the group's categories
    floor_ao <- if (v %in% names(groups)) {
      ref_floor_nominal(rowSums(counts), colSums(counts))
    } else {
      ref_floor_label(lengths(vals), sum(counts[, "1"]))
    }
    list(item = item_ao, ao = mean(item_ao, na.rm = TRUE), ae = unname(ref_chance_categories(pi)),
         counts = counts, m = lengths(vals), pi = pi, floor_ao = floor_ao)
  })
  stats::setNames(out, names_v)
}

# MLA from explicit pairs of records: per variable, the share of agreeing
# ordered pairs within items and Gwet's category prevalences.
ref_structured_mla <- function(a, groups = list(), parent = NULL, weights = NULL) {
  per_var <- ref_structured_variables(a, groups, parent)
  u <- ref_variable_weights(names(per_var), weights)
  ao <- vapply(per_var, `[[`, 0, "ao")
  ae <- vapply(per_var, `[[`, numeric(3), "ae")
  items <- vapply(per_var, `[[`, numeric(length(a$items)), "item")
  if (!is.matrix(items)) items <- matrix(items, nrow = length(a$items))
  item_obs <- apply(items, 1, function(x) sum((u * x)[!is.na(x)]) / sum(u[!is.na(x)]))
  expected <- colSums(u * t(ae)) / sum(u)
  floor_ao <- sum(u * vapply(per_var, `[[`, 0, "floor_ao")) / sum(u)
  list(
    estimate = colSums(u * (ao - t(ae))) / colSums(u * (1 - t(ae))),
    observed = sum(u * ao) / sum(u),
    expected = expected,
    floor_observed = floor_ao,
    floor = (floor_ao - expected) / (1 - expected),
    weight = u * (1 - t(ae)) / rep(colSums(u * (1 - t(ae))), each = length(u)),
    item_observed = item_obs,
    item_estimate = 1 - outer(1 - item_obs, 1 - expected, `/`)
  )
}

# Standard errors of the structured corpus (fleiss, ac1, pabak): Gwet's
# linearisation of each variable as irrCAC's q-category formulas (a free
# label: q = 2), u-weighted over the variables, item by item:
# c_i* = sum_v u_v ([m >= 2] n/n2_v (w_v - d_iv) + (1 - c) n/n1_v dw_v/dpi .
# (x_i/m_i - pi_v)) / sum_v u_v w_v, w = 1 - chance agreement.
ref_structured_se <- function(a, groups = list(), parent = NULL, weights = NULL) {
  per_var <- ref_structured_variables(a, groups, parent)
  u <- ref_variable_weights(names(per_var), weights)
  est <- unname(ref_structured_mla(a, groups, parent, weights)$estimate)
  used <- names(per_var)[vapply(per_var, function(p) any(p$m >= 2), TRUE)]
  rated <- Reduce(`|`, lapply(per_var[used], function(p) p$m >= 1))
  n <- sum(rated)
  w_bar <- rowSums(vapply(used, function(v) u[[v]] * (1 - per_var[[v]]$ae), numeric(3))) / sum(u[used])
  terms <- matrix(0, length(rated), 3)
  for (v in used) {
    p <- per_var[[v]]
    slope <- c(1, -1 / (length(p$pi) - 1), 0)  # dw/dpi_c = slope (1 - 2 pi_c)
    for (i in which(p$m >= 1)) {
      obs <- if (p$m[i] >= 2) n / sum(p$m >= 2) * ((1 - p$ae) - (1 - p$item[i])) else 0
      dev <- sum((1 - 2 * p$pi) * (p$counts[i, names(p$pi)] / p$m[i] - p$pi))
      terms[i, ] <- terms[i, ] + u[[v]] * (obs + (1 - est) * slope * n / sum(p$m >= 1) * dev)
    }
  }
  ci <- sweep(terms[rated, , drop = FALSE], 2, sum(u[used]) * w_bar, `/`)
  sqrt(colSums(sweep(ci, 2, est)^2) / (n * (n - 1)))
}

# Random design: items x annotators x labels, some whole records absent;
# labels of each group exclude one another.
random_structured_array <- function(n_items, n_ann, labels, groups = list(), p = 0.35, absent = 0.2) {
  arr <- array(stats::rbinom(n_items * n_ann * length(labels), 1, p),
               c(n_items, n_ann, length(labels)),
               dimnames = list(paste0("i", seq_len(n_items)), paste0("a", seq_len(n_ann)), labels))
  for (g in groups) {
    for (i in seq_len(n_items)) for (c in seq_len(n_ann)) {
      arr[i, c, g] <- 0L
      pick <- sample(c(g, NA), 1)
      if (!is.na(pick)) arr[i, c, pick] <- 1L
    }
  }
  for (i in seq_len(n_items)) for (c in seq_len(n_ann)) if (stats::runif(1) < absent) arr[i, c, ] <- NA
  arr
}

expect_alpha_matches <- function(arr, ..., ref_dist) {
  a <- as_annotations(arr)
  got <- krippendorff_alpha(a, "hamming", ...)
  ref <- ref_alpha(ref_records_by_item(a), ref_dist)
  expect_equal(got$observed_disagreement, ref[["observed"]], tolerance = 1e-12)
  expect_equal(got$expected_disagreement, ref[["expected"]], tolerance = 1e-12)
  # absolute: alpha near 0 is a difference of nearly equal numbers
  expect_lt(abs(got$estimate - ref[["alpha"]]), 1e-12)
}

expect_mla_matches <- function(fit, ref) {
  cor <- tidy(fit, conf.int = FALSE)
  expect_equal(cor$estimate, unname(ref$estimate), tolerance = 1e-12)
  expect_equal(cor$observed, rep(ref$observed, 3), tolerance = 1e-12)
  expect_equal(cor$expected, unname(ref$expected), tolerance = 1e-12)
  expect_equal(cor$floor_observed, rep(ref$floor_observed, 3), tolerance = 1e-12)
  expect_equal(cor$floor, unname(ref$floor), tolerance = 1e-12)
  items <- tidy(fit, "item")
  expect_equal(items$observed, rep(ref$item_observed, 3), tolerance = 1e-12)
  expect_equal(items$estimate, as.vector(ref$item_estimate), tolerance = 1e-12)
}

# Annotator bootstrap reference for a structured fit (complete records): the
# statistics of mla_boot() when annotator a appears aw[a] times and item i
# iw[i] times, ordered pairs of copies of one annotator not being pairs
# (as ref_annotator_stats()). Per variable, from the closed records.
ref_structured_annotator_stats <- function(arr, groups, parent, weights, aw, iw = rep(1L, dim(arr)[1])) {
  labels <- dimnames(arr)[[3]]
  ids <- rep(seq_len(dim(arr)[2]), aw)
  per_item <- lapply(seq_len(dim(arr)[1]), function(i) {
    keep <- !is.na(arr[i, ids, 1])
    list(id = ids[keep], vars = lapply(which(keep), function(c) ref_variables(arr[i, ids[c], ], labels, groups, parent)))
  })
  closed <- arr
  for (i in seq_len(dim(arr)[1])) for (c in seq_len(dim(arr)[2])) {
    if (anyNA(arr[i, c, ])) next
    v <- ref_variables(arr[i, c, ], labels, list(), parent)
    closed[i, c, ] <- as.integer(unlist(v[labels]))
  }
  label_rows <- matrix(ref_annotator_stats(closed, aw, iw)[-(1:3)], ncol = 3)
  var_names <- c(setdiff(labels, unlist(groups)), names(groups))
  u <- ref_variable_weights(var_names, weights)
  per_var <- lapply(var_names, function(v) {
    cats <- if (v %in% names(groups)) c(groups[[v]], "none") else c("0", "1")
    share <- numeric(0)
    dis <- numeric(0)
    for (i in seq_along(per_item)) {
      x <- vapply(per_item[[i]]$vars, function(r) r[[v]], "")
      if (length(x) == 0 || iw[i] == 0) next
      share <- rbind(share, t(replicate(iw[i], as.numeric(table(factor(x, cats))) / length(x))))
      distinct <- outer(per_item[[i]]$id, per_item[[i]]$id, "!=")
      if (any(distinct)) dis <- c(dis, rep(sum(outer(x, x, "!=") & distinct) / sum(distinct), iw[i]))
    }
    pi <- stats::setNames(colMeans(share), cats)
    if (v %in% names(groups) && pi[["none"]] == 0) pi <- pi[names(pi) != "none"]
    list(pairable = length(dis) > 0, ao = 1 - mean(dis), ae = ref_chance_categories(pi))
  })
  used <- vapply(per_var, `[[`, TRUE, "pairable")
  ao <- vapply(per_var, `[[`, 0, "ao")[used]
  ae <- vapply(per_var, `[[`, numeric(3), "ae")[, used, drop = FALSE]
  corpus <- colSums(u[used] * (ao - t(ae))) / colSums(u[used] * (1 - t(ae)))
  group_rows <- t(vapply(per_var[var_names %in% names(groups)], function(p) {
    if (p$pairable) (p$ao - p$ae) / (1 - p$ae) else rep(NA_real_, 3)
  }, numeric(3)))
  unname(c(corpus, rbind(label_rows, group_rows)))
}

# Leave-one-annotator-out refits of a structured fit: annotators x the
# statistics of mla_boot(), NA where nothing is left to estimate.
ref_structured_annotator_jack <- function(fit, annotators) {
  a <- fit$annotations
  n_stats <- nrow(fit$corpus) + nrow(fit$label)
  values <- vapply(annotators, function(j) {
    refit <- tryCatch(
      do.call(mla, c(list(a[, -j, fit$label_index], baseline = fit$baseline),
                     mlagreement:::structure_arguments(fit$structure))),
      mlagreement_error = function(e) NULL
    )
    if (is.null(refit)) rep(NA_real_, n_stats) else c(refit$corpus$estimate, refit$label$estimate)
  }, numeric(n_stats))
  unname(t(matrix(values, nrow = n_stats)))
}

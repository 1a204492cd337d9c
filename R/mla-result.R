# Builds the `mla` result object from the C++ estimates: three tibbles (corpus,
# label, item) in long form over the three baselines, plus the design and the
# reasons for every undefined value.

new_mla <- function(x, cols, est, tally, baseline) {
  lab <- est$label
  k <- length(cols)
  labels <- x$labels[cols]
  pairable <- lab$n_pairable > 0
  w <- lab$w                                   # k x 3: 1 - A_e,j per baseline
  w[!pairable, ] <- NA_real_
  d_obs <- lab$d_obs
  label_estimate <- na_if_nan(lab$estimate)   # computed in C++ in double-double
  label_floor <- na_if_nan(lab$floor)
  weight_sum <- colSums(w, na.rm = TRUE)
  weight <- sweep(w, 2, ifelse(weight_sum > 0, weight_sum, NA_real_), "/")

  label_tbl <- fast_tibble(
    label = rep(labels, times = 3L),
    baseline = rep(baseline_names, each = k),
    prevalence = rep(na_if_nan(lab$p), 3L),
    observed = rep(1 - d_obs, 3L),
    expected = as.vector(1 - w),
    estimate = as.vector(label_estimate),
    weight = as.vector(weight),
    floor = as.vector(label_floor),
    positive_agreement = rep(safe_div(lab$pos_num, lab$pos_den), 3L),
    negative_agreement = rep(safe_div(lab$neg_num, lab$neg_den), 3L)
  )

  cor <- est$corpus
  corpus_tbl <- fast_tibble(
    baseline = baseline_names,
    observed = 1 - cor$d_obs,
    expected = 1 - cor$w,
    estimate = na_if_nan(cor$estimate),
    floor_observed = 1 - cor$d_max,
    floor = na_if_nan(cor$floor)
  )

  # Item rows (items x baselines) are built by tidy(): keep one value per item.
  item_d <- tally$d_sum / tally$n_pairable
  item_d[tally$n_pairable == 0L] <- NA_real_

  n_items <- length(x$items)
  n_cells <- as.double(n_items) * length(x$annotators) * k  # > 2^31 in large sparse designs
  design <- list(
    n_items = n_items,
    n_annotators = length(x$annotators),
    n_labels = k,
    n_records = x$n_records,
    missing_share = 1 - sum(lab$decisions) / n_cells,
    prevalence = mean(lab$p[lab$n_rated > 0]),
    n_labels_used = cor$n_labels_used,
    never_selected = labels[lab$positives == 0 & lab$n_rated > 0],
    always_selected = labels[lab$positives == lab$decisions & lab$n_rated > 0],
    annotators_per_item = x$item_annotators,
    n_pairable_items = sum(x$item_annotators >= 2)
  )

  structure(
    list(
      corpus = corpus_tbl,
      label = label_tbl,
      item_disagreement = item_d,
      corpus_w = cor$w,
      design = design,
      baseline = baseline,
      labels = labels,
      notes = undefined_notes(labels, lab, w, cor),
      annotations = x,
      label_index = cols
    ),
    class = "mla"
  )
}

# 1 - d / w, NA (not NaN/Inf) where w is zero or missing.
ratio_or_na <- function(d, w) {
  out <- 1 - d / w
  out[is.na(w) | !(w > 0) | is.na(d)] <- NA_real_
  out
}

safe_div <- function(num, den) ifelse(den > 0, num / den, NA_real_)

na_if_nan <- function(x) {
  x[is.nan(x)] <- NA_real_
  x
}

# Why each undefined value is undefined, one row per label x baseline.
undefined_notes <- function(labels, lab, w, cor) {
  k <- length(labels)
  reason <- rep(NA_character_, 3L * k)
  rated <- rep(lab$n_rated > 0, 3L)
  pairable <- rep(lab$n_pairable > 0, 3L)
  zero_w <- as.vector(!is.na(w) & w == 0)
  reason[zero_w] <- "label is constant: chance agreement is 1 under this baseline"
  reason[rated & !pairable] <- "no item has two decisions on this label"
  reason[!rated] <- "no decisions on this label"
  label_notes <- fast_tibble(
    level = "label",
    label = rep(labels, times = 3L),
    baseline = rep(baseline_names, each = k),
    reason = reason
  )
  keep <- !is.na(label_notes$reason)
  corpus_zero <- which(!(cor$w > 0))
  fast_tibble(
    level = c(rep("corpus", length(corpus_zero)), label_notes$level[keep]),
    label = c(rep(NA_character_, length(corpus_zero)), label_notes$label[keep]),
    baseline = c(baseline_names[corpus_zero], label_notes$baseline[keep]),
    reason = c(rep("every label is constant: chance agreement is 1", length(corpus_zero)),
               label_notes$reason[keep])
  )
}

# Item level, items x baselines: the observed value with the corpus baseline.
item_table <- function(fit) {
  x <- fit$annotations
  n_items <- length(x$items)
  d <- fit$item_disagreement
  w <- fit$corpus_w
  estimate <- c(1 - d / w[1], 1 - d / w[2], 1 - d / w[3])
  estimate[rep(!(w > 0) | is.na(w), each = n_items)] <- NA_real_
  fast_tibble(
    item = rep(x$items, times = 3L),
    n_annotators = rep(x$item_annotators, times = 3L),
    baseline = rep(baseline_names, each = n_items),
    observed = rep(1 - d, times = 3L),
    estimate = estimate
  )
}

# tibble::tibble() checks its inputs (about 1 ms a call); these columns are
# built here, so construct the tibble directly, recycling length-1 columns.
fast_tibble <- function(...) {
  cols <- list(...)
  n <- max(lengths(cols))
  cols <- lapply(cols, function(col) if (length(col) == 1L && n != 1L) rep(col, n) else col)
  tibble::new_tibble(cols, nrow = n)
}

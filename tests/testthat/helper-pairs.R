# Plain-R references for annotator_agreement(): slow and obvious, on a dense
# items x annotators x labels array (NA = missing decision).

# 1 - A_e of the pooled-marginal baseline on the whole array: mean over the
# labels with a pairable item of 1 - A_e,j (ref_prevalence(), ref_chance()).
ref_corpus_w <- function(arr) {
  w <- c()
  for (j in seq_len(dim(arr)[3])) {
    v <- arr[, , j, drop = FALSE]
    m <- apply(v, 1, function(r) sum(!is.na(r)))
    x <- apply(v, 1, function(r) sum(r, na.rm = TRUE))
    if (!any(m >= 2)) next
    w <- c(w, 1 - ref_chance(ref_prevalence(x, m))[, "fleiss"])
  }
  mean(w)
}

ref_annotator_pairs <- function(arr, min_items = 10) {
  corpus_w <- ref_corpus_w(arr)
  n_ann <- dim(arr)[2]
  k <- dim(arr)[3]
  has <- apply(arr, c(1, 2), function(v) any(!is.na(v)))
  out <- list()
  for (a in seq_len(n_ann - 1)) for (b in (a + 1):n_ann) {
    shared <- which(has[, a] & has[, b])
    if (length(shared) == 0) next
    va <- arr[shared, a, , drop = FALSE]
    vb <- arr[shared, b, , drop = FALSE]
    both <- !is.na(va) & !is.na(vb)
    agree <- sum(va[both] == vb[both])
    d_lab <- w_lab <- numeric()
    for (j in seq_len(k)) {
      xa <- va[, 1, j]
      xb <- vb[, 1, j]
      pairable <- !is.na(xa) & !is.na(xb)
      if (!any(pairable)) next
      d_lab <- c(d_lab, mean(xa[pairable] != xb[pairable]))
      # the pair's own prevalence: its decisions on the shared items
      dec <- cbind(xa, xb)
      p <- ref_prevalence(rowSums(dec, na.rm = TRUE), rowSums(!is.na(dec)))
      w_lab <- c(w_lab, 1 - ref_chance(p)[, "fleiss"])
    }
    w <- if (length(w_lab)) mean(w_lab) else NA
    est <- if (length(w_lab) && w > 0) 1 - mean(d_lab) / w else NA_real_
    observed <- if (sum(both) > 0) agree / sum(both) else NA_real_
    out[[length(out) + 1]] <- data.frame(
      a = a, b = b, n_items = length(shared), n_decisions = sum(both),
      observed = observed, expected = 1 - corpus_w,
      estimate = if (length(shared) >= min_items) 1 - (1 - observed) / corpus_w else NA_real_,
      pair_estimate = if (length(shared) >= min_items) est else NA_real_
    )
  }
  do.call(rbind, out)
}

ref_annotator_summary <- function(arr, min_items = 10) {
  pairs <- ref_annotator_pairs(arr, min_items)
  corpus_w <- ref_corpus_w(arr)
  n_ann <- dim(arr)[2]
  has <- apply(arr, c(1, 2), function(v) any(!is.na(v)))
  shared_item <- rowSums(has) >= 2
  t(vapply(seq_len(n_ann), function(a) {
    mine <- pairs[pairs$a == a | pairs$b == a, ]
    v <- arr[, a, ]
    observed <- sum(mine$observed * mine$n_decisions, na.rm = TRUE) / sum(mine$n_decisions)
    n_shared <- sum(has[, a] & shared_item)
    c(n_items = sum(has[, a]),
      n_shared_items = n_shared,
      n_partners = nrow(mine),
      prevalence = mean(v[!is.na(v)]),
      observed = observed,
      estimate = if (n_shared >= min_items) 1 - (1 - observed) / corpus_w else NA,
      kappa = if (n_shared >= min_items) ref_annotator_kappa(arr, a) else NA)
  }, numeric(7)))
}

# Annotator a against the rest, Cohen-style: per label, the 2 x 2 table of
# every (a's decision, another annotator's decision) on the same item and
# label; kappa = 1 - mean_j D_j / mean_j E_j over the labels with a table,
# E_j the chance disagreement of the table's margins.
ref_annotator_kappa <- function(arr, a) {
  d <- e <- c()
  for (j in seq_len(dim(arr)[3])) {
    tab <- matrix(0, 2, 2)
    for (i in seq_len(dim(arr)[1])) {
      va <- arr[i, a, j]
      if (is.na(va)) next
      for (b in setdiff(seq_len(dim(arr)[2]), a)) {
        vb <- arr[i, b, j]
        if (!is.na(vb)) tab[va + 1, vb + 1] <- tab[va + 1, vb + 1] + 1
      }
    }
    n <- sum(tab)
    if (n == 0) next
    p <- sum(tab[2, ]) / n
    q <- sum(tab[, 2]) / n
    d <- c(d, (tab[1, 2] + tab[2, 1]) / n)
    e <- c(e, p * (1 - q) + q * (1 - p))
  }
  if (length(e) == 0 || sum(e) == 0) NA_real_ else 1 - mean(d) / mean(e)
}

# Single-label references on an items x annotators matrix of categories (NA =
# no record): counts of agreeing category pairs, one comparison per pair of
# records. Pairs of annotators who share an item, in column order.
ref_category_pairs <- function(m) {
  out <- list()
  for (a in seq_len(ncol(m) - 1)) for (b in (a + 1):ncol(m)) {
    both <- !is.na(m[, a]) & !is.na(m[, b])
    if (!any(both)) next
    out[[length(out) + 1]] <- data.frame(
      annotator1 = colnames(m)[a], annotator2 = colnames(m)[b], n_decisions = sum(both),
      observed = sum(m[both, a] == m[both, b]) / sum(both), stringsAsFactors = FALSE)
  }
  do.call(rbind, out)
}

# Annotator a's records (or the stand-in categories `stand[, a]`) against
# every other annotator's record of the same item: agreeing comparisons and
# comparisons, per annotator.
ref_category_annotators <- function(m, stand = m) {
  t(vapply(seq_len(ncol(m)), function(a) {
    agree <- n <- 0
    for (i in which(!is.na(m[, a]) & !is.na(stand[, a]))) {
      others <- setdiff(which(!is.na(m[i, ])), a)
      agree <- agree + sum(m[i, others] == stand[i, a])
      n <- n + length(others)
    }
    c(agree = agree, n = n)
  }, numeric(2)))
}

# One-hot items x annotators x categories array of a category matrix.
one_hot_array <- function(m, categories) {
  arr <- array(NA_integer_, c(dim(m), length(categories)),
               dimnames = c(dimnames(m), list(categories)))
  for (k in seq_along(categories)) arr[, , k] <- ifelse(is.na(m), NA, as.integer(m == categories[k]))
  arr
}

# A category matrix as long single-label records (NA cells dropped).
category_long <- function(m) {
  long <- data.frame(item = rep(rownames(m), ncol(m)), annotator = rep(colnames(m), each = nrow(m)),
                     category = as.vector(m), stringsAsFactors = FALSE)
  long[!is.na(long$category), ]
}

# The records of VariErr NLI that choose one category, as an items x
# annotators matrix (NULL when the shared data are not on this machine).
varierr_single_choice <- function() {
  path <- "/work/shared/data/varierr_nli.csv"
  if (!file.exists(path)) return(NULL)
  v <- utils::read.csv(path, colClasses = c(item = "character", annotator = "character",
                                            label = "character", value = "integer"))
  pos <- v[v$value == 1, ]
  key <- paste(pos$item, pos$annotator)
  pos <- pos[!key %in% key[duplicated(key)], ]
  m <- matrix(NA_character_, length(unique(v$item)), length(unique(v$annotator)),
              dimnames = list(sort(unique(v$item)), sort(unique(v$annotator))))
  m[cbind(match(pos$item, rownames(m)), match(pos$annotator, colnames(m)))] <- pos$label
  m
}

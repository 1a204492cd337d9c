# Plain-R references for annotator_agreement(): slow and obvious, on a dense
# items x annotators x labels array (NA = missing decision).

ref_annotator_pairs <- function(arr) {
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
      share <- c()
      for (i in seq_along(shared)) {
        dec <- c(xa[i], xb[i])
        dec <- dec[!is.na(dec)]
        if (length(dec) > 0) share <- c(share, mean(dec))
      }
      p <- mean(share)
      w_lab <- c(w_lab, 1 - (p^2 + (1 - p)^2))
    }
    w <- if (length(w_lab)) mean(w_lab) else NA
    est <- if (length(w_lab) && w > 0) 1 - mean(d_lab) / w else NA_real_
    out[[length(out) + 1]] <- data.frame(
      a = a, b = b, n_items = length(shared), n_decisions = sum(both),
      observed = if (sum(both) > 0) agree / sum(both) else NA_real_,
      expected = 1 - w, estimate = est
    )
  }
  do.call(rbind, out)
}

ref_annotator_summary <- function(arr) {
  pairs <- ref_annotator_pairs(arr)
  n_ann <- dim(arr)[2]
  has <- apply(arr, c(1, 2), function(v) any(!is.na(v)))
  t(vapply(seq_len(n_ann), function(a) {
    mine <- pairs[pairs$a == a | pairs$b == a, ]
    ok <- !is.na(mine$estimate)
    v <- arr[, a, ]
    c(n_items = sum(has[, a]),
      n_partners = nrow(mine),
      prevalence = mean(v[!is.na(v)]),
      observed = sum(mine$observed * mine$n_decisions, na.rm = TRUE) / sum(mine$n_decisions),
      estimate = if (any(ok)) sum(mine$estimate[ok] * mine$n_items[ok]) / sum(mine$n_items[ok]) else NA)
  }, numeric(5)))
}

# Long data frame (one row per decision) from a dense array.
array_to_long <- function(arr) {
  d <- dim(arr)
  dn <- dimnames(arr)
  df <- data.frame(
    item = rep(dn[[1]], times = d[2] * d[3]),
    annotator = rep(rep(dn[[2]], each = d[1]), times = d[3]),
    label = rep(dn[[3]], each = d[1] * d[2]),
    value = as.vector(arr)
  )
  df[!is.na(df$value), ]
}

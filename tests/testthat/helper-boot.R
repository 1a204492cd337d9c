# Plain-R references for the bootstrap (slow, obviously correct).

# Noisy generator (paper section 4): true label z ~ Bernoulli(p) per item and
# label; each annotator reports z flipped with probability `error`.
boot_sim_array <- function(n_items, n_annotators, n_labels, p = 0.3, error = 0.1,
                           n_missing = 0) {
  z <- matrix(stats::rbinom(n_items * n_labels, 1, p), n_items, n_labels)
  arr <- array(NA_integer_, c(n_items, n_annotators, n_labels),
               dimnames = list(paste0("i", seq_len(n_items)), paste0("a", seq_len(n_annotators)),
                               paste0("L", seq_len(n_labels))))
  for (a in seq_len(n_annotators)) {
    flip <- matrix(stats::runif(n_items * n_labels) < error, n_items, n_labels)
    arr[, a, ] <- ifelse(flip, 1L - z, z)
  }
  if (n_missing > 0) arr[sample(length(arr), n_missing)] <- NA_integer_
  arr
}

# True pooled-marginal coefficient of the noisy generator.
boot_sim_truth <- function(p, error) {
  A <- (1 - error)^2 + error^2
  q <- error + p * (1 - 2 * error)
  Ae <- q^2 + (1 - q)^2
  (A - Ae) / (1 - Ae)
}

# The 300 x 4 x 6 test design, with a few missing decisions.
boot_fixture <- function(seed = 11) {
  withr::with_seed(seed, boot_sim_array(300, 4, 6, n_missing = 150))
}

# Coefficients from per-label vectors: corpus (3 baselines), then labels
# baseline-major, the order of mla_boot()'s statistics.
ref_coefficients <- function(p, d, pairable) {
  q <- 1 - p
  chance <- cbind(fleiss = 2 * p * q, ac1 = p^2 + q^2, pabak = rep(0.5, length(p)))
  lab <- 1 - d / chance
  lab[!pairable, ] <- NA
  lab[!is.na(chance) & chance == 0] <- NA
  used <- pairable
  D <- mean(d[used])
  W <- colMeans(chance[used, , drop = FALSE])
  cor <- ifelse(W > 0, 1 - D / W, NA)
  unname(c(cor, as.vector(lab)))
}

# Item bootstrap reference: repeat each item w_i times and refit from x, m.
ref_item_stats <- function(x, m, w = rep(1L, nrow(x))) {
  idx <- rep(seq_len(nrow(x)), w)
  x <- x[idx, , drop = FALSE]
  m <- m[idx, , drop = FALSE]
  k <- ncol(x)
  p <- d <- numeric(k)
  pairable <- logical(k)
  for (j in seq_len(k)) {
    rated <- m[, j] >= 1
    p[j] <- mean(x[rated, j] / m[rated, j])
    pr <- m[, j] >= 2
    pairable[j] <- any(pr)
    xx <- x[pr, j]
    mm <- m[pr, j]
    d[j] <- if (any(pr)) mean(2 * xx * (mm - xx) / (mm * (mm - 1))) else NA
  }
  ref_coefficients(p, d, pairable)
}

# Annotator bootstrap reference: annotator a appears aw[a] times, item i
# iw[i] times; ordered pairs of copies of the same original annotator are not
# pairs. Enumerates the pairs explicitly.
ref_annotator_stats <- function(arr, aw, iw = rep(1L, dim(arr)[1])) {
  n <- dim(arr)[1]
  k <- dim(arr)[3]
  ids <- rep(seq_len(dim(arr)[2]), aw)
  p <- d <- numeric(k)
  pairable <- logical(k)
  for (j in seq_len(k)) {
    prev <- dis <- c()
    for (i in seq_len(n)) {
      v <- arr[i, ids, j]
      id <- ids[!is.na(v)]
      v <- v[!is.na(v)]
      if (length(v) == 0) next
      prev <- c(prev, rep(mean(v), iw[i]))
      distinct <- outer(id, id, "!=")
      if (!any(distinct)) next
      disagree <- outer(v, v, "!=") & distinct
      dis <- c(dis, rep(sum(disagree) / sum(distinct), iw[i]))
    }
    p[j] <- mean(prev)
    pairable[j] <- length(dis) > 0
    d[j] <- if (pairable[j]) mean(dis) else NA
  }
  ref_coefficients(p, d, pairable)
}

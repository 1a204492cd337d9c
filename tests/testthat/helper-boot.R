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

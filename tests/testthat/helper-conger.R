# Plain-R references for the annotator-specific (Conger/Cohen) baseline and
# Light's kappa, written from the definitions (Conger 1980; Gwet 2014), pair
# by pair and item by item.

# The conger rows of tidy(fit).
conger_row <- function(fit, level = "corpus", ...) {
  out <- tidy(fit, level = level, ...)
  out[out$baseline == "conger", , drop = FALSE]
}

# irrCAC's ratings as a single-label annotations object (categories declared
# in sorted order, as irrCAC sorts them).
single_label_of <- function(d) {
  m <- as.matrix(d)
  m[m == ""] <- NA
  as_annotations(m, labels = sort(unique(stats::na.omit(as.vector(m)))))
}

# One label of an items x annotators 0/1/NA matrix: observed and chance
# disagreement (NA without a pairable item).
ref_conger_label <- function(X) {
  m <- rowSums(!is.na(X))
  x <- rowSums(X == 1, na.rm = TRUE)
  pairable <- m >= 2
  if (!any(pairable)) return(c(d_obs = NA, d_exp = NA))
  d_obs <- mean(2 * x[pairable] * (m[pairable] - x[pairable]) / (m[pairable] * (m[pairable] - 1)))
  rated <- which(colSums(!is.na(X)) > 0)
  p <- vapply(rated, function(g) mean(X[, g], na.rm = TRUE), numeric(1))
  pairs <- 0
  d_exp <- 0
  for (g in seq_along(p)) for (h in seq_along(p)) {
    if (g == h) next
    d_exp <- d_exp + p[g] * (1 - p[h]) + p[h] * (1 - p[g])
    pairs <- pairs + 1
  }
  c(d_obs = unname(d_obs), d_exp = unname(d_exp) / pairs)
}

# Label coefficients, eq. 6 weights and the corpus coefficient of an
# items x annotators x labels array.
ref_conger <- function(arr) {
  parts <- vapply(seq_len(dim(arr)[3]), function(j) ref_conger_label(arr[, , j]), numeric(2))
  used <- !is.na(parts["d_obs", ])
  d <- parts["d_obs", used]
  w <- parts["d_exp", used]
  label <- rep(NA_real_, ncol(parts))
  label[used] <- 1 - d / w
  weight <- rep(NA_real_, ncol(parts))
  weight[used] <- w / sum(w)
  list(label = label, weight = weight, corpus = 1 - sum(d) / sum(w),
       corpus_expected = 1 - mean(w))
}

# Cohen's kappa of two annotators on the items both rated (categories as
# codes), unweighted.
ref_cohen <- function(a, b) {
  keep <- !is.na(a) & !is.na(b)
  a <- a[keep]
  b <- b[keep]
  lev <- sort(unique(c(a, b)))
  po <- mean(a == b)
  pe <- sum(vapply(lev, function(k) mean(a == k) * mean(b == k), numeric(1)))
  (po - pe) / (1 - pe)
}

# irrCAC's Conger kappa and its standard error on the items with a rating.
irrcac_conger <- function(m, ...) {
  m <- as.matrix(m)
  m <- m[rowSums(!is.na(m)) > 0, , drop = FALSE]
  irrCAC::conger.kappa.raw(as.data.frame(m), ...)
}

# irrCAC rounds coeff.se to 5 digits; its p-value, 1 - pt(c / se, n - 1), is
# not rounded, so the unrounded standard error is c / qt(1 - p, n - 1).
irrcac_se <- function(est, n) {
  c <- (est$pa - est$pe) / (1 - est$pe)
  c / stats::qt(1 - est$p.value, n - 1)
}
expect_irrcac_se <- function(se, est, n) {
  testthat::expect_lte(abs(se - est$coeff.se), 5e-6 + 1e-12)
  if (est$p.value > 1e-9 && est$p.value < 1 - 1e-9) {
    testthat::expect_equal(se, irrcac_se(est, n), tolerance = 1e-7)
  }
}

# A data set of irr as a character matrix.
irr_matrix <- function(name) {
  env <- new.env()
  utils::data(list = name, package = "irr", envir = env)
  as.matrix(data.frame(lapply(env[[name]], as.character)))
}

# A random multi-label array with missing decisions and unequal annotators.
random_conger_array <- function(n = 40, J = 4, k = 5, missing = 0.15) {
  p <- stats::runif(k, 0.1, 0.6)
  bias <- stats::runif(J, -0.1, 0.1)
  arr <- array(NA_integer_, c(n, J, k))
  for (j in seq_len(k)) for (g in seq_len(J)) {
    arr[, g, j] <- stats::rbinom(n, 1, pmin(0.95, pmax(0.02, p[j] + bias[g])))
  }
  arr[stats::runif(length(arr)) < missing] <- NA
  dimnames(arr) <- list(NULL, paste0("a", seq_len(J)), paste0("L", seq_len(k)))
  arr
}

# irrCAC's item terms of one binary label (conger.kappa.raw()'s pa.ivec and
# pe.ivec, written out for q = 2 and identity weights) on the items rated.
ref_conger_terms <- function(X) {
  X <- X[, colSums(!is.na(X)) > 0, drop = FALSE]
  n <- nrow(X)
  r <- ncol(X)
  agree <- cbind(rowSums(X == 0, na.rm = TRUE), rowSums(X == 1, na.rm = TRUE))
  ri <- rowSums(agree)
  pa_i <- ifelse(ri >= 2, rowSums(agree * (agree - 1)) / pmax(ri * (ri - 1), 1), 0)
  pa <- mean(pa_i[ri >= 2])
  ng <- colSums(!is.na(X))
  pgk <- cbind(colSums(X == 0, na.rm = TRUE), colSums(X == 1, na.rm = TRUE)) / ng
  pbar <- colMeans(pgk)
  pe <- sum(diag(outer(pbar, pbar) - stats::cov(pgk) / r))  # identity weights
  eps <- !is.na(X)
  lambda <- matrix(0, n, r)
  for (k in 1:2) {
    delta <- !is.na(X) & X == (k - 1)
    term <- (delta - (eps - rep(1, n) %*% t(ng / n)) * (rep(1, n) %*% t(pgk[, k])))
    term <- term * (rep(1, n) %*% t(n / ng))
    lambda <- lambda + term * (r * pbar[k] - rep(1, n) %*% t(pgk[, k]))
  }
  pe_i <- rowSums(lambda) / (r * (r - 1))
  list(n = n, n2 = sum(ri >= 2), pa = pa, pe = pe, a = ifelse(ri >= 2, pa_i - pe, 0),
       e = pe_i - pe)
}

# The corpus row's standard error from the labels' item terms:
# c_i* = (sum_j (n / n2_j) a_ij - (1 - c) sum_j 2 (n / n_j) e_ij) / sum_j (1 - pe_j).
ref_conger_corpus_se <- function(arr) {
  N <- dim(arr)[1]
  rated <- apply(!is.na(arr), c(1, 3), any)
  used <- which(colSums(apply(!is.na(arr), c(1, 3), sum) >= 2) > 0)
  terms <- lapply(used, function(j) ref_conger_terms(arr[rated[, j], , j]))
  W <- sum(vapply(terms, function(t) 1 - t$pe, 1))
  D <- sum(vapply(terms, function(t) 1 - t$pa, 1))
  c <- (W - D) / W
  items <- which(rowSums(rated[, used, drop = FALSE]) > 0)
  n <- length(items)
  num <- numeric(N)
  for (t in seq_along(used)) {
    rows <- which(rated[, used[t]])
    tt <- terms[[t]]
    num[rows] <- num[rows] + n / tt$n2 * tt$a - (1 - c) * 2 * n / tt$n * tt$e
  }
  ci <- num[items] / W
  sqrt(sum((ci - c)^2) / (n * (n - 1)))
}

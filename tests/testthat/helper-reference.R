# Slow, obviously-correct plain-R reference for Multi-Label Agreement.
# Works on a dense items x annotators x labels array with NA = missing and
# compares decisions pair by pair, exactly as the paper and DESIGN.md define
# every quantity (Gwet's unequal-raters conventions for missing decisions).

ref_pairs_agree <- function(v) {
  # Share of ordered pairs of distinct decisions that agree.
  m <- length(v)
  agree <- 0
  for (a in seq_len(m)) for (b in seq_len(m)) if (a != b) agree <- agree + (v[a] == v[b])
  agree / (m * (m - 1))
}

ref_specific <- function(vs, which) {
  # Specific agreement: over ordered pairs whose first decision is `which`,
  # the share whose second decision is `which` too.
  num <- 0
  den <- 0
  for (v in vs) {
    m <- length(v)
    for (a in seq_len(m)) for (b in seq_len(m)) {
      if (a != b && v[a] == which) {
        den <- den + 1
        num <- num + (v[b] == which)
      }
    }
  }
  if (den == 0) NA_real_ else num / den
}

# Smallest mean pairwise agreement over all reallocations of the label's
# positives to its items, each item keeping its number of decisions: exact
# dynamic programme over items (state = positives placed so far).
ref_floor_label <- function(m_i, total) {
  m_i <- m_i[m_i > 0]
  agree_of <- function(x, m) if (m < 2) 0 else (x * (x - 1) + (m - x) * (m - x - 1)) / (m * (m - 1))
  best <- c(0, rep(Inf, total))           # best[t + 1]: min agreement sum with t positives
  for (m in m_i) {
    nxt <- rep(Inf, total + 1)
    for (t in 0:total) {
      if (!is.finite(best[t + 1])) next
      for (x in 0:min(m, total - t)) {
        nxt[t + x + 1] <- min(nxt[t + x + 1], best[t + 1] + agree_of(x, m))
      }
    }
    best <- nxt
  }
  best[total + 1] / sum(m_i >= 2)
}

# The same for a nominal variable (a single-label design, a group): the
# smallest mean agreement over all item x category count tables with the
# items' numbers of decisions m_i and the category totals. Exact dynamic
# programme over items, the state the totals left per category (keyed in
# mixed radix; the smallest agreement sum kept per state).
ref_floor_nominal <- function(m_i, totals) {
  m_i <- m_i[m_i > 0]
  stopifnot(sum(m_i) == sum(totals))
  q <- length(totals)
  radix <- cumprod(c(1, totals + 1))[seq_len(q)]
  states <- matrix(totals, 1)
  value <- 0
  for (m in m_i) {
    parts <- as.matrix(expand.grid(rep(list(0:m), q)))
    parts <- parts[rowSums(parts) == m, , drop = FALSE]
    agree <- if (m < 2) rep(0, nrow(parts)) else rowSums(parts * (parts - 1)) / (m * (m - 1))
    s <- rep(seq_len(nrow(states)), each = nrow(parts))
    p <- rep(seq_len(nrow(parts)), times = nrow(states))
    left <- states[s, , drop = FALSE] - parts[p, , drop = FALSE]
    ok <- rowSums(left < 0) == 0
    left <- left[ok, , drop = FALSE]
    v <- value[s[ok]] + agree[p[ok]]
    key <- drop(left %*% radix)
    o <- order(key, v)
    first <- o[!duplicated(key[o])]
    states <- left[first, , drop = FALSE]
    value <- v[first]
  }
  value[rowSums(states) == 0] / sum(m_i >= 2)
}

# ---- prevalence and chance agreement: the one definition of each ----------
# Every other reference (multi-label, single-label, weighted, structured,
# bootstrap, annotator pairs) calls these two.

# Gwet's prevalence of each column of x (an item's positives of a label, or
# its count of a category) with m its decisions (a matrix like x, or one total
# per item): the mean of x / m over the items with a decision, item i counted
# v[i] times. NA for a column no item decided.
ref_prevalence <- function(x, m, v = rep(1, NROW(x))) {
  x <- as.matrix(x)
  if (is.null(dim(m))) m <- matrix(m, nrow(x), ncol(x))
  p <- rep(NA_real_, ncol(x))
  for (j in seq_len(ncol(x))) {
    num <- 0
    den <- 0
    for (i in seq_len(nrow(x))) {
      if (m[i, j] >= 1 && v[i] > 0) {
        num <- num + v[i] * x[i, j] / m[i, j]
        den <- den + v[i]
      }
    }
    if (den > 0) p[j] <- num / den
  }
  p
}

# Chance agreement of the three baselines for category prevalences pi and
# agreement weights W (identity: unweighted; Gwet 2014, ch. 3 and 5):
# Fleiss sum_kl W_kl pi_k pi_l, AC1/AC2 sum(W) sum_k pi_k (1 - pi_k) / (q (q - 1)),
# Brennan-Prediger sum(W) / q^2.
ref_chance_categories <- function(pi, W = diag(length(pi))) {
  q <- length(pi)
  fleiss <- 0
  for (k in seq_len(q)) for (l in seq_len(q)) fleiss <- fleiss + W[k, l] * pi[k] * pi[l]
  c(fleiss = fleiss, ac1 = sum(W) * sum(pi * (1 - pi)) / (q * (q - 1)), pabak = sum(W) / q^2)
}

# Per label of a multi-label design, the two categories absent / present
# with prevalences 1 - p, p: labels x 3 (fleiss, ac1, pabak).
ref_chance <- function(p) {
  out <- vapply(p, function(pj) ref_chance_categories(c(1 - pj, pj)), numeric(3))
  t(matrix(out, 3, length(p), dimnames = list(c("fleiss", "ac1", "pabak"), NULL)))
}

# Single-label ratings (items x raters matrix of categories, NA = not rated)
# over the declared categories: Gwet's unequal-raters coefficients and
# Krippendorff's nominal alpha from the coincidence matrix.
ref_single_label <- function(ratings, categories) {
  r_ik <- t(apply(ratings, 1, function(row) {
    vapply(categories, function(k) sum(row == k, na.rm = TRUE), numeric(1))
  }))
  r_i <- rowSums(r_ik)
  pairable <- r_i >= 2
  pa <- mean(rowSums(r_ik[pairable, , drop = FALSE] * (r_ik[pairable, , drop = FALSE] - 1)) /
               (r_i[pairable] * (r_i[pairable] - 1)))
  pe <- ref_chance_categories(ref_prevalence(r_ik, r_i))
  q <- length(categories)
  o <- matrix(0, q, q)
  for (i in which(pairable)) {
    n_u <- r_ik[i, ]
    o <- o + (outer(n_u, n_u) - diag(n_u)) / (r_i[i] - 1)
  }
  n_c <- rowSums(o)
  n <- sum(n_c)
  d_o <- (n - sum(diag(o))) / n
  d_e <- (n^2 - sum(n_c^2)) / (n * (n - 1))
  list(pa = pa, pe = pe, estimate = (pa - pe) / (1 - pe), alpha = 1 - d_o / d_e)
}

# The chance-corrected coefficient; undefined (NA) when chance agreement is 1.
ref_coef <- function(ao, ae) ifelse(abs(1 - ae) < 1e-15, NA_real_, (ao - ae) / (1 - ae))

ref_mla <- function(arr, floors = TRUE) {
  N <- dim(arr)[1]
  k <- dim(arr)[3]
  lab <- data.frame(p = NA_real_, ao = NA_real_, pos = NA_real_, neg = NA_real_,
                    floor_ao = NA_real_, n_pairable = 0)[rep(1, k), ]
  item_sum <- numeric(N)
  item_n <- numeric(N)
  lab$p <- ref_prevalence(apply(arr, c(1, 3), sum, na.rm = TRUE), apply(!is.na(arr), c(1, 3), sum))
  for (j in seq_len(k)) {
    agrees <- c()
    vs <- list()
    m_i <- numeric(N)
    total <- 0
    for (i in seq_len(N)) {
      v <- arr[i, , j]
      v <- v[!is.na(v)]
      m_i[i] <- length(v)
      total <- total + sum(v)
      if (length(v) >= 2) {
        a <- ref_pairs_agree(v)
        agrees <- c(agrees, a)
        vs[[length(vs) + 1]] <- v
        item_sum[i] <- item_sum[i] + a
        item_n[i] <- item_n[i] + 1
      }
    }
    lab$n_pairable[j] <- length(agrees)
    if (length(agrees)) {
      lab$ao[j] <- mean(agrees)
      lab$pos[j] <- ref_specific(vs, 1)
      lab$neg[j] <- ref_specific(vs, 0)
      if (floors) lab$floor_ao[j] <- ref_floor_label(m_i, total)
    }
  }
  used <- lab$n_pairable > 0
  ae <- ref_chance(lab$p)
  coef <- ref_coef
  ao <- mean(lab$ao[used])
  ae_c <- colMeans(ae[used, , drop = FALSE])
  floor_ao <- mean(lab$floor_ao[used])
  list(
    label = lab,
    label_estimate = sapply(1:3, function(b) coef(lab$ao, ae[, b])),
    label_floor = sapply(1:3, function(b) coef(lab$floor_ao, ae[, b])),
    label_expected = ae,
    corpus_observed = ao,
    corpus_expected = ae_c,
    corpus_estimate = coef(ao, ae_c),
    corpus_floor_observed = floor_ao,
    corpus_floor = coef(floor_ao, ae_c),
    item_observed = ifelse(item_n > 0, item_sum / item_n, NA_real_),
    prevalence = mean(lab$p[!is.na(lab$p)])
  )
}

# Corpus MLA of a dense array: the corpus part of ref_mla().
ref_mla_corpus <- function(arr) {
  ref <- ref_mla(arr)
  list(observed = ref$corpus_observed, expected = ref$corpus_expected,
       estimate = ref$corpus_estimate, floor_observed = ref$corpus_floor_observed)
}

# The paper's eq. 7 floor of a complete design (positives spread as evenly as
# possible over items, per label): a check of ref_floor_label() there.
ref_floor_complete <- function(arr) {
  N <- dim(arr)[1]; n <- dim(arr)[2]; k <- dim(arr)[3]
  f <- function(x) choose(x, 2) + choose(n - x, 2)
  mean(vapply(seq_len(k), function(j) {
    T <- sum(arr[, , j]); m <- T %/% N; t <- T - m * N
    ((N - t) * f(m) + t * f(m + 1)) / (N * choose(n, 2))
  }, numeric(1)))
}

# ---- from count tables (the bootstrap's sufficient statistics) ------------

# Coefficients from per-label prevalence p, observed disagreement d and
# whether the label has a pairable item: corpus (3 baselines), then labels
# baseline-major, the order of mla_boot()'s statistics.
ref_coefficients <- function(p, d, pairable) {
  ae <- ref_chance(p)
  ae[!pairable, ] <- NA
  lab <- ref_coef(1 - d, ae)
  used <- pairable
  cor <- ref_coef(1 - mean(d[used]), colMeans(ae[used, , drop = FALSE]))
  unname(c(cor, as.vector(lab)))
}

# Item bootstrap reference: repeat each item w_i times and refit from the
# items x labels tables x (positives) and m (decisions). Each cell's share of
# agreeing ordered pairs comes from ref_pairs_agree() on its decisions.
ref_item_stats <- function(x, m, w = rep(1L, nrow(x))) {
  idx <- rep(seq_len(nrow(x)), w)
  x <- x[idx, , drop = FALSE]
  m <- m[idx, , drop = FALSE]
  agree <- function(xi, mi) ref_pairs_agree(c(rep(1, xi), rep(0, mi - xi)))
  cells <- unique(data.frame(x = x[m >= 2], m = m[m >= 2]))
  cells$d <- 1 - mapply(agree, cells$x, cells$m)
  k <- ncol(x)
  p <- ref_prevalence(x, m)
  d <- numeric(k)
  pairable <- logical(k)
  for (j in seq_len(k)) {
    pr <- m[, j] >= 2
    pairable[j] <- any(pr)
    d[j] <- if (any(pr)) mean(cells$d[match(paste(x[pr, j], m[pr, j]), paste(cells$x, cells$m))]) else NA
  }
  ref_coefficients(p, d, pairable)
}

# Hamming alpha from the label tables, in plain R: per label j, over the items
# with m >= 2 decisions, n_j = sum m, n1_j = sum x,
# D_o,j = sum 2 x (m - x) / (m - 1) / n_j, D_e,j = 2 n1_j (n_j - n1_j) / (n_j (n_j - 1)).
ref_hamming_alpha_tables <- function(t) {
  m <- seq_len(nrow(t$cnt))
  pm <- m >= 2
  n <- colSums(t$cnt[pm, , drop = FALSE] * m[pm])
  n1 <- colSums(t$sx[pm, , drop = FALSE])
  dis <- colSums(t$sdis[pm, , drop = FALSE] * (2 / (m[pm] - 1)))
  used <- n > 0
  expected <- ifelse(n[used] > 1, 2 * n1[used] * (n[used] - n1[used]) / (n[used] * (n[used] - 1)), 0)
  list(observed = mean(dis[used] / n[used]), expected = mean(expected))
}

# Gwet's percent agreement SE of the multi-label corpus (and its sum of
# squared deviations): influence terms
# (n / L) sum_j [m_ij >= 2] A_o,ij / n2_j over items decided on a used label.
ref_corpus_pa_se <- function(x, m) {
  used <- colSums(m >= 2) > 0
  x <- x[, used, drop = FALSE]
  m <- m[, used, drop = FALSE]
  ao <- ifelse(m >= 2, (x * (x - 1) + (m - x) * (m - x - 1)) / pmax(m * (m - 1), 1), 0)
  n2 <- colSums(m >= 2)
  decided <- rowSums(m >= 1) > 0
  n <- sum(decided)
  L <- ncol(x)
  t <- (n / L) * drop((ao * (m >= 2)) %*% (1 / n2))[decided]
  pa <- mean(colSums(ao * (m >= 2)) / n2)
  sum_sq <- sum((t - pa)^2)
  c(estimate = pa, se = sqrt(sum_sq / (n * (n - 1))), sum_sq = sum_sq)
}

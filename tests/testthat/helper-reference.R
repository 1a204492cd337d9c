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

ref_mla <- function(arr, floors = TRUE) {
  N <- dim(arr)[1]
  k <- dim(arr)[3]
  lab <- data.frame(p = NA_real_, ao = NA_real_, pos = NA_real_, neg = NA_real_,
                    floor_ao = NA_real_, n_pairable = 0)[rep(1, k), ]
  item_sum <- numeric(N)
  item_n <- numeric(N)
  for (j in seq_len(k)) {
    props <- c()
    agrees <- c()
    vs <- list()
    m_i <- numeric(N)
    total <- 0
    for (i in seq_len(N)) {
      v <- arr[i, , j]
      v <- v[!is.na(v)]
      m_i[i] <- length(v)
      total <- total + sum(v)
      if (length(v) >= 1) props <- c(props, mean(v))
      if (length(v) >= 2) {
        a <- ref_pairs_agree(v)
        agrees <- c(agrees, a)
        vs[[length(vs) + 1]] <- v
        item_sum[i] <- item_sum[i] + a
        item_n[i] <- item_n[i] + 1
      }
    }
    lab$p[j] <- if (length(props)) mean(props) else NA_real_
    lab$n_pairable[j] <- length(agrees)
    if (length(agrees)) {
      lab$ao[j] <- mean(agrees)
      lab$pos[j] <- ref_specific(vs, 1)
      lab$neg[j] <- ref_specific(vs, 0)
      if (floors) lab$floor_ao[j] <- ref_floor_label(m_i, total)
    }
  }
  used <- lab$n_pairable > 0
  ae <- cbind(fleiss = lab$p^2 + (1 - lab$p)^2, ac1 = 2 * lab$p * (1 - lab$p), pabak = 0.5)
  coef <- function(ao, ae) ifelse(abs(1 - ae) < 1e-15, NA_real_, (ao - ae) / (1 - ae))
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

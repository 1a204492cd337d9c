# Slow, obviously-correct references for agreement_measures(), written from
# the definitions in its help page (one loop per definition).

# Complete records of every item as list(annotator = , set = label indices).
ref_item_sets <- function(a) {
  v <- mlagreement:::record_values(a)
  item <- mlagreement:::record_item(a)
  ann <- mlagreement:::record_annotator(a)
  keep <- rowSums(!is.na(v)) == ncol(v)
  lapply(seq_along(a$items), function(i) {
    rows <- which(item == i & keep)
    lapply(rows, function(r) list(annotator = ann[r], set = which(v[r, ] == 1)))
  })
}

ref_jaccard_sim <- function(A, B) {
  if (length(union(A, B)) == 0) 1 else length(intersect(A, B)) / length(union(A, B))
}

ref_masi_sim <- function(A, B) {
  if (setequal(A, B)) return(1)
  inter <- length(intersect(A, B))
  if (inter == 0) return(0)
  f <- if (all(A %in% B) || all(B %in% A)) 2 / 3 else 1 / 3
  inter / length(union(A, B)) * f
}

ref_dice <- function(A, B) {
  if (length(A) + length(B) == 0) 1 else 2 * length(intersect(A, B)) / (length(A) + length(B))
}

ref_average_similarity <- function(a, sim) {
  items <- Filter(function(x) length(x) >= 2, ref_item_sets(a))
  mean(vapply(items, function(recs) {
    s <- c()
    for (r in seq_along(recs)) for (q in seq_along(recs)) {
      if (r < q) s <- c(s, sim(recs[[r]]$set, recs[[q]]$set))
    }
    mean(s)
  }, numeric(1)))
}

# For every annotator pair (c < c') with shared items: list of (A, B) sets.
ref_set_pairs <- function(a) {
  items <- ref_item_sets(a)
  out <- list()
  for (recs in items) {
    for (r in seq_along(recs)) for (q in seq_along(recs)) {
      x <- recs[[r]]
      y <- recs[[q]]
      if (x$annotator < y$annotator) {
        key <- paste(x$annotator, y$annotator)
        out[[key]] <- c(out[[key]], list(list(A = x$set, B = y$set)))
      }
    }
  }
  out[order(vapply(strsplit(names(out), " "), function(z) as.numeric(z[1]) * 1e6 + as.numeric(z[2]), 1))]
}

ref_weights <- function(set, k) {
  w <- numeric(k + 1)  # last: the empty set ("none")
  if (length(set) == 0) w[k + 1] <- 1 else w[set] <- 1 / length(set)
  w
}

ref_augmented_kappa <- function(a) {
  k <- length(a$labels)
  kappas <- vapply(ref_set_pairs(a), function(entries) {
    wa <- lapply(entries, function(e) ref_weights(e$A, k))
    wb <- lapply(entries, function(e) ref_weights(e$B, k))
    po <- mean(mapply(function(x, y) sum(x * y), wa, wb))
    pe <- sum(Reduce(`+`, wa) / length(wa) * Reduce(`+`, wb) / length(wb))
    if (pe < 1) (po - pe) / (1 - pe) else NA_real_
  }, numeric(1))
  mean(kappas, na.rm = TRUE)
}

ref_am <- function(a) {
  used <- which(colSums(item_x(a)) > 0)
  lp <- utils::combn(used, 2)
  code <- function(set) {  # value of every label pair: 0 neither, 1 one, 2 both
    (lp[1, ] %in% set) + (lp[2, ] %in% set)
  }
  stats <- vapply(ref_set_pairs(a), function(entries) {
    va <- lapply(entries, function(e) code(e$A))
    vb <- lapply(entries, function(e) code(e$B))
    ao <- mean(unlist(va) == unlist(vb))
    pa <- tabulate(unlist(va) + 1, 3) / length(unlist(va))
    pb <- tabulate(unlist(vb) + 1, 3) / length(unlist(vb))
    c(ao, sum(pa * pb))
  }, numeric(2))
  ao <- mean(stats[1, ])
  ae <- mean(stats[2, ])
  (ao - ae) / (1 - ae)
}

# boot-F1 with the chance term at its expectation (R -> infinity): the mean
# Dice over all combinations of the two annotators' sets on the shared items.
ref_boot_f1_expected <- function(a) {
  adj <- vapply(ref_set_pairs(a), function(entries) {
    obs <- mean(vapply(entries, function(e) ref_dice(e$A, e$B), numeric(1)))
    ch <- mean(outer(seq_along(entries), seq_along(entries), Vectorize(function(i, j) {
      ref_dice(entries[[i]]$A, entries[[j]]$B)
    })))
    if (ch < 1) (obs - ch) / (1 - ch) else NA_real_
  }, numeric(1))
  mean(adj, na.rm = TRUE)
}

# Per-pair statistics for direct comparison with the C++ core.
ref_pair_table <- function(a) {
  k <- length(a$labels)
  used <- which(colSums(item_x(a)) > 0)
  lp <- utils::combn(used, 2)
  code <- function(set) (lp[1, ] %in% set) + (lp[2, ] %in% set)
  pairs <- ref_set_pairs(a)
  rows <- lapply(pairs, function(entries) {
    wa <- lapply(entries, function(e) ref_weights(e$A, k))
    wb <- lapply(entries, function(e) ref_weights(e$B, k))
    va <- unlist(lapply(entries, function(e) code(e$A)))
    vb <- unlist(lapply(entries, function(e) code(e$B)))
    data.frame(
      n_shared = length(entries),
      f1_observed = mean(vapply(entries, function(e) ref_dice(e$A, e$B), numeric(1))),
      ak_observed = mean(mapply(function(x, y) sum(x * y), wa, wb)),
      ak_expected = sum(Reduce(`+`, wa) / length(wa) * Reduce(`+`, wb) / length(wb)),
      am_observed = mean(va == vb),
      am_expected = sum(tabulate(va + 1, 3) / length(va) * tabulate(vb + 1, 3) / length(vb))
    )
  })
  out <- do.call(rbind, rows)
  ab <- do.call(rbind, lapply(strsplit(names(pairs), " "), as.integer))
  cbind(a = ab[, 1] - 1L, b = ab[, 2] - 1L, out)
}

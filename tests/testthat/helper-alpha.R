# Slow, obviously-correct references for krippendorff_alpha(): brute force
# over all pairs of values, straight from Krippendorff's definitions.

# The annotations of each item as a list of records (numeric 0/1/NA vectors),
# whole missing records dropped.
ref_records_by_item <- function(a) {
  v <- mlagreement:::record_values(a)
  item <- mlagreement:::record_item(a)
  keep <- rowSums(!is.na(v)) > 0
  lapply(seq_along(a$items), function(i) {
    rows <- which(item == i & keep)
    lapply(rows, function(r) as.numeric(v[r, ]))
  })
}

# Distances between two 0/1 records: one minus the set similarities of
# helper-measures.R (the one definition of Jaccard and MASI in the tests).
ref_jaccard <- function(u, v) 1 - ref_jaccard_sim(which(u == 1), which(v == 1))
ref_masi <- function(u, v) 1 - ref_masi_sim(which(u == 1), which(v == 1))

# DKPro Statistics' MASISetAnnotationDistanceFunction: Jaccard distance times
# (0 identical, 1/3 subset, 2/3 overlap, 1 disjoint).
ref_masi_dkpro <- function(u, v) {
  a <- which(u == 1)
  b <- which(v == 1)
  uni <- length(union(a, b))
  jd <- if (uni == 0) 1 else 1 - length(intersect(a, b)) / uni
  if (setequal(a, b)) return(0)
  if (all(a %in% b) || all(b %in% a)) return(jd / 3)
  if (length(intersect(a, b)) > 0) return(jd * 2 / 3)
  jd
}

ref_hamming <- function(u, v) mean(u != v)

# Generic alpha: values_by_item a list (items) of lists (values); dist a
# function of two values. Returns c(observed, expected, alpha).
ref_alpha <- function(values_by_item, dist) {
  values_by_item <- values_by_item[lengths(values_by_item) >= 2]
  all_values <- unlist(values_by_item, recursive = FALSE)
  n <- length(all_values)
  do <- ref_observed(values_by_item, dist)
  de <- 0
  for (r in seq_len(n)) for (q in seq_len(n)) if (r != q) de <- de + dist(all_values[[r]], all_values[[q]])
  de <- de / (n * (n - 1))
  c(observed = do, expected = de, alpha = 1 - do / de)
}

# D_o: the ordered pairs of values within each item.
ref_observed <- function(values_by_item, dist) {
  values_by_item <- values_by_item[lengths(values_by_item) >= 2]
  do <- 0
  for (vals in values_by_item) {
    m <- length(vals)
    s <- 0
    for (r in seq_len(m)) for (q in seq_len(m)) if (r != q) s <- s + dist(vals[[r]], vals[[q]])
    do <- do + s / (m - 1)
  }
  do / sum(lengths(values_by_item))
}

# D_e of distinct label sets with counts (sets: label indices among k),
# from the sizes and intersections of the sets with Jaccard and MASI as in
# helper-measures.R, in doubles: S^2 instead of n^2 pairs, for designs with
# many values.
ref_expected_counts <- function(sets, count, k) {
  B <- matrix(0, length(sets), k)
  B[cbind(rep(seq_along(sets), lengths(sets)), unlist(sets))] <- 1
  i <- B %*% t(B)
  sa <- matrix(rowSums(B), nrow(B), nrow(B))
  sb <- t(sa)
  jac <- ifelse(sa + sb - i == 0, 1, i / (sa + sb - i))
  mono <- ifelse(i == sa & i == sb, 1, ifelse(i == 0, 0, ifelse(i == sa | i == sb, 2 / 3, 1 / 3)))
  w <- outer(count, count)
  diag(w) <- 0
  n <- sum(count)
  c(jaccard = sum(w * (1 - jac)), masi = sum(w * (1 - jac * mono))) / (n * (n - 1))
}

# Jaccard and MASI alpha of a set design: D_o by brute force within items,
# D_e from the distinct sets (ref_expected_counts()). A 2 x 2 matrix, rows
# observed and expected, columns jaccard and masi.
ref_set_alpha <- function(a) {
  recs <- ref_records_by_item(a)
  recs <- recs[lengths(recs) >= 2]
  sets <- lapply(unlist(recs, recursive = FALSE), function(v) which(v == 1))
  key <- vapply(sets, paste, "", collapse = " ")
  first <- which(!duplicated(key))
  count <- tabulate(match(key, key[first]), length(first))
  rbind(observed = c(jaccard = ref_observed(recs, ref_jaccard), masi = ref_observed(recs, ref_masi)),
        expected = ref_expected_counts(sets[first], count, length(a$labels)))
}

# Hamming alpha with cell-level missing decisions: per-label binary alphas by
# brute force, pooled as 1 - sum D_o,j / sum D_e,j.
ref_alpha_hamming_cells <- function(a) {
  recs <- ref_records_by_item(a)
  k <- length(a$labels)
  per <- vapply(seq_len(k), function(j) {
    vals <- lapply(recs, function(item) {
      x <- vapply(item, `[`, numeric(1), j)
      as.list(x[!is.na(x)])
    })
    if (sum(lengths(vals)[lengths(vals) >= 2]) == 0) return(c(NA, NA))
    r <- ref_alpha(vals, function(u, v) as.numeric(u != v))
    r[c("observed", "expected")]
  }, numeric(2))
  ok <- !is.na(per[1, ])
  c(observed = mean(per[1, ok]), expected = mean(per[2, ok]),
    alpha = 1 - sum(per[1, ok]) / sum(per[2, ok]))
}

dkpro_example <- function() {
  sets <- list(
    list(c(), c()), list("A", c()), list("A", "A"), list("A", "B"),
    list(c("A", "B"), "A"), list(c("A", "B"), c("A", "C")),
    list(c("A", "B", "C"), c("A", "B", "C")), list("C", c("A", "C")),
    list("C", c("A", "C"))
  )
  arr <- array(0L, c(9, 2, 3), dimnames = list(NULL, NULL, c("A", "B", "C")))
  for (i in 1:9) for (k in 1:2) arr[i, k, sets[[i]][[k]]] <- 1L
  arr
}

# Krippendorff (2011), reliability data with missing values: 4 coders (rows
# of the published table) x 12 units, nominal values 1-5.
krippendorff_nominal <- function() {
  m <- rbind(
    c(1, 2, 3, 3, 2, 1, 4, 1, 2, NA, NA, NA),
    c(1, 2, 3, 3, 2, 2, 4, 1, 2, 5, NA, 3),
    c(NA, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, NA),
    c(1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, NA)
  )
  t(m)  # units x coders
}

# Benchmarks for user distances in krippendorff_alpha(). Run from the
# package root with the package installed (optimised build), e.g.
#   R CMD INSTALL --library=/tmp/lib . && R_LIBS=/tmp/lib Rscript bench/alpha-custom.R
# Prints median times and ratios; no assertions.
suppressPackageStartupMessages(library(mlagreement))

source(file.path("bench", "bench-utils.R"))
report <- report_ratio

set.seed(20261201)
options(mlagreement.threads = 1)

# 1. A set-size distance written in R (Jaccard, vectorised) vs the built-in
#    Jaccard: 1e5 records (2e4 items x 5 annotators) over 20 labels, both
#    from a prebuilt annotations object.
N <- 2e4; A <- 5; K <- 20
for (p in c(0.2, 0.5)) {
  arr <- array(as.integer(stats::runif(N * A * K) < p), c(N, A, K))
  a <- as_annotations(arr)
  jaccard_r <- function(n_a, n_b, n_ab) {
    u <- n_a + n_b - n_ab
    ifelse(u == 0, 0, 1 - n_ab / pmax(u, 1))
  }
  stopifnot(identical(krippendorff_alpha(a, list(jaccard = jaccard_r))$estimate,
                      krippendorff_alpha(a, "jaccard")$estimate))
  t_c <- timeit(krippendorff_alpha(a, list(jaccard = jaccard_r)))
  t_j <- timeit(krippendorff_alpha(a, "jaccard"))
  report(sprintf("set-size distance in R, 1e5 records x 20 labels, p = %.1f", p), t_c, t_j,
         "built-in Jaccard", target = 1.5)
}

# 2. The general pairwise form on 1,000 distinct label sets: 2,000 records
#    (400 items x 5 annotators) over 20 labels, distinct sets drawn from a
#    pool of 1,000, with a weighted symmetric difference in R.
pool <- unique(lapply(seq_len(1500), function(i) sort(sample(K, sample(1:5, 1)))))[1:1000]
n_items <- 400
arr <- array(0L, c(n_items, A, K), dimnames = list(NULL, NULL, paste0("L", 1:K)))
pick <- c(seq_len(1000), sample(1000, n_items * A - 1000, replace = TRUE))
pick <- sample(pick)
for (r in seq_along(pick)) {
  i <- (r - 1) %% n_items + 1
  k <- (r - 1) %/% n_items + 1
  arr[i, k, pool[[pick[r]]]] <- 1L
}
a <- as_annotations(arr)
w <- stats::setNames(seq(1, 3, length.out = K), paste0("L", 1:K))
total <- sum(w)
weighted_symdiff <- function(a, b) {
  (sum(w[a]) + sum(w[b]) - 2 * sum(w[a[a %in% b]])) / total
}
jaccard_names <- function(a, b) {
  n_ab <- sum(a %in% b)
  if (length(a) + length(b) == 0) 0 else 1 - n_ab / (length(a) + length(b) - n_ab)
}
options(cli.progress_show_after = Inf)
stopifnot(all.equal(krippendorff_alpha(a, jaccard_names)$estimate,
                    krippendorff_alpha(a, "jaccard")$estimate, tolerance = 1e-12))
sets <- lapply(pool, function(s) paste0("L", s))
floor_loop <- function(fn) {
  for (s in 1:999) {
    A <- sets[[s]]
    right <- sets[(s + 1):1000]
    d <- numeric(length(right))
    for (q in seq_along(right)) d[[q]] <- fn(A, right[[q]])
  }
}
for (f in list(jaccard = jaccard_names, weighted_symdiff = weighted_symdiff)) {
  t_g <- timeit(krippendorff_alpha(a, f), times = 1)
  t_f <- timeit(floor_loop(f), times = 1)
  report("general d(a, b) in R, 1,000 distinct sets (499,500 pairs)", t_g, t_f,
         "bare R loop")
}
cat("  (target for the general form: <= 2 s)\n")

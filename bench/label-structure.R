# Benchmarks for labels with structure (label_weights, label_groups,
# label_tree) in krippendorff_alpha() and mla(). Run from the package root
# with the package installed (optimised build), e.g.
#   R CMD INSTALL --library=/tmp/lib . && R_LIBS=/tmp/lib Rscript bench/label-structure.R
# Prints median times and ratios; no assertions.
suppressPackageStartupMessages(library(mlagreement))

source(file.path("bench", "bench-utils.R"))
report <- function(what, t_new, t_ref, ref = "Hamming alpha", target = NULL) {
  report_ratio(what, t_new, t_ref, ref, target)
}

set.seed(20261201)
options(mlagreement.threads = 1)

# A dense 1e5 x 5 x 20 array: labels L1-L4 mutually exclusive (a group),
# a taxonomy over L5-L12 (three levels), prevalences 0.02-0.4.
N <- 1e5; A <- 5; K <- 20
labs <- paste0("L", seq_len(K))
prev <- rep(seq(0.02, 0.4, length.out = K), each = N * A)
arr <- array(as.integer(stats::runif(N * A * K) < prev), c(N, A, K),
             dimnames = list(NULL, NULL, labs))
for (a in seq_len(A)) {
  pick <- sample(c(1:4, NA), N, replace = TRUE)
  arr[, a, 1:4] <- 0L
  arr[cbind(which(!is.na(pick)), a, pick[!is.na(pick)])] <- 1L
}
groups <- list(g = labs[1:4])
tree <- c(L6 = "L5", L7 = "L5", L8 = "L6", L9 = "L6", L10 = "L7", L12 = "L11")
weights <- stats::setNames(seq(0.5, 2, length.out = K - 3), c("g", labs[5:K]))

# From the array (both build the annotations object: what a user runs).
t_h <- timeit(krippendorff_alpha(arr, "hamming"))
report("label weights, dense 1e5 x 5 x 20, from the array",
       timeit(krippendorff_alpha(arr, "hamming", label_weights = weights[-1])), t_h, target = 2)
report("one group of 4 labels",
       timeit(krippendorff_alpha(arr, "hamming", label_groups = groups)), t_h, target = 2)
report("taxonomy over 8 labels",
       timeit(krippendorff_alpha(arr, "hamming", label_tree = tree)), t_h, target = 2)
report("weights + group + taxonomy",
       timeit(krippendorff_alpha(arr, "hamming", label_weights = weights, label_groups = groups,
                                 label_tree = tree)), t_h, target = 2)

# On a prebuilt object Hamming alpha only reads the label tables counted at
# construction; a group or a taxonomy needs one pass over the values.
a <- as_annotations(arr)
t_pass <- timeit(krippendorff_alpha(a, "hamming", label_weights = weights, label_groups = groups,
                                    label_tree = tree))
report("  same, prebuilt object (no target)", t_pass, timeit(as_annotations(arr)),
       ref = "as_annotations()")
report("mla(), weights + group + taxonomy, from the array",
       timeit(mla(arr, label_weights = weights, label_groups = groups, label_tree = tree)),
       timeit(mla(arr)), ref = "mla()")

# Benchmarks for krippendorff_alpha(). Run from the package root
# with the package installed (optimised build), e.g.
#   R CMD INSTALL --library=/tmp/lib . && R_LIBS=/tmp/lib Rscript bench/alpha.R
# Prints median times and ratios; no assertions.
suppressPackageStartupMessages(library(mlagreement))

source(file.path("bench", "bench-utils.R"))
report <- function(what, t_new, t_ref, ref = "mla()", target = NULL) {
  report_ratio(what, t_new, t_ref, ref, target)
}

set.seed(20261130)
options(mlagreement.threads = 1)

# 1. Hamming alpha on a dense 1e5 x 5 x 20 array vs mla() on the same data.
N <- 1e5; A <- 5; K <- 20
prev <- rep(seq(0.02, 0.4, length.out = K), each = N * A)
arr <- array(as.integer(stats::runif(N * A * K) < prev), c(N, A, K))
t_h <- timeit(krippendorff_alpha(arr, "hamming"))
t_m <- timeit(mla(arr))
report("Hamming alpha, dense 1e5 x 5 x 20 array", t_h, t_m, target = 2)

# 2. Jaccard/MASI alpha on ConvAbuse types vs mla(), from the data (both
#    build the annotations object: the comparison that matters to a user) and on a prebuilt
#    object, where mla() only reads the label tables counted at construction
#    while alpha still builds the label sets (no aim: the two do not do
#    comparable work there).
conv <- annotations_long(convabuse_types, item, annotator, label, value)
t_s <- timeit(krippendorff_alpha(annotations_long(convabuse_types, item, annotator, label, value),
                                 c("jaccard", "masi")))
t_m <- timeit(mla(annotations_long(convabuse_types, item, annotator, label, value)))
report("Jaccard + MASI alpha, ConvAbuse types, from the long data", t_s, t_m, target = 5)
t_s <- timeit(krippendorff_alpha(conv, c("jaccard", "masi")))
t_m <- timeit(mla(conv))
report("  same, prebuilt annotations object (no target)", t_s, t_m)

# 3. Jaccard/MASI alpha on a 1e5-record random design vs mla().
#    20,000 items x 5 annotators x 20 labels, label prevalences 0.02-0.4
#    (many small distinct sets: the sets built by the fast path for complete
#    arrays, inst/include/mlagreement/set_build.h; D_o by counting within-item pairs,
#    set_alpha.h; D_e by sparse subset counting, set_sparse.h).
N <- 2e4
prev <- rep(seq(0.02, 0.4, length.out = K), each = N * A)
arr2 <- array(as.integer(stats::runif(N * A * K) < prev), c(N, A, K))
n_sets <- nrow(unique(matrix(arr2, N * A, K)))
t_s <- timeit(krippendorff_alpha(arr2, c("jaccard", "masi")))
t_m <- timeit(mla(arr2))
report(sprintf("Jaccard + MASI alpha, 1e5 records (%d distinct sets)", n_sets), t_s, t_m,
       target = 5)
t_s2 <- timeit(krippendorff_alpha(arr2, c("jaccard", "masi"), threads = 2))
report("  same, threads = 2", t_s2, t_m, target = 5)

#    Low prevalence (0.01-0.15), as in most multi-label corpora.
prev_low <- rep(seq(0.01, 0.15, length.out = K), each = N * A)
arr_low <- array(as.integer(stats::runif(N * A * K) < prev_low), c(N, A, K))
n_sets_low <- nrow(unique(matrix(arr_low, N * A, K)))
t_s <- timeit(krippendorff_alpha(arr_low, c("jaccard", "masi")))
t_m <- timeit(mla(arr_low))
report(sprintf("  same, prevalence 0.01-0.15 (%d distinct sets)", n_sets_low), t_s, t_m,
       target = 5)

#    A sparse crowdsourcing layout: 1e5 records, 50,000 items, 200 annotators.
n_rec <- 1e5
long <- data.frame(item = rep(seq_len(n_rec / 2), each = 2),
                   annotator = as.vector(replicate(n_rec / 2, sample.int(200, 2))))
vals <- matrix(as.integer(stats::runif(n_rec * K) < rep(seq(0.02, 0.4, length.out = K), each = n_rec)),
               n_rec, K, dimnames = list(NULL, paste0("L", 1:K)))
wide <- cbind(long, vals)
sparse <- annotations_wide(wide, item, annotator, starts_with("L"))
t_s <- timeit(krippendorff_alpha(annotations_wide(wide, item, annotator, starts_with("L")),
                                 c("jaccard", "masi")))
t_m <- timeit(mla(annotations_wide(wide, item, annotator, starts_with("L"))))
report("Jaccard + MASI alpha, 1e5 records, sparse, from the wide data", t_s, t_m, target = 5)
t_s <- timeit(krippendorff_alpha(sparse, c("jaccard", "masi")))
t_m <- timeit(mla(sparse))
report("  same, prebuilt annotations object (no target)", t_s, t_m)

#    Worst case for the distinct-set compression: prevalence 0.5 on 20
#    labels, so nearly every record is a distinct set (S^2 / 2 = 4.5e9 pairs);
#    D_e by sparse subset counting instead.
arr3 <- array(as.integer(stats::runif(N * A * K) < 0.5), c(N, A, K))
n_sets3 <- nrow(unique(matrix(arr3, N * A, K)))
t_s <- timeit(krippendorff_alpha(arr3, c("jaccard", "masi")), times = 1)
t_m <- timeit(mla(arr3))
report(sprintf("  worst case: prevalence 0.5 (%d distinct sets)", n_sets3), t_s, t_m)

#    40 labels (prevalences 0.02-0.2): more than 22 labels in use, so D_e by
#    hashed subset counting.
prev40 <- rep(seq(0.02, 0.2, length.out = 40), each = N * A)
arr40 <- array(as.integer(stats::runif(N * A * 40) < prev40), c(N, A, 40))
n_sets40 <- nrow(unique(matrix(arr40, N * A, 40)))
t_s <- timeit(krippendorff_alpha(arr40, c("jaccard", "masi")), times = 1)
t_m <- timeit(mla(arr40))
report(sprintf("  40 labels, prevalence 0.02-0.2 (%d distinct sets)", n_sets40), t_s, t_m)

# 4. Speed-up over pure-R implementations on a small design.
source("tests/testthat/helper-data.R")
source("tests/testthat/helper-alpha.R")
source("tests/testthat/helper-measures.R")  # the set similarities ref_jaccard() and ref_masi() use
small <- random_set_design(40, 4, 6, p = 0.3, missing_records = 0.1)
a_small <- as_annotations(small)
t_new <- timeit(krippendorff_alpha(a_small))
t_ref <- timeit({
  recs <- ref_records_by_item(a_small)
  ref_alpha(recs, ref_hamming); ref_alpha(recs, ref_jaccard); ref_alpha(recs, ref_masi)
}, times = 1)
report("Pure-R brute force / krippendorff_alpha(), 40 x 4 x 6 (3 dist.)", t_ref, t_new,
       ref = "package")

# krippendorffsalpha (CRAN, pure R; not a dependency) when installed, e.g.
#   Rscript -e 'install.packages("krippendorffsalpha", lib = "/tmp/lib-bench")'
#   R_LIBS=/tmp/lib:/tmp/lib-bench Rscript bench/alpha.R
# Measured 2026-11-30: 1.10 s vs 0.50 ms (2,200x), same alpha to 2.2e-16.
if (requireNamespace("krippendorffsalpha", quietly = TRUE)) {
  codes <- matrix(sample(1:4, 200 * 5, replace = TRUE), 200, 5)
  codes[sample(length(codes), 50)] <- NA
  t_new <- timeit(krippendorff_alpha(codes, "hamming"))
  t_ref <- timeit(krippendorffsalpha::krippendorffs.alpha(codes, level = "nominal",
                                                          method = "customary",
                                                          confint = FALSE), times = 1)
  a1 <- krippendorff_alpha(codes, "hamming")$estimate
  a2 <- krippendorffsalpha::krippendorffs.alpha(codes, level = "nominal", method = "customary",
                                                confint = FALSE)$alpha.hat
  report(sprintf("krippendorffsalpha / package, nominal 200 x 5 (diff %.1e)", a1 - a2),
         t_ref, t_new, ref = "package")
}

# 5. Intervals: krippendorff_alpha(R = 1000) (item bootstrap from per-item
#    summaries, set_boot.h) vs mla_boot(R = 1000) on the same 1e5 records.
#    Set distances keep an S x S distance matrix: 10 labels (S <= 1024).
set.seed(20261201)
N5 <- 2e4; K5 <- 10
prev5 <- rep(seq(0.02, 0.4, length.out = K5), each = N5 * A)
arr5 <- array(as.integer(stats::runif(N5 * A * K5) < prev5), c(N5, A, K5))
a5 <- as_annotations(arr5)
fit5 <- mla(a5)
n_sets5 <- nrow(unique(matrix(arr5, N5 * A, K5)))
t_b <- timeit(mla_boot(fit5, R = 1000), times = 5)
t_s <- timeit(krippendorff_alpha(a5, c("jaccard", "masi"), R = 1000), times = 5)
report(sprintf("alpha R = 1000, Jaccard + MASI, 1e5 records (%d sets)", n_sets5), t_s, t_b,
       ref = "mla_boot(R = 1000)", target = 2)
t_s <- timeit(krippendorff_alpha(a5, c("hamming", "jaccard", "masi"), R = 1000), times = 5)
report("  same with Hamming (one set of draws for the three)", t_s, t_b, ref = "mla_boot(R = 1000)")
t_h <- timeit(krippendorff_alpha(a5, "hamming", R = 1000), times = 5)
report("  Hamming only", t_h, t_b, ref = "mla_boot(R = 1000)")

#    Single-label nominal: 2e4 items x 5 coders, 10% missing, 4 categories;
#    vs icr's nonparametric bootstrap when installed, e.g.
#    Rscript -e 'install.packages("icr", lib = "/tmp/lib-bench")'
codes5 <- matrix(sample(1:4, N5 * 5, replace = TRUE, prob = c(0.4, 0.3, 0.2, 0.1)), N5, 5)
truth5 <- sample(1:4, N5, replace = TRUE)
agree5 <- matrix(stats::runif(N5 * 5) < 0.6, N5, 5)
codes5[agree5] <- truth5[row(codes5)[agree5]]
codes5[stats::runif(N5 * 5) < 0.1] <- NA
t_k <- timeit(res5 <- krippendorff_alpha(codes5, "nominal", R = 1000), times = 5)
if (requireNamespace("icr", quietly = TRUE)) {
  t_i <- timeit(icr5 <- icr::krippalpha(t(codes5), metric = "nominal", bootnp = TRUE,
                                        nnp = 1000, cores = 2), times = 1)
  report(sprintf("icr / package, nominal R = 1000, 2e4 x 5 (alpha diff %.1e)",
                 res5$estimate - icr5$alpha), t_i, t_k, ref = "package", target = NULL)
} else {
  cat(sprintf("%-58s %9.2f ms (icr not installed)\n", "alpha R = 1000, nominal 2e4 x 5, 10% missing",
              1000 * t_k))
}

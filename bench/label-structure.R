# Benchmarks for labels with structure (label_weights, label_groups,
# label_tree) in krippendorff_alpha() and mla(). Run from the package root
# with the package installed (optimised build), e.g.
#   R CMD INSTALL --library=/tmp/lib . && R_LIBS=/tmp/lib Rscript bench/label-structure.R
# Prints median CPU times and ratios; no assertions.
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

# CPU time (user + system, system.time()) per run, the median of `times`
# batches of >= 0.2 s: on a shared machine elapsed time mostly measures the
# other processes. The structures and their reference run interleaved, in
# the same session, so the ratios see the same machine state.
cputime <- function(expr, times = 5) {
  e <- substitute(expr)
  env <- parent.frame()
  once <- system.time(eval(e, env))
  reps <- max(1L, ceiling(0.2 / max(once[["elapsed"]], 1e-4)))
  t <- vapply(seq_len(times), function(i) {
    gc(FALSE)
    s <- system.time(for (r in seq_len(reps)) eval(e, env))
    (s[["user.self"]] + s[["sys.self"]]) / reps
  }, numeric(1))
  stats::median(t)
}

# From the array (both build the annotations object: what a user runs).
runs <- list(
  hamming = quote(krippendorff_alpha(arr, "hamming")),
  weights = quote(krippendorff_alpha(arr, "hamming", label_weights = weights[-1])),
  groups = quote(krippendorff_alpha(arr, "hamming", label_groups = groups)),
  tree = quote(krippendorff_alpha(arr, "hamming", label_tree = tree)),
  all = quote(krippendorff_alpha(arr, "hamming", label_weights = weights, label_groups = groups,
                                 label_tree = tree))
)
cpu <- lapply(names(runs), function(n) numeric())
names(cpu) <- names(runs)
for (round in 1:3) {  # interleaved rounds; the median of each
  for (n in names(runs)) cpu[[n]] <- c(cpu[[n]], eval(bquote(cputime(.(runs[[n]])))))
}
cpu <- vapply(cpu, stats::median, numeric(1))
t_h <- cpu[["hamming"]]
report("label weights, dense 1e5 x 5 x 20, from the array (CPU)", cpu[["weights"]], t_h, target = 2)
report("one group of 4 labels (CPU)", cpu[["groups"]], t_h, target = 2)
report("taxonomy over 8 labels (CPU)", cpu[["tree"]], t_h, target = 2)
report("weights + group + taxonomy (CPU)", cpu[["all"]], t_h, target = 2)

# On a prebuilt object Hamming alpha only reads the label tables counted at
# construction; a group or a taxonomy needs one closing and grouping pass
# over the records.
a <- as_annotations(arr)
t_pass <- cputime(krippendorff_alpha(a, "hamming", label_weights = weights, label_groups = groups,
                                    label_tree = tree))
report("  same, prebuilt object (no target)", t_pass, cputime(as_annotations(arr)),
       ref = "as_annotations()")
report("mla(), weights + group + taxonomy, from the array",
       cputime(mla(arr, label_weights = weights, label_groups = groups, label_tree = tree)),
       cputime(mla(arr)), ref = "mla()")

# tidy() with analytic standard errors: the structure pass again, keeping
# each item's counts, then the influence terms item by item.
fit_structured <- mla(a, label_weights = weights, label_groups = groups, label_tree = tree)
fit_plain <- mla(a)
report("tidy() with standard errors, weights + group + taxonomy", cputime(tidy(fit_structured)),
       cputime(tidy(fit_plain)), ref = "tidy() of the plain fit")

# The item bootstrap: the structure pass once, then replicates from the class
# codes of its columns (the closed labels and the group's categories).
report("mla_boot(R = 200), weights + group + taxonomy",
       cputime(mla_boot(fit_structured, R = 200), times = 3),
       cputime(mla_boot(fit_plain, R = 200), times = 3), ref = "mla_boot() of the plain fit")

# Annotators as a sample: the records engine reads each record's columns of
# the structure pass (made once per call), the plain fit its records.
report("mla_boot(R = 50, resample = \"annotators\"), weights + group + taxonomy",
       cputime(mla_boot(fit_structured, R = 50, resample = "annotators"), times = 3),
       cputime(mla_boot(fit_plain, R = 50, resample = "annotators"), times = 3),
       ref = "the plain fit's")
report("tidy(annotators = \"random\"), weights + group + taxonomy",
       cputime(suppressMessages(tidy(fit_structured, annotators = "random")), times = 3),
       cputime(suppressMessages(tidy(fit_plain, annotators = "random")), times = 3),
       ref = "the plain fit's")

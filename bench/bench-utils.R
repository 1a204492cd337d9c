# Timing helpers shared by the bench scripts (sourced, not a package file).

# Median over `times` of the mean time of a batch of runs lasting >= 0.2 s
# (system.time() alone resolves only milliseconds).
timeit <- function(expr, times = 3) {
  e <- substitute(expr)
  env <- parent.frame()
  once <- system.time(eval(e, env))[["elapsed"]]
  reps <- max(1L, ceiling(0.2 / max(once, 1e-4)))
  t <- vapply(seq_len(times), function(i) {
    gc(FALSE)
    system.time(for (r in seq_len(reps)) eval(e, env))[["elapsed"]] / reps
  }, numeric(1))
  stats::median(t)
}

# One line per comparison: both times, their ratio and the target if any.
report_ratio <- function(what, t_new, t_ref, ref, target = NULL) {
  cat(sprintf("%-58s %9.2f ms vs %s %8.2f ms  ratio %6.2f%s\n", what, 1000 * t_new, ref,
              1000 * t_ref, t_new / t_ref,
              if (is.null(target)) "" else sprintf("  (target <= %g)", target)))
}

# The labels5000 design of bench/scale.R and bench/scale-labels.R: 22,166
# items x 3 annotators, 1-3 of 5,000 labels per record drawn with
# exponential weights, in the selected-labels form (about 1.3e5 rows).
labels5000_long <- function() {
  set.seed(2)
  n_items <- 66500 %/% 3
  rec <- data.frame(item = rep(seq_len(n_items), each = 3), annotator = rep(1:3, n_items))
  k <- sample(1:3, nrow(rec), TRUE)
  labels <- sprintf("L%04d", 1:5000)
  long <- data.frame(item = rep(rec$item, k), annotator = rep(rec$annotator, k),
                     label = sample(labels, sum(k), TRUE, prob = rexp(5000)))
  list(long = long[!duplicated(long), ], labels = labels)
}

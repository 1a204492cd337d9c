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

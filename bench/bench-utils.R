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

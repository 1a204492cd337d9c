# Speed and memory of mla() on dense data, measured in one run against
# (1) one base-R sum() over the same array (a single pass over the input),
# (2) irrCAC's fleiss.kappa.raw() looped over the labels.
# Run: Rscript bench/mla.R  (after `make install`). Prints ratios. Times are
# medians of repeated runs; CPU time (user + system) is reported next to
# elapsed time because elapsed time suffers when other work shares the cores.
suppressPackageStartupMessages(library(mlagreement))

timing <- function(fun, times = 7) {
  t <- vapply(seq_len(times), function(i) {
    st <- system.time(fun())
    c(elapsed = st[["elapsed"]], cpu = st[["user.self"]] + st[["sys.self"]])
  }, numeric(2))
  apply(t, 1, stats::median)
}

set.seed(1)
N <- 5e5; n <- 5; k <- 20
arr <- array(as.integer(stats::runif(N * n * k) < 0.2), c(N, n, k))
input_mb <- as.numeric(utils::object.size(arr)) / 2^20
cat(sprintf("dense %g x %d x %d integer array (%.0f MB)\n", N, n, k, input_mb))

# Extra peak memory of mla() beyond its input: the process's peak resident
# memory (VmHWM, reset through /proc/self/clear_refs) over its resident memory
# before the call, measured first, when no freed block of this size can be
# reused. gc()'s "max used" would miss the vectors of 1 MB and more,
# which the counting pass maps itself (src/glue-memory.h).
status_mb <- function(field) {
  s <- readLines("/proc/self/status")
  as.numeric(gsub("\\D", "", s[startsWith(s, field)])) / 1024
}
if (file.exists("/proc/self/clear_refs")) {
  invisible(mla(arr[1:10, , ]))  # loads what mla() uses
  invisible(gc())
  writeLines("5", "/proc/self/clear_refs")
  before <- status_mb("VmRSS:")
  fit <- mla(arr)
  extra_mb <- status_mb("VmHWM:") - before
  cat(sprintf("  extra peak memory %.1f MB = %.2f x input (target <= 0.75)\n",
              extra_mb, extra_mb / input_mb))
  rm(fit)
}

t_sum <- timing(function() sum(arr))
cat(sprintf("  sum():               elapsed %.3f s, cpu %.3f s\n", t_sum[1], t_sum[2]))
report_mla <- function(state) {
  for (threads in 1:2) {
    options(mlagreement.threads = threads)
    t_mla <- timing(function() mla(arr))
    cat(sprintf("  mla(), %d thread%s, %s: elapsed %.3f s, cpu %.3f s; ratio to sum(): elapsed %.2f, cpu %.2f (target <= 1.3)\n",
                threads, if (threads > 1) "s" else " ", state, t_mla[1], t_mla[2],
                t_mla[1] / t_sum[1], t_mla[2] / t_sum[2]))
  }
  options(mlagreement.threads = 1)
}
# A fresh process: glibc hands the fit's freed blocks back to the kernel, so
# every call maps (page-faults) them again. A session that has freed a larger
# block keeps them mapped (glibc's dynamic mmap threshold): "in session".
report_mla("fresh process")
block <- numeric(4e6)  # 32 MB
rm(block)
invisible(gc())
report_mla("in session   ")

# The annotator-specific baseline adds one pass over the records for the
# annotator x label tallies (target: at most one more pass, i.e. the extra
# time at most one sum() over the array).
t_plain <- timing(function() mla(arr))
t_conger <- timing(function() mla(arr, baseline = "conger"))
cat(sprintf("  mla(baseline = \"conger\"): elapsed %.3f s, cpu %.3f s; extra over mla(): cpu %.3f s = %.2f sum() passes (target <= 1)\n",
            t_conger[1], t_conger[2], t_conger[2] - t_plain[2], (t_conger[2] - t_plain[2]) / t_sum[2]))

# Against irrCAC (pure R, one label at a time) on the same array, as a user
# with this array would call it: slice each label and convert it to the data
# frame irrCAC takes.
if (requireNamespace("irrCAC", quietly = TRUE)) {
  t_irr <- timing(function() {
    for (j in seq_len(k)) irrCAC::fleiss.kappa.raw(as.data.frame(arr[, , j]))
  }, times = 1)
  t_mla1 <- timing(function() mla(arr))
  options(mlagreement.threads = 2)
  t_mla2 <- timing(function() mla(arr))
  options(mlagreement.threads = 1)
  cat(sprintf("irrCAC::fleiss.kappa.raw looped over the %d labels: elapsed %.2f s; speed-up of mla(): %.0fx (1 thread), %.0fx (2 threads) (target >= 100)\n",
              k, t_irr[1], t_irr[1] / t_mla1[1], t_irr[1] / t_mla2[1]))
  f_irr <- vapply(1:3, function(j) {
    irrCAC::fleiss.kappa.raw(as.data.frame(arr[, , j]))$est$coeff.val
  }, numeric(1))
  lab <- tidy(mla(arr), level = "label")
  f_mla <- lab$estimate[lab$baseline == "fleiss"][1:3]
  cat(sprintf("  max |difference| of label coefficients vs irrCAC (which rounds to 5 dp): %.2g\n",
              max(abs(f_irr - f_mla))))
}

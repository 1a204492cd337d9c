# Bootstrap speed. Run from the package root:
#   Rscript bench/boot.R
# Prints three ratios for B = 1000 item replicates on a 1e5 x 5 x 20 design:
#   1. mla_boot (2 threads) / B x colSums() over the 1e5 x 20 count table (aim <= 2)
#   2. 1 thread / 2 threads                                             (aim >= 1.6)
#   3. boot::boot() with a vectorised R statistic / mla_boot (2 threads) (aim >= 10)
# Benchmarks need the optimised build: devtools::load_all() compiles with -O0.
lib <- file.path(tempdir(), "lib")
dir.create(lib, showWarnings = FALSE)
status <- system2(file.path(R.home("bin"), "R"),
                  c("CMD", "INSTALL", "--preclean", "--no-test-load", "-l", shQuote(lib), "."),
                  stdout = FALSE, stderr = FALSE)
stopifnot(status == 0)
library(mlagreement, lib.loc = lib)
set.seed(42)
n <- 1e5; J <- 5; k <- 20; B <- 1000
z <- matrix(rbinom(n * k, 1, 0.3), n, k)
arr <- array(0L, c(n, J, k))
for (a in seq_len(J)) arr[, a, ] <- ifelse(matrix(runif(n * k) < 0.1, n, k), 1L - z, z)
fit <- mla(arr)
counts <- mlagreement:::item_label_counts(fit$annotations)
x <- counts$x
m <- counts$m
storage.mode(x) <- "integer"

best <- function(expr, times = 3) {
  expr <- substitute(expr)
  min(vapply(seq_len(times), function(i) system.time(eval(expr, parent.frame(3)))[["elapsed"]], 0))
}

t_colsums <- best(for (b in seq_len(B)) colSums(x))
t2 <- best(mla_boot(fit, R = B, threads = 2))
t1 <- best(mla_boot(fit, R = B, threads = 1))

# What a skilled user would write: boot() on precomputed per-item statistics
# with a vectorised statistic (pooled-marginal corpus coefficient).
have_boot <- requireNamespace("boot", quietly = TRUE)
if (have_boot) {
  pm <- x / m
  dis <- 2 * x * (m - x) / (m * (m - 1))
  stat <- function(d, i) {
    p <- colMeans(pm[i, , drop = FALSE])
    d_o <- mean(colMeans(dis[i, , drop = FALSE]))
    w <- mean(2 * p * (1 - p))
    1 - d_o / w
  }
  B_boot <- 100
  t_boot <- best(boot::boot(seq_len(n), stat, R = B_boot), times = 1) * B / B_boot
}

if (file.exists("/proc/loadavg")) cat("load average:", readLines("/proc/loadavg", warn = FALSE), "(thread speedup needs idle cores)\n")
cat(sprintf("colSums x %d: %.2f s; mla_boot 2 threads: %.2f s; 1 thread: %.2f s\n", B, t_colsums, t2, t1))
cat(sprintf("ratio 1 (mla_boot 2 threads / colSums, target <= 2): %.2f\n", t2 / t_colsums))
cat(sprintf("ratio 2 (1 thread / 2 threads, target >= 1.6): %.2f\n", t1 / t2))
if (have_boot) {
  cat(sprintf("boot::boot (extrapolated from %d replicates): %.2f s\n", B_boot, t_boot))
  cat(sprintf("ratio 3 (boot::boot / mla_boot 2 threads, target >= 10): %.1f\n", t_boot / t2))
}

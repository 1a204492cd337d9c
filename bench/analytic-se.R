# Cost of the analytic standard errors (tidy(<mla>, conf.int = TRUE)) next
# to mla() on a dense 5e5 x 5 x 20 array (issue 13: at most +20%), and the
# coverage of the analytic interval under the paper's noisy generator.
# Run from the package root with the package installed (optimised build):
#   R CMD INSTALL --library=/tmp/lib . && R_LIBS=/tmp/lib Rscript bench/analytic-se.R
# or with pkgload::load_all() (BENCH_LOAD_ALL=1). Prints times and ratios.
if (nzchar(Sys.getenv("BENCH_LOAD_ALL"))) {
  pkgload::load_all(quiet = TRUE)
} else {
  suppressPackageStartupMessages(library(mlagreement))
}
options(mlagreement.threads = 1)
set.seed(20261201)

# CPU time (user + system; elapsed time suffers on a shared machine): median
# over `times` of the mean of a batch of runs lasting >= 0.2 s.
cpu_time <- function(expr, times = 5) {
  e <- substitute(expr)
  env <- parent.frame()
  cpu <- function(reps) {
    st <- system.time(for (r in seq_len(reps)) eval(e, env))
    (st[["user.self"]] + st[["sys.self"]]) / reps
  }
  reps <- max(1L, ceiling(0.2 / max(cpu(1), 1e-3)))
  stats::median(vapply(seq_len(times), function(i) {
    gc(FALSE)
    cpu(reps)
  }, numeric(1)))
}

# 1. tidy(conf.int = TRUE) vs mla() on the 5e5 x 5 x 20 array; the counting
#    pass of mla() (which writes the cells' class codes the SEs read) vs one
#    sum() over the array.
N <- 5e5; A <- 5; K <- 20
prev <- rep(seq(0.02, 0.4, length.out = K), each = N * A)
arr <- array(as.integer(stats::runif(N * A * K) < prev), c(N, A, K))
rm(prev)
t_sum <- cpu_time(sum(arr))
t_fit <- cpu_time(fit <- mla(arr))
t_corpus <- cpu_time(tidy(fit, conf.int = TRUE))
t_label <- cpu_time(tidy(fit, "label", conf.int = TRUE))
t_plain <- cpu_time(tidy(fit, conf.int = FALSE))
t_plain_label <- cpu_time(tidy(fit, "label", conf.int = FALSE))
cat(sprintf("sum(arr), one pass over the input             %8.1f ms CPU\n", 1000 * t_sum))
cat(sprintf("mla(), dense 5e5 x 5 x 20                     %8.1f ms CPU  (%.2f x sum())\n",
            1000 * t_fit, t_fit / t_sum))
cat(sprintf("tidy(conf.int = FALSE), corpus / label        %8.1f / %.1f ms CPU\n",
            1000 * t_plain, 1000 * t_plain_label))
cat(sprintf("tidy(conf.int = TRUE), corpus                 %8.1f ms CPU  (+%.0f%% of mla(); target <= 20%%)\n",
            1000 * t_corpus, 100 * (t_corpus - t_plain) / t_fit))
cat(sprintf("tidy(\"label\", conf.int = TRUE)                %8.1f ms CPU  (+%.0f%% of mla(); target <= 20%%)\n",
            1000 * t_label, 100 * (t_label - t_plain_label) / t_fit))
rm(arr, fit)
invisible(gc())

# 2. Coverage of the 95% analytic intervals of the corpus coefficients in
#    200 studies of the noisy generator (300 items, 4 annotators, 5 labels,
#    prevalence 0.3, error 0.1), against the closed-form values of
#    analytic_agreement() (the paper's Figure 1).
if (!nzchar(Sys.getenv("BENCH_SKIP_COVERAGE"))) {
  closed <- analytic_agreement(0.3, error = 0.1)
  closed <- closed[closed$generator == "noisy", ]
  studies <- do.call(rbind, lapply(1:200, function(i) {
    a <- simulate_annotations(300, 4, 5, prevalence = 0.3, scenario = "noisy", error = 0.1)
    tidy(mla(a), conf.int = TRUE)[, c("baseline", "estimate", "std.error", "conf.low", "conf.high")]
  }))
  for (b in closed$baseline) {
    s <- studies[studies$baseline == b, ]
    value <- closed$estimate[closed$baseline == b]
    cat(sprintf("%-6s coverage of the 95%% interval, 200 noisy studies: %.3f (target 0.90-0.98); mean SE %.4f vs SD of estimates %.4f\n",
                b, mean(s$conf.low <= value & value <= s$conf.high), mean(s$std.error),
                stats::sd(s$estimate)))
  }
}

# annotator_model() at 1e6 decisions: time to convergence on one thread
# (SQUAREM, and plain EM), the ratio to the same EM in vectorised plain R
# (rowsum() per step) per iteration and to convergence, and the passes over
# the decisions per iteration.
# Run with: R_LIBS=<lib> Rscript bench/annotator-model.R
library(mlagreement)
source("bench/bench-utils.R")
set.seed(1)

# 20,000 items x 10 labels, 5 of 100 annotators per item: 1e6 decisions;
# 80 good annotators, 10 spammers, 10 adversarial, prevalences 0.1-0.5.
n_items <- 20000; n_ann <- 100; k <- 10; per <- 5
sens <- matrix(runif(n_ann * k, 0.6, 0.95), n_ann, k)
spec <- matrix(runif(n_ann * k, 0.7, 0.98), n_ann, k)
sens[81:90, ] <- 1 - spec[81:90, ]
sens[91:100, ] <- runif(10 * k, 0.1, 0.3); spec[91:100, ] <- runif(10 * k, 0.1, 0.3)
truth <- matrix(rbinom(n_items * k, 1, rep(seq(0.1, 0.5, length.out = k), each = n_items)), n_items)
item <- rep(seq_len(n_items), each = per)
annotator <- as.vector(replicate(n_items, sample.int(n_ann, per)))
p1 <- ifelse(truth[item, ] == 1, sens[cbind(rep(annotator, k), rep(1:k, each = length(item)))],
             1 - spec[cbind(rep(annotator, k), rep(1:k, each = length(item)))])
values <- matrix(rbinom(length(p1), 1, p1), ncol = k, dimnames = list(NULL, sprintf("L%02d", 1:k)))
wide <- data.frame(item = item, annotator = annotator, values)
x <- annotations_wide(wide, item, annotator, tidyselect::starts_with("L"))
cat(sprintf("design: %s decisions, %d items, %d annotators, %d labels\n",
            format(x$n_decisions, big.mark = ","), n_items, n_ann, k))

# CPU seconds (user + system) as well as elapsed: the machine is shared,
# and elapsed times grow with the load of other jobs.
cpu <- function(expr) {
  t <- system.time(expr)
  c(cpu = t[["user.self"]] + t[["sys.self"]], elapsed = t[["elapsed"]])
}
t_fit <- cpu(fit <- annotator_model(x, threads = 1))
t_fit2 <- cpu(annotator_model(x, threads = 2))
cat(sprintf("annotator_model(), two-coin per label, SQUAREM: %.2f s CPU (%.2f s elapsed) on 1 thread, %.2f s elapsed on 2; %d E-steps (target < 5 s)\n",
            t_fit[["cpu"]], t_fit[["elapsed"]], t_fit2[["elapsed"]], fit$iterations))
# plain EM, step by step, to the same convergence rule
t_plain <- cpu(plain <- annotator_model(x, threads = 1, accelerate = FALSE, max_iter = 5000))
cat(sprintf("plain EM (accelerate = FALSE): %.2f s CPU, %d E-steps%s; max |confusion difference| %.2g\n",
            t_plain[["cpu"]], plain$iterations, if (plain$converged) "" else " (not converged)",
            max(abs(plain$confusion - fit$confusion))))

# The same EM in plain R, vectorised: per iteration one rowsum() over the
# decisions for the E-step and one for the M-step, per label.
plain_em <- function(item, annotator, values, n_items, n_ann, iterations, floor = 1e-6) {
  clamp <- function(p) pmin(1 - floor, pmax(floor, p))
  k <- ncol(values)
  post <- rowsum(values, item) / rowsum(+(!is.na(values)), item)  # soft majority vote
  ll <- numeric(iterations)
  for (it in seq_len(iterations)) {
    for (j in seq_len(k)) {
      y <- values[, j]
      mu <- post[item, j]
      prev <- clamp(mean(post[, j]))
      sens <- clamp(rowsum(mu * y, annotator)[, 1] / rowsum(mu, annotator)[, 1])
      spec <- clamp(rowsum((1 - mu) * (1 - y), annotator)[, 1] / rowsum(1 - mu, annotator)[, 1])
      l1 <- rowsum(ifelse(y == 1, log(sens[annotator]), log(1 - sens[annotator])), item)[, 1]
      l0 <- rowsum(ifelse(y == 0, log(spec[annotator]), log(1 - spec[annotator])), item)[, 1]
      a1 <- log(prev) + l1
      a0 <- log(1 - prev) + l0
      mx <- pmax(a1, a0)
      s <- exp(a1 - mx) + exp(a0 - mx)
      post[, j] <- exp(a1 - mx) / s
      ll[it] <- ll[it] + sum(mx + log(s))
    }
  }
  ll
}
# R's time per iteration from its first n_r iterations; to convergence it
# needs as many as plain EM takes (the same steps)
n_r <- min(50L, plain$iterations)
t_r <- cpu(ll_r <- plain_em(item, annotator, values, n_items, n_ann, n_r))
r_iter <- t_r[["cpu"]] / n_r
cat(sprintf(paste0("vectorised plain R: %.2f s CPU per iteration (|logLik difference| to plain EM after %d: %.2g); ",
                   "per iteration %.0fx plain EM; to convergence (%d iterations, %.0f s) %.0fx annotator_model() (target >= 100x)\n"),
            r_iter, n_r, abs(ll_r[n_r] - plain$trace[n_r]), r_iter / (t_plain[["cpu"]] / plain$iterations),
            plain$iterations, r_iter * plain$iterations, r_iter * plain$iterations / t_fit[["cpu"]]))

# The test oracle (tests/testthat/helper-annotator-model.R: a loop over the
# decisions, as the equations read), two iterations, per iteration.
source("tests/testthat/helper-annotator-model.R")
arr_problems <- lapply(seq_len(k), function(j) {
  keep <- !is.na(values[, j])
  data.frame(item = item[keep], annotator = annotator[keep], y = values[keep, j] + 1)
})
t_o <- cpu(ref_dawid_skene(arr_problems, n_items, n_ann, 2, max_iter = 2, tol = 0))
cat(sprintf("plain-R oracle: %.1f s CPU per iteration; ratio per iteration %.0fx\n",
            t_o[["cpu"]] / 2, (t_o[["cpu"]] / 2) / (t_plain[["cpu"]] / plain$iterations)))

# Passes over the decisions per iteration: the E-step reads each item's
# decisions for its posterior and again (in cache) to add the M-step
# weights, so one pass over memory; compare the time per iteration with
# one plain summing pass over the decision list's bytes.
t_iter <- t_plain[["cpu"]] / plain$iterations
t_pass <- timeit(sum(values, na.rm = TRUE))
cat(sprintf("per iteration %.1f ms; one pass summing the values in R %.1f ms\n",
            1000 * t_iter, 1000 * t_pass))

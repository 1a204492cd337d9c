# Plain-R EM of the Dawid-Skene model, written from its equations (the
# oracle of test-annotator-model.R): problems are data frames of decisions
# (item, annotator, y in 1..q) with items 1..n_items; start = soft majority
# vote, then M- and E-steps; stop by ref_em_converged(). Probabilities are the maximisers of each
# multinomial term within [floor, 1 - floor] (KKT: max(floor, c / lambda)).
ref_constrained <- function(c, floor) {
  fixed <- rep(FALSE, length(c))
  repeat {
    v <- c * (1 - sum(fixed) * floor) / sum(c[!fixed])
    low <- !fixed & v < floor
    if (!any(low)) break
    fixed <- fixed | low
  }
  ifelse(fixed, floor, v)
}

# Converged: the gain still to come, extrapolated from the last two gains
# as a geometric series (Aitken), is at most tol; or the last gain is lost
# in the rounding of the log-likelihood (tol = 0: no gain at all).
ref_em_converged <- function(trace, tol) {
  n <- length(trace)
  if (n < 2) return(FALSE)
  gain <- trace[n] - trace[n - 1]
  if (tol == 0) return(gain <= 0)
  if (gain <= 64 * .Machine$double.eps * abs(trace[n])) return(TRUE)
  if (n < 3) return(FALSE)
  before <- trace[n - 1] - trace[n - 2]
  if (before <= 0) return(FALSE)
  rate <- gain / before
  rate < 1 && gain / (1 - rate) <= tol
}

ref_dawid_skene <- function(problems, n_items, n_annotators, q, one_coin = FALSE,
                            pooled = FALSE, max_iter = 500, tol = 1e-8, floor = 1e-6) {
  n_prob <- length(problems)
  start <- array(0.3 / (q - 1), c(n_annotators, q, q))
  for (z in seq_len(q)) start[, z, z] <- 0.7
  conf <- rep(list(start), if (pooled) 1L else n_prob)
  prev <- rep(list(rep(1 / q, q)), n_prob)
  post <- lapply(problems, function(d) {
    m <- matrix(0, n_items, q)
    for (r in seq_len(nrow(d))) m[d$item[r], d$y[r]] <- m[d$item[r], d$y[r]] + 1
    m / rowSums(m)  # NaN for items without decisions
  })
  trace <- numeric()
  converged <- FALSE
  for (iter in seq_len(max_iter)) {
    cells <- lapply(seq_len(n_prob), function(j) {
      d <- problems[[j]]
      cell <- array(0, c(n_annotators, q, q))
      for (r in seq_len(nrow(d))) {
        cell[d$annotator[r], , d$y[r]] <- cell[d$annotator[r], , d$y[r]] + post[[j]][d$item[r], ]
      }
      cell
    })
    for (j in seq_len(n_prob)) {
      prev[[j]] <- ref_constrained(colSums(post[[j]], na.rm = TRUE), floor)
    }
    if (pooled) cells <- list(Reduce(`+`, cells))
    for (g in seq_along(cells)) {
      for (a in seq_len(n_annotators)) {
        if (one_coin) {
          tot <- sum(cells[[g]][a, , ])
          if (tot <= 0) next
          acc <- min(1 - (q - 1) * floor, max(floor, sum(diag(cells[[g]][a, , ])) / tot))
          conf[[g]][a, , ] <- (1 - acc) / (q - 1)
          diag(conf[[g]][a, , ]) <- acc
        } else {
          for (z in seq_len(q)) {
            if (sum(cells[[g]][a, z, ]) > 0) conf[[g]][a, z, ] <- ref_constrained(cells[[g]][a, z, ], floor)
          }
        }
      }
    }
    ll <- 0
    for (j in seq_len(n_prob)) {
      d <- problems[[j]]
      cf <- conf[[if (pooled) 1L else j]]
      lw <- matrix(log(prev[[j]]), n_items, q, byrow = TRUE)
      for (r in seq_len(nrow(d))) {
        lw[d$item[r], ] <- lw[d$item[r], ] + log(cf[d$annotator[r], , d$y[r]])
      }
      has <- seq_len(n_items) %in% d$item
      mx <- apply(lw, 1, max)
      w <- exp(lw - mx)
      ll <- ll + sum((mx + log(rowSums(w)))[has])
      p <- w / rowSums(w)
      p[!has, ] <- NaN
      post[[j]] <- p
    }
    trace <- c(trace, ll)
    if (ref_em_converged(trace, tol)) {
      converged <- TRUE
      break
    }
  }
  list(conf = conf, prev = prev, post = post, trace = trace, converged = converged)
}

# The problems of an items x annotators x labels array of 0/1/NA: one per
# label, y = value + 1.
ref_binary_problems <- function(arr) {
  lapply(seq_len(dim(arr)[3]), function(j) {
    idx <- which(!is.na(arr[, , j]), arr.ind = TRUE)
    d <- data.frame(item = idx[, 1], annotator = idx[, 2], y = arr[, , j][idx] + 1)
    d[order(d$item, d$annotator), ]
  })
}

# The one problem of an items x annotators matrix of categories (NA: no
# record), categories in the order `levels`.
ref_category_problem <- function(codes, levels) {
  idx <- which(!is.na(codes), arr.ind = TRUE)
  d <- data.frame(item = idx[, 1], annotator = idx[, 2], y = match(codes[idx], levels))
  list(d[order(d$item, d$annotator), ])
}

# A sparse crowd of `k` labels: each item gets `per_item` of the
# `n_annotators` annotators, with known sensitivities and specificities
# (annotators x labels matrices); the rest are NA (not zeros).
sim_crowd <- function(n_items, n_annotators, k, per_item, sens, spec, prevalence) {
  truth <- matrix(stats::rbinom(n_items * k, 1, rep(prevalence, each = n_items)), n_items, k)
  arr <- array(NA_integer_, c(n_items, n_annotators, k),
               dimnames = list(sprintf("i%04d", seq_len(n_items)),
                               sprintf("w%02d", seq_len(n_annotators)), sprintf("L%02d", seq_len(k))))
  for (i in seq_len(n_items)) {
    who <- sample.int(n_annotators, per_item)
    p1 <- ifelse(rep(truth[i, ], each = per_item) == 1, sens[who, ], 1 - spec[who, ])
    arr[i, who, ] <- matrix(stats::rbinom(per_item * k, 1, p1), per_item, k)
  }
  list(x = arr, truth = truth)
}

# The observed log-likelihood, written from its equations, and a numerical
# Hessian: the oracles of the standard-error tests.

# log sum_z p_z prod_d conf[a_d, z, y_d], summed over items; d: decisions
# (item, annotator, y), conf: [annotator, truth, response].
ref_class_loglik <- function(d, p, conf) {
  lw <- vapply(seq_along(p), function(z) {
    tapply(log(conf[cbind(d$annotator, z, d$y)]), d$item, sum) + log(p[z])
  }, numeric(length(unique(d$item))))
  mx <- apply(lw, 1, max)
  sum(mx + log(rowSums(exp(lw - mx))))
}

ref_num_hessian <- function(f, x, h = 1e-4) {
  n <- length(x)
  hess <- matrix(0, n, n)
  for (u in seq_len(n)) for (v in u:n) {
    e_u <- replace(numeric(n), u, h)
    e_v <- replace(numeric(n), v, h)
    hess[u, v] <- hess[v, u] <- (f(x + e_u + e_v) - f(x + e_u - e_v) - f(x - e_u + e_v) +
                                   f(x - e_u - e_v)) / (4 * h^2)
  }
  hess
}

# Standard errors of a single-label annotator model from its observed
# information, whose free parameters are rows of probabilities (prevalences,
# then per annotator and true class the confusion row or the accuracy), each
# row's last entry balancing its sum.

# Per-category and per-annotator (var sens, var spec, cov) by the delta
# method. Entries at the probability bound are held fixed (no standard
# error); with a message, NA for quantities the information does not
# identify, and throughout when it is indefinite.
single_label_covariance <- function(res, n_ann, model) {
  q <- nrow(res$prevalence)
  one_coin <- model == "one-coin"
  info <- res$information[[1]]
  rows <- single_label_parameter_rows(res, n_ann, q, one_coin)
  map <- free_parametrization(rows, diag(info), q)
  v <- restricted_inverse(info, map)
  if (is.null(v) || anyNA(v)) inform_not_positive_definite(1L, 1L)
  if (is.null(v)) v <- matrix(NA_real_, length(map$keep), length(map$keep))
  # a quantity whose entries are all held fixed has no standard error; one
  # that moves an unidentified entry has none either
  quad <- function(g1, g2, pos) {
    if (!length(pos) || all(g1 == 0) || all(g2 == 0)) return(NA_real_)
    use <- g1 != 0 | g2 != 0
    sum(g1[use] * (v[pos[use], pos[use], drop = FALSE] %*% g2[use]))
  }
  prev <- map$rows[[1]]
  prev_var <- vapply(seq_len(q), function(k) quad(prev$e[k, ], prev$e[k, ], prev$pos), 0)
  ann <- array(NA_real_, c(n_ann, 3L, q))
  p <- res$prevalence[, 1]
  for (a in seq_len(n_ann)) {
    for (k in seq_len(q)) {
      g <- if (one_coin) one_coin_gradients(map$rows[[1L + a]], q)
           else two_coin_gradients(map$rows, prev, a, k, q, p)
      ann[a, , k] <- c(quad(g$sens, g$sens, g$pos), quad(g$spec, g$spec, g$pos),
                       quad(g$sens, g$spec, g$pos))
    }
  }
  list(prevalence = prev_var, annotators = ann)
}

# The rows of parameters in the order of the information: `theta` (their
# indices there) and `value` (the row's entries).
single_label_parameter_rows <- function(res, n_ann, q, one_coin) {
  r <- q - 1L
  conf <- res$confusion[[1]]  # C++ layout: [(a q + z) q + y]
  prev <- list(theta = seq_len(r), value = res$prevalence[, 1], simplex = TRUE)
  if (one_coin) {
    return(c(list(prev), lapply(seq_len(n_ann), function(a) {
      list(theta = r + a, value = conf[(a - 1L) * q * q + 1L], simplex = FALSE)
    })))
  }
  c(list(prev), lapply(seq_len(n_ann * q), function(az) {
    list(theta = r + (az - 1L) * r + seq_len(r), value = conf[(az - 1L) * q + seq_len(q)],
         simplex = TRUE)
  }))
}

# The free parameters phi: per row its entries above the bound but the last
# (which balances the sum). Per row `pos` (its phi) and `e` (d entry / d phi);
# `keep` (the theta index of each phi) and `dep` (the theta balancing it, or
# NA).
free_parametrization <- function(rows, d, q) {
  bound <- annotator_model_floor * (1 + 1e-9)
  pieces <- lapply(rows, function(row) {
    weighted <- all(d[row$theta] > 0)
    if (!row$simplex) {
      free <- weighted && row$value > bound && row$value < 1 - (q - 1) * bound
      return(list(own = if (free) row$theta else integer(), dep = rep(NA_integer_, free),
                  e = matrix(1, 1L, as.integer(free))))
    }
    up <- if (weighted) which(row$value > bound) else integer()
    if (length(up) < 2L) up <- integer()
    ref <- if (length(up)) max(up) else 0L
    own <- setdiff(up, ref)
    e <- matrix(0, length(row$value), length(own))
    e[cbind(own, seq_along(own))] <- 1
    if (length(own)) e[ref, ] <- -1
    dep <- if (ref <= length(row$theta) && ref > 0L) row$theta[ref] else NA_integer_
    list(own = row$theta[own], dep = rep(dep, length(own)), e = e)
  })
  n <- vapply(pieces, function(x) length(x$own), 0L)
  ends <- cumsum(n)
  out_rows <- lapply(seq_along(pieces), function(j) {
    list(pos = seq_len(n[j]) + ends[j] - n[j], e = pieces[[j]]$e, value = rows[[j]]$value)
  })
  list(keep = unlist(lapply(pieces, `[[`, "own")), dep = unlist(lapply(pieces, `[[`, "dep")),
       rows = out_rows)
}

inform_not_positive_definite <- function(n, groups) {
  which <- if (groups == 1L) "the estimates" else "the estimates of {n} of {groups} labels"
  cli::cli_inform(c(
    "i" = paste0("No standard errors: the observed information is not positive definite at ", which, "."),
    "i" = "None for the parameters it does not identify (e.g. an annotator whose items nobody else labels), all when it is indefinite.",
    "i" = "Too few decisions, or EM stopped short of the maximum (a smaller {.arg tol} may help)."
  ))
}

# The inverse of m when a bound proves the test of identified_inverse()
# passes, else NULL; the eigenvalues (cubic in the parameters, slow for a
# crowd of a thousand annotators) are then needed. For the scaled matrix S
# (unit diagonal), smallest eigenvalue >= 1 / trace(S^-1) and largest <=
# its largest absolute row sum, and trace(S^-1) = sum(d * diag(m^-1)).
certified_inverse <- function(m, d) {
  inv <- tryCatch(chol2inv(chol(m)), error = function(e) NULL)
  if (is.null(inv)) return(NULL)
  s <- 1 / sqrt(d)
  largest <- max(rowSums(abs(m) * outer(s, s)))
  smallest <- 1 / sum(d * diag(inv))
  if (is.finite(smallest) && smallest > sqrt(.Machine$double.eps) * largest) inv else NULL
}

# The inverse information of phi, A' I A with theta = A phi (+ constants),
# NA for parameters it does not identify; NULL when indefinite.
restricted_inverse <- function(info, map) {
  if (!length(map$keep)) return(matrix(0, 0L, 0L))
  moved <- which(!is.na(map$dep))
  if (length(moved)) {
    info[, map$keep[moved]] <- info[, map$keep[moved]] - info[, map$dep[moved]]
    info[map$keep[moved], ] <- info[map$keep[moved], ] - info[map$dep[moved], ]
  }
  identified_inverse(info[map$keep, map$keep, drop = FALSE])
}

# Rounding noise makes a singular information look positive definite to
# chol(), so singularity is judged on the eigenvalues of the information
# scaled to unit diagonal (free of the parameters' units and order),
# relative to the largest. A parameter with weight on the null space is not
# identified (NA); the others get their entries of the generalized inverse,
# which is the same for every generalized inverse since they are estimable.
identified_inverse <- function(m) {
  d <- diag(m)
  if (any(d < 0)) return(NULL)
  v <- matrix(NA_real_, nrow(m), ncol(m))
  has <- which(d > 0)
  if (!length(has)) return(v)
  s <- 1 / sqrt(d[has])
  inv <- certified_inverse(m[has, has, drop = FALSE], d[has])
  if (!is.null(inv)) {
    v[has, has] <- inv
    return(v)
  }
  e <- eigen(m[has, has, drop = FALSE] * outer(s, s), symmetric = TRUE)
  tol <- sqrt(.Machine$double.eps) * max(abs(e$values))
  if (min(e$values) < -tol) return(NULL)
  null <- e$values <= tol
  if (!any(null)) {
    v[has, has] <- chol2inv(chol(m[has, has, drop = FALSE]))
    return(v)
  }
  kept <- e$vectors[, !null, drop = FALSE]
  inv <- kept %*% (t(kept) / e$values[!null]) * outer(s, s)
  loose <- rowSums(e$vectors[, null, drop = FALSE]^2) > sqrt(.Machine$double.eps)
  inv[loose, ] <- NA_real_
  inv[, loose] <- NA_real_
  v[has, has] <- inv
  v
}

# Gradients in phi of the sensitivity pi_a(k, k) and of the one-versus-rest
# specificity sum_{z != k} p_z (1 - pi_a(z, k)) / sum_{z != k} p_z of
# annotator a (two-coin): list(pos, sens, spec) over the phi they involve.
two_coin_gradients <- function(rows, prev, a, k, q, p) {
  row_of <- function(z) rows[[1L + (a - 1L) * q + z]]
  rest <- setdiff(seq_len(q), k)
  s <- sum(p[rest])
  conf_k <- vapply(rest, function(z) 1 - row_of(z)$value[k], 0)
  # d spec / d p_z = (conf_z - spec) / s, as differences: exactly 0 when
  # the pi_a(z, k) are equal (all at the bound)
  d_prev <- as.vector(outer(conf_k, conf_k, `-`) %*% p[rest]) / s^2
  parts <- c(list(list(pos = prev$pos, sens = numeric(length(prev$pos)),
                       spec = as.vector(d_prev %*% prev$e[rest, , drop = FALSE]))),
             lapply(seq_len(q), function(z) {
               rz <- row_of(z)
               list(pos = rz$pos, sens = if (z == k) rz$e[k, ] else numeric(length(rz$pos)),
                    spec = if (z == k) numeric(length(rz$pos)) else -p[z] / s * rz$e[k, ])
             }))
  if (!length(unlist(lapply(parts[-1], `[[`, "pos")))) return(list(pos = integer()))
  list(pos = unlist(lapply(parts, `[[`, "pos")), sens = unlist(lapply(parts, `[[`, "sens")),
       spec = unlist(lapply(parts, `[[`, "spec")))
}

# One-coin: sensitivity = accuracy, specificity = 1 - (1 - accuracy) / (q - 1).
one_coin_gradients <- function(row, q) {
  list(pos = row$pos, sens = rep(1, length(row$pos)), spec = rep(1 / (q - 1), length(row$pos)))
}

# Standard errors of the single-label (q-class) annotator model against
# plain-R references: the observed log-likelihood of the Dawid-Skene model
# written from its equations, differentiated numerically.

# 40 items, 4 annotators, 3 categories, 20 missing cells.
se_design <- function(seed = 1) {
  withr::local_seed(seed)
  lv <- c("a", "b", "c")
  truth <- sample(lv, 40, replace = TRUE, prob = c(0.45, 0.35, 0.2))
  codes <- vapply(c(0.85, 0.75, 0.65, 0.55), function(p) {
    ifelse(stats::runif(40) < p, truth, sample(lv, 40, replace = TRUE))
  }, character(40))
  codes[sample(length(codes), 20)] <- NA
  dimnames(codes) <- list(sprintf("i%02d", 1:40), sprintf("w%d", 1:4))
  codes
}

ref_num_gradient <- function(f, x, h = 1e-6) {
  vapply(seq_along(x), function(u) {
    e <- replace(numeric(length(x)), u, h)
    (f(x + e) - f(x - e)) / (2 * h)
  }, 0)
}

# The model as rows of probabilities (prevalences, then conf[a, z, ]): the
# free entries of a row are those above the bound but its last one, which
# balances the sum (none when fewer than two are above the bound).
ref_rows <- function(p, conf) {
  c(list(p), lapply(seq_len(prod(dim(conf)[1:2])), function(az) {
    conf[(az - 1) %/% dim(conf)[2] + 1, (az - 1) %% dim(conf)[2] + 1, ]
  }))
}
ref_free <- function(v) {
  up <- which(v > 1.1e-6)
  if (length(up) < 2) integer() else up[-length(up)]
}
ref_from_phi <- function(phi, rows0, n_ann, q) {
  rows <- rows0
  at <- 0
  for (j in seq_along(rows)) {
    f <- ref_free(rows0[[j]])
    if (!length(f)) next
    bal <- max(which(rows0[[j]] > 1.1e-6))
    rows[[j]][f] <- phi[at + seq_along(f)]
    rows[[j]][bal] <- 1 - sum(rows[[j]][-bal])
    at <- at + length(f)
  }
  conf <- array(0, c(n_ann, q, q))
  for (az in seq_len(n_ann * q)) conf[(az - 1) %/% q + 1, (az - 1) %% q + 1, ] <- rows[[1 + az]]
  list(p = rows[[1]], conf = conf)
}

# sensitivity conf[a, k, k] and one-versus-rest specificity of a model
ref_sens_spec <- function(m, a, k) {
  rest <- setdiff(seq_along(m$p), k)
  c(m$conf[a, k, k], sum(m$p[rest] * (1 - m$conf[a, rest, k])) / sum(m$p[rest]))
}

test_that("single-label information equals minus the numerical Hessian (two-coin)", {
  codes <- se_design()
  x <- as_annotations(codes)
  res <- mlagreement:::annotator_model_cpp(mlagreement:::annotation_view(x), TRUE, FALSE, FALSE,
                                           500L, 1e-8, TRUE, 1e-6, 1L, TRUE)
  fit <- annotator_model(x)
  expect_equal(res$confusion[[1]], as.vector(aperm(fit$confusion[, , , 1], c(3, 2, 1))))
  info <- res$information[[1]]
  expect_identical(dim(info), c(26L, 26L))  # 2 prevalences + 4 annotators x 3 x 2
  expect_identical(info, t(info))
  # theta: p_1, p_2, then conf[a, z, 1:2] at 2 + ((a - 1) 3 + z - 1) 2 + y
  conf <- fit$confusion[, , , 1]
  theta0 <- c(fit$prevalence[1:2, 1], as.vector(aperm(conf[, , 1:2], c(3, 2, 1))))
  last <- c(rep(fit$prevalence[3, 1], 2), rep(as.vector(t(conf[, , 3])), each = 2))
  d <- ref_category_problem(codes, fit$labels)[[1]]
  loglik <- function(theta) {
    conf <- aperm(array(theta[-(1:2)], c(2, 3, 4)), c(3, 2, 1))
    conf <- array(c(conf, 1 - conf[, , 1] - conf[, , 2]), c(4, 3, 3))
    ref_class_loglik(d, c(theta[1:2], 1 - sum(theta[1:2])), conf)
  }
  # parameters at the bound (or whose row balances at it) are left out
  interior <- which(theta0 > 1e-3 & last > 1e-3)
  expect_gt(length(interior), 15)
  hess <- ref_num_hessian(function(t) loglik(replace(theta0, interior, t)), theta0[interior])
  expect_equal(info[interior, interior], -hess, tolerance = 1e-5)
})

test_that("single-label standard errors: numerical inverse Hessian and delta method", {
  codes <- se_design()
  fit <- annotator_model(as_annotations(codes))
  d <- ref_category_problem(codes, fit$labels)[[1]]
  rows0 <- ref_rows(fit$prevalence[, 1], fit$confusion[, , , 1])
  # rows whose last entry is at the bound balance with another entry
  expect_true(any(vapply(rows0, function(v) v[3] < 1e-5 && length(ref_free(v)) > 0, TRUE)))
  phi0 <- unlist(lapply(rows0, function(v) v[ref_free(v)]))
  model <- function(phi) ref_from_phi(phi, rows0, 4, 3)
  v <- solve(-ref_num_hessian(function(phi) {
    m <- model(phi)
    ref_class_loglik(d, m$p, m$conf)
  }, phi0))
  se_of <- function(f) {
    g <- ref_num_gradient(f, phi0)
    if (all(abs(g) < 1e-8)) NA_real_ else sqrt(sum(g * (v %*% g)))
  }
  rows <- tidy(fit)
  for (r in seq_len(nrow(rows))) {
    a <- match(rows$annotator[r], fit$annotators)
    k <- match(rows$label[r], fit$labels)
    expect_equal(rows$sensitivity_se[r], se_of(function(phi) ref_sens_spec(model(phi), a, k)[1]),
                 tolerance = 1e-4)
    expect_equal(rows$specificity_se[r], se_of(function(phi) ref_sens_spec(model(phi), a, k)[2]),
                 tolerance = 1e-4)
    ref_spammer <- se_of(function(phi) sum(ref_sens_spec(model(phi), a, k)))
    if (!is.na(rows$sensitivity_se[r]) && !is.na(rows$specificity_se[r])) {
      expect_equal(rows$spammer_score_se[r], ref_spammer, tolerance = 1e-4)
    }
  }
  expect_gt(sum(!is.na(rows$specificity_se)), 6)
  expect_equal(tidy(fit, level = "labels")$std.error,
               vapply(1:3, function(k) se_of(function(phi) model(phi)$p[k]), 0), tolerance = 1e-4)
})

test_that("single-label one-coin standard errors are the inverse numerical Hessian", {
  codes <- se_design(2)
  fit <- annotator_model(as_annotations(codes), model = "one-coin")
  d <- ref_category_problem(codes, fit$labels)[[1]]
  theta0 <- c(fit$prevalence[1:2, 1], fit$confusion[, 1, 1, 1])
  loglik <- function(theta) {
    conf <- array((1 - theta[-(1:2)]) / 2, c(4, 3, 3))
    for (z in 1:3) conf[, z, z] <- theta[-(1:2)]
    ref_class_loglik(d, c(theta[1:2], 1 - sum(theta[1:2])), conf)
  }
  v <- solve(-ref_num_hessian(loglik, theta0))
  se_acc <- sqrt(diag(v)[3:6])
  rows <- tidy(fit)
  expect_equal(rows$sensitivity_se, rep(se_acc, 3), tolerance = 1e-4)
  expect_equal(rows$specificity_se, rep(se_acc / 2, 3), tolerance = 1e-4)
  expect_equal(rows$spammer_score_se, rep(1.5 * se_acc, 3), tolerance = 1e-4)
  se_p3 <- sqrt(sum(v[1:2, 1:2]))
  expect_equal(tidy(fit, level = "labels")$std.error, c(sqrt(diag(v)[1:2]), se_p3),
               tolerance = 1e-4)
})

test_that("two categories: the same standard errors as the binary two-coin model", {
  withr::local_seed(8)
  truth <- stats::rbinom(60, 1, 0.4)
  sens <- c(0.9, 0.8, 0.7, 0.75, 0.6)
  spec <- c(0.85, 0.9, 0.7, 0.65, 0.6)
  y <- vapply(1:5, function(a) stats::rbinom(60, 1, ifelse(truth == 1, sens[a], 1 - spec[a])),
              numeric(60))
  y[sample(length(y), 40)] <- NA
  dimnames(y) <- list(sprintf("i%02d", 1:60), sprintf("w%d", 1:5))
  codes <- ifelse(y == 1, "yes", "no")
  single <- annotator_model(as_annotations(codes))
  binary <- annotator_model(as_annotations(array(y, c(60, 5, 1),
                                                 c(dimnames(y), list("yes")))))
  expect_true(single$single_label)
  b <- tidy(binary)
  s <- tidy(single)
  yes <- s[s$label == "yes", ]
  no <- s[s$label == "no", ]
  expect_gt(sum(!is.na(b$sensitivity_se) & !is.na(b$specificity_se)), 2)
  # category "yes" is the binary label; category "no" swaps the roles
  for (v in c("sensitivity", "specificity", "spammer_score")) {
    expect_equal(yes[[v]], b[[v]], tolerance = 1e-8)
    expect_equal(yes[[paste0(v, "_se")]], b[[paste0(v, "_se")]], tolerance = 1e-6)
  }
  expect_equal(no$sensitivity_se, b$specificity_se, tolerance = 1e-6)
  expect_equal(no$specificity_se, b$sensitivity_se, tolerance = 1e-6)
  expect_equal(no$spammer_score_se, b$spammer_score_se, tolerance = 1e-6)
  se_prev <- tidy(binary, level = "labels")$std.error
  expect_equal(tidy(single, level = "labels")$std.error, c(se_prev, se_prev), tolerance = 1e-6)
})

test_that("single-label: no decisions, too little data and size limits give NA, not errors", {
  codes <- se_design()
  with_idle <- cbind(codes, w5 = NA_character_)
  fit <- annotator_model(as_annotations(with_idle))
  rows <- tidy(fit, conf.int = TRUE)
  idle <- rows[rows$annotator == "w5", ]
  expect_identical(idle$n, rep(0L, 3))
  expect_true(all(is.na(idle[, -(1:3)])))
  # the others are as without the idle annotator
  ref <- tidy(annotator_model(as_annotations(codes)), conf.int = TRUE)
  expect_equal(rows[rows$annotator != "w5", ], ref, tolerance = 1e-10)
  # five items: the information is not positive definite
  tiny <- matrix(c("a", "b", "c", "a", "b", "a", "b", "c", "a", "c"), 5, 2,
                 dimnames = list(sprintf("i%d", 1:5), c("w1", "w2")))
  expect_message(rows <- tidy(annotator_model(as_annotations(tiny))), "not positive definite")
  expect_true(all(is.na(rows$sensitivity_se)))
  # over the memory limit (40 bytes x 26^2 for the information): a message
  withr::local_options(mlagreement.max_memory = 4e4)
  expect_message(fit <- annotator_model(as_annotations(codes)), "fewer annotators")
  expect_null(fit$covariance)
  expect_true(all(is.na(tidy(fit)$sensitivity_se)))
})

test_that("simulation: single-label 95% intervals cover the truth about 95% of the time", {
  skip_on_cran()
  withr::local_seed(41)
  lv <- c("a", "b", "c")
  prev <- c(0.5, 0.3, 0.2)
  covers <- unlist(lapply(1:4, function(rep) {
    # 40 annotators, each row of each confusion matrix with its own accuracy
    conf <- array(0, c(40, 3, 3))
    for (a in 1:40) for (z in 1:3) {
      w <- replace(stats::rgamma(3, 1), z, 0)
      acc <- stats::runif(1, 0.55, 0.9)
      conf[a, z, ] <- replace((1 - acc) * w / sum(w), z, acc)
    }
    truth <- sample(3, 3000, replace = TRUE, prob = prev)
    codes <- matrix(NA_character_, 3000, 40,
                    dimnames = list(sprintf("i%04d", 1:3000), sprintf("w%02d", 1:40)))
    for (i in 1:3000) {
      who <- sample(40, 5)
      codes[i, who] <- lv[vapply(who, function(a) sample(3, 1, prob = conf[a, truth[i], ]), 1L)]
    }
    # a tight tol: EM stopped short of the maximum can leave the information indefinite
    ci <- tidy(annotator_model(as_annotations(codes), tol = 1e-10), conf.int = TRUE)
    a <- match(ci$annotator, sprintf("w%02d", 1:40))
    k <- match(ci$label, lv)
    sens <- conf[cbind(a, k, k)]
    spec <- vapply(seq_along(a), function(r) {
      rest <- setdiff(1:3, k[r])
      sum(prev[rest] * (1 - conf[a[r], rest, k[r]])) / sum(prev[rest])
    }, 0)
    c(ci$sensitivity_low <= sens & sens <= ci$sensitivity_high,
      ci$specificity_low <= spec & spec <= ci$specificity_high)
  }))
  expect_gt(sum(!is.na(covers)), 900)
  expect_gt(mean(covers, na.rm = TRUE), 0.92)
  expect_lt(mean(covers, na.rm = TRUE), 0.985)
})

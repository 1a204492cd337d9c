# A small sparse design with single missing cells: 40 items, 6 annotators,
# 3 labels, 3-5 annotators per item.
small_crowd <- function(seed = 1) {
  withr::local_seed(seed)
  sens <- matrix(c(0.9, 0.8, 0.85, 0.7, 0.5, 0.3), 6, 3)
  spec <- matrix(c(0.95, 0.85, 0.8, 0.9, 0.5, 0.35), 6, 3)
  arr <- sim_crowd(40, 6, 3, 4, sens, spec, c(0.3, 0.5, 0.2))$x
  arr[cbind(c(1, 5, 9), c(2, 3, 4), c(1, 2, 3))][] <- NA  # no-ops where no record
  arr[sample(which(!is.na(arr)), 10)] <- NA
  arr
}

expect_matches_reference <- function(fit, ref, pooled = FALSE) {
  q <- dim(fit$confusion)[2]
  expect_equal(fit$trace, ref$trace, tolerance = 1e-8)
  for (g in seq_along(ref$conf)) {
    expect_equal(fit$confusion[, , , g], ref$conf[[g]], tolerance = 1e-8, ignore_attr = TRUE)
  }
  if (fit$single_label) {
    expect_equal(fit$posterior, ref$post[[1]], tolerance = 1e-8, ignore_attr = TRUE)
    expect_equal(fit$prevalence[, 1], ref$prev[[1]], tolerance = 1e-8)
  } else {
    post1 <- vapply(ref$post, function(p) p[, 2], numeric(nrow(fit$posterior)))
    post1[is.nan(post1)] <- NA
    expect_equal(fit$posterior, post1, tolerance = 1e-8, ignore_attr = TRUE)
    expect_equal(fit$prevalence[2, ], vapply(ref$prev, `[`, 0, 2), tolerance = 1e-8)
  }
}

test_that("the EM equals the plain-R EM from the same start (two-coin, one-coin, pooled)", {
  arr <- small_crowd()
  x <- as_annotations(arr)
  probs <- ref_binary_problems(arr)
  for (model in c("two-coin", "one-coin")) {
    for (pooled in c(FALSE, TRUE)) {
      fit <- annotator_model(x, model = model, pool_labels = pooled, accelerate = FALSE)
      ref <- ref_dawid_skene(probs, 40, 6, 2, one_coin = model == "one-coin", pooled = pooled)
      expect_true(ref$converged)
      expect_identical(fit$iterations, length(ref$trace))
      expect_matches_reference(fit, ref)
    }
  }
})

test_that("single-label data: the multi-class EM equals the plain-R EM", {
  withr::local_seed(3)
  truth <- sample(c("a", "b", "c"), 50, replace = TRUE, prob = c(0.5, 0.3, 0.2))
  acc <- c(0.9, 0.8, 0.7, 0.6, 0.34)
  codes <- vapply(acc, function(p) ifelse(stats::runif(50) < p, truth,
                                           sample(c("a", "b", "c"), 50, replace = TRUE)),
                  character(50))
  codes[sample(length(codes), 60)] <- NA
  dimnames(codes) <- list(sprintf("i%02d", 1:50), sprintf("w%d", 1:5))
  x <- as_annotations(codes)
  expect_true(mlagreement:::is_single_label(x))
  for (model in c("two-coin", "one-coin")) {
    fit <- annotator_model(x, model = model, accelerate = FALSE)
    ref <- ref_dawid_skene(ref_category_problem(codes, fit$labels), 50, 5, 3,
                           one_coin = model == "one-coin")
    expect_matches_reference(fit, ref)
  }
  # per category: sensitivity is the diagonal of the confusion matrix
  fit <- annotator_model(x)
  rows <- tidy(fit)
  expect_equal(rows$sensitivity[rows$label == "b"], fit$confusion[, 2, 2, 1])
  expect_equal(sum(tidy(fit, level = "confusion")$probability), 5 * 3)
  expect_snapshot(error = TRUE, annotator_model(x, pool_labels = TRUE))
})

test_that("SQUAREM reaches the maximum of plain EM, where plain EM is slow", {
  # spammers and adversarial annotators flatten the likelihood: plain EM
  # converges linearly at a rate close to 1
  withr::local_seed(11)
  kind <- rep(c("good", "spammer", "adversarial"), c(8, 2, 2))
  sens <- matrix(stats::runif(36, 0.65, 0.9), 12, 3)
  spec <- matrix(stats::runif(36, 0.7, 0.9), 12, 3)
  sens[kind == "spammer", ] <- 0.4
  spec[kind == "spammer", ] <- 0.6
  sens[kind == "adversarial", ] <- spec[kind == "adversarial", ] <- 0.3
  x <- as_annotations(sim_crowd(400, 12, 3, 4, sens, spec, c(0.2, 0.3, 0.4))$x)
  best <- annotator_model(x, accelerate = FALSE, tol = 0, max_iter = 20000)
  expect_true(best$converged)
  plain <- annotator_model(x, accelerate = FALSE, max_iter = 20000)
  fast <- annotator_model(x)
  expect_true(fast$converged)
  expect_lt(fast$iterations, plain$iterations / 2)
  expect_true(all(diff(fast$trace) >= 0))
  expect_equal(fast$confusion, best$confusion, tolerance = 1e-4)
  expect_lt(best$trace[length(best$trace)] - fast$trace[length(fast$trace)], 1e-6)
  # the default stop leaves the estimates well within their standard errors
  # of the maximum (about sqrt(2 tol) of them)
  rows <- tidy(fast)
  gap <- abs(rows$sensitivity - tidy(best)$sensitivity) / rows$sensitivity_se
  expect_lt(max(gap, na.rm = TRUE), 0.01)
  expect_identical(annotator_model(x, threads = 1), annotator_model(x, threads = 2))
})

test_that("the log-likelihood never decreases; max_iter warns when not converged", {
  expect_mla_warning(fit <- annotator_model(as_annotations(small_crowd(2)), tol = 0, max_iter = 60,
                                            accelerate = FALSE), "not_converged")
  expect_length(fit$trace, 60)
  expect_true(all(diff(fit$trace) >= -1e-9 * abs(fit$trace[-1])))
  # accelerated: max_iter counts E-steps exactly; the kept points never lose
  # (stopped this early, some labels' information is not positive definite: a message)
  expect_mla_warning(fast <- suppressMessages(annotator_model(as_annotations(small_crowd(2)), tol = 0,
                                                              max_iter = 21)), "not_converged")
  expect_identical(fast$iterations, 21L)
  expect_true(all(diff(fast$trace) >= 0))
  expect_gt(fast$trace[length(fast$trace)], fit$trace[21])
  expect_false(glance(fit)$converged)
})

test_that("missing decisions are absent, not zeros", {
  arr <- small_crowd()
  fit <- annotator_model(as_annotations(arr))
  expect_equal(fit$n_decisions, sum(!is.na(arr)))
  expect_identical(tidy(fit)$n, as.integer(apply(!is.na(arr), c(2, 3), sum)))
  # turning the missing decisions into zeros changes the fit
  zeros <- arr
  zeros[is.na(zeros)] <- 0L
  expect_false(isTRUE(all.equal(annotator_model(as_annotations(zeros))$confusion, fit$confusion)))
  # an item without decisions on a label has no posterior
  arr[3, , 2] <- NA
  items <- tidy(annotator_model(as_annotations(arr)), level = "items")
  expect_true(is.na(items$posterior[items$item == dimnames(arr)[[1]][3] & items$label == "L02"]))
})

test_that("results do not depend on threads and are reproducible", {
  skip_if(max_threads_cpp() < 2L)
  x <- as_annotations(small_crowd())
  expect_identical(annotator_model(x, threads = 1), annotator_model(x, threads = 2))
  expect_identical(annotator_model(x, pool_labels = TRUE, threads = 1),
                   annotator_model(x, pool_labels = TRUE, threads = 2))
})

test_that("standard errors are the inverse observed information (numerical Hessian)", {
  arr <- small_crowd()
  fit <- annotator_model(as_annotations(arr))
  # observed log-likelihood of label 1 as a function of (p, sens_a, spec_a)
  d <- ref_binary_problems(arr)[[1]]
  theta0 <- c(fit$prevalence[2, 1], as.vector(rbind(fit$confusion[, 2, 2, 1], fit$confusion[, 1, 1, 1])))
  loglik <- function(theta) {
    p <- theta[1]
    sens <- theta[2 * (1:6)]
    spec <- theta[2 * (1:6) + 1]
    l1 <- tapply(ifelse(d$y == 2, log(sens[d$annotator]), log(1 - sens[d$annotator])), d$item, sum)
    l0 <- tapply(ifelse(d$y == 1, log(spec[d$annotator]), log(1 - spec[d$annotator])), d$item, sum)
    sum(log(p * exp(l1) + (1 - p) * exp(l0)))
  }
  h <- 1e-5
  n <- length(theta0)
  free <- which(theta0 > 1e-5 & theta0 < 1 - 1e-5)  # parameters at the bound are held fixed
  hess <- matrix(0, length(free), length(free))
  for (u in seq_along(free)) for (v in seq_along(free)) {
    e_u <- replace(numeric(n), free[u], h)
    e_v <- replace(numeric(n), free[v], h)
    hess[u, v] <- (loglik(theta0 + e_u + e_v) - loglik(theta0 + e_u - e_v) -
                     loglik(theta0 - e_u + e_v) + loglik(theta0 - e_u - e_v)) / (4 * h^2)
  }
  se <- rep(NA_real_, n)
  se[free] <- sqrt(diag(solve(-hess)))
  rows <- tidy(fit)[1:6, ]
  expect_equal(rows$sensitivity_se, se[2 * (1:6)], tolerance = 1e-4)
  expect_equal(rows$specificity_se, se[2 * (1:6) + 1], tolerance = 1e-4)
  expect_equal(tidy(fit, level = "labels")$std.error[1], se[1], tolerance = 1e-4)
})

test_that("binary: an information that is not positive definite gives NA where it must, with a message", {
  # two annotators on six items: five parameters per label, three free
  # response patterns, so the information is singular
  set.seed(3)
  y <- array(rbinom(24, 1, 0.5), c(6, 2, 2), dimnames = list(NULL, c("w1", "w2"), c("A", "B")))
  expect_message(fit <- annotator_model(as_annotations(y)),
                 "not positive definite at the estimates of 2 of 2 labels")
  rows <- tidy(fit)
  expect_true(all(is.finite(rows$sensitivity)))
  # B is indefinite: no standard errors; in A only w2 (a spammer, whose
  # decisions say nothing of the truth) is identified
  expect_true(all(is.na(unlist(rows[-2, c("sensitivity_se", "specificity_se")]))))
  expect_true(is.na(tidy(fit, level = "labels")$std.error[1]))
  d <- ref_binary_problems(y)[[1]]
  loglik <- function(theta) {
    sens <- theta[c(2, 4)]
    spec <- theta[c(3, 5)]
    ref_class_loglik(d, c(1 - theta[1], theta[1]), array(c(spec, 1 - sens, 1 - spec, sens), c(2, 2, 2)))
  }
  hess <- ref_num_hessian(loglik, c(fit$prevalence[2, 1], rows$sensitivity[1], rows$specificity[1],
                                    rows$sensitivity[2], rows$specificity[2]))
  expect_lt(max(abs(hess[1:3, 4:5])), 1e-5)
  se <- sqrt(diag(solve(-hess[4:5, 4:5])))
  expect_equal(c(rows$sensitivity_se[2], rows$specificity_se[2]), se, tolerance = 1e-4)
})

test_that("pooled one-coin standard errors are the inverse numerical Hessian", {
  arr <- small_crowd(4)
  fit <- annotator_model(as_annotations(arr), model = "one-coin", pool_labels = TRUE)
  probs <- ref_binary_problems(arr)
  theta0 <- c(fit$prevalence[2, ], fit$confusion[, 2, 2, 1])
  loglik <- function(theta) {
    acc <- theta[4:9]
    sum(vapply(1:3, function(j) {
      d <- probs[[j]]
      l1 <- tapply(ifelse(d$y == 2, log(acc[d$annotator]), log(1 - acc[d$annotator])), d$item, sum)
      l0 <- tapply(ifelse(d$y == 1, log(acc[d$annotator]), log(1 - acc[d$annotator])), d$item, sum)
      sum(log(theta[j] * exp(l1) + (1 - theta[j]) * exp(l0)))
    }, 0))
  }
  h <- 1e-5
  n <- length(theta0)
  hess <- matrix(0, n, n)
  for (u in 1:n) for (v in 1:n) {
    e_u <- replace(numeric(n), u, h)
    e_v <- replace(numeric(n), v, h)
    hess[u, v] <- (loglik(theta0 + e_u + e_v) - loglik(theta0 + e_u - e_v) -
                     loglik(theta0 - e_u + e_v) + loglik(theta0 - e_u - e_v)) / (4 * h^2)
  }
  se <- sqrt(diag(solve(-hess)))
  rows <- tidy(fit)
  expect_identical(rows$label, rep("(pooled)", 6))
  expect_equal(rows$sensitivity_se, se[4:9], tolerance = 1e-4)
  expect_equal(rows$specificity_se, se[4:9], tolerance = 1e-4)
  expect_equal(rows$spammer_score_se, 2 * se[4:9], tolerance = 1e-4)
  expect_equal(tidy(fit, level = "labels")$std.error, se[1:3], tolerance = 1e-4)
})

test_that("simulation: 2,000 items, 10 labels, 50 sparse annotators are recovered", {
  skip_on_cran()
  withr::local_seed(27)
  n_ann <- 50
  k <- 10
  kind <- rep(c("good", "spammer", "adversarial"), c(40, 5, 5))
  sens <- spec <- matrix(0, n_ann, k)
  sens[kind == "good", ] <- stats::runif(40 * k, 0.7, 0.95)
  spec[kind == "good", ] <- stats::runif(40 * k, 0.75, 0.95)
  rate <- stats::runif(5 * k, 0.2, 0.6)  # a spammer selects at its own rate
  sens[kind == "spammer", ] <- rate
  spec[kind == "spammer", ] <- 1 - rate
  sens[kind == "adversarial", ] <- stats::runif(5 * k, 0.1, 0.3)
  spec[kind == "adversarial", ] <- stats::runif(5 * k, 0.1, 0.3)
  sim <- sim_crowd(2000, n_ann, k, 5, sens, spec, stats::runif(k, 0.3, 0.5))
  fit <- annotator_model(as_annotations(sim$x))
  rows <- tidy(fit)
  expect_lt(abs(mean(rows$sensitivity - as.vector(sens))), 0.03)
  expect_lt(abs(mean(rows$specificity - as.vector(spec))), 0.03)
  expect_lt(mean(abs(rows$sensitivity - as.vector(sens))), 0.05)
  expect_lt(mean(abs(rows$specificity - as.vector(spec))), 0.035)
  # 95% intervals from the observed information cover the truth about 95% of the time
  ci <- tidy(fit, conf.int = TRUE)
  covers <- c(ci$sensitivity_low <= as.vector(sens) & as.vector(sens) <= ci$sensitivity_high,
              ci$specificity_low <= as.vector(spec) & as.vector(spec) <= ci$specificity_high)
  expect_gt(mean(covers, na.rm = TRUE), 0.92)
  expect_lt(mean(covers, na.rm = TRUE), 0.99)
  ranking <- mlagreement:::annotator_ranking(fit)
  expect_setequal(ranking$annotator[1:5], dimnames(sim$x)[[2]][kind == "spammer"])
  # pooled over labels: more decisions per parameter, closer to the truth
  pooled <- tidy(annotator_model(as_annotations(sim$x), pool_labels = TRUE))
  expect_lt(mean(abs(pooled$sensitivity[kind == "good"] - rowMeans(sens)[kind == "good"])), 0.03)
})

test_that("predict() gives P(annotator says 1) from the posterior and the annotator's rates", {
  arr <- small_crowd()
  fit <- annotator_model(as_annotations(arr))
  nd <- data.frame(item = c("i0001", "i0002", "new"), annotator = "w01", label = "L02")
  mu <- c(fit$posterior[1:2, 2], fit$prevalence[2, 2])
  want <- mu * fit$confusion[1, 2, 2, 2] + (1 - mu) * (1 - fit$confusion[1, 1, 1, 2])
  expect_message(prob <- predict(fit, nd, type = "prob"), class = "mlagreement_message_unseen_ids")
  expect_equal(prob, want)
  expect_identical(suppressMessages(predict(fit, nd)), as.integer(want >= 0.5))
  wide <- predict(fit, nd[1:2, c("item", "annotator")], type = "prob")
  expect_equal(dim(wide), c(2L, 3L))
  expect_equal(wide[, "L02"], want[1:2])
  expect_snapshot(error = TRUE, predict(fit, data.frame(item = "i0001", annotator = "nobody")))
})

test_that("glance(), augment(), print() and autoplot()", {
  arr <- small_crowd()
  fit <- annotator_model(as_annotations(arr))
  g <- glance(fit)
  expect_identical(nrow(g), 1L)
  expect_identical(g$logLik, fit$trace[length(fit$trace)])
  expect_identical(g$df, 6L * 3L * 2L + 3L)
  aug <- augment(fit)
  expect_identical(aug$.n, as.integer(rowSums(!is.na(arr))))
  expect_identical(aug$.labels[[1]], fit$labels[!is.na(fit$posterior[1, ]) & fit$posterior[1, ] >= 0.5])
  expect_output(print(fit), "Lowest spammer scores")
  skip_if_not_installed("ggplot2")
  p <- ggplot2::autoplot(fit)
  expect_s3_class(p, "ggplot")
  expect_identical(nrow(ggplot2::layer_data(p, 2)), 18L)
})

test_that("user errors are classed", {
  x <- as_annotations(small_crowd())
  expect_snapshot(error = TRUE, annotator_model(x, model = "three-coin"))
  expect_snapshot(error = TRUE, annotator_model(as_annotation_counts(x)))
  withr::with_options(list(mlagreement.max_memory = 1000),
                      expect_mla_error(annotator_model(x), "memory"))
  expect_mla_error(annotator_model(x, max_iter = 0))
  expect_mla_error(annotator_model(x, tol = -1))
  fit <- annotator_model(x)
  expect_mla_error(tidy(fit, level = "pairs"))
  expect_mla_error(predict(fit, data.frame(item = "i0001")), "newdata")
  expect_mla_error(predict(fit, data.frame(item = "i0001", annotator = "w01", label = "nope")),
                   "newdata")
})

test_that("single-label predict() is a TID-8 baseline for annotator_metrics()", {
  withr::local_seed(5)
  truth <- sample(c("neg", "neu", "pos"), 80, replace = TRUE)
  codes <- vapply(c(0.9, 0.8, 0.6, 0.4), function(p) {
    ifelse(stats::runif(80) < p, truth, sample(c("neg", "neu", "pos"), 80, replace = TRUE))
  }, character(80))
  dimnames(codes) <- list(sprintf("i%02d", 1:80), sprintf("w%d", 1:4))
  test <- cbind(sample(80, 20), sample(4, 20, replace = TRUE))
  train <- codes
  train[test] <- NA
  fit <- annotator_model(as_annotations(train))
  nd <- data.frame(item = rownames(codes)[test[, 1]], annotator = colnames(codes)[test[, 2]],
                   label = codes[test])
  probs <- predict(fit, nd, type = "prob")
  # P(says y) = sum_z posterior(z) pi_a[z, y]
  r <- 1
  post <- fit$posterior[match(nd$item[r], fit$items), ]
  expect_equal(unname(probs[r, ]), as.vector(post %*% fit$confusion[test[r, 2], , , 1]))
  expect_equal(rowSums(probs), rep(1, 20))
  nd$.pred <- predict(fit, nd)
  expect_identical(nd$.pred, colnames(probs)[max.col(probs, ties.method = "first")])
  scores <- annotator_metrics(nd, label, .pred, annotator)
  expect_equal(scores$accuracy[1], mean(nd$.pred == nd$label))
})

test_that("a label without decisions has no estimates and leaves the others alone", {
  arr <- small_crowd()
  empty <- arr
  empty[, , 3] <- NA
  fit <- annotator_model(as_annotations(empty))
  two <- annotator_model(as_annotations(arr[, , 1:2]))
  expect_true(is.na(tidy(fit, level = "labels")$prevalence[3]))
  rows <- tidy(fit)
  expect_true(all(is.na(rows$sensitivity[rows$label == "L03"])))
  expect_identical(rows$n[rows$label == "L03"], rep(0L, 6))
  expect_equal(rows[rows$label != "L03", ], tidy(two), tolerance = 1e-12)
})

test_that("dense and records layouts (any record order) give the same fit", {
  arr <- small_crowd()
  dense <- annotator_model(as_annotations(arr))
  long <- as.data.frame(as_annotations(arr))
  long <- long[sample(nrow(long)), ]  # records in another order
  records <- annotator_model(annotations_long(long, item, annotator, label, value))
  expect_equal(tidy(records), tidy(dense), tolerance = 1e-10)
  expect_equal(tidy(records, level = "items"), tidy(dense, level = "items"), tolerance = 1e-10)
  expect_equal(records$trace, dense$trace, tolerance = 1e-10)
})

test_that("predict(): item ids the fit has not seen get the prevalence, with one message saying how many", {
  arr <- small_crowd()
  fit <- annotator_model(as_annotations(arr))
  seen <- data.frame(item = c("i0001", "i0002"), annotator = "w01", label = "L02")
  expect_no_message(predict(fit, seen, type = "prob"))
  nd <- data.frame(item = c("i0001", "new", "new", "other"), annotator = "w01", label = "L02")
  msgs <- list()
  prob <- withCallingHandlers(predict(fit, nd, type = "prob"), mlagreement_message_unseen_ids = function(m) {
    msgs[[length(msgs) + 1L]] <<- m
    invokeRestart("muffleMessage")
  })
  expect_length(msgs, 1L)
  text <- cli::ansi_strip(conditionMessage(msgs[[1]]))
  expect_match(text, "3 of 4 rows of `newdata` have item ids not seen in `object` (\"new\" and \"other\")",
               fixed = TRUE)
  expect_match(text, "the label prevalences instead of an item posterior", fixed = TRUE)
  expect_equal(prob[2:4], rep(prob[2], 3))
  # trailing spaces or numbers for text ids: no item is seen, said plainly
  for (items in list(c("i0001 ", "i0002 "), c(1, 2))) {
    bad <- data.frame(item = items, annotator = "w01", label = "L02")
    m <- expect_message(predict(fit, bad, type = "prob"), class = "mlagreement_message_unseen_ids")
    expect_match(cli::ansi_strip(conditionMessage(m)), "No row of `newdata` has an item id seen in `object`",
                 fixed = TRUE)
    expect_match(cli::ansi_strip(conditionMessage(m)), "likely an id mismatch", fixed = TRUE)
  }
})

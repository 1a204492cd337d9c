# Parameters the data do not determine: unidentified ones (the likelihood is
# flat along them) and ones that do not enter the likelihood at all.

# 160 items: w1-w4 share items 1-130 (three each); w5 alone labels 131-160,
# which identifies only P(w5 selects) = p sens + (1 - p) (1 - spec).
lone_annotator <- function(seed = 11) {
  withr::local_seed(seed)
  truth <- stats::rbinom(160, 1, 0.4)
  arr <- array(NA_integer_, c(160, 5, 1),
               dimnames = list(sprintf("i%03d", 1:160), sprintf("w%d", 1:5), "L"))
  for (i in 1:130) {
    arr[i, sample(4, 3), 1] <- stats::rbinom(3, 1, if (truth[i] == 1) 0.85 else 0.15)
  }
  arr[131:160, 5, 1] <- stats::rbinom(30, 1, ifelse(truth[131:160] == 1, 0.8, 0.2))
  arr
}

test_that("an annotator the data do not identify has NA standard errors, the others keep theirs", {
  arr <- lone_annotator()
  expect_message(fit <- annotator_model(as_annotations(arr)), "not positive definite")
  rows <- tidy(fit)
  expect_true(all(is.na(unlist(rows[5, c("sensitivity_se", "specificity_se", "spammer_score_se")]))))
  # reference: the plain-R log-likelihood in (p, sens_1, spec_1, ..., sens_5,
  # spec_5) is flat along w5's ridge, so hold w5's sensitivity
  d <- ref_binary_problems(arr)[[1]]
  loglik <- function(theta) {
    sens <- theta[2 * (1:5)]
    spec <- theta[2 * (1:5) + 1]
    ref_class_loglik(d, c(1 - theta[1], theta[1]), array(c(spec, 1 - sens, 1 - spec, sens), c(5, 2, 2)))
  }
  theta0 <- c(fit$prevalence[2, 1], as.vector(rbind(rows$sensitivity, rows$specificity)))
  p <- theta0[1]
  ridge <- c(rep(0, 9), -1, -p / (1 - p))
  expect_lt(abs(loglik(theta0 + 1e-3 * ridge) - loglik(theta0)), 1e-9)
  held <- function(t) loglik(append(t, theta0[10], after = 9))
  se <- sqrt(diag(solve(-ref_num_hessian(held, theta0[-10]))))
  expect_equal(rows$sensitivity_se[1:4], se[2 * (1:4)], tolerance = 1e-4)
  expect_equal(rows$specificity_se[1:4], se[2 * (1:4) + 1], tolerance = 1e-4)
  expect_equal(tidy(fit, level = "labels")$std.error, se[1], tolerance = 1e-4)
  # the order of the annotator ids does not matter
  rev_fit <- suppressMessages(annotator_model(as_annotations(arr[, 5:1, , drop = FALSE])))
  rev_rows <- tidy(rev_fit)[5:1, ]
  expect_identical(is.na(rev_rows$sensitivity_se), is.na(rows$sensitivity_se))
  expect_equal(rev_rows$specificity_se, rows$specificity_se, tolerance = 1e-6)
})

test_that("parameters outside the likelihood are NA in tidy() and predict(), and not in df", {
  withr::local_seed(6)
  arr <- array(stats::rbinom(40 * 3 * 2, 1, 0.4), c(40, 3, 2),
               dimnames = list(sprintf("i%02d", 1:40), c("p", "q", "r"), c("x", "y")))
  arr[, "r", "y"] <- NA  # r never decided label y
  fit <- suppressMessages(annotator_model(as_annotations(arr)))
  conf <- tidy(fit, level = "confusion")
  idle <- conf$annotator == "r" & conf$label == "y"
  expect_true(all(is.na(conf$probability[idle])))
  expect_true(all(is.finite(conf$probability[!idle])))
  nd <- data.frame(item = c("i01", "i01"), annotator = c("r", "p"), label = "y")
  prob <- predict(fit, nd, type = "prob")
  expect_identical(is.na(prob), c(TRUE, FALSE))
  expect_identical(is.na(predict(fit, nd)), c(TRUE, FALSE))
  wide <- predict(fit, nd[, 1:2], type = "prob")
  expect_identical(is.na(wide), cbind(x = c(FALSE, FALSE), y = c(TRUE, FALSE)))
  # reference: the parameters that move the plain-R log-likelihood
  probs <- ref_binary_problems(arr)
  theta0 <- c(fit$prevalence[2, ], fit$confusion[, 2, 2, ], fit$confusion[, 1, 1, ])
  theta0[is.na(theta0)] <- 0.7
  loglik <- function(theta) {
    sum(vapply(1:2, function(j) {
      sens <- theta[2 + (j - 1) * 3 + 1:3]
      spec <- theta[8 + (j - 1) * 3 + 1:3]
      ref_class_loglik(probs[[j]], c(1 - theta[j], theta[j]),
                       array(c(spec, 1 - sens, 1 - spec, sens), c(3, 2, 2)))
    }, 0))
  }
  moves <- vapply(seq_along(theta0), function(u) {
    loglik(replace(theta0, u, theta0[u] * 0.9)) != loglik(theta0)
  }, TRUE)
  expect_identical(glance(fit)$df, sum(moves))
  # pooled: an annotator without any decision
  arr2 <- array(NA_integer_, c(40, 4, 2), list(rownames(arr), c("p", "q", "r", "s"), c("x", "y")))
  arr2[, 1:3, ] <- arr
  pooled <- suppressMessages(annotator_model(as_annotations(arr2), pool_labels = TRUE))
  expect_true(all(is.na(pooled$confusion["s" == pooled$annotators, , , 1])))
  expect_identical(glance(pooled)$df, 3L * 2L + 2L)
})

test_that("single-label decisions are records, in tidy(), glance() and print()", {
  codes <- matrix(c("a", "a", "b", "b", "b", "b", "c", "a", "c", "a", NA, "a"), 4, byrow = TRUE,
                  dimnames = list(sprintf("i%d", 1:4), c("w1", "w2", "w3")))
  fit <- suppressMessages(annotator_model(as_annotations(codes)))
  rows <- tidy(fit)
  expect_identical(rows$n[rows$label == "a"], as.integer(colSums(!is.na(codes))))
  expect_identical(glance(fit)$n_decisions, as.double(sum(!is.na(codes))))
  expect_output(print(fit), "11 decisions")
  # multi-label: one decision per record and label
  arr <- array(c(1L, 0L, NA, 1L, 1L, 0L, 0L, NA), c(2, 2, 2),
               list(c("i1", "i2"), c("w1", "w2"), c("x", "y")))
  binary <- suppressMessages(annotator_model(as_annotations(arr)))
  expect_identical(glance(binary)$n_decisions, as.double(sum(!is.na(arr))))
  expect_identical(sum(tidy(binary)$n), as.integer(sum(!is.na(arr))))
})

test_that("one-coin single-label specificity is 1 - (1 - accuracy) / (q - 1), as documented", {
  withr::local_seed(2)
  lv <- c("a", "b", "c")
  truth <- sample(lv, 60, replace = TRUE)
  codes <- vapply(c(0.9, 0.75, 0.6), function(p) {
    ifelse(stats::runif(60) < p, truth, sample(lv, 60, replace = TRUE))
  }, character(60))
  dimnames(codes) <- list(sprintf("i%02d", 1:60), c("w1", "w2", "w3"))
  fit <- suppressMessages(annotator_model(as_annotations(codes), model = "one-coin"))
  rows <- tidy(fit)
  # reference: the one-versus-rest specificity of the fitted confusion matrices
  p <- fit$prevalence[, 1]
  spec <- vapply(seq_len(nrow(rows)), function(r) {
    a <- match(rows$annotator[r], fit$annotators)
    k <- match(rows$label[r], fit$labels)
    rest <- setdiff(1:3, k)
    sum(p[rest] * (1 - fit$confusion[a, rest, k, 1])) / sum(p[rest])
  }, 0)
  expect_equal(rows$specificity, spec, tolerance = 1e-12)
  expect_equal(rows$specificity, 1 - (1 - rows$sensitivity) / 2, tolerance = 1e-12)
  help <- paste(capture.output(tools::Rd2txt(tools::Rd_db("mlagreement")[["tidy.mla_annotator_model.Rd"]])),
                collapse = " ")
  expect_no_match(help, "equal under", fixed = TRUE)
  expect_match(help, "(q - 1)", fixed = TRUE)
})

test_that("predict() refuses a missing item or annotator id, naming the row", {
  fit <- suppressMessages(annotator_model(as_annotations(lone_annotator())))
  expect_mla_error(predict(fit, data.frame(item = c("i001", NA), annotator = "w1")), "na_id")
  expect_mla_error(predict(fit, data.frame(item = "i001", annotator = NA)), "na_id")
  expect_error(predict(fit, data.frame(item = c("i001", NA), annotator = "w1")),
               class = "mlagreement_error_na_id")
})

test_that("predict() NA id errors", {
  fit <- suppressMessages(annotator_model(as_annotations(lone_annotator())))
  expect_snapshot(error = TRUE, predict(fit, data.frame(item = c("i001", NA, NA), annotator = "w1")))
  expect_snapshot(error = TRUE, predict(fit, data.frame(item = "i001", annotator = NA)))
})

test_that("the certified inverse is the plain inverse, and defers to the eigenvalues near singularity", {
  certified_inverse <- mlagreement:::certified_inverse
  identified_inverse <- mlagreement:::identified_inverse
  set.seed(3)
  z <- matrix(rnorm(60 * 6), 60)
  units <- diag(sqrt(c(1, 1e4, 1e-3, 1, 50, 1)))
  m <- units %*% crossprod(z) %*% units
  expect_equal(certified_inverse(m, diag(m)), solve(m), tolerance = 1e-10)
  expect_equal(identified_inverse(m), solve(m), tolerance = 1e-10)
  # rank 5 plus rounding noise: chol() succeeds, the bound does not hold,
  # and the eigenvalues find the unidentified direction
  b <- z[, 1:5] %*% matrix(rnorm(25), 5)
  s <- crossprod(cbind(b, b[, 1] + b[, 2]))
  s <- s + diag(1e-13 * max(diag(s)), 6)
  expect_null(certified_inverse(s, diag(s)))
  v <- identified_inverse(s)
  loose <- c(1, 2, 6)  # the null direction is b1 + b2 - b6
  expect_true(all(is.na(v[loose, ])) && all(is.na(v[, loose])))
  # fixing parameter 6 gives a generalized inverse; estimable entries agree
  expect_equal(v[3:5, 3:5], solve(s[1:5, 1:5])[3:5, 3:5], tolerance = 1e-6)
})

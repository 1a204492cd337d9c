# Single-label structured categories: Krippendorff's metrics (coincidence
# matrices) and irrCAC's weighted coefficients (fixtures/irrcac.rds).

kd_canonical <- function() krippendorff_nominal()

# Brute force over all pairs of values: delta a function of two category
# indices (1-based, declared order), marginals n_c of the pairable values.
ref_category_alpha <- function(m, categories, delta) {
  idx <- matrix(match(as.character(m), as.character(categories)), nrow(m))
  units <- lapply(seq_len(nrow(idx)), function(i) idx[i, !is.na(idx[i, ])])
  units <- units[lengths(units) >= 2]
  vals <- unlist(units)
  n <- length(vals)
  nc <- tabulate(vals, length(categories))
  do <- sum(vapply(units, function(u) {
    s <- 0
    for (r in seq_along(u)) for (q in seq_along(u)) if (r != q) s <- s + delta(u[r], u[q], nc)
    s / (length(u) - 1)
  }, numeric(1))) / n
  de <- 0
  for (r in seq_len(n)) for (q in seq_len(n)) if (r != q) de <- de + delta(vals[r], vals[q], nc)
  de <- de / (n * (n - 1))
  c(observed = do, expected = de, alpha = 1 - do / de)
}

ref_metric <- function(metric, values) {
  switch(metric,
    nominal = function(c, k, nc) as.numeric(c != k),
    ordinal = function(c, k, nc) {
      if (c == k) return(0)
      (sum(nc[min(c, k):max(c, k)]) - (nc[c] + nc[k]) / 2)^2
    },
    interval = function(c, k, nc) (values[c] - values[k])^2,
    ratio = function(c, k, nc) if (c == k) 0 else ((values[c] - values[k]) / (values[c] + values[k]))^2
  )
}

test_that("Krippendorff's canonical reliability data give the published values", {
  res <- krippendorff_alpha(kd_canonical(), c("nominal", "ordinal", "interval", "ratio"))
  expect_equal(res$distance, c("nominal", "ordinal", "interval", "ratio"))
  pub <- function(quantity, ...) published("krippendorff_2011", quantity, ...)
  expect_equal(round(res$estimate, 3), pub("alpha", digits = 3))
  expect_equal(res$estimate[1], pub("alpha", digits = 10), tolerance = 1e-10)
  expect_equal(res$n_items, rep(pub("n_units"), 4))
  expect_equal(res$n_values, rep(pub("n_values"), 4))
  # the default on a single-label design is nominal
  expect_identical(krippendorff_alpha(kd_canonical()), res[1, ])
})

test_that("category metrics match the brute force at 1e-12 on random designs", {
  withr::local_seed(42)
  for (rep in 1:4) {
    vals <- c(0, 1, 3, 4, 7)
    m <- matrix(sample(vals, 30 * 4, replace = TRUE, prob = c(3, 2, 2, 1, 1)), 30, 4)
    m[sample(length(m), 25)] <- NA
    a <- as_annotations(m, labels = c(vals, 9))  # an unused category
    res <- krippendorff_alpha(a, category_metrics)
    for (metric in category_metrics) {
      ref <- ref_category_alpha(m, c(vals, 9), ref_metric(metric, c(vals, 9)))
      row <- res[res$distance == metric, ]
      expect_equal(row$observed_disagreement, unname(ref["observed"]), tolerance = 1e-12)
      expect_equal(row$expected_disagreement, unname(ref["expected"]), tolerance = 1e-12)
      # D_o / D_e: alpha near 0 cancels digits of 1 - D_o / D_e
      expect_equal(1 - row$estimate, 1 - unname(ref["alpha"]), tolerance = 1e-12)
    }
    # the coincidence route to nominal alpha equals the single-label kernel
    cc <- category_alpha_cpp(item_label_counts(a)$x, 0L, category_values(a))
    expect_equal(1 - cc$observed / cc$expected, res$estimate[1], tolerance = 1e-12)
  }
})

test_that("ordinal alpha uses the declared order, not the codes", {
  m <- matrix(c("lo", "lo", "mid", "hi", "mid", "hi", "lo", "mid", "hi", "hi", "mid", "lo"), 4)
  a <- annotations_long(
    data.frame(item = rep(1:4, 3), annotator = rep(1:3, each = 4), label = as.vector(m)),
    item, annotator, label, labels = c("lo", "mid", "hi"), single_label = TRUE
  )
  ref <- ref_category_alpha(m, c("lo", "mid", "hi"), ref_metric("ordinal", NULL))
  expect_equal(krippendorff_alpha(a, "ordinal")$estimate, unname(ref["alpha"]), tolerance = 1e-12)
})

test_that("alpha with interval and ratio metrics equals irrCAC's quadratic and ratio weights", {
  fx <- irrcac_fixture("alpha_weights")
  res <- krippendorff_alpha(fx$ratings, c("nominal", "interval", "ratio"))
  for (d in c("nominal", "interval", "ratio")) {
    expect_identical(round(res$estimate[res$distance == d], 5), fx$est[[d]]$coeff.val)
  }
  expect_identical(round(krippendorff_alpha(kd_canonical(), "interval")$estimate, 5),
                   fx$kd_interval$coeff.val)
})

test_that("weighted Fleiss, AC2 and Brennan-Prediger equal irrCAC (unequal raters)", {
  fx <- irrcac_fixture("weighted")
  m <- fx$ratings
  expect_setequal(names(fx$est), weight_schemes)
  for (w in weight_schemes) {
    est <- tidy(mla(m, weights = w))$estimate
    expect_identical(round(est, 5), fx$est[[w]]$coeff.val, label = w)
  }
  # an unused category: irrCAC needs categ.labels (it then ranks 1..q)
  u <- as_annotations(m, labels = 1:6)
  fit <- mla(u, weights = "quadratic")
  expect_identical(round(tidy(fit)$estimate[1], 5), fx$unused$coeff.val)
})

test_that("identity weights leave mla() exactly as it was; a custom matrix is accepted", {
  withr::local_seed(3)
  m <- matrix(sample(letters[1:4], 120, replace = TRUE), 30, 4)
  expect_identical(mla(m, weights = "identity"), mla(m))
  expect_equal(tidy(mla(m, weights = diag(4)))$estimate, tidy(mla(m))$estimate, tolerance = 1e-12)
  W <- 1 - abs(outer(1:4, 1:4, "-")) / 3
  expect_equal(tidy(mla(m, weights = W))$estimate, tidy(mla(m, weights = "linear"))$estimate,
               tolerance = 1e-12)
  fit <- mla(m, weights = "quadratic")
  expect_equal(fit$weights$name, "quadratic")
  items <- tidy(fit, level = "item")
  expect_equal(mean(items$observed[items$baseline == "fleiss"], na.rm = TRUE),
               tidy(fit)$observed[1], tolerance = 1e-12)
})

test_that("weights and metrics refuse designs and values they do not fit", {
  arr <- array(c(1, 0, 1, 1, 0, 1, 1, 0), c(2, 2, 2))
  expect_mla_error(mla(arr, weights = "linear"), "weights")
  expect_mla_error(krippendorff_alpha(arr, "ordinal"), "distance")
  m <- matrix(c("a", "b", "a", "c", "b", "b"), 3)
  expect_mla_error(krippendorff_alpha(m, "interval"), "distance")
  expect_mla_error(mla(m, weights = "cubic"), "weights")
  expect_mla_error(mla(m, weights = matrix(0.5, 3, 3)), "weights")
  expect_mla_error(mla(m, labels = c("a", "b"), weights = "linear"), "weights")
  neg <- matrix(c(-1, 1, 0, -1, 1, 1), 3)
  expect_mla_error(krippendorff_alpha(neg, "ratio"), "distance")
  expect_equal(krippendorff_alpha(neg, "interval")$n_items, 3)
  expect_snapshot(error = TRUE, krippendorff_alpha(arr, "ordinal"))
  expect_snapshot(error = TRUE, krippendorff_alpha(m, "interval"))
  expect_snapshot(error = TRUE, mla(arr, weights = "linear"))
})

test_that("weight matrices are irrCAC's", {
  fx <- irrcac_fixture("weight_matrices")
  expect_length(fx, 23)
  for (case in fx) {
    categ <- case$categ
    w <- case$scheme
    ref <- case$matrix
    # irrCAC's ratio weight of a category 0 with itself is 0 / 0; ours is 1
    if (w == "ratio") diag(ref)[categ == 0] <- 1
    ours <- category_weights_cpp(match(w, weight_schemes) - 1L,
                                 if (w == "ordinal") seq_along(categ) else categ)
    expect_equal(ours, unname(ref), tolerance = 1e-14, label = paste(w, toString(categ)))
  }
})

test_that("numeric codes sort numerically, as numbers or as text, so ordinal alpha is one number", {
  withr::local_seed(3)
  cd <- matrix(sample(c(1, 2, 3, 9, 10, 11, 12), 40, TRUE), 10, 4)
  cd[sample(40, 5)] <- NA
  d <- data.frame(item = rep(1:10, 4), ann = rep(1:4, each = 10), lab = as.vector(cd))
  d <- d[!is.na(d$lab), ]
  num <- annotations_long(d, item, ann, lab, single_label = TRUE)
  chr <- annotations_long(transform(d, lab = as.character(lab)), item, ann, lab, single_label = TRUE)
  mat <- as_annotations(matrix(as.character(cd), 10))
  cats <- c("1", "2", "3", "9", "10", "11", "12")
  for (a in list(num, chr, mat)) expect_identical(a$labels, cats)
  ref <- ref_category_alpha(cd, cats, ref_metric("ordinal", NULL))
  for (a in list(num, chr, mat)) {
    expect_equal(krippendorff_alpha(a, "ordinal")$estimate, unname(ref["alpha"]), tolerance = 1e-12)
  }
  expect_equal(tidy(mla(chr, weights = "ordinal"), conf.int = FALSE)$estimate,
               tidy(mla(num, weights = "ordinal"), conf.int = FALSE)$estimate, tolerance = 1e-12)
  # a summary from plain tables takes the same default universe
  s <- as_annotation_counts(chr)
  expect_identical(annotation_counts(tidy(s, "labels"), tidy(s, "design"), tidy(s, "annotators"))$labels,
                   cats)
  # text that is not all numbers keeps text order
  expect_identical(as_annotations(matrix(c("10", "9", "x", "10"), 2))$labels, c("10", "9", "x"))
})

test_that("a weight matrix named by the categories is read by its names, in any order", {
  m <- withr::with_seed(5, matrix(sample(c("high", "low", "mid"), 45, TRUE), 15, 3))
  X <- t(apply(m, 1, function(r) table(factor(r, c("high", "low", "mid")))))
  ordered <- matrix(c(1, 0, 0.5, 0, 1, 0.5, 0.5, 0.5, 1), 3)  # high, low, mid
  named <- ordered
  dimnames(named) <- list(c("high", "low", "mid"), c("high", "low", "mid"))
  shuffled <- named[c("mid", "high", "low"), c("low", "mid", "high")]
  want <- ref_weighted(X, ordered)
  expect_equal(tidy(mla(m, weights = ordered))$estimate, want, tolerance = 1e-12)
  expect_equal(tidy(mla(m, weights = shuffled))$estimate, want, tolerance = 1e-12)
  # the shuffled matrix read by position would give other coefficients
  expect_false(isTRUE(all.equal(ref_weighted(X, unname(shuffled)), want)))
  wrong <- named
  dimnames(wrong) <- list(c("a", "b", "c"), NULL)
  expect_mla_error(mla(m, weights = wrong), "weights")
})

test_that("a bad weight matrix is refused naming the entry", {
  m <- matrix(c("a", "b", "a", "c", "b", "b"), 3)
  W <- matrix(c(1, 0.5, 0, 0.5, 1, 0.5, 0, 0.5, 1), 3)
  asym <- W
  asym[1, 2] <- 0.3
  diag_off <- W
  diag_off[2, 2] <- 0.9
  missing <- W
  missing[3, 1] <- NA
  big <- W
  big[3, 1] <- 1.5
  named <- W
  rownames(named) <- c("a", "b", "x")
  for (bad in list(asym, diag_off, missing, big, named)) {
    expect_mla_error(mla(m, weights = bad), "weights")
  }
  expect_mla_snapshot(mla(m, weights = asym))
  expect_mla_snapshot(mla(m, weights = diag_off))
  expect_mla_snapshot(mla(m, weights = missing))
  expect_mla_snapshot(mla(m, weights = named))
})

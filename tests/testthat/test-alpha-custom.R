# Custom distances of krippendorff_alpha() (R/alpha-custom.R): the set-size
# form against the built-in Jaccard and MASI, both forms against brute force.

jaccard_size <- function(n_a, n_b, n_ab) {
  u <- n_a + n_b - n_ab
  ifelse(u == 0, 0, 1 - n_ab / ifelse(u == 0, 1, u))
}
masi_size <- function(n_a, n_b, n_ab) {
  u <- n_a + n_b - n_ab
  jac <- n_ab / ifelse(u == 0, 1, u)
  f <- ifelse(n_ab == n_a | n_ab == n_b, 2 / 3, 1 / 3)
  ifelse(n_ab == n_a & n_ab == n_b, 0, ifelse(n_ab == 0, 1, 1 - jac * f))
}

test_that("a set-size distance equal to Jaccard or MASI reproduces the built-ins exactly", {
  withr::local_seed(21)
  for (p in c(0.15, 0.4)) {
    arr <- random_set_design(60, 5, 9, p = p, missing_records = 0.2)
    built <- krippendorff_alpha(arr, c("jaccard", "masi"))
    custom <- krippendorff_alpha(arr, list(jaccard = jaccard_size, masi = masi_size))
    expect_identical(custom, built)
    # one triple at a time when the function is not vectorised
    scalar <- function(n_a, n_b, n_ab) if (n_a + n_b == 0) 0 else 1 - n_ab / (n_a + n_b - n_ab)
    expect_identical(krippendorff_alpha(arr, list(jaccard = scalar)), built[1, ])
  }
  # sets larger than the first tabulated range (12 labels)
  big <- random_set_design(40, 4, 30, p = 0.6, missing_records = 0)
  expect_equal(krippendorff_alpha(big, list(jaccard = jaccard_size))$estimate,
               krippendorff_alpha(big, "jaccard")$estimate, tolerance = 1e-14)
})

test_that("set-size and general distances match the brute force at 1e-12", {
  withr::local_seed(5)
  dice <- function(n_a, n_b, n_ab) ifelse(n_a + n_b == 0, 0, 1 - 2 * n_ab / pmax(n_a + n_b, 1))
  dice_distance <- function(u, v) 1 - ref_dice(which(u == 1), which(v == 1))
  for (rep in 1:3) {
    arr <- random_set_design(25, 4, 6, p = 0.35, missing_records = 0.25)
    recs <- ref_records_by_item(as_annotations(arr))
    ref <- ref_alpha(recs, dice_distance)
    res <- krippendorff_alpha(arr, list(dice = dice))
    expect_equal(res$observed_disagreement, unname(ref["observed"]), tolerance = 1e-12)
    expect_equal(res$expected_disagreement, unname(ref["expected"]), tolerance = 1e-12)
    # the general form: a weighted symmetric difference on label names
    w <- stats::setNames(seq(1, 2, length.out = 6), dimnames(arr)[[3]])
    general <- function(a, b) sum(w[union(setdiff(a, b), setdiff(b, a))]) / sum(w)
    ref_general <- function(u, v) sum(w[u != v]) / sum(w)
    ref <- ref_alpha(recs, ref_general)
    res <- krippendorff_alpha(arr, list(weighted = general))
    expect_equal(res$observed_disagreement, unname(ref["observed"]), tolerance = 1e-12)
    expect_equal(res$expected_disagreement, unname(ref["expected"]), tolerance = 1e-12)
    # the general form of Jaccard equals the built-in
    jac <- function(a, b) if (length(union(a, b)) == 0) 0 else 1 - length(intersect(a, b)) / length(union(a, b))
    expect_equal(krippendorff_alpha(arr, jac)$estimate, krippendorff_alpha(arr, "jaccard")$estimate,
                 tolerance = 1e-12)
  }
})

test_that("distances of several kinds combine in one call, rows in the order asked", {
  arr <- dkpro_example()
  res <- krippendorff_alpha(arr, list("masi", d = jaccard_size, "hamming", function(a, b) 0 + !setequal(a, b)))
  expect_equal(res$distance, c("masi", "d", "hamming", "custom4"))
  expect_equal(res$estimate[1:3], krippendorff_alpha(arr, c("masi", "jaccard", "hamming"))$estimate,
               tolerance = 1e-14)
  expect_equal(krippendorff_alpha(arr, function(a, b) 0 + !setequal(a, b))$distance, "custom")
})

test_that("bad custom distances are classed errors naming the pair", {
  arr <- dkpro_example()
  cls <- "mlagreement_error_distance"
  expect_error(krippendorff_alpha(arr, function(n_a, n_b, n_ab) 1 - n_ab / (n_a + n_b - n_ab)), class = cls)
  expect_error(krippendorff_alpha(arr, function(n_a, n_b, n_ab) n_a - n_b), class = cls)
  expect_error(krippendorff_alpha(arr, function(n_a, n_b, n_ab) n_a / (1 + n_b)), class = cls)
  expect_error(krippendorff_alpha(arr, function(n_a, n_b, n_ab) rep(1, length(n_a))), class = cls)
  expect_error(krippendorff_alpha(arr, function(a) 1), class = cls)
  expect_error(krippendorff_alpha(arr, function(a, b) 1), class = cls)
  expect_error(krippendorff_alpha(arr, function(a, b) length(a) / (1 + length(b)) * !setequal(a, b)), class = cls)
  expect_error(krippendorff_alpha(arr, function(a, b) stop("boom")), class = cls)
  expect_error(krippendorff_alpha(arr, function(a, b) "x"), class = cls)
  expect_error(krippendorff_alpha(arr, list(1)), class = cls)
  expect_mla_error(krippendorff_alpha(arr, list(a = "masi", a = "jaccard")))
  expect_snapshot(error = TRUE, krippendorff_alpha(arr, function(n_a, n_b, n_ab) 1 - n_ab / (n_a + n_b - n_ab)))
  expect_snapshot(error = TRUE, krippendorff_alpha(arr, function(n_a, n_b, n_ab) n_a / (1 + n_b)))
  expect_snapshot(error = TRUE, krippendorff_alpha(arr, function(a, b) length(a) / (1 + length(b)) * !setequal(a, b)))
  expect_snapshot(error = TRUE, krippendorff_alpha(arr, function(a, b) stop("boom")))
})

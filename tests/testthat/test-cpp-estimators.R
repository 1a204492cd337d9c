# Unit tests of the counting pass and the estimator kernel through the
# sourceCpp() harness cpp/estimators.cpp (helper-cpp.R compiles it). The
# expected values are worked out by hand on tiny tables, as exact fractions
# with the arithmetic beside them; undefined values must be NaN.

# Three items, three annotators, two labels, every decision made (m = 3):
# label A is chosen by 3, 2 and 0 annotators, label B by 1, 1 and 0.
# Per cell d = 2x(m - x) / (m(m - 1)) = x(3 - x) / 3: A 0, 2/3, 0; B 2/3, 2/3, 0.
full_x <- cbind(c(3L, 2L, 0L), c(1L, 1L, 0L))
full_m <- matrix(3L, 3, 2)

# Missing decisions and undefined labels, three items:
#   C: m = (2, 3, 1), x = (1, 2, 1)   pairable items 1 and 2
#   Z: m = (2, 3, 1), x = 0           never chosen: constant
#   N: m = 1 on every item            rated, never pairable
#   R: m = 0 on every item            never rated
gaps_x <- cbind(c(1L, 2L, 1L), 0L, c(1L, 0L, 1L), 0L)
gaps_m <- cbind(c(2L, 3L, 1L), c(2L, 3L, 1L), 1L, 0L)

test_that("counts.h: value codes classify 0, 1, missing and invalid values", {
  h <- cpp_harness("estimators.cpp")
  withr::local_seed(8)
  ints <- c(0L, 1L, NA, 2L, -1L, 3L, .Machine$integer.max, -.Machine$integer.max,
            sample(-5:5, 50, replace = TRUE),
            as.integer(sample(c(-1, 1), 50, TRUE) * floor(stats::runif(50, 0, .Machine$integer.max))))
  dbls <- c(0, 1, NA, NaN, -NaN, 0 / 0, NA_real_ + 1, -0, 0.5, 2, -1, Inf, -Inf, 1 + 2^-52, -2^-1074,
            sample(c(0, 1, NA, 0.25), 50, replace = TRUE))
  for (v in list(ints, c(TRUE, FALSE, NA), dbls)) {
    codes <- h$value_codes(v)
    # NA is missing; NaN (R's, not NA) is invalid like any value but 0 and 1
    valid <- (is.na(v) & !is.nan(v)) | (!is.na(v) & (v == 0 | v == 1))
    expect_identical(codes[, "invalid"], as.integer(!valid))
    expect_identical(codes[valid, "decided"], as.integer(!is.na(v[valid])))
    expect_identical(codes[valid, "positive"], as.integer(!is.na(v[valid]) & v[valid] == 1))
  }
})

test_that("tally.h: tables by m and item disagreement", {
  h <- cpp_harness("estimators.cpp")
  t <- h$tally_table(full_x, full_m)
  # all items in row m = 3; sx = sum x: A 3 + 2 + 0, B 1 + 1 + 0;
  # sdis = sum x(m - x): A 0 + 2 + 0, B 2 + 2 + 0
  expect_identical(t$cnt, rbind(0, 0, c(3, 3)))
  expect_identical(t$sx, rbind(0, 0, c(5, 2)))
  expect_identical(t$sdis, rbind(0, 0, c(2, 4)))
  # item sums of d over labels: 0 + 2/3, 2/3 + 2/3, 0 + 0; two pairable labels each
  expect_values(t$item_disagreement, c(1 / 3, 2 / 3, 0))
  t <- h$tally_table(gaps_x, gaps_m)
  # C: one item each with m = 1 (x 1), 2 (x 1), 3 (x 2); x(m - x) = 0, 1, 2
  # N: three items with m = 1, x = 1 + 0 + 1; R: nothing
  expect_identical(t$cnt, cbind(c(1, 1, 1), c(1, 1, 1), c(3, 0, 0), 0))
  expect_identical(t$sx, cbind(c(1, 1, 2), 0, c(2, 0, 0), 0))
  expect_identical(t$sdis, cbind(c(0, 1, 2), 0, 0, 0))
  # only C and Z have m >= 2: item 1 d = (2*1*1/2 + 0) / 2, item 2 (2*2*1/6 + 0) / 2;
  # item 3 has no pairable label (NaN in the core)
  expect_values(t$item_disagreement, c(1 / 2, 1 / 3, NaN))
})

test_that("estimators.h: label coefficients, floors and specific agreement by hand", {
  l <- cpp_harness("estimators.cpp")$kernel_labels(full_x, full_m)
  expect_identical(cbind(l$n_rated, l$n_pairable), matrix(3, 2, 2))
  # p = mean x/m: A (1 + 2/3 + 0)/3 = 5/9, B (1/3 + 1/3 + 0)/3 = 2/9
  expect_values(l$p, c(5 / 9, 2 / 9))
  expect_values(l$q, c(4 / 9, 7 / 9))
  # D_o = mean d: A (2/3)/3 = 2/9, B (4/3)/3 = 4/9
  expect_values(l$d_obs, c(2 / 9, 4 / 9))
  # chance disagreement: Fleiss 2pq (A 40/81, B 28/81), AC1 p^2 + q^2
  # (A 41/81, B 53/81), PABAK 1/2
  expect_values(l$chance, rbind(c(40, 41, 40.5), c(28, 53, 40.5)) / 81)
  # 1 - D_o / chance: A 1 - 18/40 = 11/20, 1 - 18/41 = 23/41, 1 - 4/9 = 5/9;
  # B 1 - 36/28 = -2/7, 1 - 36/53 = 17/53, 1 - 8/9 = 1/9
  expect_values(l$estimate, rbind(c(11 / 20, 23 / 41, 5 / 9), c(-2 / 7, 17 / 53, 1 / 9)))
  # eq. 7: A's 5 positives spread as (2, 2, 1) give d = 2/3 on each item, so
  # D_max = 2/3: 1 - 54/40 = -7/20, 1 - 54/41 = -13/41, 1 - 4/3 = -1/3;
  # B's 2 positives are already spread (D_max = D_o = 4/9)
  expect_values(l$d_max, c(2 / 3, 4 / 9))
  expect_values(l$floor, rbind(c(-7 / 20, -13 / 41, -1 / 3), c(-2 / 7, 17 / 53, 1 / 9)))
  # positive: sum x(x - 1) / sum (m - 1)x: A (6 + 2)/(2 * 5) = 4/5, B 0/4;
  # negative with m - x: A (0 + 0 + 6)/(2 * 4) = 3/4, B (2 + 2 + 6)/(2 * 7) = 5/7
  expect_values(l$positive, c(4 / 5, 0))
  expect_values(l$negative, c(3 / 4, 5 / 7))
  expect_identical(l$reason, matrix(0L, 2, 3))
  # eq. 6 weights: chance / sum of chances: 40/68, 28/68; 41/94, 53/94; 1/2
  expect_values(l$weight, rbind(c(10 / 17, 41 / 94, 1 / 2), c(7 / 17, 53 / 94, 1 / 2)))
  # two items with m = 4, x = (3, 0): d = 2*3*1/12 = 1/2 and 0, D_o = 1/4,
  # p = 3/8; the 3 positives spread as (2, 1) give d = 2/3 and 1/2, D_max =
  # 7/12. Fleiss 2pq = 15/32: 1 - 8/15, 1 - 56/45; AC1 p^2 + q^2 = 17/32:
  # 1 - 8/17, 1 - 56/51; PABAK 1 - 1/2, 1 - 7/6
  l <- cpp_harness("estimators.cpp")$kernel_labels(matrix(c(3L, 0L)), matrix(4L, 2, 1))
  expect_values(l$d_max, 7 / 12)
  expect_values(l$estimate, rbind(c(7 / 15, 9 / 17, 1 / 2)))
  expect_values(l$floor, rbind(c(-11 / 45, -5 / 51, -1 / 6)))
})

test_that("estimators.h: corpus and item values by hand", {
  co <- cpp_harness("estimators.cpp")$kernel_corpus(full_x, full_m)
  expect_identical(co$n_labels_used, 2)
  # D = (2/9 + 4/9)/2 = 1/3 (observed agreement 2/3); W = mean chance:
  # (40 + 28)/162 = 34/81, (41 + 53)/162 = 47/81, 1/2
  expect_values(co$d_obs, 1 / 3)
  expect_values(co$w, c(34 / 81, 47 / 81, 1 / 2))
  # 1 - (1/3)/W: 1 - 27/34 = 7/34, 1 - 27/47 = 20/47, 1 - 2/3 = 1/3
  expect_values(co$estimate, c(7 / 34, 20 / 47, 1 / 3))
  # D_max = (2/3 + 4/9)/2 = 5/9: 1 - 45/34, 1 - 45/47, 1 - 10/9
  expect_values(co$d_max, 5 / 9)
  expect_values(co$floor, c(-11 / 34, 2 / 47, -1 / 9))
  expect_identical(co$reason, c(0L, 0L, 0L))
  # items: d_sum / pairable labels = 1/3, 2/3, 0; against W:
  # item 2: 1 - (2/3)(81/34) = -10/17, 1 - (2/3)(81/47) = -7/47, 1 - 4/3 = -1/3
  expect_values(co$item_d, c(1 / 3, 2 / 3, 0))
  expect_values(co$item_coef, rbind(c(7 / 34, 20 / 47, 1 / 3), c(-10 / 17, -7 / 47, -1 / 3), 1))
})

test_that("estimators.h: missing decisions, and NaN with a reason where undefined", {
  h <- cpp_harness("estimators.cpp")
  l <- h$kernel_labels(gaps_x, gaps_m)
  expect_identical(cbind(l$n_rated, l$n_pairable), cbind(c(3, 3, 3, 0), c(2, 2, 0, 0)))
  # C: p over the rated items (1/2 + 2/3 + 1)/3 = 13/18; D_o over the
  # pairable ones (1 + 2/3)/2 = 5/6. N: p = (1 + 0 + 1)/3; R: no p
  expect_values(l$p, c(13 / 18, 0, 2 / 3, NaN))
  expect_values(l$d_obs, c(5 / 6, 0, NaN, NaN))
  # C: 2pq = 130/324 = 65/162, p^2 + q^2 = 194/324 = 97/162. Z: p = 0, so
  # Fleiss' chance disagreement is 0 (chance agreement 1), AC1's is 1
  expect_values(l$chance, rbind(c(65 / 162, 97 / 162, 1 / 2), c(0, 1, 1 / 2), NaN, NaN))
  # C: 1 - (5/6)(162/65) = -14/13, 1 - (5/6)(162/97) = -38/97, 1 - 5/3 = -2/3
  expect_values(l$estimate, rbind(c(-14 / 13, -38 / 97, -2 / 3), c(NaN, 1, 1), NaN, NaN))
  # reasons: 1 constant label, 2 not pairable, 3 not rated
  expect_identical(l$reason, rbind(c(0L, 0L, 0L), c(1L, 0L, 0L), 2L, 3L))
  # C positive: x(x - 1) 0 + 2 over (m - 1)x 1 + 4; negative 0/3. Z has no
  # positives; its negatives (2 + 6)/(2 + 6)
  expect_values(l$positive, c(2 / 5, NaN, NaN, NaN))
  expect_values(l$negative, c(0, 1, NaN, NaN))
  # weights over C and Z: 65/162 and 0; 97/(97 + 162), 162/259; 1/2
  expect_values(l$weight, rbind(c(1, 97 / 259, 1 / 2), c(0, 162 / 259, 1 / 2), NaN, NaN))
  co <- h$kernel_corpus(gaps_x, gaps_m)
  # C and Z: D = 5/12, W = 65/324, 259/324, 1/2
  expect_identical(co$n_labels_used, 2)
  expect_values(co$estimate, c(-14 / 13, 124 / 259, 1 / 6))
  # item 3 has no pairable label: no item value
  expect_values(co$item_d, c(1 / 2, 1 / 3, NaN))
  expect_values(co$item_coef[, 3], c(0, 1 / 3, NaN))
  # one label never chosen: no Fleiss coefficient (reason 4), AC1 = PABAK = 1
  co <- h$kernel_corpus(matrix(0L, 2, 1), matrix(2L, 2, 1))
  expect_values(co$estimate, c(NaN, 1, 1))
  expect_identical(co$reason, c(4L, 0L, 0L))
  # nothing pairable: nothing to average
  co <- h$kernel_corpus(matrix(0L, 2, 1), matrix(1L, 2, 1))
  expect_identical(co$n_labels_used, 0)
  expect_values(c(co$d_obs, co$w, co$estimate), rep(NaN, 7))
})

test_that("estimators.h: Hamming alpha and pooled annotator pairs by hand", {
  h <- cpp_harness("estimators.cpp")
  # per label over m >= 2: n = 9 values; D_o = sum 2x(m - x)/(m - 1) / n:
  # A 2/9, B 4/9; D_e = 2 n1 (n - n1)/(n(n - 1)): A 40/72, B 28/72
  a <- h$kernel_alpha(full_x, full_m)$hamming
  expect_values(a, c(observed = 1 / 3, expected = 17 / 36, n_labels_used = 2))
  expect_equal(1 - a[["observed"]] / a[["expected"]], 5 / 17, tolerance = 1e-13)
  # gaps: C over items 1-2 (n 5, n1 3): D_o (2 + 2)/5, D_e 12/20; Z 0 and 0
  a <- h$kernel_alpha(gaps_x, gaps_m)$hamming
  expect_values(a, c(observed = 2 / 5, expected = 3 / 10, n_labels_used = 2))
  # a pair's labels (n2, dis, n1, psum): prevalences 4/10 and 2/8; D_o =
  # (1/4 + 0)/2 = 1/8, chance (2(2/5)(3/5) + 2(1/4)(3/4))/2 = 171/400,
  # 1 - (1/8)(400/171) = 121/171; agreement (8 - 1)/8. A second pair with no
  # joint decision is undefined and left out of the pooled coefficient.
  rows <- rbind(c(4, 1, 5, 4), c(4, 0, 4, 2), c(0, 0, 0, 0), c(0, 0, 0, 0))
  p <- h$pair_pooled(rows, c(0L, 0L, 0L, 1L), c(10, 7))
  expect_values(unname(p$pairs), rbind(c(7 / 8, 1 / 8, 171 / 400, 121 / 171), NaN))
  expect_values(p$pooled, c(observed = 7 / 8, estimate = 121 / 171))
})

# Fleiss (1971), Table 1: 30 patients, 6 psychiatrists, 5 diagnoses
# (depression, personality disorder, schizophrenia, neurosis, other).
fleiss_1971 <- matrix(as.integer(c(
  0, 0, 0, 6, 0,  0, 3, 0, 0, 3,  0, 1, 4, 0, 1,  0, 0, 0, 0, 6,  0, 3, 0, 3, 0,
  2, 0, 4, 0, 0,  0, 0, 4, 0, 2,  2, 0, 3, 1, 0,  2, 0, 0, 4, 0,  0, 0, 0, 0, 6,
  1, 0, 0, 5, 0,  1, 1, 0, 4, 0,  0, 3, 3, 0, 0,  1, 0, 0, 5, 0,  0, 2, 0, 3, 1,
  0, 0, 5, 0, 1,  3, 0, 0, 1, 2,  5, 1, 0, 0, 0,  0, 2, 0, 4, 0,  1, 0, 2, 0, 3,
  0, 0, 0, 0, 6,  0, 1, 0, 5, 0,  0, 2, 0, 1, 3,  2, 0, 0, 4, 0,  1, 0, 0, 4, 1,
  0, 5, 0, 1, 0,  4, 0, 0, 0, 2,  0, 2, 0, 4, 0,  1, 0, 5, 0, 0,  0, 0, 0, 0, 6
)), 30, 5, byrow = TRUE)

# Three items rated by three annotators into three ordered categories.
three_x <- rbind(c(3L, 0L, 0L), c(1L, 2L, 0L), c(0L, 1L, 2L))

test_that("single_label.h / replicate_stats.h: Fleiss (1971) and a 3 x 3 table by hand", {
  h <- cpp_harness("estimators.cpp")
  # sum n_ik^2 = 680, so P = (680 - 30 * 6)/(30 * 6 * 5) = 5/9; category
  # totals 26, 26, 30, 55, 43: P_e = 7126/180^2 = 3563/16200;
  # kappa = (9000 - 3563)/(16200 - 3563) = 5437/12637 (Fleiss: .430);
  # AC1's chance agreement (1 - P_e)/4 = 12637/64800:
  # (36000 - 12637)/(64800 - 12637);
  # Brennan-Prediger (5/9 - 1/5)/(4/5) = 4/9
  a <- h$kernel_alpha(fleiss_1971, matrix(6L, 30, 5))
  expect_values(a$single$d_obs, 4 / 9)
  expect_values(a$single$w, c(12637 / 16200, 52163 / 64800, 4 / 5))
  expect_values(a$single$estimate, c(5437 / 12637, 23363 / 52163, 4 / 9))
  expect_identical(round(a$single$estimate[1], 3), 0.430)
  # nominal alpha: D_o = (6 * 180 - 680)/(5 * 180) = 4/9,
  # D_e = (180^2 - 7126)/(180 * 179) = 12637/16110, 1 - (4/9)/D_e = 5477/12637
  expect_values(a$nominal, c(d_obs = 4 / 9, d_exp = 12637 / 16110, alpha = 5477 / 12637))
  # 3 x 3: P_i = 1, 1/3, 1/3, P = 5/9; p = (4, 3, 2)/9, sum p^2 = 29/81:
  # kappa (45 - 29)/(81 - 29) = 4/13; AC1's chance agreement (1 - 29/81)/2:
  # (45 - 26)/(81 - 26) = 19/55; BP (5/9 - 1/3)/(2/3) = 1/3
  a <- h$kernel_alpha(three_x, matrix(3L, 3, 3))
  expect_values(a$single$w, c(52 / 81, 55 / 81, 2 / 3))
  expect_values(a$single$estimate, c(4 / 13, 19 / 55, 1 / 3))
  # D_o = (0 + 2 + 2)/9; D_e = (4 * 5 + 3 * 6 + 2 * 7)/(9 * 8) = 13/18
  expect_values(a$nominal, c(d_obs = 4 / 9, d_exp = 13 / 18, alpha = 5 / 13))
  # every rating in one category: chance agreement 1 under Fleiss and no
  # expected disagreement; AC1 and BP are 1
  a <- h$kernel_alpha(cbind(c(3L, 2L), 0L), cbind(c(3L, 2L), c(3L, 2L)))
  expect_values(a$single$estimate, c(NaN, 1, 1))
  expect_values(a$nominal, c(d_obs = 0, d_exp = 0, alpha = NaN))
  # a category without a pairable item: no corpus row
  expect_values(h$kernel_alpha(gaps_x, gaps_m)$single$estimate, rep(NaN, 3))
})

# Gwet's linearisation in plain R (influence.h's formula): over the labels
# with a pairable item, O_i = mean_j (n / n2_j) [m >= 2] (w_j - d_ij),
# delta_i = mean_j e'_j (n / n1_j) [m >= 1] (x/m - p_j), t_i = (O_i - (1 - c)
# delta_i) / W; the sum of (t_i - c)^2 over the n items rated on those labels.
ref_influence_sum <- function(x, m, baseline) {
  used <- colSums(m >= 2) > 0
  x <- x[, used, drop = FALSE]
  m <- m[, used, drop = FALSE]
  rated <- m >= 1
  pairable <- m >= 2
  u <- ifelse(rated, x / m, NA)
  d <- ifelse(pairable, 2 * x * (m - x) / (m * (m - 1)), NA)
  p <- colMeans(u, na.rm = TRUE)
  chance <- switch(baseline, fleiss = 2 * p * (1 - p), ac1 = p^2 + (1 - p)^2, pabak = 0 * p + 0.5)
  slope <- switch(baseline, fleiss = 4 * p - 2, ac1 = 2 - 4 * p, pabak = 0 * p)
  W <- mean(chance)
  est <- 1 - mean(colMeans(d, na.rm = TRUE)) / W
  items <- rowSums(rated) > 0
  n <- sum(items)
  obs <- ifelse(pairable, t(chance - t(d)), 0) %*% diag(n / colSums(pairable), ncol(x))
  dev <- ifelse(rated, t(t(u) - p), 0) %*% diag(slope * n / colSums(rated), ncol(x))
  term <- (rowMeans(obs) - (1 - est) * rowMeans(dev)) / W
  sum((term[items] - est)^2)
}
ref_influence_sums <- function(x, m) {
  unname(vapply(c("fleiss", "ac1", "pabak"), ref_influence_sum, 0, x = x, m = m))
}

test_that("influence.h: analytic SE sums by hand and against plain R", {
  h <- cpp_harness("estimators.cpp")
  f <- h$influence_sums(full_x, full_m, 0L)
  # label A, Fleiss: w = 40/81, c = 11/20, e' = 4p - 2 = 2/9, (1 - c) e'/w =
  # 81/400, t_i = (w - d_i)/w - (81/400)(x_i/m - p) = (364, -149, 445)/400;
  # (t_i - c)^2 summed: (144^2 + 369^2 + 225^2)/400^2 = 103761/80000.
  # AC1: e' = -2/9, t_i = (1825, -497, 1501)/1681, c = 943/1681:
  # (882^2 + 1440^2 + 558^2)/1681^2. PABAK: t_i = 1 - 2 d_i = 1, -1/3, 1
  # about 5/9: (16 + 64 + 16)/81. Label B, Fleiss: t_i = (-23, -23, 4)/49
  # about -14/49: (81 + 81 + 324)/49^2
  expect_values(f$label$sum_sq[1, ], c(103761 / 80000, 3162888 / 2825761, 32 / 27))
  expect_values(f$label$sum_sq[2, 1], 486 / 2401)
  # the same read gives label A's shares: percent agreement t_i = 1, 1/3, 1
  # about 7/9: 24/81; positive a = x(x - 1) = 6, 2, 0, b = x(m - 1) = 6, 4, 0,
  # PA = 4/5, t_i - PA = 3(a - PA b)/10 = 0.36, -0.36, 0; negative (y = 0, 1,
  # 3) a = 0, 0, 6, b = 0, 2, 6, NA = 3/4: 3(a - NA b)/8 = 0, -9/16, 9/16
  expect_values(f$label$share_sum_sq[1, ], c(24 / 81, 162 / 625, 81 / 128))
  # corpus, Fleiss: O_i = (7, -20, 34)/81, delta_i = (-1, -4, 5)/81, W = 34/81,
  # c = 7/34: t_i = (265, -572, 1021)/1156 about 238/1156:
  # (27^2 + 810^2 + 783^2)/1156^2. AC1 (O_i = (20, -7, 47)/81, delta_i
  # negated): t_i = (913, -437, 2344)/2209 about 940/2209. PABAK: t_i = 2 O_i
  # = 1/3, -1/3, 1 about 1/3: 8/9
  expect_values(f$corpus$sum_sq, c(1269918 / 1336336, 3868074 / 4879681, 8 / 9))
  expect_identical(c(f$label$n, f$corpus$n), c(3, 3, 3))
  # percent agreement from the same pass: d_A = (0, 2/3, 0), d_B = (2/3, 2/3,
  # 0), t_i = (3/2)((1 - d_A) + (1 - d_B))/3 = 2/3, 1/3, 1 about 2/3: 2/9
  expect_values(f$corpus$observed_sum_sq, 2 / 9)
  # six copies of the items: the same terms, six times the sums; 18 items
  # with side 4 (16 classes) take the tabulated path
  f6 <- h$influence_sums(full_x[rep(1:3, 6), ], full_m[rep(1:3, 6), ], 4L)
  expect_values(f6$corpus$sum_sq, 6 * f$corpus$sum_sq)
  expect_values(f6$corpus$observed_sum_sq, 6 * 2 / 9)
  expect_values(f6$label$sum_sq, 6 * f$label$sum_sq)
  expect_values(f6$label$share_sum_sq, 6 * f$label$share_sum_sq)
  expect_identical(f6$corpus$n, 18)
  # missing decisions: n / n2 and n / n1 differ by label; Z has no Fleiss
  # coefficient, so no sum; N and R are not in the corpus
  g <- h$influence_sums(gaps_x, gaps_m, 0L)
  expect_equal(g$corpus$sum_sq, ref_influence_sums(gaps_x, gaps_m), tolerance = 1e-12)
  expect_equal(g$corpus$observed_sum_sq, ref_corpus_pa_se(gaps_x, gaps_m)[["sum_sq"]], tolerance = 1e-12)
  expect_values(g$label$sum_sq[2, ], c(NaN, 3 / 2, 3 / 2))  # t_i = 3/2, 3/2, 0 about 1
  expect_identical(g$label$n, c(3, 3, 3, 0))
  # a larger table with gaps, cell by cell (side 0) and by class (side 5)
  withr::local_seed(24)
  m <- matrix(sample(0:4, 120, replace = TRUE), 40, 3)
  x <- matrix(stats::rbinom(120, m, 0.3), 40, 3)
  storage.mode(x) <- "integer"
  expect_equal(h$influence_sums(x, m, 0L)$corpus$sum_sq, ref_influence_sums(x, m), tolerance = 1e-12)
  by_class <- h$influence_sums(x, m, 5L)
  expect_equal(by_class$corpus$sum_sq, ref_influence_sums(x, m), tolerance = 1e-12)
  pa <- ref_corpus_pa_se(x, m)[["sum_sq"]]
  expect_equal(h$influence_sums(x, m, 0L)$corpus$observed_sum_sq, pa, tolerance = 1e-12)
  expect_equal(by_class$corpus$observed_sum_sq, pa, tolerance = 1e-12)
  for (j in 1:3) {
    expect_equal(by_class$label$sum_sq[j, ], ref_influence_sums(x[, j, drop = FALSE], m[, j, drop = FALSE]),
                 tolerance = 1e-12)
  }
})

# irrCAC's weighted coefficients and influence terms in plain R (items x
# categories counts X, weights W): t_i = (n / n2) [r >= 2] (pa_i - pe) /
# (1 - pe) - 2 (1 - c)(pe_i - pe)/(1 - pe) over the n rated items.
ref_weighted_sum <- function(X, W) {
  r <- rowSums(X)
  q <- ncol(X)
  X <- X[r >= 1, , drop = FALSE]
  r <- r[r >= 1]
  u <- X / r
  pi <- colMeans(u)
  pa_i <- ifelse(r >= 2, (rowSums((X %*% W) * X) - r) / (r * (r - 1)), NA)
  pa <- mean(pa_i, na.rm = TRUE)
  pe <- c(sum(pi * (W %*% pi)), sum(W) * sum(pi * (1 - pi)) / (q * (q - 1)), sum(W) / q^2)
  pe_i <- cbind(u %*% W %*% pi, sum(W) * (u %*% (1 - pi)) / (q * (q - 1)), pe[3])
  est <- (pa - pe) / (1 - pe)
  scale <- length(r) / sum(r >= 2)
  vapply(1:3, function(b) {
    term <- ifelse(r >= 2, scale * (pa_i - pe[b]) / (1 - pe[b]), 0) -
      2 * (1 - est[b]) * (pe_i[, b] - pe[b]) / (1 - pe[b])
    sum((term - est[b])^2)
  }, 0)
}

test_that("influence.h / weighted_agreement.h: single-label coefficients and their SE sums", {
  h <- cpp_harness("estimators.cpp")
  # 3 x 3 table, Fleiss: pa_i = 1, 1/3, 1/3; pe = 29/81, c = 4/13; pe_i =
  # u_i' pi = (36, 30, 21)/81; t_i = (pa_i - pe)/(1 - pe) - 2(9/13)(pe_i - pe)
  # /(52/81) = (550, -44, 118)/676 about 208/676: (342^2 + 252^2 + 90^2)/676^2
  # = 23571/57122. AC1: pe_i = (1 - u_i' pi)/2, t_i = (3277, 91, -233)/3025
  # about 1045/3025. BP: t_i = (pa_i - 1/3)/(2/3) = 1, 0, 0 about 1/3
  want <- c(23571 / 57122, (2232^2 + 954^2 + 1278^2) / 3025^2, 2 / 3)
  s <- h$influence_sums(three_x, matrix(3L, 3, 3), 0L)$single
  expect_values(s$sum_sq, want)
  # percent agreement pa_i = 1, 1/3, 1/3 about 5/9: (16 + 4 + 4)/81
  expect_values(s$observed_sum_sq, 24 / 81)
  expect_identical(s$n, 3)
  # with identity weights: the same coefficients and sums
  X <- three_x * 1
  w <- h$weighted_fit(X, diag(3))
  expect_values(w$estimate, c(4 / 13, 19 / 55, 1 / 3))
  expect_values(w$influence$sum_sq, want)
  # linear weights 1 - |a - b|/2: d_i = X_i'(1 - W)X_i/6 = 0, 1/3, 1/3, pa =
  # 7/9; Fleiss pe = pi'W pi = 29/81 + (12 + 6)/81 = 47/81: (63 - 47)/34;
  # AC2 pe = sum(W) sum pi(1 - pi)/6 = 5(52/81)/6 = 130/243: (189 - 130)/113;
  # BP pe = 5/9: (7/9 - 5/9)/(4/9)
  W <- 1 - abs(outer(1:3, 1:3, "-")) / 2
  w <- h$weighted_fit(X, W)
  expect_values(c(w$d_obs, w$pi), c(2, 4, 3, 2) / 9)
  expect_values(w$estimate, c(8 / 17, 59 / 113, 1 / 2))
  # Fleiss: pe_i = u_i'W pi = (99, 105, 78)/162, t_i = (533, 20, 263)/578
  # about 272/578: (261^2 + 252^2 + 9^2)/578^2 = 65853/167042
  expect_values(w$influence$sum_sq[1], 65853 / 167042)
  expect_equal(w$influence$sum_sq, ref_weighted_sum(X, W), tolerance = 1e-12)
  # percent agreement: t_i = 1 - d_i = 1, 2/3, 2/3 about 7/9: 6/81; an item
  # rated once adds t = 0 and scales the others by n / n2 = 4/3:
  # (4/3, 8/9, 8/9, 0) about 7/9: (25 + 1 + 1 + 49)/81
  expect_values(w$observed_sum_sq, 2 / 27)
  expect_values(h$weighted_fit(rbind(X, c(0, 0, 1)), W)$observed_sum_sq, 76 / 81)
  # a larger table with items rated 0 to 4 times
  withr::local_seed(31)
  X <- t(vapply(sample(0:4, 25, replace = TRUE), function(r) tabulate(sample(4, r, TRUE), 4), numeric(4)))
  W <- 1 - (outer(1:4, 1:4, "-") / 3)^2
  expect_equal(h$weighted_fit(X, W)$influence$sum_sq, ref_weighted_sum(X, W), tolerance = 1e-12)
  # every rating in one category: Fleiss' chance agreement is 1
  w <- h$weighted_fit(cbind(c(3, 2), 0), diag(2))
  expect_values(w$estimate, c(NaN, 1, 1))
  expect_values(w$influence$sum_sq, c(NaN, 0, 0))
})

test_that("coincidence.h: alpha under each metric and irrCAC's weights by hand", {
  h <- cpp_harness("estimators.cpp")
  X <- three_x * 1
  # o_ck = sum_u X_uc (X_uk - [c = k])/(m_u - 1): item 1 adds 3 to o_11;
  # item 2 1 to o_12, o_21, o_22; item 3 1 to o_23, o_32, o_33
  nominal <- h$coincidence_fit(X, 0L, c(1, 2, 3))
  expect_identical(nominal$coincidence, rbind(c(3, 1, 0), c(1, 1, 1), c(0, 1, 1)))
  expect_identical(c(nominal$n_items, nominal$n_values), c(3, 9))
  alpha <- function(metric) {
    a <- h$coincidence_fit(X, metric, c(1, 2, 3))
    c(a$d_obs, a$d_exp, 1 - a$d_obs / a$d_exp)
  }
  # marginals n_c = 4, 3, 2 (n = 9). Nominal: D_o = 4/9, D_e = (81 - 29)/72
  expect_values(alpha(0L), c(4 / 9, 13 / 18, 5 / 13))
  # ordinal: delta_12 = (4 + 3 - 7/2)^2 = 49/4, delta_23 = (3 + 2 - 5/2)^2 =
  # 25/4, delta_13 = (9 - 3)^2 = 36; D_o = 2(49/4 + 25/4)/9 = 37/9,
  # D_e = 2(12 * 49/4 + 6 * 25/4 + 8 * 36)/72 = 105/8
  expect_values(alpha(1L), c(37 / 9, 105 / 8, 649 / 945))
  # interval: delta = (c - k)^2; D_o = 4/9, D_e = 2(12 + 6 + 8 * 4)/72 = 25/18
  expect_values(alpha(2L), c(4 / 9, 25 / 18, 17 / 25))
  # ratio: delta = ((c - k)/(c + k))^2 = 1/9, 1/25, 1/4 (pairs 12, 23, 13);
  # D_o = 2(1/9 + 1/25)/9 = 68/2025, D_e = 2(12/9 + 6/25 + 8/4)/72 = 67/675
  expect_values(alpha(3L), c(68 / 2025, 67 / 675, 133 / 201))
  # one pairable item, both values in one category (item 2 has one value):
  # no disagreement of either kind, so no alpha
  one <- h$coincidence_fit(rbind(c(2, 0, 0), c(0, 1, 0)), 0L, c(1, 2, 3))
  expect_identical(c(one$n_items, one$n_values, one$d_obs, one$d_exp), c(1, 2, 0, 0))
  # weights for values 1, 2, 3: linear 1 - |a - b|/2, quadratic 1 - (a - b)^2/4
  expect_identical(h$category_weights(0L, c(1, 2, 3)), diag(3))
  expect_values(h$category_weights(1L, c(1, 2, 3)), rbind(c(1, 1 / 2, 0), c(1 / 2, 1, 1 / 2), c(0, 1 / 2, 1)))
  expect_values(h$category_weights(2L, c(1, 2, 3)), rbind(c(1, 3 / 4, 0), c(3 / 4, 1, 3 / 4), c(0, 3 / 4, 1)))
})

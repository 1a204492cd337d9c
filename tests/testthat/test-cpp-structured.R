# Unit tests of structured_influence.h through the sourceCpp() harness
# cpp/estimators.cpp (helper-cpp.R compiles it): the influence sums of labels
# with structure, worked out by hand on a tiny table.

test_that("structured_influence.h: a group, its free label and their weighted mean by hand", {
  h <- cpp_harness("estimators.cpp")
  # three items, m = 2: group (A, B, none) with A chosen by 2, 1, 2 and B by
  # 0, 1, 0; d_i = 0, 1, 0; pi = (5/6, 1/6), none unused (q = 2).
  x <- cbind(c(2L, 1L, 2L), c(0L, 1L, 0L), 0L)
  m <- matrix(2L, 3, 3)
  # Fleiss: w = 2 (5/6)(1/6) = 5/18, c = -1/5; chance deviations
  # sum_c (1 - 2 pi_c)(x_c/m - pi_c) = (-2, 4, -2)/9, so t_i =
  # (w - d_i + (6/5) dev_i) / w = (1, -17, 1)/25 about -1/5: (36 + 144 + 36)/625.
  # AC1: w = 13/18, c = 7/13, slope -1: t_i = (193, -113, 193)/169 about
  # 91/169: (102^2 + 204^2 + 102^2)/169^2. PABAK: t_i = 1, -1, 1 about 1/3: 8/3.
  want <- c(216 / 625, 62424 / 28561, 8 / 3)
  group <- h$structured_sums(x, m, integer(), 0L, 2L, 1)
  expect_values(group$sum_sq, want)
  expect_identical(group$n, 3)
  # percent agreement: A_i* = 1 - d_i = 1, 0, 1 about 2/3: (1 + 4 + 1)/9
  expect_values(group$observed_sum_sq, 2 / 3)
  # label A alone is the same design (a free label is the q = 2 case)
  expect_values(h$structured_sums(x, m, 0L, integer(), integer(), 1)$sum_sq, want)
  # the two as variables of one structure: any weights give the same terms
  expect_values(h$structured_sums(x, m, 0L, 0L, 2L, c(3, 1))$sum_sq, want)
  # free labels with unit weights are influence.h's corpus, here with a
  # second label B undecided on item 3 (n / n1 and n / n2 differ by label)
  xb <- cbind(x, c(1L, 0L, 0L))
  mb <- cbind(m, c(2L, 2L, 0L))
  expect_values(h$structured_sums(xb, mb, c(0L, 3L), integer(), integer(), c(1, 1))$sum_sq,
                h$influence_sums(xb[, c(1, 4)], mb[, c(1, 4)], 0L)$corpus$sum_sq)
})

test_that("structure_records.h: each record's structure columns by hand", {
  h <- cpp_harness("estimators.cpp")
  # labels P, Q (child of P), R, S; group {Q, R}. Columns: the closed
  # labels, then the group's Q, R and "none"; -1 where undecided.
  values <- rbind(c(0L, 1L, 0L, 0L),    # Q selects P; the group says Q
                  c(NA, NA, 1L, NA),    # R selected: the undecided Q counts 0
                  c(1L, 0L, NA, 1L),    # nothing selected, R undecided: group undecided
                  c(0L, 0L, 0L, 0L),    # "none"
                  c(NA, 1L, NA, 0L))    # Q selects and decides P
  want <- rbind(c(1L, 1L, 0L, 0L, 1L, 0L, 0L),
                c(-1L, -1L, 1L, -1L, 0L, 1L, 0L),
                c(1L, 0L, -1L, 1L, -1L, -1L, -1L),
                c(0L, 0L, 0L, 0L, 0L, 0L, 1L),
                c(1L, 1L, -1L, 0L, 1L, 0L, 0L))
  res <- h$structure_columns(values, c(-1L, 0L, -1L, -1L), 1L, list(c(1L, 2L)))
  expect_identical(res$columns, want)
  expect_identical(res$bad, -1)
  # across blocks of records, and the first record breaking the group
  many <- values[rep(1:5, 1000), ]
  many[4003, 2:3] <- 1L
  res <- h$structure_columns(many, c(-1L, 0L, -1L, -1L), 1L, list(c(1L, 2L)))
  expect_identical(res$columns[-4003, ], want[rep(1:5, 1000), ][-4003, ])
  expect_identical(c(res$bad, res$bad_group), c(4002, 0))
})

test_that("nominal_floor.h: the largest disagreement by hand and by dynamic programming", {
  h <- cpp_harness("estimators.cpp")
  # items with m = 2 and 3, totals a = 3, b = 2: best is (1, 1) and (2, 1),
  # disagreements 1 and 4/6, mean 5/6
  expect_equal(h$nominal_max_disagreement(c(0, 1, 1), c(3, 2)), 5 / 6, tolerance = 1e-15)
  # undefined without pairable items, or with totals that miss decisions
  expect_true(is.nan(h$nominal_max_disagreement(c(4), c(2, 2))))
  expect_true(is.nan(h$nominal_max_disagreement(c(0, 2), c(2, 1))))
  # beyond its budget of arc relaxations
  expect_true(is.nan(h$nominal_max_disagreement(rep(2, 30), c(400, 300, 230), max_work = 100)))
  expect_false(is.nan(h$nominal_max_disagreement(rep(2, 30), c(400, 300, 230))))
  withr::local_seed(21)
  for (rep in 1:25) {
    q <- sample(2:4, 1)
    m_i <- sample(1:6, sample(3:9, 1), replace = TRUE)
    m_i[1] <- 2L
    totals <- tabulate(sample(q, sum(m_i), replace = TRUE, prob = seq_len(q)), q)
    expect_equal(h$nominal_max_disagreement(tabulate(m_i, 6), totals),
                 1 - ref_floor_nominal(m_i, totals), tolerance = 1e-12)
  }
})

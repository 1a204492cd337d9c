# Unit tests of the bootstrap headers through the sourceCpp() harness
# cpp/boot.cpp (helper-cpp.R compiles it).

test_that("boot_items.h: the whole-window runner gives the package's replicates", {
  h <- cpp_harness("boot.cpp")
  fit <- mla(boot_fixture())
  bs <- withr::with_seed(3, mla_boot(fit, R = 70))
  x <- item_x(fit$annotations)
  m <- item_m(fit$annotations)
  storage.mode(x) <- storage.mode(m) <- "integer"
  counts <- h$boot_items(x, m, bs$seed, 70L, 1L)
  expect_identical(counts, unname(bs$t))
  # the seed drives the draws: another seed, other replicates
  expect_false(identical(h$boot_items(x, m, bs$seed + 1L, 70L, 1L), counts))
})

# Clusters within strata: items 1-2, 3-4 and 5-6 form units 0, 1 and 2;
# stratum 0 holds units 0 and 1, stratum 1 unit 2 alone. Each stratum draws
# as many units as it holds, and an item takes its unit's multiplicity.
test_that("boot_units.h: draws respect clusters, strata and annotator counts", {
  h <- cpp_harness("boot.cpp")
  d <- h$boot_draws(2L, 6L, 4L, c(0L, 0L, 1L, 1L, 2L, 2L), 3L, 0:2, c(0L, 2L, 3L), c(5L, 9L), 200L)
  w <- d$item
  expect_identical(dim(w), c(6L, 200L))
  expect_identical(dim(d$annotator), c(4L, 200L))
  expect_identical(w[1, ], w[2, ])
  expect_identical(w[3, ], w[4, ])
  expect_identical(w[5, ], rep(1L, 200))             # a stratum of one unit
  expect_identical(w[1, ] + w[3, ], rep(2L, 200))    # two draws in stratum 0
  expect_true(all(w[1, ] %in% 0:2) && all(c(0L, 1L, 2L) %in% w[1, ]))
  expect_identical(colSums(d$annotator), rep(4, 200)) # four annotators drawn
  expect_true(all(d$annotator >= 0L))
  # items only: no annotator draws
  only <- h$boot_draws(0L, 6L, 0L, c(0L, 0L, 1L, 1L, 2L, 2L), 3L, 0:2, c(0L, 2L, 3L), c(5L, 9L), 50L)
  expect_identical(dim(only$annotator), c(0L, 50L))
  expect_identical(only$item[5, ], rep(1L, 50))
})

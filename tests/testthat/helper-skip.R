# CRAN-sized test runs. With NOT_CRAN unset (as CRAN checks) the suite keeps
# every fast correctness test and leaves out what is slow by design:
# property runs over hundreds of random designs, scale paths, fuzz-style
# inputs, interrupt timing and database servers. CI and `make check` set
# NOT_CRAN=true and run everything.

# One line at the top of a slow test.
skip_long <- function() testthat::skip_on_cran()

# TRUE in a CRAN-sized run (the test of skip_on_cran()).
cran_sized <- function() {
  !interactive() && !isTRUE(as.logical(Sys.getenv("NOT_CRAN", "false")))
}

# A size for the full suite and a smaller one for CRAN-sized runs, so that a
# slow check still runs on CRAN on fewer random designs or replicates.
test_size <- function(full, cran) if (cran_sized()) cran else full

# Identical doubles, except under valgrind (tools/valgrind.sh sets
# MLA_VALGRIND=1), whose CPU emulation computes long double in double
# precision (R's string-to-number parser and the package's long double sums
# round differently there): equal to 1e-13 then.
expect_identical_numbers <- function(object, expected, ...) {
  if (nzchar(Sys.getenv("MLA_VALGRIND"))) {
    testthat::expect_equal(object, expected, tolerance = 1e-13, ...)
  } else {
    testthat::expect_identical(object, expected, ...)
  }
}

# The C++ unit-test harnesses, one per header family (cpp/primitives.cpp,
# cpp/estimators.cpp, cpp/sets.cpp, cpp/boot.cpp) plus cpp/interrupts.cpp:
# the package's installed headers (system.file("include"), the header library
# in inst/include/) with the glue's helpers, each file compiled with
# Rcpp::sourceCpp() into an environment, once per session. Needs the source
# tree (src/ next to tests/) and a compiler, so it is skipped on CRAN and for
# installed tests. The default is the bootstrap harness, whose engine draws
# other tests read.
cpp_harness <- local({
  envs <- list()
  function(file = "boot.cpp") {
    testthat::skip_on_cran()
    # the source tree, or under R CMD check the unpacked sources beside the
    # check's copy of the tests
    candidates <- c(testthat::test_path("..", "..", "src"),
                    testthat::test_path("..", "..", "00_pkg_src", "mlagreement", "src"))
    found <- file.exists(file.path(candidates, "glue-view.h"))
    testthat::skip_if_not(any(found), "package sources not found")
    src <- candidates[found][1]
    include <- system.file("include", package = "mlagreement")
    testthat::skip_if_not(nzchar(include), "installed headers not found")
    # R CMD check --as-cran hides packages outside Depends/Imports/Suggests,
    # LinkingTo included; sourceCpp() needs every package the file depends on
    for (pkg in cpp_depends(testthat::test_path("cpp", file))) testthat::skip_if_not_installed(pkg)
    if (is.null(envs[[file]])) {
      env <- new.env()
      flags <- paste0("-I", shQuote(normalizePath(c(include, src))), collapse = " ")
      withr::with_envvar(
        c(PKG_CPPFLAGS = flags),
        Rcpp::sourceCpp(testthat::test_path("cpp", file), env = env, verbose = FALSE)
      )
      envs[[file]] <<- env
    }
    envs[[file]]
  }
})

# The packages a harness names in its Rcpp::depends attribute.
cpp_depends <- function(path) {
  line <- grep("Rcpp::depends(", readLines(path), fixed = TRUE, value = TRUE)
  inside <- sub(".*Rcpp::depends\\(([^)]*)\\).*", "\\1", line)
  trimws(unlist(strsplit(inside, ",", fixed = TRUE)))
}

# The multiplicities each replicate of an mla_boot object used (the engines'
# draws): item (n_items x R) and annotator (drawn annotators x R).
cpp_boot_draws <- function(bs) {
  u <- bs$units
  mode <- match(bs$resample, c("items", "annotators", "both")) - 1L
  n_items <- bs$design$n_items
  n_annotators <- if (mode == 0L) 0L else sum(bs$fit$annotations$annotator_records > 0)
  cpp_harness("boot.cpp")$boot_draws(mode, n_items, n_annotators, u$unit_of_item, u$n_units, u$order,
                           u$start, bs$seed, bs$R)
}

# The harnesses' values: NaN exactly where expected (not NA, not a number),
# the rest to 1e-13.
expect_values <- function(object, expected) {
  testthat::expect_identical(is.nan(object), is.nan(expected))
  testthat::expect_equal(object, expected, tolerance = 1e-13)
}

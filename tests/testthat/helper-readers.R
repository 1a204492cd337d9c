# Fixture files shipped in inst/extdata, and temporary files for bad inputs.
extdata <- function(...) system.file("extdata", ..., package = "mlagreement", mustWork = TRUE)

# Written in a temporary working directory, so errors show the bare name.
local_text_file <- function(lines, name = "file.json", env = parent.frame()) {
  if (!identical(basename(getwd()), "mla-files")) {
    dir <- file.path(withr::local_tempdir(.local_envir = env), "mla-files")
    dir.create(dir)
    withr::local_dir(dir, .local_envir = env)
  }
  writeLines(lines, name, useBytes = TRUE)
  name
}

# The mla() results that must agree between two designs (item ids compared
# as text: an array's dimnames are character).
mla_results <- function(x) {
  fit <- mla(x)
  item <- tidy(fit, level = "item")
  item$item <- as.character(item$item)
  list(corpus = tidy(fit, level = "corpus"), label = tidy(fit, level = "label"),
       item = item, glance = glance(fit))
}

# Test-only fixtures of real export variants (tests/testthat/fixtures/README.md).
fixture <- function(...) testthat::test_path("fixtures", ...)

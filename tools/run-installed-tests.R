# Runs tests/testthat against the installed package; used by valgrind.sh and
# sanitizers.sh. MLA_TEST_DIR: the test directory; MLA_TEST_FILTER: optional
# regex of test files. Prints "TESTS <p> passed, <f> failed, <s> skipped".
library(testthat)
library(mlagreement)
filter <- Sys.getenv("MLA_TEST_FILTER")
res <- test_dir(
  Sys.getenv("MLA_TEST_DIR"), package = "mlagreement",
  load_package = "installed", reporter = "summary",
  filter = if (nzchar(filter)) filter else NULL,
  stop_on_failure = FALSE, stop_on_warning = FALSE
)
df <- as.data.frame(res)
cat(sprintf("\nTESTS %d passed, %d failed, %d skipped\n",
            sum(df$passed), sum(df$failed) + sum(df$error), sum(df$skipped)))

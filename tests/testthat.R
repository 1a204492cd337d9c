library(testthat)
library(mlagreement)

# Keep the per-test results so the check script can report "N passed, N failed".
results <- test_check("mlagreement", reporter = "summary", stop_on_failure = FALSE)
out <- Sys.getenv("MLA_TEST_RESULTS")
if (nzchar(out)) {
  df <- as.data.frame(results)
  saveRDS(df[c("file", "test", "nb", "failed", "skipped", "error", "passed", "real")], out)
}
if (any(as.data.frame(results)$failed > 0) || any(as.data.frame(results)$error)) {
  stop("Some tests failed.")
}

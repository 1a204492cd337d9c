# Error tests. The class assertion always runs, on CRAN too; the snapshot of
# the message only where snapshots run (NOT_CRAN = "true"), and never as a
# skip, so a skipped snapshot does not skip the assertions after it.

expect_mla_error <- function(code, class = NULL) {
  err <- expect_error(code, class = "mlagreement_error")
  if (!is.null(class)) expect_s3_class(err, paste0("mlagreement_error_", class))
  invisible(err)
}

# `code` runs twice: once for the class (messages before the error are the
# snapshot's to record), once for the snapshot.
expect_mla_snapshot <- function(code, class = NULL) {
  quo <- rlang::enquo(code)
  err <- expect_mla_error(suppressMessages(rlang::eval_tidy(quo)), class)
  if (snapshots_run()) rlang::inject(expect_snapshot(error = TRUE, !!quo))
  invisible(err)
}

snapshots_run <- function() {
  interactive() || isTRUE(as.logical(Sys.getenv("NOT_CRAN", "false")))
}

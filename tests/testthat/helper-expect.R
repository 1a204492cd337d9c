# Error tests. The class assertion always runs, on CRAN too; the snapshot of
# the message only where snapshots run (NOT_CRAN = "true"), and never as a
# skip, so a skipped snapshot does not skip the assertions after it.

expect_mla_error <- function(code, class = NULL) {
  err <- expect_error(code, class = "mlagreement_error")
  if (!is.null(class)) expect_s3_class(err, paste0("mlagreement_error_", class))
  expect_no_raw_markup(err)
  invisible(err)
}

# cli renders markup in its template, not in the values it interpolates: a
# "{.val x}" passed in as a value reaches the user as it is.
expect_no_raw_markup <- function(cnd) {
  if (is.null(cnd)) return(invisible())
  expect_false(grepl("{.", conditionMessage(cnd), fixed = TRUE),
               label = paste0("raw cli markup in: ", conditionMessage(cnd)))
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

# A classed warning of the package (class "mlagreement_warning" and its
# subclass), its message free of raw cli markup.
expect_mla_warning <- function(code, class) {
  w <- expect_warning(code, class = paste0("mlagreement_warning_", class))
  expect_s3_class(w, "mlagreement_warning")
  expect_no_raw_markup(w)
  invisible(w)
}

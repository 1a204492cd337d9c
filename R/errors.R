# Every error a user can cause inherits from "mlagreement_error", and every
# warning from "mlagreement_warning", so callers can catch or muffle the
# package's conditions without matching message text.
mla_abort <- function(message, class = NULL, ..., call = rlang::caller_env(),
                      .envir = parent.frame()) {
  cli::cli_abort(
    message,
    class = c(if (!is.null(class)) paste0("mlagreement_error_", class), "mlagreement_error"),
    ...,
    call = call,
    .envir = .envir
  )
}

# Warnings name a call only where the caller passes the user's (`call`).
mla_warn <- function(message, class, ..., call = NULL, .envir = parent.frame()) {
  cli::cli_warn(
    message,
    class = c(paste0("mlagreement_warning_", class), "mlagreement_warning"),
    ...,
    call = call,
    .envir = .envir
  )
}

# Every error a user can cause inherits from "mlagreement_error", so callers
# can catch the package's conditions without matching message text.
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

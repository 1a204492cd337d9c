# Every error a user can cause inherits from "mlagreement_error" so callers can
# catch the package's conditions without matching message text.
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

# Shows the first few offending entries, then how many more there are.
format_first <- function(x, n = 5L) {
  x <- as.character(x)
  shown <- utils::head(x, n)
  more <- length(x) - length(shown)
  out <- paste(shown, collapse = ", ")
  if (more > 0) out <- paste0(out, ", ... (", more, " more)")
  out
}

check_dots_empty0 <- function(..., call = rlang::caller_env()) {
  if (...length() > 0) {
    nms <- names(list(...))
    shown <- if (is.null(nms)) "unnamed arguments" else format_first(nms[nms != ""])
    mla_abort(
      c("`...` must be empty.", "x" = "Problematic argument{?s}: {shown}."),
      class = "dots", call = call
    )
  }
}

# Like rlang::arg_match(), but the error is a classed mlagreement error.
# The full default vector selects its first element.
match_choice <- function(x, choices, arg = rlang::caller_arg(x),
                         call = rlang::caller_env()) {
  if (identical(x, choices)) return(choices[[1]])
  if (!is.character(x) || length(x) != 1L || is.na(x) || !(x %in% choices)) {
    shown <- if (is.character(x)) x else format(x)
    mla_abort(
      c("{.arg {arg}} must be one of {.or {.val {choices}}}.",
        "x" = "It is {.val {shown}}."),
      class = "arg", call = call
    )
  }
  x
}

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

# arg_match() with the package's classed error. `values` defaults to the
# formal's default choices, as in rlang::arg_match().
match_choice <- function(arg, values = NULL, multiple = FALSE,
                         arg_name = rlang::caller_arg(arg), call = rlang::caller_env()) {
  if (is.null(values)) values <- eval(formals(sys.function(sys.parent()))[[arg_name]])
  # the untouched default vector selects its first element
  if (!multiple && identical(arg, values)) return(arg[1L])
  if (multiple && identical(arg, values)) return(arg)
  if (!is.character(arg) || length(arg) == 0L || anyNA(arg) ||
      (!multiple && length(arg) != 1L)) {
    mla_abort(
      c("{.arg {arg_name}} must be {if (multiple) 'a character vector' else 'a string'} with values in {.val {values}}.",
        "x" = "It is {.obj_type_friendly {arg}}."),
      class = "arg", call = call
    )
  }
  bad <- setdiff(arg, values)
  if (length(bad) > 0L) {
    mla_abort(
      c("{.arg {arg_name}} must be one of {.or {.val {values}}}.",
        "x" = "Not one of them: {.val {bad}}."),
      class = "arg", call = call
    )
  }
  unique(arg)
}

# Number of bootstrap / resampling replicates: a whole number >= min.
check_replicates <- function(R, min = 1, arg = rlang::caller_arg(R),
                             call = rlang::caller_env()) {
  if (!is.numeric(R) || length(R) != 1L || is.na(R) || R < min || R != trunc(R) ||
      R > .Machine$integer.max) {
    mla_abort(
      c("{.arg {arg}} must be a single whole number >= {min}.",
        "x" = "It is {.obj_type_friendly {R}}{if (is.numeric(R) && length(R) == 1L) paste0(' (', R, ')') else ''}."),
      class = "replicates", call = call
    )
  }
  as.integer(R)
}

#' Number of threads used by default
#'
#' Parallel C++ routines take a `threads` argument whose default is
#' `mla_threads()`: the option `mlagreement.threads`, or 1 when it is unset.
#' Results never depend on the number of threads.
#'
#' @return An integer, at least 1.
#' @export
#' @examples
#' mla_threads()
#' old <- options(mlagreement.threads = 2)
#' mla_threads()
#' options(old)
mla_threads <- function() {
  threads <- getOption("mlagreement.threads", 1L)
  check_threads(threads, arg = "mlagreement.threads")
}

check_threads <- function(threads, arg = rlang::caller_arg(threads),
                          call = rlang::caller_env()) {
  if (!is.numeric(threads) || length(threads) != 1L || is.na(threads) ||
      threads < 1 || threads != trunc(threads)) {
    mla_abort(
      c("{.arg {arg}} must be a single whole number >= 1.",
        "x" = "It is {.obj_type_friendly {threads}}{if (is.numeric(threads) && length(threads) == 1L) paste0(' (', threads, ')') else ''}."),
      class = "threads", call = call
    )
  }
  as.integer(min(threads, max_threads_cpp()))
}

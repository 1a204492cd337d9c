#' Number of threads used by default
#'
#' Parallel routines take a `threads` argument whose default is
#' `mla_threads()`: the option `mlagreement.threads`, or 1 when it is unset,
#' at most the number of processors (1 in a build without OpenMP). A
#' `threads` argument is capped the same way. Results never depend on the
#' number of threads.
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

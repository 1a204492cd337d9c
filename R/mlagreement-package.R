#' @section Conditions:
#' Every error about the input inherits from class `mlagreement_error` and
#' has a subclass that says what went wrong (`mlagreement_error_value`,
#' `mlagreement_error_needs_records`, ...); every warning inherits from
#' `mlagreement_warning` (`mlagreement_warning_few_items`,
#' `mlagreement_warning_undefined`, ...). Catch or muffle them by class, not
#' by message text: `withCallingHandlers(expr, mlagreement_warning_few_items =
#' function(w) invokeRestart("muffleWarning"))`.
#' @keywords internal
"_PACKAGE"

## usethis namespace: start
#' @useDynLib mlagreement, .registration = TRUE
#' @importFrom Rcpp sourceCpp
#' @importFrom generics tidy glance augment
#' @importFrom rlang .data :=
#' @importFrom tibble as_tibble
## usethis namespace: end
NULL

# tibble is imported so that its namespace loads with the package: every
# result is a tibble, and the first call of a session does not pay for it.

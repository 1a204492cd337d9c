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

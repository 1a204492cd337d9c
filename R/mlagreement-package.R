#' @keywords internal
"_PACKAGE"

## usethis namespace: start
#' @useDynLib mlagreement, .registration = TRUE
#' @importFrom Rcpp sourceCpp
#' @importFrom generics tidy glance augment
#' @importFrom rlang .data :=
## usethis namespace: end
NULL

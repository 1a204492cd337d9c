#' @export
generics::tidy

#' @export
generics::glance

#' @export
generics::tidy

#' @export
generics::glance

#' @export
generics::augment

# Replaces bindings of the package namespace for the rest of the calling
# frame (a test_that() block, or the function that calls this): name =
# value pairs, as testthat::local_mocked_bindings() takes them. testthat
# before 3.1.7 has no local_mocked_bindings(); then the bindings are
# unlocked, assigned and relocked, and restored when `.env` exits. Tests use
# it to reach internals (a storage layout, an interrupt in a long loop)
# that the package itself does not expose.
local_mocked_bindings_compat <- function(..., .env = parent.frame()) {
  new <- list(...)
  if (length(new) == 0L || is.null(names(new)) || !all(nzchar(names(new)))) {
    stop("local_mocked_bindings_compat() needs name = value pairs.", call. = FALSE)
  }
  ns <- asNamespace("mlagreement")
  missing <- names(new)[!vapply(names(new), exists, NA, envir = ns, inherits = FALSE)]
  if (length(missing) > 0L) {
    stop("Not bindings of mlagreement: ", paste(missing, collapse = ", "), call. = FALSE)
  }
  mock <- get0("local_mocked_bindings", envir = asNamespace("testthat"), inherits = FALSE)
  if (is.function(mock)) {
    return(invisible(do.call(mock, c(new, list(.package = "mlagreement", .env = .env)))))
  }
  old <- mget(names(new), envir = ns, inherits = FALSE)
  for (name in names(new)) replace_binding(ns, name, new[[name]])
  withr::defer(for (name in names(old)) replace_binding(ns, name, old[[name]]), envir = .env)
  invisible(old)
}

replace_binding <- function(env, name, value) {
  locked <- bindingIsLocked(name, env)
  if (locked) unlockBinding(name, env)
  assign(name, value, envir = env)
  if (locked) lockBinding(name, env)
}

# A replacement for the package function `name` that runs it and then
# raises R's `interrupt` condition, as a Ctrl-C seen by its C++ loops would
# (the glue re-raises it once the core has returned; cpp/interrupts.cpp
# checks that part). `after`: the call that is interrupted (1: the first).
interrupting <- function(name, after = 1L) {
  real <- get(name, envir = asNamespace("mlagreement"), inherits = FALSE)
  calls <- 0L
  function(...) {
    out <- real(...)
    calls <<- calls + 1L
    if (calls >= after) rlang::interrupt()
    out
  }
}

interrupted_or <- function(expr) {
  tryCatch(expr, interrupt = function(e) "interrupted")
}

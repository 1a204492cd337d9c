# The columns of a data frame that a function's role arguments (item,
# annotator, label, value, labels, truth, ...) select, each through
# select_columns(). A column serves one role: the same column as item and
# annotator would make every record its own item, and what follows (a
# duplicates error that suggests dropping rows) would mislead.

# `roles`: a named list of quosures, one per role argument in the order of
# the function's arguments; NULL ones (an optional role not given) are left
# out. `several`: the roles that select one or more columns (`labels`), the
# others select exactly one. Returns the named positions per role.
select_roles <- function(data, roles, several = character(), data_arg = "data",
                         call = rlang::caller_env()) {
  pos <- list()
  for (arg in names(roles)) {
    quo <- roles[[arg]]
    if (is.null(quo) || rlang::quo_is_null(quo)) next
    pos[[arg]] <- select_columns(quo, data, arg, data_arg, one = !arg %in% several, call = call)
  }
  check_distinct_roles(pos, names(data), several, data_arg, call)
  pos
}

check_distinct_roles <- function(pos, data_names, several, data_arg, call) {
  args <- names(pos)
  for (i in seq_along(args)[-1L]) {
    for (j in seq_len(i - 1L)) {
      shared <- intersect(pos[[j]], pos[[i]])
      if (length(shared) > 0L) {
        abort_same_column(args[j], args[i], data_names[shared], several, data_arg, call)
      }
    }
  }
}

abort_same_column <- function(first, second, cols, several, data_arg, call) {
  multi <- intersect(c(first, second), several)
  hint <- if (length(multi) > 0L) {
    "Leave {cli::qty(length(cols))}{?it/them} out of {.arg {multi[1]}}."
  } else {
    "Each role needs a column of its own: name the column that holds the {first} and the one that holds the {second}."
  }
  mla_abort(
    c("{.arg {first}} and {.arg {second}} must select different columns of {.arg {data_arg}}.",
      "x" = "Both select {cli::qty(length(cols))}column{?s} {.field {cols}}.",
      "i" = hint),
    class = "same_column", call = call
  )
}

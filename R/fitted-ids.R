# Ids of new rows matched to the ids a fit has seen, for the prediction
# helpers (majority_baseline(), predict(<mla_annotator_model>)). An unseen id
# gets a documented fallback; one message per call says how many rows got it,
# because an id that differs only in type or whitespace falls back silently
# otherwise.

# Positions of `ids` (a column of the new rows) in `fitted` (the fit's ids),
# by value as match_values() compares them; NA where the fit has not seen
# the id. `what` names an id ("annotator id"), `new_arg` and `fit_arg` the
# arguments holding the new rows and the fit, `fallback` what unseen rows get
# instead, `fallback_value` (user text, or NULL) the value it is.
match_fitted_ids <- function(ids, fitted, what, new_arg, fit_arg, fallback, fallback_value = NULL) {
  idx <- match_values(ids, fitted)
  unseen <- is.na(idx)
  if (any(unseen)) {
    inform_unseen_ids(ids, fitted, unseen, what, new_arg, fit_arg, fallback, fallback_value)
  }
  idx
}

inform_unseen_ids <- function(ids, fitted, unseen, what, new_arg, fit_arg, fallback, fallback_value) {
  n <- sum(unseen)
  n_rows <- length(ids)
  missing <- unique(ids[unseen])
  shown <- utils::head(missing, 5L)
  more <- if (length(missing) > length(shown)) paste0(" and ", length(missing) - length(shown), " more") else ""
  gets <- if (is.null(fallback_value)) "{fallback}" else "{fallback} {.val {fallback_value}}"
  if (n < n_rows) {
    cli::cli_inform(
      c("i" = paste0("{n} of {n_rows} row{?s} of {.arg {new_arg}} {cli::qty(n)}{?has an/have} ",
                     "{what}{cli::qty(n)}{?/s} not seen in {.arg {fit_arg}} ({.val {shown}}{more}); ",
                     "{cli::qty(n)}{?it gets/they get} ", gets, ".")),
      class = "mlagreement_message_unseen_ids"
    )
    return(invisible())
  }
  every <- if (n_rows == 1L) "its row gets" else paste("all", n_rows, "rows get")
  seen_example <- utils::head(unique(fitted), 3L)
  cli::cli_inform(
    c("!" = paste0("No row of {.arg {new_arg}} has an {what} seen in {.arg {fit_arg}}: {every} ", gets, "."),
      "i" = paste0("This is likely an id mismatch: check the ids' type and whitespace ",
                   "({.arg {new_arg}} has {.val {shown}}{more}; {.arg {fit_arg}} has {.val {seen_example}}).")),
    class = "mlagreement_message_unseen_ids"
  )
}

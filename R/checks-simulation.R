# Argument checks of the simulators (the vocabulary of checks.R).

check_bias <- function(bias, n, scenario, call = rlang::caller_env()) {
  if (!is.numeric(bias) || !length(bias) %in% c(1L, n)) {
    mla_abort(
      c("{.arg bias} must be finite numbers: one, or one per annotator ({n}).",
        "x" = "It is {describe_value(bias)}."),
      class = "simulation_argument", call = call
    )
  }
  bad <- which(!is.finite(bias))
  if (length(bad) > 0L) {
    mla_abort(
      c("{.arg bias} must be finite numbers.",
        "x" = "Annotator {bad[1]} has bias {.val {bias[bad[1]]}}."),
      class = "simulation_argument", call = call
    )
  }
  if (any(bias != 0) && scenario %in% c("perfect", "minimum")) {
    mla_abort(
      c("{.arg bias} must be 0 for the {.val {scenario}} scenario.",
        "i" = "Annotator bias is defined for {.val noisy} and {.val independent}."),
      class = "simulation_argument", call = call
    )
  }
  rep_len(as.double(bias), n)
}

check_correlation <- function(correlation, scenario, call = rlang::caller_env()) {
  correlation <- check_number_in(correlation, call = call, class = "simulation_argument")
  if (correlation != 0 && scenario == "minimum") {
    mla_abort(
      c("{.arg correlation} must be 0 for the {.val minimum} scenario.",
        "i" = "That generator fixes every item-label count."),
      class = "simulation_argument", call = call
    )
  }
  correlation
}

check_prevalence_levels <- function(prevalence, call = rlang::caller_env()) {
  p <- check_probabilities(prevalence, length(prevalence), "level", call = call)
  nm <- names(prevalence)
  if (is.null(nm)) nm <- rep("", length(p))
  nm[nm == ""] <- format(p[nm == ""])
  if (anyDuplicated(nm)) {
    mla_abort(
      c("{.arg prevalence} must have distinct level names.",
        "x" = "Duplicated: {.val {unique(nm[duplicated(nm)])}}."),
      class = "simulation_argument", call = call
    )
  }
  stats::setNames(p, nm)
}

# N x n x k cells, taken in doubles (integer N * n overflows to NA) and
# refused beyond R's integer range before anything is allocated.
check_simulation_size <- function(N, n, k, call = rlang::caller_env()) {
  cells <- max(as.double(N) * as.double(n) * as.double(k))
  if (cells > .Machine$integer.max) {
    mla_abort(
      c("The simulated design must have at most {format_count(.Machine$integer.max)} cells (items x annotators x labels).",
        "x" = "It has {format_count(cells)} cells, about {format_gib(cells * 16)} to generate.",
        "i" = "Reduce {.arg n_items}, {.arg n_annotators} or {.arg n_labels}."),
      class = "simulation_size", call = call
    )
  }
  invisible(cells)
}

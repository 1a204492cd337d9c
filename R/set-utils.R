# Shared plumbing of the set-based measures: the C++ core reads the records as
# label sets straight from the object (annotation_view(sets = TRUE)).
set_core_args <- function(a) annotation_view(a, sets = TRUE)

# Set alpha from the C++ core (one build of the label sets).
set_alpha_impl <- function(a, with_expected, threads, call = rlang::caller_env()) {
  args <- set_core_args(a)
  res <- set_alpha_cpp(args, with_expected = with_expected, threads = threads)
  check_set_memory(res, args, call = call)
  res
}

# The annotator-pair measures and the average similarities; seed: two integers
# from R's RNG.
set_measures_impl <- function(a, k_used, R, seed, threads, call = rlang::caller_env()) {
  # the pair measures hold every within-item comparison and every pair
  size <- pair_design_size(a)
  check_pair_memory(32 * size$comparisons + 160 * size$pairs, size$pairs,
                    "The annotator-pair measures of agreement_measures()",
                    "For set agreement without annotator pairs use {.code krippendorff_alpha(x, distance = c(\"jaccard\", \"masi\"))}.",
                    call = call)
  args <- set_core_args(a)
  res <- pair_measures_cpp(args, k_used = k_used, R = R, seed = seed, threads = threads)
  check_set_memory(res, args, call = call)
  res
}

# The C++ core reports running out of memory instead of raising it.
check_set_memory <- function(res, args, call = rlang::caller_env()) {
  if (!isTRUE(res$out_of_memory)) return(invisible())
  # (the sparse layout's values are its selected labels: list(start, label))
  n_records <- if (is.list(args$values)) length(args$item) else length(args$values) / max(args$n_labels, 1L)
  mla_abort(
    c("Not enough memory for the label sets of {n_records} record{?s} over {args$n_labels} label{?s}.",
      "i" = "Free memory or use fewer threads, then try again."),
    class = "memory", call = call
  )
}

# A record with some but not all labels missing is not a label set.
abort_partial_record <- function(a, bad_record, what, hint = NULL, call = rlang::caller_env()) {
  r <- bad_record + 1
  vals <- record_values(a)
  missing <- label_names(a)[is.na(vals[r, ])]
  n_partial <- sum(rowSums(is.na(vals)) %in% seq_len(length(label_names(a)) - 1L))
  abort_partial_set(record_ids(a, r), missing, n_partial, what, hint, call)
}

# What to do instead, for alpha with set distances.
hamming_handles_partial <- c("i" = "{.code distance = \"hamming\"} handles single missing decisions.")

# The partial-record error, from the records or from a database summary.
abort_partial_set <- function(ids, missing, n_partial, what, hint = NULL, call) {
  abort_record(ids, "{what} need complete label sets: a record must have a decision on every label or none.",
               "has missing decisions on {length(missing)} label{?s} ({format_first(missing)}) but not on the others",
               c("i" = "{n_partial} such record{?s} in all. Whole missing records are fine.", hint),
               class = "partial_record", call = call)
}


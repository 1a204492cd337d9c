# The set tables of a summary, what Jaccard and MASI alpha need without the
# records: the distinct label sets of the pairable records with their counts
# (D_e), and the ordered pairs within items by (m, |A|, |B|, |A n B|) (D_o).
# From records, SQL or plain tables. A design with partial records has no
# sets: the summary keeps the first such record for the error.

# list(sets = list of 1-based label indices, count, pairs = tibble) or
# list(partial = list(item, annotator, missing, n_partial)).
counts_sets_memory <- function(a, call = rlang::caller_env()) {
  args <- set_core_args(a)
  res <- counts_set_tables_cpp(args)
  check_set_memory(res, args, call = call)
  if (res$bad_record >= 0) {
    r <- res$bad_record + 1
    vals <- record_values(a)
    ids <- record_ids(a, r)
    return(list(partial = list(
      item = ids$item,
      annotator = ids$annotator,
      missing = a$labels[is.na(vals[r, ])],
      n_partial = sum(rowSums(is.na(vals)) %in% seq_len(length(a$labels) - 1L))
    )))
  }
  new_counts_sets(res$sets, res$count, res$pairs)
}

# Counts as doubles, whatever their source (C++, SQL or a user's table).
new_counts_sets <- function(sets, count, pairs) {
  pairs <- count_table(pairs, counts = c("m", "size_a", "size_b", "n_shared", "n_pairs"))
  pairs <- pairs[pairs$n_pairs > 0, ]
  pairs <- pairs[order(pairs$m, pairs$size_a, pairs$size_b, pairs$n_shared), ]
  list(sets = lapply(sets, function(s) sort(as.integer(s))), count = normalise_count(count),
       pairs = pairs)
}

# The set tables of annotation_counts() from plain tables.
counts_sets_from_tables <- function(sets, set_pairs, universe, call = rlang::caller_env()) {
  if (is.null(sets) && is.null(set_pairs)) return(NULL)
  if (is.null(sets) || is.null(set_pairs)) {
    mla_abort("{.arg sets} and {.arg set_pairs} must be given together.",
              class = "counts_table", call = call)
  }
  check_data_frame(sets, call = call)
  check_data_frame(set_pairs, call = call)
  check_table_columns(sets, c("labels", "n_values"), call = call)
  check_table_columns(set_pairs, c("m", "size_a", "size_b", "n_shared", "n_pairs"), call = call)
  check_count_columns(sets, "n_values", "sets", call = call)
  check_count_columns(set_pairs, c("m", "size_a", "size_b", "n_shared", "n_pairs"), "set_pairs",
                      call = call)
  lab <- sets$labels
  if (!is.list(lab)) lab <- split_label_sets(id_text(lab))
  idx <- lapply(lab, function(s) match(id_text(s), universe))
  bad <- which(vapply(idx, anyNA, TRUE))
  if (length(bad) > 0) {
    mla_abort(c("Every label of {.arg sets} must be in the label universe.",
                "x" = "Row {bad[1]} has {.val {setdiff(id_text(lab[[bad[1]]]), universe)}}."),
              class = "unknown_label", call = call)
  }
  out <- new_counts_sets(idx, sets$n_values, set_pairs)
  check_sets_consistent(out, call = call)
  out
}

# Every pairable item has m (m - 1) ordered pairs, so the histogram gives the
# pairable values, which the distinct sets must count.
check_sets_consistent <- function(s, call) {
  p <- s$pairs
  bad <- which(p$m < 2 | p$n_shared > pmin(p$size_a, p$size_b))
  if (length(bad) > 0) {
    mla_abort(c("{.arg set_pairs} must have {.code m >= 2} and {.code n_shared <= min(size_a, size_b)}.",
                "x" = "Row {bad[1]} does not."), class = "counts_table", call = call)
  }
  n_values <- sets_pairable_values(s)
  if (!isTRUE(all.equal(n_values, sum(s$count)))) {
    mla_abort(c("{.arg sets} and {.arg set_pairs} must describe the same records.",
                "x" = "{.arg sets} counts {sum(s$count)} value{?s}, {.arg set_pairs} implies {n_values}."),
              class = "counts_table", call = call)
  }
}

sets_pairable_items <- function(s) {
  per_m <- tapply(s$pairs$n_pairs, s$pairs$m, sum)
  m <- as.double(names(per_m))
  stats::setNames(as.double(per_m) / (m * (m - 1)), names(per_m))
}

sets_pairable_values <- function(s) {
  items <- sets_pairable_items(s)
  sum(as.double(names(items)) * items)
}

# Jaccard, MASI and set-size distance rows of krippendorff_alpha() from the
# set tables, as on the records.
counts_alpha_set_rows <- function(a, specs, threads, call = rlang::caller_env()) {
  size_specs <- Filter(function(sp) sp$kind == "size", specs)
  what <- if (length(size_specs) > 0) "Set distances" else "The Jaccard and MASI distances"
  s <- counts_sets_or_abort(a, what, call)
  max_size <- max(0L, lengths(s$sets), s$pairs$size_a, s$pairs$size_b)
  grid <- size_triples(max_size, length(a$labels))
  tables <- lapply(size_specs, function(sp) evaluate_size_distance(sp$fn, sp$name, grid, call))
  if (length(s$count) == 0) check_pairable(0, call = call)
  res <- counts_set_alpha_cpp(s$sets, s$count, length(a$labels), s$pairs$m,
                              as.integer(s$pairs$size_a), as.integer(s$pairs$size_b),
                              as.integer(s$pairs$n_shared), s$pairs$n_pairs,
                              custom = as.double(unlist(tables, use.names = FALSE)),
                              n_custom = length(tables), threads = threads)
  if (isTRUE(res$out_of_memory)) {
    mla_abort("Not enough memory for the expected disagreement of {length(s$count)} distinct sets.",
              class = "out_of_memory", call = call)
  }
  sizes <- sort(unique(lengths(s$sets)))
  for (t in seq_along(size_specs)) {
    check_size_distance(tables[[t]], size_specs[[t]]$name, grid, sizes, call)
  }
  n_items <- sum(sets_pairable_items(s))
  rows <- list()
  for (sp in specs) {
    rows[[sp$name]] <- if (sp$kind == "size") {
      t <- match(sp$name, vapply(size_specs, `[[`, "", "name"))
      list(observed = res$observed_custom[t], expected = res$expected_custom[t])
    } else {
      list(observed = res[[paste0("observed_", sp$kind)]],
           expected = res[[paste0("expected_", sp$kind)]])
    }
    rows[[sp$name]] <- c(rows[[sp$name]], n_items = n_items, n_values = res$n_values)
  }
  rows
}

counts_sets_or_abort <- function(a, what, call) {
  if (is.null(a$sets) && is.null(a$sets_partial) && !is.null(a$db_source)) {
    # a database summary runs the set queries when asked
    s <- db_sets(a$db_source, a$labels, call = call)
    a$sets <- if (is.null(s$partial)) s
    a$sets_partial <- s$partial
  }
  if (!is.null(a$sets_partial)) {
    p <- a$sets_partial
    abort_partial_set(p[c("item", "annotator")], p$missing, p$n_partial, what, hamming_handles_partial, call)
  }
  if (is.null(a$sets)) abort_needs_records("the set distances (the summary has no set tables)", call = call)
  a$sets
}

# A distance d(A, B) of two sets needs, for D_o, which sets meet within an
# item: a summary keeps only their sizes and overlap.
check_counts_distances <- function(specs, call = rlang::caller_env()) {
  kinds <- vapply(specs, `[[`, "", "kind")
  if (any(kinds == "pair")) {
    mla_abort(
      c("{.arg x} must hold the annotation records for a distance of two label sets {.code function(a, b)}, not a summary of them.",
        "x" = "It is an {.cls annotation_counts} summary: it keeps the distinct label sets, but of the pairs of sets within an item only their sizes and overlap.",
        "i" = "A set-size distance {.code function(n_a, n_b, n_ab)} works on the summary."),
      class = "needs_records", call = call
    )
  }
  if (!all(kinds %in% c("hamming", "jaccard", "masi", "size"))) {
    abort_needs_records("distances other than Hamming, Jaccard, MASI and set-size functions",
                        call = call)
  }
}

counts_sets_table <- function(x) {
  s <- counts_sets_or_abort(x, "The set tables", rlang::caller_env())
  fast_tibble(labels = vapply(s$sets, function(j) join_label_set(x$labels[j]), ""),
              n_values = s$count)
}

# A label set as text: labels joined by "|", each "|" or backslash inside a
# label preceded by a backslash, so that split_label_sets() reads it back.
join_label_set <- function(labels) {
  paste(gsub("|", "\\|", gsub("\\", "\\\\", labels, fixed = TRUE), fixed = TRUE),
        collapse = "|")
}

# Label sets written as text (NA or "" the empty set): split at every "|" not
# escaped by a backslash; a backslash before "|" or a backslash is dropped,
# any other stays. Empty elements are dropped.
split_label_sets <- function(text) {
  lapply(text, function(t) {
    if (is.na(t) || !nzchar(t)) return(character())
    parts <- regmatches(t, gregexpr("(?:\\\\.|\\\\$|[^|\\\\])+", t, perl = TRUE))[[1]]
    gsub("\\\\([|\\\\])", "\\1", parts, perl = TRUE)
  })
}

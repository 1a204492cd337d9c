# The set tables of a database summary in SQL. A set is identified by integer
# codes, one per block of 30 labels (the sum of 2^bit of its labels: below
# 2^30, exact in any engine's integer type); |A n B| by joining the positives
# on (item, label).

kSetCodeBits <- 30L

# Decisions: partial records (some labels decided, not all) leave no set
# tables, only the first of them.
db_decision_sets <- function(d, universe, seen) {
  k <- length(universe)
  temp <- db_temporary(db_record_decisions(d))  # read three times below
  on.exit(temp$drop(), add = TRUE)
  recs <- temp$table
  partial <- dplyr::filter(recs, n_dec > 0L, n_dec < !!k)
  first <- db_first(partial, c("item", "annotator"))
  if (nrow(first) > 0) return(list(partial = db_partial_record(d, partial, first, universe)))
  complete <- dplyr::select(dplyr::filter(recs, n_dec == !!k), item, annotator, size = n_pos)
  db_set_tables(complete, dplyr::filter(d, value == 1L), universe, seen)
}

# Selected labels (label NULL: nothing selected): every record is complete.
db_selected_sets <- function(d, universe, seen) {
  recs <- dplyr::summarise(dplyr::group_by(d, item, annotator),
                           size = sum(ifelse(is.na(label), 0L, 1L), na.rm = TRUE),
                           .groups = "drop")
  temp <- db_temporary(recs)
  on.exit(temp$drop(), add = TRUE)
  db_set_tables(temp$table, dplyr::filter(d, !is.na(label)), universe, seen)
}

# Per record, the code of its set in each block of labels, written as SQL text
# (translated once, however often the query nests it).
db_set_codes <- function(positives, universe, seen) {
  con <- dbplyr::remote_con(positives)
  seen <- seen[!is.na(seen)]
  j <- match(id_text(seen), universe)
  n_blocks <- max(1L, ceiling(length(universe) / kSetCodeBits))
  label_sql <- dbplyr::escape(dbplyr::ident("label"), con = con)
  sums <- list()
  for (b in seq_len(n_blocks)) {
    in_block <- which((j - 1L) %/% kSetCodeBits == b - 1L)
    bits <- as.integer(2^((j[in_block] - 1L) %% kSetCodeBits))
    case <- if (length(in_block) == 0) "0" else {
      paste0("CASE ", label_sql, paste0(" WHEN ", dbplyr::escape(seen[in_block], parens = FALSE, collapse = NULL, con = con),
                                        " THEN ", bits, collapse = ""), " ELSE 0 END")
    }
    sums[[paste0("set_code_", b)]] <- rlang::expr(sum(!!dplyr::sql(case), na.rm = TRUE))
  }
  codes <- dplyr::summarise(dplyr::group_by(positives, item, annotator), !!!sums, .groups = "drop")
  list(table = codes, cols = names(sums))
}

# The distinct sets of the pairable items and the ordered pairs within items,
# from the complete records and their positive rows.
db_set_tables <- function(recs, positives, universe, seen) {
  recs <- db_pairable_records(recs)
  pos <- dplyr::select(positives, item, annotator, label)
  codes <- db_set_codes(pos, universe, seen)
  # records without positives (empty sets) have no code row: code 0
  coded <- dplyr::left_join(recs, codes$table, by = c("item", "annotator"))
  fill <- lapply(rlang::syms(codes$cols), function(cl) rlang::expr(dplyr::coalesce(!!cl, 0L)))
  coded <- dplyr::mutate(coded, !!!stats::setNames(fill, codes$cols))
  sets <- dplyr::summarise(dplyr::group_by(coded, !!!rlang::syms(codes$cols)),
                           size = max(size, na.rm = TRUE), n_values = n(), .groups = "drop")
  shared <- db_count_by(db_join_others(pos, pos, by = c("item", "label")),
                        item, annotator_a, annotator_b, name = "n_shared")
  pairs <- db_join_others(dplyr::select(recs, item, annotator, size_a = size, m),
                          dplyr::select(recs, item, annotator, size_b = size))
  pairs <- dplyr::left_join(pairs, shared, by = c("item", "annotator_a", "annotator_b"))
  pairs <- dplyr::mutate(pairs, n_shared = dplyr::coalesce(n_shared, 0L))
  pairs <- db_count_by(pairs, m, size_a, size_b, n_shared, name = "n_pairs")
  sets_from_db(dplyr::collect(sets), dplyr::collect(pairs), codes$cols)
}

# Codes back to label indices; counts normalised to double.
sets_from_db <- function(sets, pairs, code_cols) {
  powers <- 2^(seq_len(kSetCodeBits) - 1)
  codes <- vapply(code_cols, function(cl) normalise_count(sets[[cl]]), numeric(nrow(sets)))
  codes <- matrix(codes, nrow = nrow(sets))
  labels <- lapply(seq_len(nrow(sets)), function(r) {
    unlist(lapply(seq_along(code_cols), function(b) {
      which(floor(codes[r, b] / powers) %% 2 == 1) + (b - 1L) * kSetCodeBits
    }))
  })
  new_counts_sets(labels, sets$n_values, pairs)
}

# The first partial record, its undecided labels and the number of partial
# records, for the in-memory error.
db_partial_record <- function(d, partial, first, universe) {
  decided <- dplyr::filter(d, item == !!first$item[1], annotator == !!first$annotator[1],
                           !is.na(value))
  decided <- id_text(dplyr::collect(db_distinct(decided, label))$label)
  list(item = id_text(first$item[1]), annotator = id_text(first$annotator[1]),
       missing = setdiff(universe, decided), n_partial = db_count(partial))
}

# The oracle of the ingestion kernel: an R-only annotations_long()
# (decisions and selected labels) and its helpers, renamed oracle_*(). Helpers the kernel
# path does not replace (check_id_vector(), binary_values(), match_values(),
# new_annotations(), the repeat messages) are the package's own. The tests
# compare the decisions form (test-ingest.R); the selected-labels branch is
# copied only to keep the function whole.

oracle_annotations_long <- function(data, item, annotator, label, value = NULL, labels = NULL,
                             duplicates = c("error", "first", "last"), single_label = FALSE,
                             threads = mla_threads()) {
  check_data_frame(data)
  duplicates <- check_choice(duplicates, c("error", "first", "last"))
  used <- c(select_columns(rlang::enquo(item), data, "item", one = TRUE),
            select_columns(rlang::enquo(annotator), data, "annotator", one = TRUE),
            select_columns(rlang::enquo(label), data, "label", one = TRUE))
  item_col <- data[[used[1]]]
  ann_col <- data[[used[2]]]
  label_col <- data[[used[3]]]
  value_quo <- rlang::enquo(value)
  has_value <- !rlang::quo_is_null(value_quo)
  value_col <- if (has_value) {
    data[[select_columns(value_quo, data, "value", one = TRUE)]]
  }
  check_nonempty_rows(data)
  it <- oracle_encode_ids(item_col, "item")
  an <- oracle_encode_ids(ann_col, "annotator")
  check_id_vector(label_col, "label", "labels", class = "label_type")
  universe <- oracle_label_universe(label_col, labels)
  check_bool(single_label)
  if (!has_value && !single_label) check_label_names(universe)
  lab <- oracle_label_codes(label_col, universe, has_value)
  rec <- oracle_make_records(it, an)
  k <- length(universe)
  n_rec <- length(rec$item)
  if (has_value) {
    rows_desc <- function(r) {
      paste0("item ", it$keys[it$codes[r]], ", annotator ", an$keys[an$codes[r]],
             ", label ", universe[lab[r]])
    }
    value_col <- binary_values(value_col, "value", rows_desc)
    keep <- oracle_resolve_duplicates((rec$index - 1) * k + lab, rec$index, it, an, duplicates,
                               "decision", content = value_col)
    values <- matrix(NA_integer_, n_rec, k)
    values[cbind(rec$index[keep], lab[keep])] <- as.integer(value_col[keep])
  } else {
    chosen <- !is.na(lab)
    # single-label: one category per record, so the record is the key
    key <- ifelse(chosen & !single_label, (rec$index - 1) * k + lab, -rec$index)
    keep <- chosen & oracle_resolve_duplicates(key, rec$index, it, an, duplicates, "row")
    values <- matrix(0L, n_rec, k)
    values[cbind(rec$index[keep], lab[keep])] <- 1L
    if (single_label) {
      values[!(seq_len(n_rec) %in% rec$index[keep]), ] <- NA_integer_
    } else {
      check_selected_shape(values, universe, data, names(used))
    }
  }
  a <- new_annotations(values, "records", rec$item, rec$annotator, it$keys, an$keys, universe,
                       threads = check_threads(threads))
  if (single_label) a <- mark_single_label(a)
  a
}

oracle_label_codes <- function(label_col, universe, has_value, call = rlang::caller_env()) {
  lab <- if (is.factor(label_col)) {
    match(levels(label_col), universe)[as.integer(label_col)]
  } else {
    match_values(label_col, universe)
  }
  unknown <- !is.na(label_col) & is.na(lab)
  if (any(unknown)) {
    bad <- id_text(unique(label_col[unknown]))
    mla_abort(
      c("Every label in column {.arg label} must be in the declared label universe.",
        "x" = "{length(bad)} undeclared label{?s}: {.val {utils::head(bad, 5)}}; first at row {which(unknown)[1]}.",
        "i" = "Declare it in {.arg labels}, or drop those rows on purpose."),
      class = "unknown_label", call = call
    )
  }
  if (has_value && anyNA(lab)) {
    rows <- which(is.na(lab))
    mla_abort(
      c("Column {.arg label} must not be {.code NA} when {.arg value} is given.",
        "x" = "{length(rows)} row{?s} with label {.code NA}: {format_first(rows)}.",
        "i" = "A missing decision is a {.code NA} value, not a {.code NA} label."),
      class = "na_label", call = call
    )
  }
  lab
}

oracle_encode_ids <- function(v, arg, call = rlang::caller_env()) {
  check_id_vector(v, arg, call = call)
  if (anyNA(v)) {
    rows <- which(is.na(v))
    mla_abort(
      c("Column {.arg {arg}} must not contain {.code NA}.",
        "x" = "{length(rows)} {.code NA} {cli::qty(length(rows))}id{?s}, at {cli::qty(length(rows))}row{?s} {format_first(rows)}."),
      class = "na_id", call = call
    )
  }
  if (is.integer(v) && !is.factor(v)) {
    dense <- oracle_dense_codes(v)
    if (!is.null(dense)) return(dense)
  }
  keys <- if (is.factor(v)) {
    levels(droplevels(v))
  } else {
    sort(unique(v))
  }
  codes <- if (is.factor(v)) match(as.character(v), keys) else match(v, keys)
  list(keys = keys, codes = codes)
}

oracle_dense_codes <- function(v) {
  s <- oracle_counting_slots(v)
  if (is.null(s)) return(NULL)
  present <- tabulate(s$slot, s$span) > 0L
  list(keys = which(present) + s$offset, codes = cumsum(present)[s$slot])
}

oracle_counting_slots <- function(v) {
  lo <- min(v)
  span <- as.double(max(v)) - lo + 1
  if (span > 4 * length(v) + 1024 || span >= .Machine$integer.max) return(NULL)
  if (is.integer(v) && lo > -.Machine$integer.max) {
    offset <- lo - 1L
    slot <- v - offset
  } else {
    offset <- lo - 1
    slot <- as.integer(v - offset)
  }
  list(slot = slot, span = span, offset = offset)
}

oracle_label_universe <- function(label, labels, call = rlang::caller_env()) {
  if (!is.null(labels)) return(check_label_universe(labels, call = call))
  if (is.factor(label)) {
    if (anyNA(levels(label))) {
      mla_abort(
        c("Column {.arg label} must not have an {.code NA} factor level.",
          "x" = "Its levels include {.code NA} (as {.code factor(exclude = NULL)} makes).",
          "i" = "Rows without a label must be {.code NA} values, not an {.code NA} level."),
        class = "na_label", call = call
      )
    }
    universe <- levels(label)
  } else {
    universe <- id_text(sort(unique(label[!is.na(label)])))
  }
  if (length(universe) == 0L) {
    mla_abort(
      c("The label universe must not be empty.",
        "x" = "Column {.arg label} has no labels: {if (is.factor(label)) 'a factor without levels' else 'every value is NA'}.",
        "i" = "Declare the labels in {.arg labels}."),
      class = "no_labels", call = call
    )
  }
  universe
}

oracle_make_records <- function(item, annotator) {
  n_ann <- length(annotator$keys)
  key <- (as.double(item$codes) - 1) * n_ann + annotator$codes
  if (max(key) < .Machine$integer.max) {
    # crossed designs: count over the items x annotators grid when it is not
    # much larger than the data (sparse designs never allocate it)
    dense <- oracle_dense_codes(as.integer(key))
    if (!is.null(dense)) {
      ukey <- dense$keys
      return(list(
        index = dense$codes,
        item = (ukey - 1L) %/% n_ann + 1L,
        annotator = (ukey - 1L) %% n_ann + 1L
      ))
    }
  }
  ukey <- sort(unique(key))
  list(
    index = match(key, ukey),
    item = as.integer((ukey - 1) %/% n_ann) + 1L,
    annotator = as.integer((ukey - 1) %% n_ann) + 1L
  )
}

oracle_resolve_duplicates <- function(key, pair, item, annotator, duplicates, what,
                               content = NULL, call = rlang::caller_env()) {
  # the usual case, no repeats, by counting when the keys allow it
  if (oracle_no_repeats_by_counting(key)) return(rep(TRUE, length(key)))
  dup <- duplicated(key)
  if (!any(dup)) return(rep(TRUE, length(key)))
  pattern <- repeat_pattern(key, pair, item$codes, content)
  n_surplus <- sum(dup)
  surplus <- paste0(format_count(n_surplus), " surplus ", what, if (n_surplus > 1) "s",
                    " (", format_percent_exact(n_surplus / length(key)), " of the rows)")
  if (duplicates == "error") {
    pairs <- unique(pair[dup])
    shown <- utils::head(pairs, 5)
    desc <- paste0("(", item$keys[item$codes[match(shown, pair)]], ", ",
                   annotator$keys[annotator$codes[match(shown, pair)]], ")")
    mla_abort(
      c("Each (item, annotator) pair must appear once in {.arg data}.",
        "x" = "{length(pairs)} pair{?s} repeat{?s/}, with {surplus}: {format_first(desc)}.",
        repeat_advice(pattern)),
      class = "duplicates", call = call
    )
  }
  if (pattern$collide) {
    cli::cli_warn(
      c("Item ids look like they collide: {repeat_summary(pattern)}.",
        "i" = "{.code duplicates = \"{duplicates}\"} dropped {surplus}; make item ids unique instead, e.g. {.code paste(split, item)}."),
      class = "mlagreement_warning_duplicates", call = call
    )
  } else {
    cli::cli_inform(
      c("i" = "Kept the {duplicates} annotation of {length(unique(pair[dup]))} repeated (item, annotator) pair{?s}; dropped {surplus}."),
      class = "mlagreement_message_duplicates", call = call
    )
  }
  if (duplicates == "first") !dup else !duplicated(key, fromLast = TRUE)
}

oracle_no_repeats_by_counting <- function(key) {
  s <- oracle_counting_slots(key)
  !is.null(s) && max(tabulate(s$slot, s$span)) <= 1L
}

# Shared steps of the data-frame adapters: column selection, id encoding,
# record construction and duplicate handling.

# Integer codes for an id column; keys are the sorted distinct ids (factor
# levels in their order for factors).
encode_ids <- function(v, arg, call = rlang::caller_env()) {
  if (!(is.atomic(v) && is.null(dim(v)))) {
    mla_abort(
      c("Column {.arg {arg}} must be an atomic vector of ids.",
        "x" = "It is {.obj_type_friendly {v}}."),
      class = "id_type", call = call
    )
  }
  if (anyNA(v)) {
    rows <- which(is.na(v))
    mla_abort(
      c("Column {.arg {arg}} must not contain {.code NA}.",
        "x" = "{length(rows)} {.code NA} id{?s}, at row{?s} {format_first(rows)}."),
      class = "na_id", call = call
    )
  }
  if (is.integer(v) && !is.factor(v)) {
    dense <- dense_codes(v)
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

# Sorted distinct values and their codes for whole numbers in a range at most
# a few times their count, by counting instead of hashing and sorting (5x
# faster on millions of rows); NULL when the range is too wide.
dense_codes <- function(v) {
  s <- counting_slots(v)
  if (is.null(s)) return(NULL)
  present <- tabulate(s$slot, s$span) > 0L
  list(keys = which(present) + s$offset, codes = cumsum(present)[s$slot])
}

# Whole numbers v as slots 1..span (v - offset) for tabulate(), when their
# range is at most a few times their count; NULL otherwise. Integer input
# keeps integer arithmetic (no double copy) unless lo - 1 would overflow.
counting_slots <- function(v) {
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

# Declared label universe: `labels`, else factor levels, else sorted distinct.
label_universe <- function(label, labels, call = rlang::caller_env()) {
  if (!is.null(labels)) {
    check_label_universe(labels, call = call)
    return(as.character(labels))
  }
  if (is.factor(label)) return(levels(label))
  as.character(sort(unique(label[!is.na(label)])))
}

# Records are the distinct (item, annotator) pairs, ordered by item then annotator.
make_records <- function(item, annotator) {
  n_ann <- length(annotator$keys)
  key <- (as.double(item$codes) - 1) * n_ann + annotator$codes
  if (max(key) < .Machine$integer.max) {
    # crossed designs: count over the items x annotators grid when it is not
    # much larger than the data (sparse designs never allocate it)
    dense <- dense_codes(as.integer(key))
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

# Resolves repeated keys: error (default) or keep the first/last occurrence.
# `key` identifies a decision; `pair` the (item, annotator) record of each row.
resolve_duplicates <- function(key, pair, item, annotator, duplicates, what,
                               call = rlang::caller_env()) {
  # the usual case, no repeats, by counting when the keys allow it
  if (no_repeats_by_counting(key)) return(rep(TRUE, length(key)))
  dup <- duplicated(key)
  if (!any(dup)) return(rep(TRUE, length(key)))
  if (duplicates == "error") {
    pairs <- unique(pair[dup])
    shown <- utils::head(pairs, 5)
    desc <- paste0("(", item$keys[item$codes[match(shown, pair)]], ", ",
                   annotator$keys[annotator$codes[match(shown, pair)]], ")")
    n_surplus <- sum(dup)
    surplus <- paste0(n_surplus, " surplus ", what, if (n_surplus > 1) "s")
    mla_abort(
      c("Each (item, annotator) pair must appear once in {.arg data}.",
        "x" = "{length(pairs)} pair{?s} repeat{?s/}, with {surplus}: {format_first(desc)}.",
        "i" = "Use {.code duplicates = \"first\"} or {.code duplicates = \"last\"} to keep one annotation per pair."),
      class = "duplicates", call = call
    )
  }
  if (duplicates == "first") !dup else !duplicated(key, fromLast = TRUE)
}

# TRUE when the keys (whole numbers) are known to be distinct by counting
# them; FALSE when they repeat or their range is too wide to count.
no_repeats_by_counting <- function(key) {
  s <- counting_slots(key)
  !is.null(s) && max(tabulate(s$slot, s$span)) <= 1L
}

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
# `key` identifies a decision; `pair` the (item, annotator) record of each row;
# `content` the decision(s) of each row, to tell copies from re-annotations.
resolve_duplicates <- function(key, pair, item, annotator, duplicates, what,
                               content = NULL, call = rlang::caller_env()) {
  # the usual case, no repeats, by counting when the keys allow it
  if (no_repeats_by_counting(key)) return(rep(TRUE, length(key)))
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

# How the repeats are laid out. Ids collide (splits or files pooled with ids
# that restart) when most items with a repeat repeat as a whole: every
# annotator of the item appears again, as often as the others.
repeat_pattern <- function(key, pair, item_code, content) {
  key_id <- match(key, unique(key))
  mult <- tabulate(key_id)[key_id]
  first <- !duplicated(pair)
  pair_mult <- vapply(split(mult, pair), max, numeric(1))
  pair_item <- item_code[first][order(pair[first])]
  by_item <- split(pair_mult, pair_item)
  repeated <- vapply(by_item, function(m) any(m > 1), logical(1))
  whole <- vapply(by_item[repeated], function(m) all(m == m[1]), logical(1))
  changed <- if (is.null(content)) 0L else {
    n_versions <- length(unique(paste(key_id, as.character(content), sep = "\r")))
    n_versions - length(unique(key_id))
  }
  list(n_items = sum(repeated), n_whole = sum(whole), n_changed = changed,
       collide = sum(whole) > 0 && sum(whole) >= 0.5 * sum(repeated))
}

repeat_summary <- function(p) {
  paste0(p$n_whole, " of the ", p$n_items, " item", if (p$n_items != 1) "s",
         " with repeats repeat", if (p$n_items == 1) "s", " as a whole (every annotator again)")
}

repeat_advice <- function(p) {
  if (p$collide) {
    return(c(
      "!" = paste0(repeat_summary(p), ": item ids probably collide, for example ids that restart in every split or file."),
      "i" = "Make item ids unique before building the annotations, e.g. {.code paste(split, item)}; {.code duplicates = \"first\"} would drop real annotations."
    ))
  }
  if (p$n_changed == 0) {
    return(c("i" = "The repeats are exact copies: {.code duplicates = \"first\"} drops them without changing any decision."))
  }
  c("i" = paste0("The repeats look like re-annotations (", p$n_changed,
                 " repeated decision", if (p$n_changed != 1) "s", " changed): use {.code duplicates = \"first\"} or {.code \"last\"} to keep one annotation per pair."))
}

# TRUE when the keys (whole numbers) are known to be distinct by counting
# them; FALSE when they repeat or their range is too wide to count.
no_repeats_by_counting <- function(key) {
  s <- counting_slots(key)
  !is.null(s) && max(tabulate(s$slot, s$span)) <= 1L
}

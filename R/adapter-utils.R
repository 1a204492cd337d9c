# Shared steps of the data-frame adapters.

# Ids and labels are compared by value, never through as.character() of
# doubles (which prints 1e5 as "1e+05" but 100000L as "100000"); exact text
# is built only for distinct values.

# Exact text of ids or labels: whole doubles in full, other doubles with the
# fewest digits that read back as the same number, dates as printed, 64-bit
# integers (bit64, as database drivers return BIGINT) in full. The one place
# where ids and labels become text.
id_text <- function(v) {
  if (is.factor(v) || inherits(v, "Date") || inherits(v, "integer64")) return(as.character(v))
  if (inherits(v, "POSIXct")) {
    frac <- any(unclass(v) %% 1 != 0, na.rm = TRUE)
    out <- format(v, if (frac) "%Y-%m-%d %H:%M:%OS6" else "%Y-%m-%d %H:%M:%S")
    out[is.na(v)] <- NA_character_
    return(out)
  }
  if (!is.double(v)) return(as.character(v))
  out <- rep(NA_character_, length(v))
  whole <- !is.na(v) & is.finite(v) & v == trunc(v) & abs(v) <= 2^53
  out[whole] <- formatC(v[whole] + 0, format = "f", digits = 0)  # + 0: no "-0"
  out[whole & v == 0] <- "0"
  rest <- which(!is.na(v) & !whole)
  out[rest] <- exact_number(v[rest])
  out
}

# Numbers for messages with enough digits to tell them from their neighbours:
# 1 + 1e-15 is "1.000000000000001", not "1"; 0.1 stays "0.1".
exact_number <- function(x) {
  x <- as.double(x)
  out <- sprintf("%.15g", x)
  for (d in 16:17) {
    redo <- which(is.finite(x))  # "NA", "NaN", "Inf" are exact already
    redo <- redo[as.double(out[redo]) != x[redo]]
    out[redo] <- sprintf(paste0("%.", d, "g"), x[redo])
  }
  out
}

# Positions of `x` in `table` by value: numbers numerically, factors by their
# labels, numbers against text by their exact text.
match_values <- function(x, table) {
  if (is.factor(x)) x <- as.character(x)
  if (is.factor(table)) table <- as.character(table)
  if (is.numeric(x) && is.numeric(table)) return(match(as.double(x), as.double(table)))
  if (is.character(x) && is.character(table)) return(match(x, table))
  u <- unique(x)
  match(id_text(u), id_text(table))[match(x, u)]
}

# Doubles must be exact: an id beyond 2^53 may already have lost digits (two
# uids become one number).
check_id_vector <- function(v, arg, what = "ids", class = "id_type",
                            call = rlang::caller_env()) {
  times <- what == "ids" && (inherits(v, "Date") || inherits(v, "POSIXct"))
  ok_type <- is.character(v) || is.numeric(v) || is.logical(v) || is.factor(v) || times
  if (!ok_type || !is.null(dim(v))) {
    kinds <- if (what == "ids") "character, factor, integer, double, Date or POSIXct" else "character, factor, integer or double"
    mla_abort(
      c("Column {.arg {arg}} must be a vector of {what} ({kinds}).",
        "x" = "It is {if (is.list(v)) 'a list-column' else cli::format_inline('{.obj_type_friendly {v}}')}{if (!is.null(dim(v))) ' with dimensions' else ''}."),
      class = class, call = call
    )
  }
  if (!is.double(v) || is.object(v) || length(v) == 0L) return(invisible(v))
  has_na <- anyNA(v)
  if (has_na && any(is.nan(v))) {
    rows <- which(is.nan(v))
    mla_abort(
      c("Column {.arg {arg}} must not contain {.code NaN}.",
        "x" = "{length(rows)} {.code NaN} {cli::qty(length(rows))}value{?s}, at {cli::qty(length(rows))}row{?s} {format_first(rows)}.",
        "i" = "{.code NA} marks a missing value; {.code NaN} is refused, as everywhere in the package."),
      class = "value", call = call
    )
  }
  if (has_na && all(is.na(v))) return(invisible(v))
  r <- range(v, na.rm = has_na)
  if (any(!is.finite(r)) || max(abs(r)) > 2^53) {
    bad <- which(!is.na(v) & (!is.finite(v) | abs(v) > 2^53))[1]
    mla_abort(
      c("Column {.arg {arg}} must hold {what} that doubles store exactly (at most 2^53 in size).",
        "x" = "Row {bad} has {exact_number(v[bad])}.",
        "i" = "Read large integer ids as text (or {.pkg bit64} integers converted to text) so distinct ids stay distinct."),
      class = "id_precision", call = call
    )
  }
  invisible(v)
}

# Integer codes for an id column; keys are the sorted distinct ids. Messages
# name the data frame `data_arg` when the call takes several.
encode_ids <- function(v, arg, call = rlang::caller_env(), data_arg = NULL) {
  coding <- id_coding(v, arg, call = call, data_arg = data_arg)
  list(keys = coding$keys, codes = coding_codes(coding))
}

coding_codes <- function(coding, rows = NULL) {
  x <- if (is.null(rows)) coding$x else coding$x[rows]
  coding$pos[as.integer(x) - coding$offset]
}

# encode_ids() for the ids id_coding() does not hash: logical and classed ids,
# factors with an NA level.
encode_by_matching <- function(v) {
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

# An id column as codes into its sorted distinct values (the keys), without
# a full-length copy where the ids allow (CodedColumn in ingest.h).
id_coding <- function(v, arg, call = rlang::caller_env(), data_arg = NULL) {
  check_id_vector(v, arg, call = call)
  check_no_na_ids(v, arg, data_arg, call = call)  # R/checks.R
  if (is.factor(v) && !anyNA(levels(v))) {
    # levels(droplevels(v)) without a factor() pass over the rows
    present <- present_slots_cpp(v, 0, nlevels(v))
    return(list(keys = levels(v)[present], x = v, offset = 0L, pos = cumsum(present)))
  }
  plain <- (is.character(v) || is.numeric(v)) && !is.object(v)
  # encode_by_matching() counts these with a double offset: its keys are doubles
  if (is.integer(v) && plain && min(v) <= -.Machine$integer.max) plain <- FALSE
  s <- if (is.integer(v) && plain) counting_range(v)
  if (!is.null(s)) {
    present <- present_slots_cpp(v, s$offset, s$span)
    return(list(keys = which(present) + s$offset, x = v, offset = s$offset,
                pos = cumsum(present)))
  }
  if (plain) {
    d <- distinct_coding(v)
    keys <- sort_distinct(unique(d$distinct))  # merges 0 and -0, a string in two encodings
    return(list(keys = keys, x = d$x, offset = 0L, pos = match(d$distinct, keys)))
  }
  e <- encode_by_matching(v)
  list(keys = e$keys, x = e$codes, offset = 0L, pos = seq_along(e$keys))
}

# sort() of distinct values: byte order (radix), kept when the locale agrees
# it is strictly increasing, since locale collation is slow.
sort_distinct <- function(u) {
  if (!is.character(u) || length(u) < 2L) return(sort(u))
  s <- sort(u, method = "radix")
  if (all(s[-length(s)] < s[-1L])) s else sort(u)
}

# Distinct bit patterns of `v` (strings by their cached CHARSXP) in order of
# first occurrence, and each row's 1-based position among them.
distinct_coding <- function(v) {
  d <- distinct_codes_cpp(v)
  list(distinct = v[d$first], x = d$codes)
}

# counting_slots() without the slot vector.
counting_range <- function(v) {
  lo <- min(v)
  span <- as.double(max(v)) - lo + 1
  if (span > 4 * length(v) + 1024 || span >= .Machine$integer.max) return(NULL)
  list(offset = lo - 1L, span = span)
}

# Sorted distinct values and their codes by counting; NULL when the range is
# too wide.
dense_codes <- function(v) {
  s <- counting_slots(v)
  if (is.null(s)) return(NULL)
  present <- tabulate(s$slot, s$span) > 0L
  list(keys = which(present) + s$offset, codes = cumsum(present)[s$slot])
}

# Whole numbers v as slots 1..span for tabulate() when their range is at most
# a few times their count; NULL otherwise.
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

# The one order of a universe no one declared, as exact text: numeric when
# every label reads as a finite number ("2" before "10", whether the codes
# are numbers or text), else sorted text.
sort_labels <- function(labels) {
  text <- id_text(labels)
  num <- suppressWarnings(as.numeric(text))
  if (length(text) > 0L && all(is.finite(num))) text[order(num, text)] else sort(text)
}

# Declared label universe as exact text: `labels`, else factor levels, else
# the sorted distinct labels (sort_labels()).
label_universe <- function(label, labels, call = rlang::caller_env()) {
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
    universe <- sort_labels(unique(label[!is.na(label)]))
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

# Records are the distinct (item, annotator) pairs, ordered by item then
# annotator; index is the record of each row.
make_records <- function(item, annotator) {
  as_coding <- function(ids) list(x = ids$codes, offset = 0, pos = seq_along(ids$keys))
  ingest_records_cpp(as_coding(item), length(item$keys), as_coding(annotator),
                     length(annotator$keys))
}

# Resolves repeated keys: error (default) or keep the first/last occurrence.
# `key` identifies a decision, `pair` the record of each row, `content` what
# the row says for its key (evaluated only when some key repeats: it may be
# expensive); repeats of a key with one content are exact copies.
resolve_duplicates <- function(key, pair, item, annotator, duplicates, what, content,
                               call = rlang::caller_env()) {
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
    mla_warn(
      c("Item ids look like they collide: {repeat_summary(pattern)}.",
        "i" = "{.code duplicates = \"{duplicates}\"} dropped {surplus}; make item ids unique instead, e.g. {.code paste(split, item)}."),
      class = "duplicates", call = call
    )
  } else {
    # conflicting repeats lose a version: say so, exact copies lose nothing
    cli::cli_inform(
      c("i" = "Kept the {duplicates} annotation of {length(unique(pair[dup]))} repeated (item, annotator) pair{?s}; dropped {surplus}.",
        if (pattern$n_changed > 0) c("!" = paste0("The repeats conflict: ", repeat_conflict(pattern), "; the dropped versions are lost."))),
      class = "mlagreement_message_duplicates", call = call
    )
  }
  if (duplicates == "first") !dup else !duplicated(key, fromLast = TRUE)
}

# How the repeats are laid out. Ids collide (ids that restart in pooled
# splits or files) when most items with a repeat repeat as a whole and some
# of them conflict: an item needs two annotators to repeat "as a whole", and
# a re-submitted exact copy is no evidence of another item.
repeat_pattern <- function(key, pair, item_code, content) {
  key_id <- match(key, unique(key))
  mult <- tabulate(key_id)[key_id]
  version <- !duplicated(paste(key_id, as.character(content), sep = "\r"))
  n_versions <- tabulate(key_id[version], max(key_id))
  pair_ids <- sort(unique(pair))
  pair_mult <- vapply(split(mult, pair), max, numeric(1))
  pair_conflict <- vapply(split(n_versions[key_id] > 1, pair), any, logical(1))
  pair_item <- item_code[match(pair_ids, pair)]
  by_item <- split(pair_mult, pair_item)
  repeated <- vapply(by_item, function(m) any(m > 1), logical(1))
  whole <- vapply(by_item[repeated], function(m) length(m) >= 2 && all(m == m[1]), logical(1))
  conflict <- vapply(split(pair_conflict, pair_item), any, logical(1))[repeated]
  list(n_items = sum(repeated), n_whole = sum(whole), n_changed = sum(version) - max(key_id),
       n_conflict = sum(pair_conflict), n_pairs = sum(pair_mult > 1),
       collide = any(whole & conflict) && sum(whole) >= 0.5 * sum(repeated))
}

repeat_summary <- function(p) {
  paste0(p$n_whole, " of the ", p$n_items, " item", if (p$n_items != 1) "s",
         " with repeats repeat", if (p$n_items == 1) "s", " as a whole (every annotator again)")
}

repeat_conflict <- function(p) {
  pairs <- if (p$n_pairs == 1) {
    "the repeated pair differs"
  } else if (p$n_conflict == p$n_pairs) {
    paste("all", format_count(p$n_pairs), "repeated pairs differ")
  } else {
    paste0(format_count(p$n_conflict), " of the ", format_count(p$n_pairs), " repeated pairs differ",
           if (p$n_conflict == 1) "s")
  }
  paste0(pairs, " (", format_count(p$n_changed), " repeated decision", if (p$n_changed != 1) "s", " changed)")
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
  c("i" = paste0("The repeats conflict, as re-annotations do: ", repeat_conflict(p),
                 "; {.code duplicates = \"first\"} or {.code \"last\"} keeps one annotation per pair."))
}

# TRUE when the keys (whole numbers) are distinct by counting; FALSE when
# they repeat or their range is too wide to count.
no_repeats_by_counting <- function(key) {
  s <- counting_slots(key)
  !is.null(s) && max(tabulate(s$slot, s$span)) <= 1L
}

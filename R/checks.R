# Argument checks: the one vocabulary every exported function uses, each with
# a classed error naming the argument and the offending value.

check_dots_empty0 <- function(..., call = rlang::caller_env()) {
  if (...length() > 0) {
    nms <- names(list(...))
    shown <- if (is.null(nms)) "unnamed arguments" else format_first(nms[nms != ""])
    mla_abort(
      c("`...` must be empty.", "x" = "Problematic {cli::qty(...length())}argument{?s}: {shown}."),
      class = "dots", call = call
    )
  }
}

# One (or, with `multiple`, several) of `values`. An argument left at its
# default (identical to `values`) selects the first value, or all of them
# with `multiple`. The condition carries `values` for the contract test.
check_choice <- function(arg, values, multiple = FALSE, arg_name = rlang::caller_arg(arg),
                         call = rlang::caller_env(), class = "arg") {
  if (identical(arg, values)) return(if (multiple) values else values[1L])
  if (!is.character(arg) || length(arg) == 0L || anyNA(arg) ||
      (!multiple && length(arg) != 1L)) {
    mla_abort(
      c("{.arg {arg_name}} must be {if (multiple) 'a character vector' else 'a string'} with values in {.val {values}}.",
        "x" = "It is {.obj_type_friendly {arg}}."),
      class = class, values = values, call = call
    )
  }
  bad <- setdiff(arg, values)
  if (length(bad) > 0L) {
    mla_abort(
      c("{.arg {arg_name}} must be one of {.or {.val {values}}}.",
        "x" = "Not one of them: {.val {bad}}."),
      class = class, values = values, call = call
    )
  }
  unique(arg)
}

# Whole numbers in [min, max]; values beyond the integer range are refused
# before as.integer() would turn them into NA.
check_whole <- function(x, min = 1, max = .Machine$integer.max, vector = FALSE,
                        arg = rlang::caller_arg(x), call = rlang::caller_env(),
                        class = "whole_number") {
  what <- if (vector) "whole numbers" else "a single whole number"
  if (!is.numeric(x) || length(x) == 0L || (!vector && length(x) != 1L)) {
    mla_abort(c("{.arg {arg}} must be {what} >= {min}.", "x" = "It is {describe_value(x)}."),
              class = class, call = call)
  }
  bad <- which(is.na(x) | !is.finite(x) | x > max | x < min | x != trunc(x))
  if (length(bad) > 0L) {
    where <- if (length(x) == 1L) "It" else paste("Element", bad[1])
    above <- if (isTRUE(x[bad[1]] > max)) paste0(", above ", format(max, scientific = FALSE)) else ""
    limit <- if (max < .Machine$integer.max) paste0(" and <= ", max) else ""
    mla_abort(c("{.arg {arg}} must be {what} >= {min}{limit}.",
                "x" = "{where} is {describe_exact(x[bad[1]])}{above}."),
              class = class, call = call)
  }
  as.integer(x)
}

# The option mlagreement.max_memory, checked where it is used.
memory_limit <- function(call = rlang::caller_env()) {
  limit <- getOption("mlagreement.max_memory", 8 * 2^30)
  if (!is.numeric(limit) || length(limit) != 1L || is.na(limit) || limit <= 0) {
    mla_abort(
      c("Option {.code mlagreement.max_memory} must be a positive number of bytes.",
        "x" = "It is {describe_value(limit)}.",
        "i" = "For example {.code options(mlagreement.max_memory = 16 * 2^30)} for 16 GiB."),
      class = "option", call = call
    )
  }
  as.double(limit)
}

# Fails at once, naming the size, when a result would need more than the
# option mlagreement.max_memory, instead of "cannot allocate" minutes later.
check_memory <- function(bytes, what, hint, class, call = rlang::caller_env()) {
  limit <- memory_limit(call = call)
  if (bytes <= limit) return(invisible())
  mla_abort(
    c("{what} would need about {format_gib(bytes)}.",
      "x" = "That is more than the limit of {format_gib(limit)} (option {.code mlagreement.max_memory}).",
      "i" = hint),
    class = class, call = call
  )
}

# Bytes as the GiB every size message of the package speaks of.
format_gib <- function(bytes) paste0(format(signif(bytes / 2^30, 3), big.mark = ","), " GiB")

# A bad number shown with the digits that make it bad (1 + 1e-15 is not "1").
describe_exact <- function(x) {
  if (is.double(x) && length(x) == 1L && is.finite(x) && x != trunc(x)) {
    exact_number(x)
  } else {
    describe_value(x)
  }
}

check_threads <- function(threads, arg = rlang::caller_arg(threads), call = rlang::caller_env()) {
  threads <- check_whole(threads, min = 1, arg = arg, call = call, class = "threads")
  min(threads, max_threads_cpp())
}

# One number in [lower, upper], or in (lower, upper) when `open`.
check_number_in <- function(x, lower = 0, upper = 1, open = FALSE, arg = rlang::caller_arg(x),
                            call = rlang::caller_env(), class = "number") {
  ok <- is.numeric(x) && length(x) == 1L && !is.na(x) &&
    (if (open) x > lower && x < upper else x >= lower && x <= upper)
  if (!ok) {
    range <- if (open) paste("strictly between", lower, "and", upper) else paste0("in [", lower, ", ", upper, "]")
    mla_abort(c("{.arg {arg}} must be a single number {range}.", "x" = "It is {describe_exact(x)}."),
              class = class, call = call)
  }
  as.double(x)
}

check_conf_level <- function(level, arg = rlang::caller_arg(level), call = rlang::caller_env()) {
  check_number_in(level, open = TRUE, arg = arg, call = call, class = "conf_level")
}

# Probabilities: one value, or one per `what` (n of them), recycled to n.
check_probabilities <- function(x, n, what, arg = rlang::caller_arg(x),
                                call = rlang::caller_env(), class = "simulation_argument") {
  if (!is.numeric(x) || length(x) == 0L) {
    mla_abort(c("{.arg {arg}} must be a numeric vector of probabilities.",
                "x" = "It is {.obj_type_friendly {x}}."), class = class, call = call)
  }
  if (!length(x) %in% c(1L, n)) {
    mla_abort(c("{.arg {arg}} must have length 1 or one value per {what} ({n}).",
                "x" = "It has length {length(x)}."), class = class, call = call)
  }
  bad <- which(is.na(x) | x < 0 | x > 1)
  if (length(bad) > 0L) {
    where <- if (length(x) == 1L) "" else paste0(" (", what, " ", bad[1], ")")
    mla_abort(c("{.arg {arg}} must be in [0, 1].",
                "x" = "Value {exact_number(x[bad[1]])}{where} is not; {length(bad)} bad value{?s} in all."),
              class = class, call = call)
  }
  rep_len(as.double(x), n)
}

check_string <- function(x, arg = rlang::caller_arg(x), call = rlang::caller_env()) {
  if (!is.character(x) || length(x) != 1L || is.na(x) || !nzchar(x)) {
    mla_abort(c("{.arg {arg}} must be a single non-empty string.",
                "x" = "It is {.obj_type_friendly {x}}."), class = "string", call = call)
  }
}

check_bool <- function(x, arg = rlang::caller_arg(x), call = rlang::caller_env(), class = "bool") {
  if (!is.logical(x) || length(x) != 1L || is.na(x)) {
    mla_abort(c("{.arg {arg}} must be {.code TRUE} or {.code FALSE}.",
                "x" = "It is {.obj_type_friendly {x}}."), class = class, call = call)
  }
}

check_inherits <- function(x, cls, fn, arg = rlang::caller_arg(x), call = rlang::caller_env(),
                           class = "input_type") {
  if (!inherits(x, cls)) {
    mla_abort(c("{.arg {arg}} must be an {.cls {cls}} object from {.fn {fn}}.",
                "x" = "It is {.obj_type_friendly {x}}."), class = class, call = call)
  }
}

# --- data frames and their columns ---------------------------------------------

check_data_frame <- function(x, arg = rlang::caller_arg(x), call = rlang::caller_env()) {
  if (!is.data.frame(x)) {
    mla_abort(c("{.arg {arg}} must be a data frame.", "x" = "It is {.obj_type_friendly {x}}."),
              class = "input_type", call = call)
  }
}

check_nonempty_rows <- function(x, arg = rlang::caller_arg(x), call = rlang::caller_env()) {
  if (nrow(x) == 0L) {
    mla_abort("{.arg {arg}} must have at least one row.", class = "empty", call = call)
  }
}

# Positions of the columns of `data` that the tidyselect argument `arg`
# selects: exactly one with `one`, else at least one.
select_columns <- function(quo, data, arg, data_arg = "data", one = FALSE,
                           call = rlang::caller_env()) {
  if (rlang::quo_is_missing(quo)) abort_column_not_given(data, arg, data_arg, one, call)
  pos <- tryCatch(
    tidyselect::eval_select(quo, data, allow_rename = FALSE, error_call = call),
    error = function(e) {
      mla_abort("{.arg {arg}} must select existing columns of {.arg {data_arg}}.",
                class = "column", parent = e, call = call)
    }
  )
  if (one && length(pos) != 1L) {
    mla_abort(c("{.arg {arg}} must select exactly one column of {.arg {data_arg}}.",
                "x" = "It selects {length(pos)} column{?s}."), class = "column", call = call)
  }
  if (!one && length(pos) == 0L) {
    mla_abort("{.arg {arg}} must select at least one column of {.arg {data_arg}}.",
              class = "column", call = call)
  }
  pos
}

abort_column_not_given <- function(data, arg, data_arg, one, call) {
  hint <- if (one && arg %in% names(data)) {
    "{.arg {data_arg}} has a column {.field {arg}}: give {.code {arg} = {arg}}."
  } else if (one) {
    "Name the column of {.arg {data_arg}} to use."
  } else {
    "Name the columns, e.g. {.code c(a, b)}, or {.code -c(item, annotator)} for all but those."
  }
  mla_abort(c("{.arg {arg}} must select {if (one) 'a column' else 'columns'} of {.arg {data_arg}}.",
              "x" = "It is not given.", "i" = hint), class = "column", call = call)
}

select_column <- function(quo, data, arg, data_arg = "data", call = rlang::caller_env()) {
  data[[select_columns(quo, data, arg, data_arg, one = TRUE, call = call)]]
}

# 0/1/NA values as an integer vector, checked before any conversion (0.5 must
# not become 0); the strings "0" and "1" convert, any other string is refused.
binary_values <- function(v, arg, rows_desc, call = rlang::caller_env()) {
  if (!is.null(dim(v)) || is.list(v)) {
    mla_abort(
      c("Column {.arg {arg}} must be a plain vector of 0, 1 or {.code NA}, one value per row.",
        "x" = "It is {.obj_type_friendly {v}}{if (!is.null(dim(v))) paste0(' with dimensions ', paste(dim(v), collapse = ' x ')) else ''}.",
        "i" = "Give each label its own column (a matrix column holds several)."),
      class = "value_type", call = call
    )
  }
  if (is.factor(v)) v <- as.character(v)
  if (is.character(v)) v <- binary_strings(v, arg, call)
  if (!(is.logical(v) || is.numeric(v))) {
    abort_not_binary(arg, "It holds {.cls {class(v)[1]}} values.", class = "value_type", call = call)
  }
  if (is.logical(v)) return(as.integer(v))
  if (is.integer(v) && all(range(0L, 1L, v, na.rm = TRUE) == c(0L, 1L))) return(v)
  bad <- which(!is.na(v) & v != 0 & v != 1)
  if (is.double(v)) bad <- union(bad, which(is.nan(v)))
  if (length(bad) > 0) abort_invalid_values(v, arg, length(bad), bad[1], rows_desc, call)
  as.integer(v)
}

# The one error about a 0/1 column (records and databases): `does` says what
# it holds instead; cli text evaluated in the caller's frame.
abort_not_binary <- function(arg, does, hints = NULL, class, call, .envir = parent.frame()) {
  env <- rlang::env(.envir, binary_arg_ = arg)
  mla_abort(c("Column {.arg {binary_arg_}} must hold 0, 1 or {.code NA}.", "x" = does, hints),
            class = class, call = call, .envir = env)
}

abort_invalid_values <- function(v, arg, n, first, rows_desc, call) {
  abort_not_binary(arg, "{n} invalid value{?s}; first at row {first} ({rows_desc(first)}): {.val {if (is.double(v)) exact_number(v[first]) else format(v[first])}}.",
                   class = "value", call = call)
}

binary_strings <- function(v, arg, call) {
  s <- trimws(v)
  ok <- is.na(s) | s %in% c("0", "1")
  if (all(ok)) return(ifelse(is.na(s), NA_integer_, as.integer(s == "1")))
  seen <- unique(s[!ok])
  abort_not_binary(arg, "It holds text other than {.val 0} and {.val 1}: {.val {utils::head(seen, 5)}}{if (length(seen) > 5) ' ...' else ''}; first at row {which(!ok)[1]}.",
                   c("i" = "Recode it explicitly, e.g. {.code as.integer(x == \"Yes\")}, after checking what each value means."),
                   class = "value_type", call = call)
}

# One label per row: atomic character/factor/numeric/logical, no list-columns.
check_label_column <- function(v, arg, call = rlang::caller_env()) {
  if (is.list(v)) {
    mla_abort(
      c("Column {.arg {arg}} must hold one label per row.",
        "x" = "It is a list-column (multi-label sets?).",
        "i" = "Annotator-level evaluation here follows the TID-8 recipe for single labels. To treat each distinct label set as one class, collapse the sets to strings first, e.g. {.code vapply(sets, function(s) paste(sort(s), collapse = \"+\"), \"\")}."),
      class = "multilabel", call = call
    )
  }
  if (!(is.character(v) || is.factor(v) || is.numeric(v) || is.logical(v)) ||
      length(dim(v)) > 1L) {
    mla_abort(
      c("Column {.arg {arg}} must hold labels (character, factor, integer or logical).",
        "x" = "It is {.obj_type_friendly {v}}{if (length(dim(v)) > 1L) ' with dimensions' else ''}."),
      class = "label_type", call = call
    )
  }
}

check_no_missing_labels <- function(truth, estimate, call = rlang::caller_env()) {
  bad_t <- which(is.na(truth))
  bad_e <- which(is.na(estimate))
  if (length(bad_t) + length(bad_e) == 0L) return(invisible())
  mla_abort(
    c("{.arg truth} and {.arg estimate} must not contain missing labels.",
      "x" = if (length(bad_t)) "{.arg truth} is {.code NA} in {length(bad_t)} row{?s}: {format_first(bad_t)}.",
      "x" = if (length(bad_e)) "{.arg estimate} is {.code NA} in {length(bad_e)} row{?s}: {format_first(bad_e)}.",
      "i" = "Remove or label those rows explicitly; they are never dropped silently."),
    class = "missing_label", call = call
  )
}

# --- names and item vectors ---------------------------------------------------

check_extent <- function(d, what, call = rlang::caller_env()) {
  empty <- which(d == 0L)
  if (length(empty) > 0) {
    mla_abort(c("{.arg x} must have at least one of each of {what}.",
                "x" = "It has 0 {what[empty[1]]}."), class = "empty", call = call)
  }
}

# NA ids in column `what` (of data frame `data_arg`, when given) are refused,
# naming the rows.
check_no_na_ids <- function(v, what, data_arg = NULL, hint = NULL, call = rlang::caller_env()) {
  if (!anyNA(v)) return(invisible())
  rows <- which(is.na(v))
  of <- if (is.null(data_arg)) "" else " of {.arg {data_arg}}"
  mla_abort(
    c(paste0("Column {.arg {what}}", of, " must not contain {.code NA}."),
      "x" = "{length(rows)} {.code NA} {cli::qty(length(rows))}id{?s}, at {cli::qty(length(rows))}row{?s} {format_first(rows)}.",
      "i" = hint),
    class = "na_id", call = call
  )
}

check_unique_names <- function(nm, what, arg = "x", call = rlang::caller_env()) {
  if (anyNA(nm)) {
    pos <- which(is.na(nm))
    mla_abort(c("{.arg {arg}} {what} names must not be {.code NA}.",
                "x" = "{cli::qty(length(pos))}Position{?s} {format_first(pos)} {cli::qty(length(pos))}{?is/are} {.code NA}."),
              class = "na_id", call = call)
  }
  dup <- unique(nm[duplicated(nm)])
  if (length(dup) > 0) {
    mla_abort(c("{.arg {arg}} {what} names must be unique.", "x" = "Repeated: {format_first(dup)}."),
              class = "duplicate_name", call = call)
  }
}

# A declared label universe: distinct, non-missing label names, returned as
# exact text (numeric codes 1e5 and 100000L are both "100000").
check_label_universe <- function(labels, arg = "labels", call = rlang::caller_env()) {
  if (!(is.character(labels) || is.numeric(labels) || is.factor(labels)) ||
      length(labels) == 0L || !is.null(dim(labels))) {
    mla_abort(c("{.arg {arg}} must be a non-empty character vector of label names.",
                "x" = "It is {.obj_type_friendly {labels}}."), class = "labels", call = call)
  }
  if (is.numeric(labels)) check_id_vector(labels, arg, "label codes", call = call)
  text <- id_text(labels)
  if (anyNA(text)) {
    pos <- which(is.na(text))
    mla_abort(c("{.arg {arg}} must not contain {.code NA}.",
                "x" = "{cli::qty(length(pos))}Position{?s} {format_first(pos)} {cli::qty(length(pos))}{?is/are} {.code NA}."),
              class = "labels", call = call)
  }
  dup <- unique(text[duplicated(text)])
  if (length(dup) > 0L) {
    mla_abort(c("{.arg {arg}} must list each label once.",
                "x" = "{cli::qty(length(dup))}Repeated label{?s}: {.val {utils::head(dup, 5)}}."),
              class = "labels", call = call)
  }
  invisible(text)
}

# One value per item, in item order; accepts a vector named by item.
check_item_vector <- function(v, items, arg, call = rlang::caller_env()) {
  if (is.null(v)) return(NULL)
  abort_item_vector <- function(msg) mla_abort(msg, class = "boot_item_vector", call = call)
  if (is.factor(v)) v <- as.character(v)
  if (!is.atomic(v) || is.array(v)) {
    abort_item_vector(c("{.arg {arg}} must be a vector with one value per item.",
                        "x" = "It is {.obj_type_friendly {v}}."))
  }
  nm <- names(v)
  if (!is.null(nm)) {
    idx <- match(id_text(items), nm)
    extra <- setdiff(nm, id_text(items))
    if (anyNA(idx)) {
      abort_item_vector(c("{.arg {arg}} must name every item.",
                          "x" = "No value for {cli::qty(sum(is.na(idx)))}item{?s} {format_first(items[is.na(idx)])}."))
    }
    if (length(extra) > 0) {
      abort_item_vector(c("{.arg {arg}} must name only items of {.arg fit}.",
                          "x" = "Unknown {cli::qty(length(extra))}item{?s}: {format_first(extra)}."))
    }
    if (anyDuplicated(nm)) {
      abort_item_vector(c("{.arg {arg}} must name each item once.",
                          "x" = "Repeated: {format_first(unique(nm[duplicated(nm)]))}."))
    }
    v <- unname(v[idx])
  } else if (length(v) != length(items)) {
    abort_item_vector(c("{.arg {arg}} must have one value per item ({length(items)}).",
                        "x" = "It has length {length(v)}.",
                        "i" = "Give it in {.code fit$annotations$items} order or name it by item."))
  }
  if (anyNA(v)) {
    abort_item_vector(c("{.arg {arg}} must not be missing.",
                        "x" = "Missing for {cli::qty(sum(is.na(v)))}item{?s} {format_first(items[is.na(v)])}."))
  }
  v
}

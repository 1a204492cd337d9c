# Numeric ratings for icc() and lin_ccc() as triplets `item`, `annotator`,
# finite `value` (missing ratings are absent). Every check a user can fail is
# here. Crossed matrices hold only the complete items, so a crowd design never
# becomes an items x annotators matrix.

rating_table <- function(x, item, annotator, value, call = rlang::caller_env()) {
  UseMethod("rating_table")
}

rating_table.matrix <- function(x, item, annotator, value, call = rlang::caller_env()) {
  if (!is.numeric(x) || is.logical(x)) {
    mla_abort(c("{.arg x} must be a numeric matrix of ratings (items x annotators).",
                "x" = "It is {.obj_type_friendly {x}}."), class = "ratings", call = call)
  }
  new_ratings(as.vector(row(x)), as.vector(col(x)), as.double(x),
              rownames(x) %||% seq_len(nrow(x)), colnames(x) %||% seq_len(ncol(x)), call)
}

rating_table.data.frame <- function(x, item, annotator, value, call = rlang::caller_env()) {
  if (rlang::quo_is_null(value)) {
    bad <- which(!vapply(x, is.numeric, logical(1)))
    if (length(bad) > 0L) {
      mla_abort(
        c("{.arg x} must have numeric columns only (items x annotators), or name {.arg item}, {.arg annotator} and {.arg value} for long data.",
          "x" = "Column {.field {names(x)[bad[1]]}} is {.obj_type_friendly {x[[bad[1]]]}}."),
        class = "ratings", call = call
      )
    }
    return(rating_table.matrix(as.matrix(x), call = call))
  }
  long_rating_table(x, item, annotator, value, call = call)
}

rating_table.annotations <- function(x, item, annotator, value, call = rlang::caller_env()) {
  if (!is_single_label(x) || !numeric_categories(x)) {
    mla_abort(
      c("{.arg x} must be a single-label {.cls annotations} object whose categories are numbers.",
        "x" = if (!is_single_label(x)) "It is multi-label." else "Categories {.val {utils::head(label_names(x)[is.na(suppressWarnings(as.numeric(label_names(x))))], 5)}} are not numbers.",
        "i" = "Pass numeric ratings as a matrix or a long data frame instead."),
      class = "ratings", call = call
    )
  }
  rating <- drop(record_values(x) %*% category_values(x))  # one-hot: the selected category's value
  new_ratings(record_item(x), record_annotator(x), rating, id_text(x$items),
              annotator_ids(x), call)
}

rating_table.annotation_counts <- function(x, item, annotator, value, call = rlang::caller_env()) {
  require_records(x, "Numeric ratings", call = call)
}

rating_table.default <- function(x, item, annotator, value, call = rlang::caller_env()) {
  mla_abort(
    c("{.arg x} must be a numeric matrix, a data frame or a single-label {.cls annotations} object.",
      "x" = "It is {.obj_type_friendly {x}}."),
    class = "ratings", call = call
  )
}

long_rating_table <- function(x, item, annotator, value, call) {
  if (rlang::quo_is_null(item) || rlang::quo_is_null(annotator)) {
    mla_abort("{.arg item} and {.arg annotator} must name columns when {.arg value} does.",
              class = "ratings", call = call)
  }
  pos <- select_roles(x, list(item = item, annotator = annotator, value = value), data_arg = "x",
                      call = call)
  it <- encode_ids(x[[pos$item]], "item", call = call)
  an <- encode_ids(x[[pos$annotator]], "annotator", call = call)
  v <- x[[pos$value]]
  if (!is.numeric(v)) {
    mla_abort(c("Column {.arg value} must be numeric.", "x" = "It is {.obj_type_friendly {v}}."),
              class = "ratings", call = call)
  }
  key <- (as.double(an$codes) - 1) * length(it$keys) + it$codes
  dup <- which(duplicated(key))
  if (length(dup) > 0L) {
    r <- dup[1]
    abort_rating("Each (item, annotator) pair of {.arg x} must have one rating.",
                 id_text(it$keys[it$codes[r]]), id_text(an$keys[an$codes[r]]),
                 paste("repeats at row", r), cli::pluralize("{length(dup)} repeated row{?s}"), call)
  }
  new_ratings(it$codes, an$codes, as.double(v), id_text(it$keys), id_text(an$keys), call)
}

# NaN and infinite ratings are refused; NA (a missing rating) is dropped.
new_ratings <- function(item, annotator, value, items, annotators, call) {
  bad <- which(is.nan(value) | is.infinite(value))
  if (length(bad) > 0L) {
    r <- bad[1]
    abort_rating("Ratings must be finite numbers or {.code NA}.", items[item[r]],
                 annotators[annotator[r]], cli::format_inline("has {.val {format(value[r])}}"),
                 cli::pluralize("{length(bad)} such value{?s}"), call)
  }
  rated <- !is.na(value)
  list(item = as.integer(item[rated]), annotator = as.integer(annotator[rated]),
       value = value[rated], items = as.character(items), annotators = as.character(annotators))
}

# The one error about a rating: `rule` broken first by the rating of `item`
# by `annotator`.
abort_rating <- function(rule, item, annotator, does, n_in_all, call) {
  abort_record(list(item = item, annotator = annotator), rule, "{does}; {n_in_all} in all",
               class = "ratings", call = call)
}

# Codes of the items rated by every annotator (a crossed design's items).
complete_items <- function(r) which(tabulate(r$item, length(r$items)) == length(r$annotators))

# The items x annotators matrix of the items rated by every annotator; the
# others are left out with a message.
complete_rating_matrix <- function(r, hint = NULL, call = rlang::caller_env()) {
  k <- length(r$annotators)
  if (k < 2L) {
    mla_abort(c("{.arg x} must have ratings from at least 2 annotators.",
                "x" = "It has {k}."), class = "icc_design", call = call)
  }
  complete <- complete_items(r)
  if (length(complete) < 2L) {
    mla_abort(
      c("{.arg x} must have at least 2 items rated by all {k} annotators.",
        "x" = "{length(complete)} of {length(r$items)} item{?s} {?is/are} complete.", hint),
      class = "icc_design", call = call
    )
  }
  if (length(complete) < length(r$items)) {
    n_left <- length(r$items) - length(complete)
    n_ratings <- length(r$value) - k * length(complete)
    cli::cli_inform(c("i" = paste0(
      "{n_left} of {length(r$items)} item{?s} without a rating from every annotator left out ",
      "({n_ratings} rating{?s}); the coefficients use the {length(complete)} complete item{?s}."
    )))
  }
  row <- match(r$item, complete)
  kept <- !is.na(row)
  y <- matrix(NA_real_, length(complete), k, dimnames = list(r$items[complete], r$annotators))
  y[cbind(row[kept], r$annotator[kept])] <- r$value[kept]
  y
}

# Column names given by position land in the options (`icc(d, item, rater,
# score)` sets `model = item`): refuse them with the named form.
check_columns_named <- function(x, options, fn, call = rlang::caller_env()) {
  if (!is.data.frame(x)) return(invisible())
  for (arg in names(options)) {
    expr <- rlang::quo_get_expr(options[[arg]])
    if (!rlang::is_symbol(expr)) next
    column <- rlang::as_string(expr)
    if (!column %in% names(x) || exists(column, envir = rlang::quo_get_env(options[[arg]]))) next
    mla_abort(
      c("{.arg {arg}} must not be a column of {.arg x}.",
        "x" = "It is {.field {column}}, given by position.",
        "i" = "Name the columns of long data: {.code {fn}(x, item = ..., annotator = ..., value = ...)}."),
      class = "ratings", call = call
    )
  }
}

# Numeric ratings as an items x annotators matrix (NA = not rated), for
# icc() and lin_ccc(): from a wide matrix or data frame, a long data frame,
# or a single-label annotations object with numeric categories. Every check
# a user can fail is here, naming the offending item and annotator.

rating_matrix <- function(x, item, annotator, value, call = rlang::caller_env()) {
  UseMethod("rating_matrix")
}

rating_matrix.matrix <- function(x, item, annotator, value, call = rlang::caller_env()) {
  if (!is.numeric(x) || is.logical(x)) {
    mla_abort(c("{.arg x} must be a numeric matrix of ratings (items x annotators).",
                "x" = "It is {.obj_type_friendly {x}}."), class = "ratings", call = call)
  }
  storage.mode(x) <- "double"
  check_finite_ratings(x, call = call)
}

rating_matrix.data.frame <- function(x, item, annotator, value, call = rlang::caller_env()) {
  if (rlang::quo_is_null(value)) {
    bad <- which(!vapply(x, is.numeric, logical(1)))
    if (length(bad) > 0L) {
      mla_abort(
        c("{.arg x} must have numeric columns only (items x annotators), or name {.arg item}, {.arg annotator} and {.arg value} for long data.",
          "x" = "Column {.field {names(x)[bad[1]]}} is {.obj_type_friendly {x[[bad[1]]]}}."),
        class = "ratings", call = call
      )
    }
    y <- as.matrix(x)
    storage.mode(y) <- "double"
    return(check_finite_ratings(y, call = call))
  }
  long_rating_matrix(x, item, annotator, value, call = call)
}

rating_matrix.annotations <- function(x, item, annotator, value, call = rlang::caller_env()) {
  if (!is_single_label(x) || !numeric_categories(x)) {
    mla_abort(
      c("{.arg x} must be a single-label {.cls annotations} object whose categories are numbers.",
        "x" = if (!is_single_label(x)) "It is multi-label." else "Categories {.val {utils::head(x$labels[is.na(suppressWarnings(as.numeric(x$labels)))], 5)}} are not numbers.",
        "i" = "Pass numeric ratings as a matrix or a long data frame instead."),
      class = "ratings", call = call
    )
  }
  v <- record_values(x)
  rating <- drop(v %*% category_values(x))  # one-hot: the selected category's value
  y <- matrix(NA_real_, n_items(x), n_annotators(x),
              dimnames = list(id_text(x$items), annotator_ids(x)))
  y[cbind(record_item(x), record_annotator(x))] <- rating
  y
}

rating_matrix.annotation_counts <- function(x, item, annotator, value, call = rlang::caller_env()) {
  require_records(x, "Numeric ratings", call = call)
}

rating_matrix.default <- function(x, item, annotator, value, call = rlang::caller_env()) {
  mla_abort(
    c("{.arg x} must be a numeric matrix, a data frame or a single-label {.cls annotations} object.",
      "x" = "It is {.obj_type_friendly {x}}."),
    class = "ratings", call = call
  )
}

long_rating_matrix <- function(x, item, annotator, value, call) {
  if (rlang::quo_is_null(item) || rlang::quo_is_null(annotator)) {
    mla_abort("{.arg item} and {.arg annotator} must name columns when {.arg value} does.",
              class = "ratings", call = call)
  }
  it <- encode_ids(select_column(item, x, "item", "x", call = call), "item", call = call)
  an <- encode_ids(select_column(annotator, x, "annotator", "x", call = call), "annotator",
                   call = call)
  v <- select_column(value, x, "value", "x", call = call)
  if (!is.numeric(v)) {
    mla_abort(c("Column {.arg value} must be numeric.", "x" = "It is {.obj_type_friendly {v}}."),
              class = "ratings", call = call)
  }
  key <- (as.double(an$codes) - 1) * length(it$keys) + it$codes
  dup <- which(duplicated(key))
  if (length(dup) > 0L) {
    r <- dup[1]
    mla_abort(
      c("Each (item, annotator) pair of {.arg x} must have one rating.",
        "x" = "Item {.val {id_text(it$keys[it$codes[r]])}}, annotator {.val {id_text(an$keys[an$codes[r]])}} repeats at row {r}; {length(dup)} repeated row{?s} in all."),
      class = "ratings", call = call
    )
  }
  y <- matrix(NA_real_, length(it$keys), length(an$keys),
              dimnames = list(id_text(it$keys), id_text(an$keys)))
  y[cbind(it$codes, an$codes)] <- as.double(v)
  check_finite_ratings(y, call = call)
}

# NaN and infinite ratings are refused (NA is a missing rating).
check_finite_ratings <- function(y, call) {
  bad <- which(!is.na(y) & !is.finite(y) | is.nan(y), arr.ind = TRUE)
  if (length(bad) > 0L) {
    i <- bad[1, 1]
    j <- bad[1, 2]
    item <- if (is.null(rownames(y))) i else rownames(y)[i]
    ann <- if (is.null(colnames(y))) j else colnames(y)[j]
    mla_abort(
      c("Ratings must be finite numbers or {.code NA}.",
        "x" = "Item {.val {item}}, annotator {.val {ann}} has {.val {format(y[i, j])}}; {nrow(bad)} such value{?s} in all."),
      class = "ratings", call = call
    )
  }
  y
}

# Column names given by position land in the options (`icc(d, item, rater,
# score)` sets `model = item`): refuse them with the named form, not R's
# "object 'item' not found". `options`: quosures of the positional options.
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

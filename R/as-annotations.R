#' Convert annotations to the canonical `annotations` object
#'
#' `as_annotations()` turns what users have into the object every function of
#' the package works on. It validates the values and computes the sufficient
#' statistics (positive and non-missing decisions per item and label).
#' Cost: one pass over the values; a dense array is used in place, not copied.
#'
#' * A 3-D array `items x annotators x labels` of 0/1/`NA` (logical, integer or
#'   double). `NA` is a missing decision, never a "not selected"; `NaN` is an
#'   invalid value (see [annotations_long()], section "Ids, labels and
#'   missing values"). Dimnames, when
#'   present, name the items, annotators and labels.
#' * A 2-D matrix `items x annotators` of categorical single-label codes
#'   (character, factor-like, integer). It is one-hot encoded: labels are the
#'   declared `labels`, or else the sorted distinct codes (numeric order when
#'   every code reads as a number, see [annotations_long()]); `NA` means the
#'   annotator did not annotate the item. An empty string `""` is a category
#'   like any other, not a missing rating (irrCAC reads it as missing):
#'   recode it to `NA` for irrCAC's results.
#' * An `annotations` object is returned unchanged.
#'
#' Long and wide data frames have their own constructors,
#' [annotations_long()] and [annotations_wide()].
#'
#' @param x An array, matrix or `annotations` object.
#' @param ... Arguments passed to methods; must be empty for the array method.
#' @param threads Number of threads of the counting pass (array and matrix
#'   methods); results do not depend on it.
#' @param labels For the categorical matrix method: the declared label
#'   universe (all possible codes, including those no one used). Codes outside
#'   it are an error.
#' @return An object of class `annotations`.
#' @family annotation constructors
#' @export
#' @examples
#' # 2 items x 3 annotators x 2 labels
#' arr <- array(c(1, 1, 0, 1, 1, 0,  0, 0, 1, 0, 0, 1), dim = c(2, 3, 2),
#'              dimnames = list(c("s1", "s2"), c("ann", "bob", "cy"), c("pos", "neg")))
#' as_annotations(arr)
#'
#' # categorical single-label codes
#' codes <- matrix(c("a", "a", "b", "b", NA, "c"), nrow = 2)
#' as_annotations(codes, labels = c("a", "b", "c", "d"))
as_annotations <- function(x, ...) {
  UseMethod("as_annotations")
}

#' @export
as_annotations.annotations <- function(x, ...) {
  check_dots_empty0(...)
  x
}

#' @export
as_annotations.default <- function(x, ...) {
  hint <- if (is.data.frame(x)) {
    c("i" = "For a data frame use {.fn annotations_long} or {.fn annotations_wide}.")
  } else {
    c("i" = "Supply a 3-D array items x annotators x labels, or a 2-D matrix of categorical codes.")
  }
  mla_abort(
    c("{.arg x} must be an array, a matrix or an {.cls annotations} object.",
      "x" = "It is {.obj_type_friendly {x}}.", hint),
    class = "input_type"
  )
}

#' @rdname as_annotations
#' @export
as_annotations.array <- function(x, ..., threads = mla_threads()) {
  check_dots_empty0(...)
  threads <- check_threads(threads)
  d <- dim(x)
  if (length(d) != 3L) {
    mla_abort(
      c("{.arg x} must be a 3-D array (items x annotators x labels) or a 2-D matrix.",
        "x" = "It has {length(d)} dimension{?s} ({paste(d, collapse = ' x ')})."),
      class = "dimensions"
    )
  }
  if (!(is.logical(x) || is.integer(x) || is.double(x))) {
    mla_abort(
      c("{.arg x} must hold logical or numeric 0/1/{.code NA} values.",
        "x" = "It holds {.cls {typeof(x)}} values."),
      class = "value_type"
    )
  }
  check_extent(d, c("items", "annotators", "labels"))
  dn <- dimnames(x)
  names_or <- function(k, default) {
    nm <- if (is.null(dn)) NULL else dn[[k]]
    if (is.null(nm)) default else nm
  }
  items <- names_or(1L, seq_len(d[1]))
  annotators <- names_or(2L, seq_len(d[2]))
  labels <- as.character(names_or(3L, paste0("label_", seq_len(d[3]))))
  # default names are unique by construction: hashing them would be wasted
  if (!is.null(dn[[1L]])) check_unique_names(items, "item")
  if (!is.null(dn[[2L]])) check_unique_names(annotators, "annotator")
  if (!is.null(dn[[3L]])) check_unique_names(labels, "label")
  new_annotations(x, "dense", NULL, NULL, items, annotators, labels, threads = threads)
}

#' @rdname as_annotations
#' @export
as_annotations.matrix <- function(x, ..., labels = NULL, threads = mla_threads()) {
  check_dots_empty0(...)
  threads <- check_threads(threads)
  if (!(is.character(x) || is.numeric(x) || is.logical(x))) {
    mla_abort(
      c("{.arg x} must hold categorical codes (character or integer).",
        "x" = "It holds {.cls {typeof(x)}} values."),
      class = "value_type"
    )
  }
  d <- dim(x)
  check_extent(c(d, 1L), c("items", "annotators", "labels"))
  if (is.double(x) && any(is.infinite(x) | (!is.na(x) & x != trunc(x)))) {
    bad <- which(is.infinite(x) | (!is.na(x) & x != trunc(x)))[1]
    mla_abort(
      c("Categorical codes in {.arg x} must be whole numbers or strings.",
        "x" = "Item {row(x)[bad]}, annotator {col(x)[bad]} has code {exact_number(x[bad])}."),
      class = "value"
    )
  }
  codes <- as.vector(x)
  if (is.double(codes) && any(is.nan(codes))) {
    bad <- which(is.nan(codes))[1]
    mla_abort(
      c("Categorical codes in {.arg x} must not be {.code NaN}.",
        "x" = "Item {row(x)[bad]}, annotator {col(x)[bad]} has code {.code NaN}.",
        "i" = "{.code NA} marks a missing code; {.code NaN} is refused, as everywhere in the package."),
      class = "value"
    )
  }
  labels <- if (is.null(labels)) {
    sort_labels(unique(codes[!is.na(codes)]))
  } else {
    check_label_universe(labels)
  }
  idx <- match_values(codes, labels)
  unknown_at <- which(!is.na(codes) & is.na(idx))
  if (length(unknown_at) > 0) {
    unknown <- unique(id_text(codes[unknown_at]))
    bad <- unknown_at[1]
    mla_abort(
      c("Every code in {.arg x} must be in the declared {.arg labels}.",
        "x" = "{cli::qty(length(unknown))}Code{?s} not declared: {.val {unknown}}.",
        "i" = "First at item {row(x)[bad]}, annotator {col(x)[bad]}."),
      class = "unknown_label"
    )
  }
  if (length(labels) == 0L) {
    mla_abort("{.arg x} must contain at least one non-missing code.", class = "empty")
  }
  values <- matrix(0L, length(codes), length(labels))
  present <- !is.na(idx)
  values[cbind(which(present), idx[present])] <- 1L
  values[!present, ] <- NA_integer_
  dn <- dimnames(x)
  items <- if (is.null(dn[[1]])) seq_len(d[1]) else dn[[1]]
  annotators <- if (is.null(dn[[2]])) seq_len(d[2]) else dn[[2]]
  check_unique_names(items, "item")
  check_unique_names(annotators, "annotator")
  a <- new_annotations(values, "dense", NULL, NULL, items, annotators, labels,
                       threads = threads)
  mark_single_label(a, check = FALSE)  # one-hot by construction
}

# Back out of the canonical object: long decisions, the array, and subsets.
# Subsets are built by the constructors, so they are validated and counted as
# any new object; a sparse object's come from its selected labels.

#' Convert annotations back to a data frame, an array or a subset
#'
#' * `as.data.frame()` gives the long decisions: one row per record (an
#'   (item, annotator) pair that was annotated) and label, with columns
#'   `item`, `annotator`, `label` (a factor whose levels are the label
#'   universe) and `value` (0/1, `NA` for a missing decision).
#'   The cells of an array that are `NA` on every label were never annotated
#'   and have no rows; a record annotated with nothing selected has its 0
#'   rows. `annotations_long(as.data.frame(x), item, annotator, label, value)`
#'   rebuilds `x`; the long form has no place for an item or annotator
#'   without any record, so those are not rebuilt (and the grid shrinks).
#' * `as.array()` gives the items x annotators x labels array with dimnames;
#'   pairs that were never annotated are `NA`. `as_annotations(as.array(x))`
#'   rebuilds `x`, except that a record without any decision (all `NA`) reads
#'   as a pair never annotated.
#' * Neither form says that the labels are the categories of a single-label
#'   design: rebuild one with `annotations_long(..., single_label = TRUE)`
#'   (AC1 and PABAK differ between the two analyses).
#' * `x[i, j, k]` keeps the items `i`, annotators `j` and labels `k` (names,
#'   positive indices or logical vectors; empty = all), in the order given.
#'   The label universe is what `k` keeps (all labels by default), so labels
#'   no one selected in the subset still count. A record that decided none of
#'   the kept labels stays, as a record without any decision (its decisions
#'   on them are missing), whatever the storage. Use it for agreement per
#'   group of items, without one annotator, or on some labels.
#'
#' @param x An `annotations` object.
#' @param row.names,optional Ignored (for the generic).
#' @param i,j,k Items, annotators and labels to keep.
#' @param drop Ignored: the result is always an `annotations` object.
#' @inheritParams mla
#' @return `as.data.frame()`: a data frame; `as.array()`: an integer (or
#'   logical, as stored) array; `[`: an `annotations` object.
#' @family annotation constructors
#' @name annotations-convert
#' @examples
#' x <- annotations_long(bias_example, item, annotator, label, value)
#' head(as.data.frame(x))
#' dim(as.array(x))
#' x[1:2, , ]            # two items
#' x[, -1, ]             # without the first annotator
#' mla(x[, , c("L01", "L02", "L03")])
NULL

#' @rdname annotations-convert
#' @export
as.data.frame.annotations <- function(x, row.names = NULL, optional = FALSE, ...) {
  check_dots_empty0(...)
  require_records(x, "the records as a data frame")
  k <- length(x$labels)
  if (is_sparse_layout(x)) {
    values <- sparse_long_values(x)
    kept <- seq_len(stored_records(x))
  } else {
    values <- record_values(x)
    kept <- assigned_records(x, values)
    if (length(kept) < nrow(values)) values <- values[kept, , drop = FALSE]
  }
  n_rec <- length(kept)
  rec <- rep.int(kept, k)
  out <- data.frame(
    item = rep.int(ids_in_order(x$items)[record_item(x)[kept]], k),
    annotator = rep.int(ids_in_order(x$annotators)[record_annotator(x)[kept]], k),
    label = factor(rep(seq_len(k), each = n_rec), levels = seq_len(k), labels = x$labels),
    # (label-major, as the records x labels values are stored)
    value = as.vector(values),
    stringsAsFactors = FALSE
  )
  # record order (item, then annotator), labels in universe order
  out <- out[order(record_item(x)[rec], record_annotator(x)[rec], out$label, method = "radix"), ,
             drop = FALSE]
  rownames(out) <- NULL
  out
}

# Rows of `values` (records of x) that were annotated: in an array an
# all-missing record is a cell never assigned (as in as_annotations()),
# elsewhere every record counts, its decisions missing or not.
assigned_records <- function(x, values) {
  if (!is_dense_layout(x)) return(seq_len(nrow(values)))
  which(rowSums(!is.na(values)) > 0)
}

# Ids as stored when sorted (annotations_long() sorts them back the same);
# else a factor that keeps their order.
ids_in_order <- function(ids) {
  if (!is.unsorted(ids)) return(ids)
  factor(id_text(ids), levels = id_text(ids))
}

#' @rdname annotations-convert
#' @export
as.array.annotations <- function(x, ...) {
  check_dots_empty0(...)
  require_records(x, "the items x annotators x labels array")
  d <- dim(x)
  values <- record_values(x)
  dn <- list(item = id_text(x$items), annotator = id_text(x$annotators),
             label = x$labels)
  out <- array(values[NA_integer_][1L], d, dimnames = dn) # NA of the stored type
  cells <- (record_annotator(x) - 1) * d[1] + record_item(x)
  per_label <- as.double(d[1]) * d[2]
  for (j in seq_len(d[3])) out[(j - 1) * per_label + cells] <- values[, j]
  out
}

#' @rdname annotations-convert
#' @export
`[.annotations` <- function(x, i, j, k, ..., drop = FALSE) {
  check_dots_empty0(...)
  require_records(x, "a subset of items, annotators and labels")
  if (nargs() - (!missing(drop)) < 4L) {
    mla_abort(c("Subset {.cls annotations} with three indices: {.code x[items, annotators, labels]}.",
                "i" = "Leave an index empty to keep all, e.g. {.code x[items, , ]}."),
              class = "subscript")
  }
  d <- dim(x)
  ii <- subset_index(if (missing(i)) NULL else i, x$items, "items")
  jj <- subset_index(if (missing(j)) NULL else j, x$annotators, "annotators")
  kk <- subset_index(if (missing(k)) NULL else k, x$labels, "labels")
  new_item <- match(record_item(x), ii)
  new_ann <- match(record_annotator(x), jj)
  keep <- which(!is.na(new_item) & !is.na(new_ann))
  keep <- keep[order(new_item[keep], new_ann[keep], method = "radix")]
  if (length(keep) == 0L) {
    mla_abort(c("A subset of {.cls annotations} must keep at least one annotated (item, annotator) pair.",
                "x" = "The items and annotators selected share none."),
              class = "empty")
  }
  if (is_sparse_layout(x)) return(subset_sparse(x, keep, new_item[keep], new_ann[keep], ii, jj, kk))
  values <- record_values(x)
  # a record annotated on any label of x stays one, empty if it decided none
  # of the kept labels (as in the records layout); an array's cells without
  # any decision were never annotated
  if (is_dense_layout(x)) keep <- keep[assigned_records(x, values[keep, , drop = FALSE])]
  sub_values <- values[keep, kk, drop = FALSE]
  a <- new_annotations(sub_values, "records", new_item[keep], new_ann[keep],
                       x$items[ii], x$annotators[jj], x$labels[kk])
  # a subset of the categories is not a single-label design
  if (is_single_label(x) && length(kk) == length(x$labels)) a <- mark_single_label(a, check = FALSE)
  a
}

# Positions selected by names, positive indices or a logical vector.
subset_index <- function(idx, names, what, call = rlang::caller_env()) {
  n <- length(names)
  if (is.null(idx)) return(seq_len(n))
  if (is.factor(idx)) idx <- as.character(idx)
  if (length(idx) == 0L) {
    mla_abort("A subset of {.cls annotations} must keep at least one of the {what}.",
              class = "empty", call = call)
  }
  pos <- if (is.logical(idx)) {
    if (length(idx) != n || anyNA(idx)) {
      mla_abort(c("A logical index of {what} must have one non-{.code NA} value per {sub('s$', '', what)}.",
                  "x" = "It has length {length(idx)} for {n} {what}{if (anyNA(idx)) ' and NA values' else ''}."),
                class = "subscript", call = call)
    }
    which(idx)
  } else if (is.character(idx)) {
    m <- match(idx, id_text(names))
    if (anyNA(m)) {
      mla_abort(c("Every {sub('s$', '', what)} to keep must exist.",
                  "x" = "Unknown {what}: {.val {utils::head(idx[is.na(m)], 5)}}."),
                class = "subscript", call = call)
    }
    m
  } else if (is.numeric(idx) && anyNA(idx)) {
    na_at <- which(is.na(idx))
    n_na <- length(na_at)
    mla_abort(c("Indices of {what} must not be {.code NA}.",
                "x" = "{n_na} {?is/are} {.code NA}, at position{?s} {na_at}."),
              class = "subscript", call = call)
  } else if (is.numeric(idx) && all(idx == trunc(idx))) {
    if (all(idx < 0)) idx <- setdiff(seq_len(n), -idx)
    if (any(idx < 1 | idx > n)) {
      mla_abort(c("Indices of {what} must be between 1 and {n} (or all negative).",
                  "x" = "Out of range: {.val {utils::head(idx[idx < 1 | idx > n], 5)}}."),
                class = "subscript", call = call)
    }
    as.integer(idx)
  } else {
    mla_abort(c("Indices of {what} must be names, whole numbers or logical.",
                "x" = "They are {.obj_type_friendly {idx}}."), class = "subscript", call = call)
  }
  if (length(pos) == 0L) {
    mla_abort("A subset of {.cls annotations} must keep at least one of the {what}.",
              class = "empty", call = call)
  }
  if (anyDuplicated(pos)) {
    mla_abort(c("Each of the {what} can be kept once.",
                "x" = "Repeated: {.val {unique(as.character(names[pos[duplicated(pos)]]))}}."),
              class = "subscript", call = call)
  }
  pos
}

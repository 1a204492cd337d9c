# The canonical `annotations` object (DESIGN.md layer 2).
#
# Records are (item, annotator) rows of a records x labels matrix of 0/1/NA.
# Two layouts share one C++ core:
# * "dense": the user's items x annotators x labels array, kept as it is (in
#   R's column-major layout it already is an (items * annotators) x labels
#   matrix, so it is never copied); record r is item r %% N, annotator r %/% N.
# * "records": an integer matrix built by the adapters, with an item and an
#   annotator index per record; sparse designs never allocate a dense array.
# The sufficient statistics x (positives) and m (decisions) per item x label
# are tallied once, at construction, in the same pass that validates values:
# per label, the items with each m, their sum of x and of x (m - x) (`tally`),
# plus each item's disagreement. mla(), Hamming alpha and the print method
# derive everything from those tables without another pass. The items x
# labels tables themselves are kept for the records layout (its pass builds
# them anyway). A dense array with at most 15 annotators keeps each cell's
# (m, x) as a packed class code instead (`cells`,
# src/mlagreement/cell_codes.h): x as half a byte per item x label, m too
# only where it varies within a chunk of items (5 MB for a complete 5e5 x 5
# x 20 array, 2.5% of the input, where x and m would be 80 MB); wider arrays
# keep none and are recounted. The analytic SEs and item_label_counts() read
# the codes.

new_annotations <- function(values, layout, item, annotator, items, annotators, labels,
                            threads = mla_threads(), call = rlang::caller_env()) {
  a <- structure(
    list(
      values = values,
      layout = layout,
      item = if (layout == "dense") NULL else item,
      annotator = if (layout == "dense") NULL else annotator,
      items = items,
      annotators = annotators,
      labels = labels
    ),
    class = "annotations"
  )
  # the largest number of records of one item bounds every m[i, j]
  max_m <- if (layout == "dense") length(annotators) else max(tabulate(item, length(items)))
  counts <- count_labels(a, seq_along(labels), keep_counts = FALSE, max_m = max_m,
                         keep_codes = layout == "dense", threads = threads)
  if (counts$bad_index >= 0) {
    abort_bad_value(values, layout, item, annotator, items, annotators, labels,
                    counts$bad_index, call = call)
  }
  a$item_annotators <- counts$item_annotators
  a$annotator_records <- counts$annotator_records
  a$tally <- counts$tally
  a$n_decisions <- counts$n_decisions
  a$n_records <- counts$n_nonempty_records
  # items x labels tables, NULL for dense arrays (see item_label_counts())
  a["counts"] <- list(if (is.null(counts$x)) NULL else list(x = counts$x, m = counts$m))
  # class codes of a dense array's cells, NULL otherwise (see item_cells())
  a["cells"] <- list(counts$cells)
  a
}

# The items x labels tables x (positive decisions) and m (decisions) of the
# labels `cols`, as integer matrices. Dense arrays decode them from their
# packed class codes (half a byte per cell), or without codes (more than 15
# annotators) recount those labels' columns each time they are needed:
# caching them in an environment would break identical() on two equal
# objects, and storing them would cost 40% of the input's memory.
item_label_counts <- function(a, cols = seq_along(a$labels), threads = mla_threads()) {
  if (!is.null(a$counts)) {
    return(list(x = a$counts$x[, cols, drop = FALSE], m = a$counts$m[, cols, drop = FALSE]))
  }
  if (!is.null(a$cells)) return(decode_cells_cpp(item_cells(a, cols)))
  counts <- count_labels(a, cols, keep_counts = TRUE, threads = threads)
  list(x = counts$x, m = counts$m)
}

# The item x label cells of the labels `cols` as the C++ core reads them
# (with_cells() in src/glue-cells.h): a dense array's packed class codes
# (`x4`, `m4`, `chunk_m`, `chunk`, all labels; `label_cols` picks, 0-based)
# or the x/m tables of those labels; NULL when the object keeps neither.
item_cells <- function(a, cols = seq_along(a$labels)) {
  base <- list(n_items = length(a$items), label_cols = as.integer(cols) - 1L)
  if (!is.null(a$cells)) return(c(base, a$cells))
  if (is.null(a$counts)) return(NULL)
  counts <- item_label_counts(a, cols)
  c(base, list(x4 = NULL, x = counts$x, m = counts$m))
}

# The counting pass over the labels `cols` of an annotations object: their
# label tables (`$tally`), per-item and per-annotator records with a decision
# on them, and with keep_counts their items x labels tables. Only those
# labels' columns are read. new_annotations() runs it on the bare object
# (max_m given) and validates the values with it.
count_labels <- function(a, cols, keep_counts, max_m = nrow(a$tally$cnt), keep_codes = FALSE,
                         threads = mla_threads()) {
  count_decisions_cpp(annotation_view(a, cols), max_m, keep_counts, threads, keep_codes)
}

# The one view of the records the C++ core takes (RecordView in
# src/mlagreement/counts.h), without copying the values: the records x labels
# values as stored (a dense array is already one), the labels `cols` to read
# (0-based `label_cols`, integer() for all), 0-based item and annotator ids
# of each record (integer() for the dense layout, whose ids follow from
# position), and the design's extents. Nothing outside this file reads the
# object's storage fields.
annotation_view <- function(x, cols = NULL) {
  all_cols <- is.null(cols) || identical(as.integer(cols), seq_along(x$labels))
  dense <- x$layout == "dense"
  record_view(
    values = x$values,
    n_labels = length(x$labels),
    item = if (dense) integer() else x$item - 1L,
    n_items = length(x$items),
    annotator = if (dense) integer() else x$annotator - 1L,
    n_annotators = length(x$annotators),
    label_cols = if (all_cols) integer() else as.integer(cols) - 1L
  )
}

# A view of records that are not an annotations object's own (model
# predictions appended to an object's records): item, annotator 0-based.
record_view <- function(values, n_labels, item, n_items, annotator, n_annotators,
                        label_cols = integer()) {
  list(values = values, n_labels = as.integer(n_labels), label_cols = label_cols,
       item = as.integer(item), n_items = as.integer(n_items),
       annotator = as.integer(annotator), n_annotators = as.integer(n_annotators))
}

# Per-label tables of the counting pass (rows m = 1..max_m, one column per label).
label_tally <- function(x) x$tally

# (a summary from annotation_counts() stores the numbers, not the ids)
n_items <- function(x) if (is_annotation_counts(x)) x$n_items else length(x$items)
n_annotators <- function(x) if (is_annotation_counts(x)) x$n_annotators else length(x$annotators)

abort_bad_value <- function(values, layout, item, annotator, items, annotators, labels,
                            bad_index, call) {
  n_rec <- length(values) / length(labels)
  r <- bad_index %% n_rec
  j <- bad_index %/% n_rec
  i <- if (layout == "dense") r %% length(items) + 1 else item[r + 1]
  a <- if (layout == "dense") r %/% length(items) + 1 else annotator[r + 1]
  bad <- values[bad_index + 1]
  # counted in C++: slicing label columns here would need a full-size temporary
  # (as one item: the layout does not matter for counting)
  n_bad <- count_invalid_cpp(record_view(values, length(labels), integer(), 1L, integer(), 1L))
  mla_abort(
    c("Annotation values must be 0, 1 or {.code NA}.",
      "x" = "Item {.val {id_text(items[i])}}, annotator {.val {id_text(annotators[a])}}, label {.val {labels[j + 1]}} has value {.val {if (is.double(bad)) exact_number(bad) else format(bad)}}.",
      "i" = "{format_count(n_bad)} invalid {cli::qty(n_bad)}value{?s} in all.",
      "i" = if (is.nan(bad)) "{.code NaN} is refused: {.code NA} marks a missing decision."),
    class = "value", call = call
  )
}

# Item and annotator index (1-based) of every record, whatever the layout.
record_item <- function(x) {
  if (x$layout == "dense") {
    rep.int(seq_along(x$items), length(x$annotators))
  } else {
    x$item
  }
}

record_annotator <- function(x) {
  if (x$layout == "dense") {
    rep(seq_along(x$annotators), each = length(x$items))
  } else {
    x$annotator
  }
}

# The records x labels value matrix (a view of the array for dense data).
record_values <- function(x) {
  v <- x$values
  n_labels <- length(x$labels)
  if (!identical(dim(v), c(length(v) %/% n_labels, n_labels))) {
    dim(v) <- c(length(v) %/% n_labels, n_labels)
  }
  v
}

# Number of stored records (items x annotators for dense arrays).
# (a summary of a database table: the records with decisions it counted)
stored_records <- function(x) {
  if (is_annotation_counts(x)) return(x$n_stored_records)
  length(x$values) / length(x$labels)
}

is_dense_layout <- function(x) identical(x$layout, "dense")

#' @export
print.annotations <- function(x, ...) {
  cat(format(x, ...), sep = "\n")
  invisible(x)
}

#' @export
format.annotations <- function(x, ...) {
  counts <- design_counts(x)
  kind <- if (is_single_label(x)) " (single-label: mutually exclusive categories)" else ""
  cli::cli_format_method({
    cli::cli_text("{.cls annotations}: {length(x$items)} item{?s}, ",
                  "{length(x$annotators)} annotator{?s}, {length(x$labels)} label{?s}{kind}")
    for (line in format_design_counts(counts)) cli::cli_text(line)
    cli::cli_text("Labels: {.val {utils::head(x$labels, 8)}}",
                  if (length(x$labels) > 8) " ..." else "")
  })
}

#' @export
dim.annotations <- function(x) {
  c(length(x$items), length(x$annotators), length(x$labels))
}

#' Is an object an `annotations` object?
#'
#' @param x Any object.
#' @return `TRUE` or `FALSE`.
#' @export
#' @examples
#' is_annotations(as_annotations(array(0L, c(2, 2, 2))))
is_annotations <- function(x) inherits(x, "annotations")

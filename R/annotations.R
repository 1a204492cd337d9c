# The canonical `annotations` object (DESIGN.md layer 2).
#
# Records are (item, annotator) rows of a records x labels matrix of 0/1/NA.
# Three layouts share one C++ core:
# * "dense": the user's items x annotators x labels array, kept as it is (in
#   R's column-major layout it already is an (items * annotators) x labels
#   matrix, so it is never copied); record r is item r %% N, annotator r %/% N.
# * "records": an integer matrix built by the adapters, with an item and an
#   annotator index per record; sparse designs never allocate a dense array.
# * "sparse": selected-labels data over a large universe (annotations_long()
#   with value = NULL when k >= 64 and at most records x k / 16 positives).
#   Every record is fully decided, so no values matrix is stored: item and
#   annotator indices per record as in "records", plus the selected labels of
#   each record (`selected`: offsets `start`, n_records + 1, and sorted
#   0-based `label`, like a CSR matrix). Size, construction time and memory
#   follow the positive decisions, not records x labels. Its counting pass
#   (inst/include/mlagreement/sparse_records.h) gives the same tally and record counts
#   as the records layout; the set measures read the selected labels
#   directly (annotation_view(sets = TRUE)); every other reader gets a dense
#   view of the labels it asks for (annotation_view(), record_values(),
#   item_label_counts()), guarded by check_memory().
# The sufficient statistics x (positives) and m (decisions) per item x label
# are tallied once, at construction, in the same pass that validates values:
# per label, the items with each m, their sum of x and of x (m - x) (`tally`),
# plus each item's disagreement. mla(), Hamming alpha and the print method
# derive everything from those tables without another pass. The items x
# labels tables themselves are kept for the records layout (its pass builds
# them anyway). A dense array with at most 15 annotators keeps each cell's
# (m, x) as a packed class code instead (`cells`,
# inst/include/mlagreement/cell_codes.h): x as half a byte per item x label, m too
# only where it varies within a chunk of items (5 MB for a complete 5e5 x 5
# x 20 array, 2.5% of the input, where x and m would be 80 MB); wider arrays
# and the sparse layout keep none and are recounted (item_label_counts()).
# The analytic SEs and item_label_counts() read the codes.

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

# The sparse layout (see the top of the file) of records item, annotator
# (1-based) whose selected labels are `selected` (list(start, label), 0-based
# sorted labels): counted by its own pass, which gives the same fields as
# new_annotations() on the same records held densely (`counts` is not kept:
# items x labels tables of a large universe would dwarf the object).
new_sparse_annotations <- function(item, annotator, selected, items, annotators, labels,
                                   threads = mla_threads()) {
  a <- structure(
    list(values = NULL, layout = "sparse", item = item, annotator = annotator,
         items = items, annotators = annotators, labels = labels, selected = selected),
    class = "annotations"
  )
  counts <- count_labels(a, seq_along(labels), keep_counts = FALSE,
                         max_m = max(tabulate(item, length(items))), threads = threads)
  a$item_annotators <- counts$item_annotators
  a$annotator_records <- counts$annotator_records
  a$tally <- counts$tally
  a$n_decisions <- counts$n_decisions
  a$n_records <- counts$n_nonempty_records
  a["counts"] <- list(NULL)
  a
}

is_sparse_layout <- function(x) identical(x$layout, "sparse")

# The selected labels of a sparse object's records: list(start, label).
sparse_selected <- function(x) x$selected

# Records x labels `cols` 0/1 integer matrix of a sparse object (what the
# records layout stores), within the memory limit.
sparse_dense_values <- function(x, cols = seq_along(x$labels), call = user_call_env()) {
  n_rec <- length(x$item)
  check_memory(4 * as.double(n_rec) * length(cols),
               paste0("A dense view of ", n_rec, " records x ", length(cols), " labels"),
               "Use fewer labels ({.code x[, , labels]}) or measures that read the selected labels (Hamming and set alpha, {.fn mla}).",
               class = "memory", call = call)
  sel <- x$selected
  col <- match(sel$label + 1L, cols)
  rows <- rep.int(seq_len(n_rec), diff(sel$start))
  has <- !is.na(col)
  v <- matrix(0L, n_rec, length(cols))
  v[cbind(rows[has], col[has])] <- 1L
  v
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
  if (!is_sparse_layout(a)) {
    return(count_decisions_cpp(annotation_view(a, cols), max_m, keep_counts, threads, keep_codes))
  }
  if (keep_counts) {
    check_memory(8 * as.double(length(a$items)) * length(cols),
                 paste0("The items x labels tables of ", length(a$items), " items x ",
                        length(cols), " labels"),
                 "Use fewer labels ({.code x[, , labels]}).", class = "memory", call = user_call_env())
  }
  count_sparse_cpp(a$item - 1L, length(a$items), a$annotator - 1L, length(a$annotators),
                   a$selected$start, a$selected$label, length(a$labels),
                   as.integer(cols) - 1L, max_m, keep_counts)
}

# The one view of the records the C++ core takes (RecordView in
# inst/include/mlagreement/counts.h), without copying the values: the records x labels
# values as stored (a dense array is already one), the labels `cols` to read
# (0-based `label_cols`, integer() for all), 0-based item and annotator ids
# of each record (integer() for the dense layout, whose ids follow from
# position), and the design's extents. Nothing outside this file reads the
# object's storage fields. A sparse object gives a dense view of the labels
# `cols` (within the memory limit), or with `sets` its selected labels
# (values = list(start, label): the set builders of the C++ core read them).
annotation_view <- function(x, cols = NULL, sets = FALSE) {
  all_cols <- is.null(cols) || identical(as.integer(cols), seq_along(x$labels))
  if (is_sparse_layout(x)) {
    cols <- if (all_cols) seq_along(x$labels) else as.integer(cols)
    values <- if (sets && all_cols) x$selected else sparse_dense_values(x, cols)
    return(record_view(values, length(cols), x$item - 1L, length(x$items),
                       x$annotator - 1L, length(x$annotators)))
  }
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

# n_items(), n_annotators(), stored_records(): R/annotation-generics.R

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
  if (is_sparse_layout(x)) return(sparse_dense_values(x))
  v <- x$values
  n_labels <- length(x$labels)
  if (!identical(dim(v), c(length(v) %/% n_labels, n_labels))) {
    dim(v) <- c(length(v) %/% n_labels, n_labels)
  }
  v
}

is_dense_layout <- function(x) identical(x$layout, "dense")

#' @export
print.annotations <- function(x, ...) {
  check_dots_empty0(...)
  cat(format(x), sep = "\n")
  invisible(x)
}

#' @export
format.annotations <- function(x, ...) {
  check_dots_empty0(...)
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

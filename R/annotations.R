# The canonical `annotations` object and its three layouts (DESIGN.md, "Objects").

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

# The sparse layout: per record its item, annotator and sorted selected labels
# (`selected` = list(start, label), 0-based, CSR-like); no items x labels
# tables, which would dwarf the object.
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

# Records x labels 0/1 matrix of a sparse object, within the memory limit.
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

# The items x labels tables x and m of the labels `cols`. Dense arrays without
# cell codes recount them each time: caching in an environment would break
# identical() on two equal objects.
item_label_counts <- function(a, cols = seq_along(a$labels), threads = mla_threads()) {
  if (!is.null(a$counts)) {
    return(list(x = a$counts$x[, cols, drop = FALSE], m = a$counts$m[, cols, drop = FALSE]))
  }
  if (!is.null(a$cells)) return(decode_cells_cpp(item_cells(a, cols)))
  counts <- count_labels(a, cols, keep_counts = TRUE, threads = threads)
  list(x = counts$x, m = counts$m)
}

# The item x label cells of the labels `cols` as the C++ core reads them
# (src/glue-cells.h); NULL when the object keeps neither codes nor tables.
item_cells <- function(a, cols = seq_along(a$labels)) {
  base <- list(n_items = length(a$items), label_cols = as.integer(cols) - 1L)
  if (!is.null(a$cells)) return(c(base, a$cells))
  if (is.null(a$counts)) return(NULL)
  counts <- item_label_counts(a, cols)
  c(base, list(x4 = NULL, x = counts$x, m = counts$m))
}

# The counting pass over the labels `cols`: their tally, records per item and
# per annotator, and with keep_counts the items x labels tables.
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

# The one view of the records the C++ core takes (RecordView in counts.h),
# without copying the values; ids 0-based, integer() where they follow from
# position; a sparse object gives a dense view of `cols` or its selected
# labels (`sets`).
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

# A view of records that are not an object's own (model predictions).
record_view <- function(values, n_labels, item, n_items, annotator, n_annotators,
                        label_cols = integer()) {
  list(values = values, n_labels = as.integer(n_labels), label_cols = label_cols,
       item = as.integer(item), n_items = as.integer(n_items),
       annotator = as.integer(annotator), n_annotators = as.integer(n_annotators))
}

# Per-label tables of the counting pass (rows m = 1..max_m, one column per label).
label_tally <- function(x) x$tally


abort_bad_value <- function(values, layout, item, annotator, items, annotators, labels,
                            bad_index, call) {
  n_rec <- length(values) / length(labels)
  r <- bad_index %% n_rec
  j <- bad_index %/% n_rec
  i <- if (layout == "dense") r %% length(items) + 1 else item[r + 1]
  a <- if (layout == "dense") r %/% length(items) + 1 else annotator[r + 1]
  bad <- values[bad_index + 1]
  # counted in C++: slicing label columns here would need a full-size temporary
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
  c(n_items(x), n_annotators(x), length(label_names(x)))
}

#' Is an object an `annotations` object?
#'
#' @param x Any object.
#' A summary made by [annotation_counts()] (or from a database table) is an
#' `annotations` object too, without its records; see [annotation_counts()]
#' to tell the two apart.
#'
#' @return `TRUE` or `FALSE`.
#' @export
#' @examples
#' a <- as_annotations(array(0L, c(2, 2, 2)))
#' is_annotations(a)
#' is_annotations(as_annotation_counts(a))
is_annotations <- function(x) inherits(x, "annotations")

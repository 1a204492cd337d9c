# Selected-labels data as an annotations object: the sparse records layout
# (R/annotations.R) when the universe is large and few labels are selected,
# else the records layout's 0/1 matrix. annotations_long() (value = NULL) and
# subsets of a sparse object build their objects here, so both layouts come
# from the same selected labels and give the same numbers.

# Whether selected labels of n_records records over k labels, n_positive of
# them selected, are stored sparse: k >= 64 and at most one label in 16
# selected (then the positions take at most a quarter of the 0/1 matrix's
# memory, and the counting pass reads a sixteenth of its cells).
use_sparse_layout <- function(n_records, k, n_positive) {
  k >= 64L && n_positive <= as.double(n_records) * k / 16
}

# Records item, annotator (1-based, one per record) whose selected labels
# are the pairs (record[p], label[p]) (1-based, no pair twice) as an
# annotations object in the layout use_sparse_layout() picks.
selected_annotations <- function(record, label, item, annotator, items, annotators, labels,
                                 threads = mla_threads(), call = rlang::caller_env()) {
  n_rec <- length(item)
  if (!use_sparse_layout(n_rec, length(labels), length(record))) {
    values <- matrix(0L, n_rec, length(labels))
    values[cbind(record, label)] <- 1L
    return(new_annotations(values, "records", item, annotator, items, annotators, labels,
                           threads = threads, call = call))
  }
  o <- order(record, label, method = "radix")
  selected <- list(start = c(0L, cumsum(tabulate(record, n_rec))), label = as.integer(label[o]) - 1L)
  new_sparse_annotations(item, annotator, selected, items, annotators, labels, threads = threads)
}

# The selected-labels branch of annotations_long(): rows `keep` select label
# lab of record rec$index; the shape check sees how many labels each record
# selects.
annotations_long_selected <- function(rec, lab, keep, it, an, universe, data, used, threads,
                                      call = rlang::caller_env()) {
  record <- rec$index[keep]
  check_selected_shape(tabulate(record, length(rec$item)), universe, data, used, call = call)
  threads <- check_threads(threads, arg = "threads", call = call)
  selected_annotations(record, lab[keep], rec$item, rec$annotator, it$keys, an$keys, universe,
                       threads = threads, call = call)
}

# x[i, j, k] of a sparse object: the records `keep` (in their new order,
# with new item and annotator indices) and the labels kk, from the selected
# labels without a dense view.
subset_sparse <- function(x, keep, item, annotator, ii, jj, kk) {
  sel <- sparse_selected(x)
  record_of <- rep.int(seq_len(stored_records(x)), diff(sel$start))
  new_record <- match(record_of, keep)
  new_label <- match(sel$label + 1L, kk)
  has <- !is.na(new_record) & !is.na(new_label)
  selected_annotations(new_record[has], new_label[has], item, annotator,
                       x$items[ii], x$annotators[jj], x$labels[kk])
}

# Label-major values of every record and label of a sparse object
# (as.vector(record_values(x)) without the dense matrix): the value column
# of as.data.frame().
sparse_long_values <- function(x, call = user_call_env()) {
  n_rec <- stored_records(x)
  k <- length(x$labels)
  check_memory(4 * as.double(n_rec) * k,
               paste0("The long decisions of ", n_rec, " records x ", k, " labels"),
               "Keep fewer labels first ({.code x[, , labels]}).", class = "memory", call = call)
  sel <- sparse_selected(x)
  v <- integer(as.double(n_rec) * k)
  v[sel$label * as.double(n_rec) + rep.int(seq_len(n_rec), diff(sel$start))] <- 1L
  v
}

# The frame of the outermost call into the package (the user's call): a
# dense view is built deep inside a consumer, and its memory error should
# name the function the user called, not the accessor.
user_call_env <- function() {
  ns <- topenv(environment(user_call_env))
  for (i in seq_len(sys.nframe())) {
    env <- environment(sys.function(i))
    if (is.environment(env) && identical(topenv(env), ns)) return(sys.frame(i))
  }
  NULL
}

# Selected-labels data as an annotations object: the sparse layout when the
# universe is large and few labels are selected, else the records layout.
# annotations_long(value = NULL) and subsets of a sparse object both build
# here, so both layouts give the same numbers.

# Sparse when k >= 64 and at most one label in 16 is selected: the positions
# then take at most a quarter of the 0/1 matrix's memory.
use_sparse_layout <- function(n_records, k, n_positive) {
  k >= 64L && n_positive <= as.double(n_records) * k / 16
}

# Records whose selected labels are the pairs (record[p], label[p]) (1-based)
# as an annotations object, sparse or not.
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
# lab of record rec$index.
annotations_long_selected <- function(rec, lab, keep, it, an, universe, data, used, threads,
                                      call = rlang::caller_env()) {
  record <- rec$index[keep]
  check_selected_shape(tabulate(record, length(rec$item)), universe, data, used, call = call)
  threads <- check_threads(threads, arg = "threads", call = call)
  selected_annotations(record, lab[keep], rec$item, rec$annotator, it$keys, an$keys, universe,
                       threads = threads, call = call)
}

# x[i, j, k] of a sparse object: the records `keep` (new order, new item and
# annotator indices) and the labels kk, without a dense view.
subset_sparse <- function(x, keep, item, annotator, ii, jj, kk) {
  sel <- sparse_selected(x)
  record_of <- rep.int(seq_len(stored_records(x)), diff(sel$start))
  new_record <- match(record_of, keep)
  new_label <- match(sel$label + 1L, kk)
  has <- !is.na(new_record) & !is.na(new_label)
  selected_annotations(new_record[has], new_label[has], item, annotator,
                       x$items[ii], x$annotators[jj], x$labels[kk])
}

# as.vector(record_values(x)) of a sparse object without the dense matrix.
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

# The frame of the user's call into the package: a dense view built deep
# inside a consumer should name that function in its memory error.
user_call_env <- function() {
  ns <- topenv(environment(user_call_env))
  for (i in seq_len(sys.nframe())) {
    env <- environment(sys.function(i))
    if (is.environment(env) && identical(topenv(env), ns)) return(sys.frame(i))
  }
  NULL
}

# Random designs for property tests. Each returns a dense 0/1/NA array.
random_design <- function(n_items, n_annotators, n_labels, prevalence = NULL,
                          missing = c("none", "records", "cells", "sparse"),
                          miss_rate = 0.3) {
  missing <- match.arg(missing)
  if (is.null(prevalence)) prevalence <- stats::runif(n_labels, 0.02, 0.98)
  prevalence <- rep_len(prevalence, n_labels)
  arr <- array(0L, c(n_items, n_annotators, n_labels))
  for (j in seq_len(n_labels)) {
    arr[, , j] <- stats::rbinom(n_items * n_annotators, 1, prevalence[j])
  }
  if (missing == "records" || missing == "sparse") {
    rate <- if (missing == "sparse") 0.8 else miss_rate
    gone <- matrix(stats::runif(n_items * n_annotators) < rate, n_items, n_annotators)
    # keep at least one item with two annotators so the design is estimable
    gone[1, 1:2] <- FALSE
    for (j in seq_len(n_labels)) arr[, , j][gone] <- NA
  } else if (missing == "cells") {
    cells <- stats::runif(length(arr)) < miss_rate
    arr[cells] <- NA
    arr[1, 1:2, ] <- stats::rbinom(2 * n_labels, 1, 0.5)
  }
  arr
}

bias_annotations <- function() {
  annotations_long(bias_example, item, annotator, label, value)
}

# Dense array of the worked example, items x annotators x labels.
bias_array <- function() {
  arr <- array(NA_integer_, c(4, 3, 31),
               dimnames = list(1:4, 1:3, levels(bias_example$label)))
  arr[cbind(bias_example$item, bias_example$annotator, as.integer(bias_example$label))] <-
    bias_example$value
  arr
}

# The items x labels count tables of an annotations object (internal; dense
# arrays recount them).
item_x <- function(a) mlagreement:::item_label_counts(a)$x
item_m <- function(a) mlagreement:::item_label_counts(a)$m

# Records layout: the long form of a dense design, keeping only the decided
# cells (so whole-record missingness disappears from the records).
as_long <- function(arr) {
  d <- dim(arr)
  long <- data.frame(
    item = rep(seq_len(d[1]), times = d[2] * d[3]),
    annotator = rep(rep(seq_len(d[2]), each = d[1]), times = d[3]),
    label = factor(rep(paste0("L", seq_len(d[3])), each = d[1] * d[2]),
                   levels = paste0("L", seq_len(d[3]))),
    value = as.vector(arr)
  )
  long[!is.na(long$value), ]
}

# A dense annotations object as a long decisions frame (item, annotator,
# label, value), written with base R so it does not rely on the package's
# own conversion.
annotations_long_data <- function(a) {
  v <- a$values
  d <- as.data.frame.table(v, responseName = "value", stringsAsFactors = FALSE)
  names(d)[1:3] <- c("item", "annotator", "label")
  d$value <- as.integer(d$value)
  d
}

# Thread-invariance tests need two threads: skipped visibly on one processor
# (check_threads() caps the count at the number of processors, so asking for
# two would compare one thread with one thread).
skip_if_one_thread <- function() {
  testthat::skip_if(max_threads_cpp() < 2L, "fewer than two processors: thread invariance untested")
  testthat::expect_identical(check_threads(2L), 2L)
}

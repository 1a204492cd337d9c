# The one random-design generator of the tests: a dense items x annotators x
# labels integer array (0/1, NA = missing decision). Draws, in this order:
# - prevalence per label, when not given: uniform on [0.02, 0.98];
# - decisions: Bernoulli(prevalence of the label) each; or, with `error`, the
#   paper's noisy generator: a true vector per item (Bernoulli(prevalence))
#   that every annotator reports with each label flipped with probability
#   `error`;
# - whole records missing: a uniform per (item, annotator) below
#   `record_missing` removes the record, or one below `record_kept` keeps it;
# - single decisions missing: a uniform per decision below `cell_missing`;
# - `n_missing` decisions removed at positions sampled without replacement.
# NULL skips a draw entirely, so a rate of 0 still consumes the stream.
# `estimable` keeps the first two records of item 1 (records) or redraws
# them (cells), so something can be estimated. `missing` is a shorthand:
# "records" (rate `miss_rate`), "sparse" (rate 0.8), "cells" (rate
# `miss_rate`), all estimable. `names` adds ids i1.., a1.., L1...
random_design <- function(n_items, n_annotators, n_labels, prevalence = NULL,
                          missing = c("none", "records", "cells", "sparse"),
                          miss_rate = 0.3, error = NULL, record_missing = NULL,
                          record_kept = NULL, cell_missing = NULL, n_missing = 0,
                          estimable = FALSE, names = FALSE) {
  missing <- match.arg(missing)
  if (missing != "none") {
    estimable <- TRUE
    rate <- if (missing == "sparse") 0.8 else miss_rate
    if (missing == "cells") cell_missing <- rate else record_missing <- rate
  }
  if (is.null(prevalence)) prevalence <- stats::runif(n_labels, 0.02, 0.98)
  prevalence <- rep_len(prevalence, n_labels)
  n_records <- n_items * n_annotators
  if (is.null(error)) {
    values <- stats::rbinom(n_records * n_labels, 1, rep(prevalence, each = n_records))
  } else {
    truth <- stats::rbinom(n_items * n_labels, 1, rep(prevalence, each = n_items))
    values <- vapply(seq_len(n_annotators), function(a) {
      flip <- stats::runif(n_items * n_labels) < error
      ifelse(flip, 1L - truth, truth)
    }, integer(n_items * n_labels))
    values <- aperm(array(values, c(n_items, n_labels, n_annotators)), c(1, 3, 2))
  }
  arr <- array(values, c(n_items, n_annotators, n_labels))
  if (!is.null(record_missing) || !is.null(record_kept)) {
    u <- stats::runif(n_records)
    gone <- if (is.null(record_kept)) u < record_missing else !(u < record_kept)
    if (estimable) gone[c(1, 1 + n_items)] <- FALSE
    arr[rep(gone, n_labels)] <- NA
  }
  if (!is.null(cell_missing)) {
    arr[stats::runif(length(arr)) < cell_missing] <- NA
    if (estimable) arr[1, 1:2, ] <- stats::rbinom(2 * n_labels, 1, 0.5)
  }
  if (n_missing > 0) arr[sample(length(arr), n_missing)] <- NA_integer_
  if (names) {
    dimnames(arr) <- list(paste0("i", seq_len(n_items)), paste0("a", seq_len(n_annotators)),
                          paste0("L", seq_len(n_labels)))
  }
  arr
}

# The call of test-krippendorff-alpha.R and bench/alpha.R (N items, A
# annotators, k labels; records always drawn, cells only when asked).
random_set_design <- function(N, A, k, p = 0.3, missing_records = 0.2, missing_cells = 0) {
  random_design(N, A, k, prevalence = p, record_missing = missing_records,
                cell_missing = if (missing_cells > 0) missing_cells, names = TRUE)
}

# Single-label ratings: items x raters matrix of categories (NA = not rated),
# a noisy copy of one true category per item (the later categories likelier);
# item 1 keeps one pair and no item is empty.
random_categorical <- function(n_items, n_raters, categories, missing = 0.3) {
  truth <- sample(categories, n_items, replace = TRUE, prob = seq_along(categories))
  m <- matrix(truth, n_items, n_raters)
  flip <- matrix(stats::runif(n_items * n_raters) < 0.35, n_items)
  m[flip] <- sample(categories, sum(flip), replace = TRUE)
  m[matrix(stats::runif(n_items * n_raters) < missing, n_items)] <- NA
  m[1, ] <- c(categories[1], categories[1], rep(NA, n_raters - 2))  # keep >= 1 pair
  m[rowSums(!is.na(m)) == 0, 1] <- categories[1]                      # no empty item
  m
}

# Unequal raters per item, every item rated by at least one annotator.
unequal_design <- function(n, r, k) {
  arr <- random_design(n, r, k)
  for (i in seq_len(n)) {
    drop <- sample(0:(r - 1), 1)
    if (drop > 0) arr[i, sample(r, drop), ] <- NA
  }
  arr
}

bias_annotations <- function() {
  annotations_long(bias_example, item, annotator, label, value)
}

# mla() of the worked example (arguments passed on).
bias_fit <- function(...) mla(bias_annotations(), ...)

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

# The long decisions frame (item, annotator, label, value) of a dense 0/1/NA
# array, written with base R so it does not rely on the package's own
# conversion: ids from the dimnames (as.data.frame.table() letters without),
# the first dimension fastest. Without `keep_missing` only decided cells stay,
# so whole-record missingness disappears from the records.
ref_long <- function(arr, keep_missing = FALSE) {
  d <- as.data.frame.table(arr, responseName = "value", stringsAsFactors = FALSE)
  names(d)[1:3] <- c("item", "annotator", "label")
  if (keep_missing) d else d[!is.na(d$value), ]
}

# ref_long() with integer item and annotator positions and a factor of labels
# L1..Lk (levels in order).
as_long <- function(arr) {
  d <- dim(arr)
  dimnames(arr) <- list(seq_len(d[1]), seq_len(d[2]), paste0("L", seq_len(d[3])))
  long <- ref_long(arr)
  long$item <- as.integer(long$item)
  long$annotator <- as.integer(long$annotator)
  long$label <- factor(long$label, levels = paste0("L", seq_len(d[3])))
  long
}

# A dense annotations object as its long decisions frame, missing cells kept.
annotations_long_data <- function(a) {
  d <- ref_long(a$values, keep_missing = TRUE)
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

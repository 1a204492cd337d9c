#' Split annotations into training and test sets
#'
#' `annotation_split()` makes TID-8's *annotation split* (Deng et al. 2023):
#' each annotator's annotations are divided between train and test, so the
#' same annotators appear in both and a model can learn each annotator's
#' tendencies. `annotator_split()` makes the contrasting *annotator split*:
#' the annotators themselves are divided, so test annotators are never seen
#' in training. `check_split()` warns when a split meant to be an annotation
#' split leaves test annotators out of train, the benchmark's named pitfall.
#' Cost: one pass over the rows and one sort of the annotations by annotator
#' (`check_split()`: one match of the test annotators against train).
#'
#' An annotation is an (item, annotator) pair; all rows of a pair (for
#' instance the label rows of a long multi-label table) stay together.
#' Following the benchmark's `train_test_split(test_size = 1 - prop)`, an
#' annotator with \eqn{n \ge 2} annotations gets
#' \eqn{\lceil (1 - prop) n \rceil} of them in test (at most \eqn{n - 1}),
#' chosen at random; an annotator with a single annotation stays in train.
#' `annotator_split()` puts \eqn{\lceil (1 - prop) A \rceil} of the \eqn{A}
#' annotators in test (at least 1, at most \eqn{A - 1}). Both use R's random
#' number generator, so `set.seed()` makes them reproducible. Rows keep their
#' original order; none is lost or duplicated.
#'
#' @param data A data frame of annotations.
#' @inheritParams annotations_wide
#' @param prop Share of each annotator's annotations (or, for
#'   `annotator_split()`, of the annotators) that goes to train, in (0, 1).
#' @inheritParams mla
#' @return A list with data frames `train` and `test` (rows of `data`).
#' @family annotator evaluation
#' @references
#' Deng, N., Zhang, X. F., Liu, S., Wu, W., Wang, L. and Mihalcea, R. (2023).
#' You Are What You Annotate: Towards Better Models through Annotator
#' Representations. Findings of EMNLP 2023. \doi{10.48550/arXiv.2305.14663}
#' @export
#' @examples
#' set.seed(1)
#' split <- annotation_split(bias_example, item, annotator, prop = 0.5)
#' nrow(split$train) + nrow(split$test) == nrow(bias_example)
#' check_split(split$train, split$test, annotator)
#'
#' by_annotator <- annotator_split(bias_example, annotator, prop = 0.5)
#' unique(by_annotator$test$annotator)
annotation_split <- function(data, item, annotator, prop = 0.7, ...) {
  check_dots_empty0(...)
  check_data_frame(data)
  check_number_in(prop, open = TRUE, class = "prop")
  pos <- select_roles(data, list(item = rlang::enquo(item), annotator = rlang::enquo(annotator)))
  item_col <- data[[pos$item]]
  ann_col <- data[[pos$annotator]]
  check_nonempty_rows(data)
  it <- encode_ids(item_col, "item")
  an <- encode_ids(ann_col, "annotator")
  rec <- make_records(it, an)
  n_rec <- length(rec$item)
  # Random key per annotation; within an annotator the smallest keys go to test.
  key <- stats::runif(n_rec)
  n_ann <- tabulate(rec$annotator, nbins = length(an$keys))
  n_test <- split_test_size(n_ann, prop)
  ord <- order(rec$annotator, key)
  rank <- integer(n_rec)
  rank[ord] <- sequence(n_ann[n_ann > 0])
  test_rec <- rank <= n_test[rec$annotator]
  in_test <- test_rec[rec$index]
  list(train = data[!in_test, , drop = FALSE], test = data[in_test, , drop = FALSE])
}

#' @rdname annotation_split
#' @export
annotator_split <- function(data, annotator, prop = 0.7, ...) {
  check_dots_empty0(...)
  check_data_frame(data)
  check_number_in(prop, open = TRUE, class = "prop")
  ann_col <- data[[select_columns(rlang::enquo(annotator), data, "annotator", one = TRUE)]]
  check_nonempty_rows(data)
  an <- encode_ids(ann_col, "annotator")
  n_ann <- length(an$keys)
  if (n_ann < 2L) {
    mla_abort(
      c("{.arg data} must have at least 2 annotators to split them.",
        "x" = "It has {n_ann}: {.val {id_text(an$keys)}}."),
      class = "one_annotator"
    )
  }
  n_test <- min(max(ceiling(round((1 - prop) * n_ann, 9)), 1), n_ann - 1)
  test_ann <- sample.int(n_ann, n_test)
  in_test <- an$codes %in% test_ann
  list(train = data[!in_test, , drop = FALSE], test = data[in_test, , drop = FALSE])
}

#' @rdname annotation_split
#' @param train,test Data frames of training and test annotations.
#' @return `check_split()`: the test annotators missing from `train`
#'   (character, invisibly); a warning of class
#'   `mlagreement_warning_unseen_annotators` says how many there are and how
#'   many test rows they hold.
#' @export
check_split <- function(train, test, annotator, ...) {
  check_dots_empty0(...)
  check_data_frame(train)
  check_data_frame(test)
  ann_quo <- rlang::enquo(annotator)
  tr <- select_column(ann_quo, train, "annotator", "train")
  te <- select_column(ann_quo, test, "annotator", "test")
  # by value, as the adapters match ids: 1e5 in train is 100000L in test
  check_split_ids(tr, "train")
  check_split_ids(te, "test")
  test_ann <- unique(te)
  unseen <- is.na(match_values(test_ann, unique(tr)))
  missing <- id_text(test_ann[unseen])
  if (length(missing) > 0) {
    n_rows <- sum(!is.na(match_values(te, test_ann[unseen])))
    mla_warn(
      c("{length(missing)} of {length(test_ann)} test annotator{?s} {cli::qty(length(missing))}{?does/do} not appear in {.arg train}.",
        "x" = "They hold {n_rows} of {length(te)} test row{?s}: {format_first(missing)}.",
        "i" = "TID-8's annotation split keeps every test annotator in train; use {.fn annotation_split}, or report these rows as an annotator split."),
      class = "unseen_annotators"
    )
  }
  invisible(missing)
}

check_split_ids <- function(v, data_arg, call = rlang::caller_env()) {
  check_id_vector(v, "annotator", call = call)
  check_no_na_ids(v, "annotator", data_arg,
                  hint = "A missing annotator is not an annotator id; drop or label those rows.",
                  call = call)
}

# Test annotations per annotator: ceiling((1 - prop) n), 0 for n = 1, at most n - 1.
split_test_size <- function(n, prop) {
  out <- ceiling(round((1 - prop) * n, 9))
  pmax(pmin(out, n - 1), 0)
}

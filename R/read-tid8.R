#' Read TID-8-style JSON-lines annotations
#'
#' Reads the layout of the TID-8 benchmark files (Deng et al. 2023; the
#' `*.jsonl` files of the Annotator-Embeddings repository and the
#' `dnaihao/TID-8` data set): one JSON object per line, one line per
#' (item, annotator) annotation, with the item id (`uid`), the annotator id
#' (`respondent_id`), the label under the task's name (for instance
#' `offensive`, `emotion`, `certainty`) and the text (`sentence`). Other
#' fields (such as `anns_except_current_one`) are ignored.
#'
#' The result is a long data frame with one row per annotation, ready for
#' [annotation_split()], [majority_baseline()], [annotator_metrics()] and,
#' through [annotations_long()] (`value = NULL`), for [mla()] and
#' [annotator_agreement()]. Ids and labels are read as character, exactly:
#' numbers by their value, never converted to doubles, so `3000000000`
#' stays `"3000000000"`, two 21-digit ids stay two ids and `1e5`, `100000.0`
#' and `100000` are one id, `"100000"` (as in every reader); `true`/`false`
#' become `"TRUE"`/`"FALSE"`. Only top-level fields count (the first of
#' repeated keys). Blank lines are skipped. A line that is not valid UTF-8 or
#' not one JSON object (truncated, malformed, holding a `\u0000` or a lone
#' surrogate escape), or that lacks a field, or holds a non-scalar id or
#' label, is an error naming the file and line.
#'
#' Several files (for instance `train.jsonl`, `dev.jsonl`, `test.jsonl`) are
#' read at once into one frame with a `split` column. Cost: one streamed pass
#' over each file; memory follows the rows returned, not the size of the file.
#'
#' @section Item ids across splits:
#' TID-8 uses the sources' own train/dev/test split as its annotation split
#' for HS-Brexit, MD-Agreement, Friends QIA and Sentiment, whose item ids
#' restart in every split: the same `uid` in two files is then two items.
#' `unique_items = TRUE` (default when several files are read) prefixes the
#' ids with the split (`"train:0"`); the original id stays in `uid`. Use
#' `unique_items = FALSE` where the files hold annotations of the same items
#' (an annotation split of one item pool).
#'
#' @param path Path to a JSON-lines file, or several; names of the vector
#'   give the split names (default: the file names without extension, or
#'   their common-prefix-free suffix, `"HS-Brexit_dev"` -> `"dev"`).
#' @param label Name of the label field. `NULL` (default) looks for the one
#'   TID-8 task field present in the first record: `indirect_ans`,
#'   `pejorative`, `hs_brexit`, `offensive`, `emotion`, `humor`, `certainty`,
#'   `sentiment` or `toxic_score`.
#' @param item,annotator Names of the item and annotator id fields.
#' @param text Name of the text field; its values go to a `text` column
#'   (`NA` where a record has none). `NULL` skips it.
#' @param unique_items With several files, make item ids unique across them
#'   by prefixing the split (see the section).
#' @inheritParams mla
#' @return A tibble with columns `line` (line number in its file), `item`,
#'   `annotator`, `label` and, unless `text = NULL`, `text`; with several
#'   files also `split` and `uid` (the id as in the file).
#' @family annotator evaluation
#' @family readers
#' @references
#' Deng, N., Zhang, X. F., Liu, S., Wu, W., Wang, L. and Mihalcea, R. (2023).
#' You Are What You Annotate: Towards Better Models through Annotator
#' Representations. Findings of EMNLP 2023. \doi{10.48550/arXiv.2305.14663}
#' @export
#' @examples
#' path <- system.file("extdata", "tid8-train.jsonl", package = "mlagreement")
#' tid <- read_tid8(path)
#' tid
#' annotations_long(tid, item, annotator, label)
#'
#' # several splits at once, item ids made unique across them
#' both <- read_tid8(c(
#'   train = path,
#'   test = system.file("extdata", "tid8-test.jsonl", package = "mlagreement")
#' ))
#' table(both$split)
read_tid8 <- function(path, label = NULL, item = "uid", annotator = "respondent_id",
                      text = "sentence", unique_items = TRUE, ...) {
  check_dots_empty0(...)
  path <- check_read_paths(path)
  if (!is.null(label)) check_string(label)
  check_string(item)
  check_string(annotator)
  if (!is.null(text)) check_string(text)
  check_bool(unique_items)  # NA or a number in its place is a mistake, even with one file
  splits <- split_names(names(path))
  parts <- vector("list", length(path))
  for (f in seq_along(path)) {
    parts[[f]] <- read_tid8_file(path[[f]], label, item, annotator, text)
    label <- attr(parts[[f]], "label")
  }
  tbl <- bind_rows_plain(parts)
  if (length(path) > 1L) {
    tbl$split <- rep(splits, vapply(parts, nrow, 1L))
    tbl$uid <- tbl$item
    tbl$item <- source_item_ids(tbl$item, tbl$split, unique_items)
  }
  tbl
}

# Streams one file through the C++ line scanner (json_lines.h): every line
# validated, fields taken as text, numbers by value. `label = NULL` takes the
# TID-8 task field of the first record (returned as attribute "label").
read_tid8_file <- function(path, label, item, annotator, text, block_bytes = 2^20,
                           call = rlang::caller_env()) {
  fields <- c(item, annotator, label %||% "", text)
  columns <- c("item", "annotator", "label", "text")[seq_along(fields)]
  required <- columns != "text"
  guess <- if (is.null(label)) 3L else 0L
  res <- read_json_lines_cpp(enc2native(path.expand(path)), fields, required, guess,
                             tid8_label_fields, block_bytes)
  if (!is.null(res$error)) abort_json_lines(res$error, path, res$fields, call)
  tbl <- tibble::as_tibble(c(list(line = res$line), stats::setNames(res$values, columns)))
  attr(tbl, "label") <- res$fields[3]
  tbl
}

tid8_label_fields <- c("indirect_ans", "pejorative", "hs_brexit", "offensive", "emotion",
                       "humor", "certainty", "sentiment", "toxic_score")

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
#' [annotator_agreement()]. Ids and labels are read as character. Blank
#' lines are skipped. A line that is not a JSON object, or lacks a field, or
#' holds a non-scalar id or label, is an error naming the line.
#'
#' @param path Path to a JSON-lines file.
#' @param label Name of the label field. `NULL` (default) looks for the one
#'   TID-8 task field present in the first record: `indirect_ans`,
#'   `pejorative`, `hs_brexit`, `offensive`, `emotion`, `humor`, `certainty`,
#'   `sentiment` or `toxic_score`.
#' @param item,annotator Names of the item and annotator id fields.
#' @param text Name of the text field; its values go to a `text` column
#'   (`NA` where a record has none). `NULL` skips it.
#' @param ... Must be empty.
#' @return A tibble with columns `line` (line number in the file), `item`,
#'   `annotator`, `label` and, unless `text = NULL`, `text`.
#' @family annotator evaluation
#' @references
#' Deng, N., Zhang, X. F., Liu, S., Wu, W., Wang, L. and Mihalcea, R. (2023).
#' You Are What You Annotate: Towards Better Models through Annotator
#' Representations. Findings of EMNLP 2023. \doi{10.48550/arXiv.2305.14663}
#' @export
#' @examplesIf rlang::is_installed("jsonlite")
#' path <- tempfile(fileext = ".jsonl")
#' writeLines(c(
#'   '{"uid": 0, "respondent_id": "r1", "offensive": "offensive_speech", "sentence": "..."}',
#'   '{"uid": 0, "respondent_id": "r2", "offensive": "not_offensive_speech", "sentence": "..."}',
#'   '{"uid": 1, "respondent_id": "r1", "offensive": "not_offensive_speech", "sentence": "..."}'
#' ), path)
#' tid <- read_tid8(path)
#' tid
#' annotations_long(tid, item, annotator, label)
#' unlink(path)
read_tid8 <- function(path, label = NULL, item = "uid", annotator = "respondent_id",
                      text = "sentence", ...) {
  check_dots_empty0(...)
  rlang::check_installed("jsonlite", reason = "to read JSON-lines files.")
  check_string(path)
  if (!file.exists(path)) {
    mla_abort(c("{.arg path} must be an existing file.", "x" = "{.file {path}} does not exist."),
              class = "file")
  }
  if (!is.null(label)) check_string(label)
  check_string(item)
  check_string(annotator)
  if (!is.null(text)) check_string(text)

  lines <- readLines(path, warn = FALSE, encoding = "UTF-8")
  line_no <- which(nzchar(trimws(lines)))
  lines <- lines[line_no]
  if (length(lines) == 0L) {
    mla_abort(c("{.arg path} must contain at least one record.",
                "x" = "{.file {path}} has no non-blank line."), class = "empty")
  }
  records <- parse_json_lines(lines, line_no, path)
  if (is.null(label)) label <- guess_tid8_label(records[[1]], line_no[1])
  item_v <- json_field(records, item, line_no, path)
  annotator_v <- json_field(records, annotator, line_no, path)
  label_v <- json_field(records, label, line_no, path)
  tbl <- tibble::tibble(line = line_no, item = item_v, annotator = annotator_v, label = label_v)
  if (!is.null(text)) {
    tbl$text <- json_field(records, text, line_no, path, optional = TRUE)
  }
  tbl
}

tid8_label_fields <- c("indirect_ans", "pejorative", "hs_brexit", "offensive", "emotion",
                       "humor", "certainty", "sentiment", "toxic_score")

parse_json_lines <- function(lines, line_no, path, call = rlang::caller_env()) {
  all <- tryCatch(
    jsonlite::parse_json(paste0("[", paste(lines, collapse = ",\n"), "]")),
    error = function(e) NULL
  )
  if (is.null(all) || length(all) != length(lines)) {
    # Find the first line that is not one JSON value on its own.
    for (k in seq_along(lines)) {
      msg <- tryCatch({
        jsonlite::parse_json(lines[k])
        NULL
      }, error = function(e) conditionMessage(e))
      if (!is.null(msg)) {
        mla_abort(
          c("Every line of {.arg path} must be one JSON object.",
            "x" = "Line {line_no[k]} of {.file {path}} is not valid JSON.",
            "i" = "Parser: {first_line(msg)}"),
          class = "json", call = call
        )
      }
    }
    mla_abort("Internal error: could not parse {.file {path}}.", class = "json", call = call)
  }
  is_obj <- vapply(all, function(r) is.list(r) && !is.null(names(r)), logical(1))
  if (!all(is_obj)) {
    k <- which(!is_obj)[1]
    mla_abort(
      c("Every line of {.arg path} must be one JSON object.",
        "x" = "Line {line_no[k]} of {.file {path}} holds {.obj_type_friendly {all[[k]]}}."),
      class = "json", call = call
    )
  }
  all
}

first_line <- function(msg) strsplit(msg, "\n", fixed = TRUE)[[1]][1]

guess_tid8_label <- function(record, line, call = rlang::caller_env()) {
  found <- intersect(tid8_label_fields, names(record))
  if (length(found) != 1L) {
    mla_abort(
      c("{.arg label} must name the label field of the records.",
        "x" = if (length(found) == 0L) "Line {line} has none of the TID-8 task fields." else "Line {line} has several TID-8 task fields: {.val {found}}.",
        "i" = "Fields of line {line}: {format_first(names(record), 10)}."),
      class = "json_field", call = call
    )
  }
  found
}

# One scalar field of every record, as character.
json_field <- function(records, field, line_no, path, optional = FALSE,
                       call = rlang::caller_env()) {
  ok <- vapply(records, function(r) {
    v <- r[[field]]
    if (is.null(v)) optional else is.atomic(v) && length(v) == 1L
  }, logical(1))
  if (!all(ok)) {
    k <- which(!ok)[1]
    v <- records[[k]][[field]]
    problem <- if (is.null(v)) "has no field {.field {field}}" else "has a non-scalar {.field {field}} ({.obj_type_friendly {v}})"
    mla_abort(
      c("Every record of {.arg path} must have a single value in field {.field {field}}.",
        "x" = paste0("Line {line_no[k]} of {.file {path}} ", problem, "."),
        "i" = "{sum(!ok)} record{?s} affected."),
      class = "json_field", call = call
    )
  }
  vapply(records, function(r) {
    v <- r[[field]]
    if (is.null(v)) NA_character_ else as.character(v)
  }, character(1))
}

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
#' numeric ids are read from the text, so `3000000000` stays
#' `"3000000000"` and two 21-digit ids stay two ids. Blank lines are skipped.
#' A line that is not a JSON object, or lacks a field, or holds a non-scalar
#' id or label, is an error naming the file and line.
#'
#' Several files (for instance `train.jsonl`, `dev.jsonl`, `test.jsonl`) are
#' read at once into one frame with a `split` column. The files are streamed
#' in chunks of lines, so memory depends on the rows returned, not on the
#' size of the file.
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
#' @param ... Must be empty.
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

# Streams one file in blocks of bytes, cut after their last newline. A block
# is checked as a whole with jsonlite::validate() (its newlines turned into
# commas, no R objects built) and its fields are taken from the text by a
# regular expression, ids as written: parsing every record into R lists took
# 5x longer. An invalid block is parsed line by line, so the error names the
# line.
read_tid8_file <- function(path, label, item, annotator, text, block_bytes = 2^22,
                           call = rlang::caller_env()) {
  con <- file(path, "rb")
  on.exit(close(con))
  carry <- raw(0)
  offset <- 0L
  out <- list()
  repeat {
    bytes <- readBin(con, "raw", block_bytes)
    eof <- length(bytes) < block_bytes
    if (length(carry) > 0L) bytes <- c(carry, bytes)
    nl <- which(bytes == as.raw(10L))
    carry <- raw(0)
    if (!eof) {
      if (length(nl) == 0L) {
        carry <- bytes # a line longer than the block
        next
      }
      last <- nl[length(nl)]
      if (last < length(bytes)) {
        carry <- bytes[(last + 1L):length(bytes)]
        bytes <- bytes[seq_len(last)]
      }
    }
    lines <- block_lines(bytes, path, offset, call)
    keep <- which(!grepl("^\\s*$", lines, perl = TRUE))
    line_no <- offset + keep
    offset <- offset + length(lines)
    if (length(keep) > 0L) {
      # one record per line: the block itself, newlines as commas, is the array
      array <- if (length(keep) == length(lines) && !attr(lines, "cr")) block_array(bytes, nl)
      lines <- lines[keep]
      check_json_block(lines, line_no, path, array, call)
      if (is.null(label)) {
        label <- guess_tid8_label(jsonlite::parse_json(lines[1]), line_no[1], call = call)
      }
      field <- function(f, optional = FALSE) {
        json_line_field(lines, f, line_no, path, optional = optional, call = call)
      }
      chunk <- list(line = line_no, item = field(item), annotator = field(annotator),
                    label = field(label))
      if (!is.null(text)) chunk$text <- field(text, optional = TRUE)
      out[[length(out) + 1L]] <- chunk
    }
    if (eof) break
  }
  if (length(out) == 0L) {
    mla_abort(c("{.arg path} must contain at least one record.",
                "x" = "{.file {path}} has no non-blank line."), class = "empty", call = call)
  }
  tbl <- bind_rows_plain(out)
  attr(tbl, "label") <- label
  tbl
}

# The lines of a block of bytes, UTF-8 checked; attr "cr" tells whether any
# line ended in "\r\n" (removed).
block_lines <- function(bytes, path, offset, call) {
  s <- tryCatch(rawToChar(bytes), error = function(e) {
    mla_abort(c("{.arg path} must be a text file.",
                "x" = "{.file {path}} holds a NUL byte after line {offset}."),
              class = "encoding", call = call)
  })
  lines <- if (nzchar(s)) strsplit(s, "\n", fixed = TRUE, useBytes = TRUE)[[1]] else character()
  Encoding(lines) <- "UTF-8"
  bad <- which(!validUTF8(lines))
  if (length(bad) > 0L) {
    mla_abort(c("{.arg path} must be UTF-8 text.",
                "x" = "Line {offset + bad[1]} of {.file {path}} is not valid UTF-8."),
              class = "encoding", call = call)
  }
  cr <- endsWith(lines, "\r")
  if (any(cr)) lines[cr] <- substr(lines[cr], 1L, nchar(lines[cr]) - 1L)
  structure(lines, cr = any(cr))
}

# "[line1,line2,...]" from the bytes of a block of lines (newlines at `nl`).
block_array <- function(bytes, nl) {
  ends_nl <- length(nl) > 0L && nl[length(nl)] == length(bytes)
  bytes[nl] <- as.raw(44L)
  rawToChar(c(as.raw(91L), bytes, charToRaw(if (ends_nl) "null]" else "]")))
}

check_json_block <- function(lines, line_no, path, array, call) {
  if (is.null(array)) array <- paste0("[", paste(lines, collapse = ","), "]")
  valid <- jsonlite::validate(array) && all(grepl("^\\s*\\{", lines, perl = TRUE))
  if (!valid) parse_json_lines(lines, line_no, path, call = call)
  invisible()
}

# One top-level scalar field of every line, as written (strings unescaped).
json_line_field <- function(lines, field, line_no, path, optional = FALSE,
                            call = rlang::caller_env()) {
  key <- gsub("([][{}()+*^$|\\\\?.])", "\\\\\\1", field)
  pat <- paste0('(?<!\\\\)"', key, '"\\s*:\\s*',
                '("[^"\\\\]*+(?:\\\\.[^"\\\\]*+)*+"|-?[0-9][0-9.eE+-]*|true|false|null|[\\[{])')
  m <- regexpr(pat, lines, perl = TRUE)
  start <- attr(m, "capture.start")[, 1L]
  v <- substr(lines, start, start + attr(m, "capture.length")[, 1L] - 1L)
  absent <- m == -1L | v == "null"
  nested <- v == "[" | v == "{"
  bad <- (absent & !optional) | nested
  if (any(bad)) {
    k <- which(bad)[1]
    problem <- if (nested[k]) {
      paste0("has a non-scalar {.field {field}} (", if (v[k] == "[") "an array" else "an object", ")")
    } else {
      "has no field {.field {field}}"
    }
    mla_abort(
      c("Every record of {.arg path} must have a single value in field {.field {field}}.",
        "x" = paste0(line_of(line_no[k], path), " ", problem, "."),
        "i" = "{sum(bad)} record{?s} affected."),
      class = "json_field", call = call
    )
  }
  quoted <- startsWith(v, "\"")
  out <- v
  out[quoted] <- substr(v[quoted], 2L, nchar(v[quoted]) - 1L)
  escaped <- quoted & grepl("\\", out, fixed = TRUE)
  if (any(escaped)) {
    out[escaped] <- unlist(jsonlite::parse_json(paste0("[", paste(v[escaped], collapse = ","), "]")))
  }
  out[v == "true"] <- "TRUE"
  out[v == "false"] <- "FALSE"
  out[absent] <- NA_character_
  out
}

# Row-binds tibbles with the same columns (vctrs is not in Imports).
bind_rows_plain <- function(parts) {
  cols <- names(parts[[1]])
  tibble::as_tibble(stats::setNames(
    lapply(cols, function(nm) unlist(lapply(parts, `[[`, nm), use.names = FALSE)), cols))
}

tid8_label_fields <- c("indirect_ans", "pejorative", "hs_brexit", "offensive", "emotion",
                       "humor", "certainty", "sentiment", "toxic_score")

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


#' Read a doccano text-classification export
#'
#' Reads doccano's JSON-lines export of a text-classification project: one
#' example per line with its `id`, `text` and the list of labels given
#' (`label`; `labels` or `cats` in some versions). doccano exports one file
#' per user (`admin.jsonl`, `alice.jsonl`, ... in the export archive) unless
#' collaborative annotation is on; the annotator is then the file name (or
#' the name given to the path). A file with a user field names it in
#' `annotator`; the legacy layout (doccano < 1.6) with
#' `annotations: [{"label": ..., "user": ...}]` is read with one record per
#' user, its label ids mapped to their text through the label file given in
#' `labels`.
#' Cost: one pass over each file, keeping only the fields read.
#'
#' @section Empty label lists:
#' doccano writes every example of the project into every member's file,
#' with `"label": []` where that member did nothing, so in per-user files an
#' empty list does not tell "not annotated" from "annotated, nothing
#' applies". With `empty = "unannotated"` (the default) such an example is
#' not annotated by that user and gets no row, unless the line says the
#' user confirmed it (`"is_confirmed": true`); a message counts the
#' examples so treated, and a member who annotated nothing (an approver)
#' drops out. With `empty = "none"`, for projects in which every member
#' went through every example, an empty list is "annotated, no label
#' selected": one row with label `NA`, which [annotations_long()] reads that
#' way. Files with a user field (`annotator`) and the legacy layout list
#' only what users did, so there an empty list is always "nothing selected".
#'
#' The label list must be an array of names (a string or nested arrays are
#' errors naming the line), and an example may appear once in each user's
#' file (with a user field, once per user): a repeat would merge two
#' annotations and is refused. Numeric ids are compared by value (`1.0` is
#' `1`) and large integers are kept exactly.
#'
#' A collaborative export merges every member's labels into one file with
#' no user (doccano 1.6 writes it as `all.jsonl`, beside an `unknown.jsonl`
#' of unlabelled examples): it cannot measure agreement and is refused.
#' doccano's JSON (array) export is read like JSON lines; its CSV export, a
#' sequence-labelling or relation export (spans, `entities`) and a line
#' without a label list are refused with a message naming the line. The
#' downloaded zip archive must be unzipped first (a zip or gzip file is
#' refused, as by every reader).
#'
#' @param path Paths to JSON-lines files; names of the vector name the
#'   annotators of per-user files.
#' @param labels The label universe: a character vector, or the path to the
#'   label file doccano exports (`Labels > Export`, a JSON array of
#'   `{"id": ..., "text": ...}`; one string with a path separator or a file
#'   extension is read as a path). `NULL` takes the sorted labels seen
#'   (numeric order when every label is a number, see [annotations_long()]).
#' @param annotator Name of a field holding the annotator of each line;
#'   `NULL` (default) uses the file names.
#' @param item Name of the example id field.
#' @param empty How an empty label list in a per-user file is read:
#'   `"unannotated"` or `"none"` (see the section *Empty label lists*).
#' @inheritParams mla
#' @return A tibble with one row per selected label: `file`, `line`, `item`,
#'   `annotator` and `label` (a factor whose levels are the universe, `NA` for
#'   examples annotated with no label), ready for
#'   `annotations_long(x, item, annotator, label)`.
#' @family readers
#' @export
#' @examples
#' files <- system.file("extdata", c("doccano-alice.jsonl", "doccano-bob.jsonl"),
#'                      package = "mlagreement")
#' labels <- system.file("extdata", "doccano-labels.json", package = "mlagreement")
#' dc <- read_doccano(c(alice = files[1], bob = files[2]), labels = labels)
#' dc
#' mla(annotations_long(dc, item, annotator, label))
read_doccano <- function(path, labels = NULL, annotator = NULL, item = "id",
                         empty = c("unannotated", "none"), ...) {
  check_dots_empty0(...)
  path <- check_read_paths(path)
  check_string(item)
  if (!is.null(annotator)) check_string(annotator)
  empty <- check_choice(empty, c("unannotated", "none"))
  universe <- doccano_universe(labels)
  call <- rlang::current_env()
  parts <- lapply(seq_along(path), function(f) {
    chunks <- doccano_records(path[[f]], doccano_paths(item, annotator), function(x) {
      doccano_rows(x, path[[f]], names(path)[f], item, annotator, empty, call = call)
    }, call = call)
    tbl <- bind_rows_plain(chunks)
    check_doccano_repeats(tbl, path[[f]], item, call)
    tbl
  })
  all <- bind_rows_plain(parts)
  out <- all[!all$unannotated, , drop = FALSE]
  check_doccano_annotators(out, path, annotator)  # before saying what dropped out
  inform_unannotated(all, out, names(path))
  out$label <- doccano_label_text(out$label, out$legacy, universe$ids)
  universe <- universe$text %||% sort_labels(unique(out$label[!is.na(out$label)]))
  code <- universe_codes(out$label, universe, function(rows) {
    k <- rows[order(out$label[rows])[1]]  # the first undeclared label in sorted order
    mla_abort(c("Every label must be in the declared {.arg labels}.",
                "x" = "Line {out$line[k]} of {.val {out$file[k]}} has {.val {out$label[k]}}.",
                "i" = "Declared: {.val {universe}}."),
              class = "unknown_label", call = call)
  })
  out$label <- codes_factor(code, universe)
  out[c("file", "line", "item", "annotator", "label")]
}

# The records of a JSON-lines export, or of a JSON (array) export as if each
# element were a line; CSV exports are refused by name.
doccano_records <- function(path, paths, handler, call) {
  first <- first_text_char(path)  # R/read-json.R
  if (identical(first, "[")) {
    x <- json_fields_array(path, paths, "a doccano export", call = call)
    if (x$n == 0L) {
      mla_abort(c("{.arg path} must contain at least one record.",
                  "x" = "{.file {path}} is an empty JSON array."), class = "empty", call = call)
    }
    return(list(handler(x)))
  }
  if (!is.na(first) && first != "{") {
    mla_abort(
      c("{.arg path} must be a doccano JSON-lines (or JSON) export.",
        "x" = "{.file {path}} looks like a CSV export (its first line does not start a JSON object).",
        "i" = "Export the project again as {.val JSONL}: CSV joins a user's labels into one text cell."),
      class = "format", call = call
    )
  }
  json_fields_lines(path, paths, handler, call = call)
}

# Says how many examples per-user files list with an empty label list (their
# rows dropped from `all`, leaving `kept`) and which members drop out.
inform_unannotated <- function(all, kept, sources) {
  gone <- all$unannotated
  if (!any(gone)) return(invisible())
  by_file <- table(factor(all$file[gone], levels = sources))
  by_file <- by_file[by_file > 0]
  silent <- setdiff(unique(all$annotator[gone]), kept$annotator)
  cli::cli_inform(
    c("i" = "Read {sum(gone)} example{?s} with an empty label list as not annotated by that user ({paste0(names(by_file), ': ', by_file, collapse = ', ')}).",
      " " = "doccano writes every example into every member's file; use {.code empty = \"none\"} if an empty list means that no label applies.",
      "i" = if (length(silent) > 0L) "{cli::qty(length(silent))}Member{?s} {.val {silent}} annotated nothing and {?is/are} left out."),
    class = "mlagreement_message_unannotated"
  )
}

# A collaborative export (one file, no user; doccano 1.6 adds an
# `unknown.jsonl` of unlabelled examples) merges the annotators.
check_doccano_annotators <- function(out, path, annotator, call = rlang::caller_env()) {
  who <- unique(out$annotator)
  if (!is.null(annotator) || any(out$legacy) || length(who) != 1L) return(invisible())
  problem <- if (length(path) == 1L) {
    "{.file {path}} is one file without a user field: a collaborative export (every member's labels merged) or a single member's file."
  } else {
    "Of {length(path)} files without a user field, only {.val {who}}'s holds annotations: a collaborative export (every member's labels merged) or a single member's file."
  }
  mla_abort(
    c("{.arg path} must hold the annotations of several users.", "x" = problem,
      "i" = "Agreement needs one export per user: turn collaborative annotation off, export again, and read every user's file, e.g. {.code read_doccano(c(alice = \"alice.jsonl\", bob = \"bob.jsonl\"))}."),
    class = "collaborative_export", call = call
  )
}

# Legacy label ids (database ids) as label text through the label file.
doccano_label_text <- function(label, legacy, ids) {
  if (is.null(ids) || !any(legacy)) return(label)
  at <- legacy & !is.na(label)
  hit <- match(label[at], names(ids))
  label[at][!is.na(hit)] <- unname(ids[hit[!is.na(hit)]])
  label
}

# The universe (text) and, for a label file, its ids for the legacy layout.
doccano_universe <- function(labels, call = rlang::caller_env()) {
  if (is.null(labels)) return(list(text = NULL, ids = NULL))
  ids <- NULL
  # one string with a path separator or a file extension is a path: read as a
  # one-label universe, a mistyped path would blame the data instead
  one_string <- is.character(labels) && length(labels) == 1L
  if (one_string && grepl("[/\\\\]|\\.[A-Za-z]{2,5}$", labels)) {
    check_read_paths(labels, arg = "labels", call = call)  # R/read-json.R
  }
  if (one_string && file.exists(labels) && !dir.exists(labels)) {
    x <- tryCatch(json_fields_array(labels, list(id = "id", text = "text"), "a label file", call = call),
                  mlagreement_error_version = function(e) NULL,
                  mlagreement_error_json_shape = function(e) NULL)
    records <- seq_len(x$n %||% 0L)
    text <- if (is.null(x)) character() else json_string(x, json_first(x, "text", records))
    if (length(text) == 0L || anyNA(text)) {
      mla_abort(c("{.arg labels} must be doccano's label file: a JSON array of {.code {{\"text\": ...}}}.",
                  "x" = "{.file {labels}} is not."), class = "labels", call = call)
    }
    ij <- json_first(x, "id", records)
    id <- ifelse(!is.na(ij) & x$kind[ij] %in% 1:4, x$text[ij], NA_character_)
    if (!anyNA(id)) ids <- stats::setNames(text, id)
    labels <- text
  }
  check_label_universe(labels, call = call)
  list(text = as.character(labels), ids = ids)
}

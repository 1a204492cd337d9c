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
#' user.
#'
#' An example whose label list is empty was annotated with no label selected:
#' it keeps one row with label `NA`, which [annotations_long()] reads as
#' "annotated, nothing selected".
#'
#' @param path Paths to JSON-lines files; names of the vector name the
#'   annotators of per-user files.
#' @param labels The label universe: a character vector, or the path to the
#'   label file doccano exports (`Labels > Export`, a JSON array of
#'   `{"text": ...}`). `NULL` takes the sorted labels seen.
#' @param annotator Name of a field holding the annotator of each line;
#'   `NULL` (default) uses the file names.
#' @param item Name of the example id field.
#' @param ... Must be empty.
#' @return A tibble with one row per selected label: `file`, `line`, `item`,
#'   `annotator` and `label` (a factor whose levels are the universe, `NA` for
#'   examples with no label), ready for
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
read_doccano <- function(path, labels = NULL, annotator = NULL, item = "id", ...) {
  check_dots_empty0(...)
  path <- check_read_paths(path)
  check_string(item)
  if (!is.null(annotator)) check_string(annotator)
  universe <- doccano_universe(labels)
  call <- rlang::current_env()
  parts <- lapply(seq_along(path), function(f) {
    chunks <- stream_json_lines(path[[f]], function(records, line_no) {
      doccano_rows(records, line_no, path[[f]], names(path)[f], item, annotator, call = call)
    }, id_fields = c(item, annotator, "user"), call = call)
    tbl <- bind_rows_plain(chunks)
    tbl$file <- rep(names(path)[f], nrow(tbl))
    tbl
  })
  out <- bind_rows_plain(parts)
  used <- sort(unique(out$label[!is.na(out$label)]))
  if (is.null(universe)) universe <- used
  undeclared <- setdiff(used, universe)
  if (length(undeclared) > 0L) {
    k <- match(undeclared[1], out$label)
    mla_abort(c("Every label must be in the declared {.arg labels}.",
                "x" = "Line {out$line[k]} of {.val {out$file[k]}} has {.val {undeclared[1]}}.",
                "i" = "Declared: {.val {universe}}."),
              class = "unknown_label")
  }
  out$label <- factor(out$label, levels = universe)
  out[c("file", "line", "item", "annotator", "label")]
}

doccano_universe <- function(labels, call = rlang::caller_env()) {
  if (is.null(labels)) return(NULL)
  if (is.character(labels) && length(labels) == 1L && file.exists(labels) && !dir.exists(labels)) {
    doc <- parse_json_file(labels, call = call)
    text <- vapply(doc, function(l) if (is.list(l) && is.character(l$text)) l$text else NA_character_, "")
    if (length(text) == 0L || anyNA(text)) {
      mla_abort(c("{.arg labels} must be doccano's label file: a JSON array of {.code {{\"text\": ...}}}.",
                  "x" = "{.file {labels}} is not."), class = "labels", call = call)
    }
    labels <- text
  }
  check_label_universe(labels, call = call)
  as.character(labels)
}

# Selected-label rows of one chunk: one per (example, annotator, label), or
# one with label NA when the annotator selected nothing.
doccano_rows <- function(records, line_no, path, source, item, annotator, call = rlang::caller_env()) {
  where <- function(k) line_of(line_no[k], path)
  ids <- json_text_field(records, item, where, call = call)
  who <- if (is.null(annotator)) rep(source, length(records)) else {
    json_text_field(records, annotator, where, optional = TRUE, call = call)
  }
  rows <- lapply(seq_along(records), function(k) {
    r <- records[[k]]
    if (is.null(annotator) && is.list(r$annotations) && is.null(r$label)) {
      # legacy layout: one entry per (user, label)
      users <- scalars_as_text(lapply(r$annotations, function(a) a$user %||% NA))
      labs <- scalars_as_text(lapply(r$annotations, function(a) a$label %||% NA))
      if (anyNA(users)) doccano_no_annotator(where(k), call)
      return(list(annotator = users, label = labs))
    }
    if (is.na(who[k]) || !nzchar(who[k])) doccano_no_annotator(where(k), call)
    key <- intersect(c("label", "labels", "cats"), names(r))[1]
    labs <- if (is.na(key)) NULL else r[[key]]
    if (is.list(labs) && any(vapply(labs, function(l) is.list(l) || length(l) != 1L, NA))) {
      mla_abort(c("Every label of a doccano text-classification export must be a name.",
                  "x" = paste0(where(k), " has spans ({.code [start, end, label]})."),
                  "i" = "Sequence-labeling exports hold spans, not classifications."),
                class = "json_field", call = call)
    }
    labs <- unique(scalars_as_text(as.list(unlist(labs))))
    if (length(labs) == 0L) labs <- NA_character_
    list(annotator = rep(who[k], length(labs)), label = labs)
  })
  n <- lengths(lapply(rows, `[[`, "label"))
  idx <- rep(seq_along(records), n)
  list(line = line_no[idx], item = ids[idx],
       annotator = unlist(lapply(rows, `[[`, "annotator")),
       label = unlist(lapply(rows, `[[`, "label")))
}

doccano_no_annotator <- function(where, call) {
  mla_abort(c("Every annotation must have an annotator id.",
              "x" = paste0(where, " has none."),
              "i" = "Give one file per user, or name the user field in {.arg annotator}."),
            class = "annotator", call = call)
}

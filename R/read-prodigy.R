#' Read a Prodigy annotation export
#'
#' Reads the JSON-lines file that `prodigy db-out <dataset>` writes, one
#' annotated task per line, for classification tasks:
#'
#' * choice tasks (`textcat.manual`, the `choice` interface): `options` lists
#'   the labels offered (`{"id": ..., "text": ...}`) and `accept` the ids the
#'   annotator selected. With `answer` `"accept"` every offered option is a
#'   decision: 1 if in `accept`, else 0.
#' * binary tasks (`textcat.teach`, `mark`): one `label` per task; `answer`
#'   `"accept"` is 1, `"reject"` is 0.
#'
#' `"ignore"` answers, and `"reject"` answers to choice tasks (the annotator
#' rejected the task, not an option), are not decisions: they are excluded
#' and counted in a message.
#'
#' The annotator is `_annotator_id` (Prodigy >= 1.11 named multi-user
#' sessions), else `_session_id`; a task with neither is an error. The item
#' is `_input_hash` (the same input shown with other labels or to other
#' annotators is one item); `item = "_task_hash"` keys by task instead. The
#' label universe is the union of the `options` offered (in order of first
#' appearance), so options no one selected still count; for binary tasks it
#' is the sorted set of labels.
#'
#' @param path Paths to `db-out` JSON-lines files.
#' @param item Field that identifies the item: `"_input_hash"` (default) or
#'   `"_task_hash"`, or another field of the tasks.
#' @param ... Must be empty.
#' @return A tibble with one row per decision: `file` (with several files),
#'   `line`, `item`, `annotator`, `label` (a factor whose levels are the
#'   label universe), `value` (0/1) and `answer`, ready for
#'   `annotations_long(x, item, annotator, label, value)`.
#' @family readers
#' @export
#' @examples
#' path <- system.file("extdata", "prodigy-choice.jsonl", package = "mlagreement")
#' pg <- read_prodigy(path)
#' pg
#' mla(annotations_long(pg, item, annotator, label, value))
read_prodigy <- function(path, item = "_input_hash", ...) {
  check_dots_empty0(...)
  path <- check_read_paths(path)
  check_string(item)
  id_fields <- c(item, "_annotator_id", "_session_id")
  call <- rlang::current_env()
  parts <- lapply(seq_along(path), function(f) {
    chunks <- stream_json_lines(path[[f]], function(records, line_no) {
      prodigy_decisions(records, line_no, path[[f]], item, call = call)
    }, id_fields = id_fields, call = call)
    tbl <- bind_rows_plain(chunks)
    tbl$file <- rep(names(path)[f], nrow(tbl))
    tbl
  })
  out <- bind_rows_plain(parts)
  # options offered declare the universe, also on tasks that are excluded
  choice <- out$kind == "choice"
  universe <- union(unique(out$label[choice]), sort(unique(out$label[!choice])))
  excluded <- out$answer == "ignore" | (out$answer == "reject" & choice)
  first <- !duplicated(out$task)
  inform_excluded(c(ignored = sum(first & out$answer == "ignore"),
                    `rejected choice` = sum(first & excluded & out$answer == "reject")),
                  what = "task")
  out <- out[!excluded, ]
  out$label <- factor(out$label, levels = universe)
  cols <- c(if (length(path) > 1L) "file", "line", "item", "annotator", "label", "value", "answer")
  out[cols]
}

# Decisions of one chunk of tasks: choice tasks give one row per option,
# binary tasks one row. Excluded answers keep a row (value NA) to be counted.
prodigy_decisions <- function(records, line_no, path, item, call = rlang::caller_env()) {
  where <- function(k) line_of(line_no[k], path)
  items <- json_text_field(records, item, where, call = call)
  annotator <- prodigy_annotator(records, where, call)
  answer <- json_text_field(records, "answer", where, call = call)
  bad <- !answer %in% c("accept", "reject", "ignore")
  if (any(bad)) {
    k <- which(bad)[1]
    mla_abort(c("Every Prodigy task must have {.field answer} {.val accept}, {.val reject} or {.val ignore}.",
                "x" = paste0(where(k), " has {.val {answer[k]}}.")), class = "json_field", call = call)
  }
  rows <- lapply(seq_along(records), function(k) {
    r <- records[[k]]
    if (!is.null(r$options)) {
      ids <- scalars_as_text(lapply(r$options, function(o) o$id))
      accepted <- scalars_as_text(as.list(unlist(r$accept)))
      unknown <- setdiff(accepted, ids)
      if (length(unknown) > 0L) {
        mla_abort(c("Every accepted id must be one of the task's {.field options}.",
                    "x" = paste0(where(k), " accepts {.val {unknown}}, not offered.")),
                  class = "unknown_label", call = call)
      }
      list(label = ids, value = as.integer(ids %in% accepted), kind = rep("choice", length(ids)))
    } else if (is.character(r$label) && length(r$label) == 1L) {
      list(label = r$label, value = as.integer(answer[k] == "accept"), kind = "binary")
    } else {
      mla_abort(c("Every Prodigy task must have {.field options} (choice) or a {.field label} (binary).",
                  "x" = paste0(where(k), " has neither."),
                  "i" = "Spans ({.field spans}) are not classification decisions."),
                class = "json_field", call = call)
    }
  })
  n <- lengths(lapply(rows, `[[`, "label"))
  idx <- rep(seq_along(records), n)
  list(line = line_no[idx], item = items[idx], annotator = annotator[idx],
       label = unlist(lapply(rows, `[[`, "label")), value = unlist(lapply(rows, `[[`, "value")),
       answer = answer[idx], kind = unlist(lapply(rows, `[[`, "kind")),
       task = paste(path, line_no[idx]))
}

prodigy_annotator <- function(records, where, call) {
  ann <- json_text_field(records, "_annotator_id", where, optional = TRUE, call = call)
  session <- json_text_field(records, "_session_id", where, optional = TRUE, call = call)
  ann[is.na(ann) | !nzchar(ann)] <- session[is.na(ann) | !nzchar(ann)]
  none <- is.na(ann) | !nzchar(ann)
  if (any(none)) {
    k <- which(none)[1]
    mla_abort(c("Every Prodigy task must have an annotator id ({.field _annotator_id} or {.field _session_id}).",
                "x" = paste0(where(k), " has none."),
                "i" = "Annotate with named sessions ({.code ?session=alex}) to record who annotated."),
              class = "annotator", call = call)
  }
  ann
}

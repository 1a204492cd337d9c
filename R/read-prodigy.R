#' Read a Prodigy annotation export
#'
#' Reads the JSON-lines file that `prodigy db-out <dataset>` writes, one
#' annotated task per line, for classification tasks.
#' Cost: one pass over each file, keeping only the fields read.
#'
#' @section What `answer` and `accept` mean:
#' * **Choice tasks** (`textcat.manual` with several labels, the `choice`
#'   interface): `options` lists the labels offered, each
#'   `{"id": ..., "text": ...}`, and `accept` the ids the annotator
#'   selected. With `answer` `"accept"`, every offered option is a decision:
#'   1 if its id is in `accept`, else 0 (an empty `accept` is "nothing
#'   applies"). The label is the option's `text` (its `id` where it has no
#'   text), so integer ids (`{"id": 0, "text": "SPORTS"}`) give the label
#'   `"SPORTS"`; the id is kept in `option`. `"reject"` rejects the task, not
#'   an option, and `"ignore"` skips it: neither is a decision.
#' * **Binary tasks** (`textcat.teach`, `textcat.manual` with one label,
#'   `mark`, the `classification` interface): one `label` per task; `answer`
#'   `"accept"` is 1, `"reject"` is 0 and `"ignore"` is no decision. The
#'   same text shown with several labels is one item with several labels.
#' * **Review tasks** (the `review` recipe): a task with `versions` holds
#'   each distinct answer of the reviewed annotators, with the `sessions`
#'   that gave it; each session's version is read as that annotator's choice
#'   or binary task. The reviewer's own decision (the task's `answer` and
#'   `accept`) is the adjudicated result, not one more annotator, and is
#'   left out; `review` had already dropped ignored (and, for choice tasks,
#'   rejected) answers. A message counts the review tasks.
#'
#' Excluded answers are counted in a message. Every field must have its
#' JSON shape: `options`, `accept`, `versions` and `sessions` are arrays (a
#' string is an error, not a one-element array; `[["A"]]` is not flattened),
#' options are objects; ids are compared by value (`1.0` is `1`) and large
#' integers are kept exactly. Errors name the file, line and field.
#'
#' The annotator is `_annotator_id` (Prodigy >= 1.11 named multi-user
#' sessions), else `_session_id`. Files without either, such as the example
#' datasets Explosion publishes, name their annotator with `annotator`. The
#' item is `_input_hash` (the same input shown with other labels or to other
#' annotators is one item); `item = "_task_hash"` keys by task instead. The
#' label universe is the union of the `options` offered (in order of first
#' appearance), so options no one selected still count; for binary tasks it
#' is the sorted set of labels (numeric order when every label is a number,
#' see [annotations_long()]).
#'
#' @param path Paths to `db-out` JSON-lines files.
#' @param annotator `NULL` (default) reads each task's annotator from
#'   `_annotator_id` or `_session_id`. Otherwise the annotator of each file:
#'   a string for one file, or one name per file (e.g. `names(path)` for
#'   `c(alex = "alex.jsonl", blake = "blake.jsonl")`). A file whose tasks
#'   name more than one annotator cannot be given one name.
#' @param item Field that identifies the item: `"_input_hash"` (default) or
#'   `"_task_hash"`, or another field of the tasks.
#' @inheritParams mla
#' @return A tibble with one row per decision: `file` (with several files),
#'   `line`, `item`, `annotator`, `label` (a factor whose levels are the
#'   label universe), `option` (the option id of choice tasks, `NA` for
#'   binary tasks), `value` (0/1) and `answer`, ready for
#'   `annotations_long(x, item, annotator, label, value)`.
#' @family readers
#' @export
#' @examples
#' path <- system.file("extdata", "prodigy-choice.jsonl", package = "mlagreement")
#' pg <- read_prodigy(path)
#' pg
#' mla(annotations_long(pg, item, annotator, label, value))
read_prodigy <- function(path, annotator = NULL, item = "_input_hash", ...) {
  check_dots_empty0(...)
  path <- check_read_paths(path)
  check_string(item)
  annotator <- check_prodigy_annotator(annotator, path)
  call <- rlang::current_env()
  parts <- lapply(seq_along(path), function(f) {
    chunks <- json_fields_lines(path[[f]], prodigy_paths(item), function(x) {
      prodigy_decisions(x, path[[f]], item, named = !is.null(annotator), call = call)
    }, call = call)
    tbl <- bind_rows_plain(chunks)
    tbl$file <- rep(names(path)[f], nrow(tbl))
    # tasks and review tasks are numbered within their file
    tbl$first <- !duplicated(tbl$task)
    tbl$review_task <- tbl$review & !duplicated(tbl$task_line)
    if (!is.null(annotator)) tbl$annotator <- prodigy_file_annotator(tbl, annotator[f], path[[f]], call)
    tbl
  })
  out <- bind_rows_plain(parts)
  # options offered declare the universe, also on tasks that are excluded
  choice <- out$kind == "choice"
  universe <- union(unique(out$label[choice]), sort_labels(unique(out$label[!choice])))
  excluded <- out$answer == "ignore" | (out$answer == "reject" & choice)
  first <- out$first
  reviews <- sum(out$review_task)
  if (reviews > 0L) {
    cli::cli_inform(c("i" = "Read {reviews} review task{?s} as the reviewed annotators' versions; the reviewer's decisions are left out."),
                    class = "mlagreement_message_review")
  }
  inform_excluded(c(ignored = sum(first & out$answer == "ignore"),
                    `rejected choice` = sum(first & excluded & out$answer == "reject")),
                  what = "task")
  out <- out[!excluded, ]
  out$label <- codes_factor(match(out$label, universe), universe)
  cols <- c(if (length(path) > 1L) "file", "line", "item", "annotator", "label", "option",
            "value", "answer")
  out[cols]
}

check_prodigy_annotator <- function(annotator, path, call = rlang::caller_env()) {
  if (is.null(annotator)) return(NULL)
  if (!is.character(annotator) || anyNA(annotator) || !all(nzchar(annotator)) ||
      length(annotator) != length(path)) {
    mla_abort(c("{.arg annotator} must be {.code NULL} or one annotator name per file in {.arg path}.",
                "x" = "{.arg path} has {length(path)} file{?s}; {.arg annotator} is {.obj_type_friendly {annotator}}{if (is.character(annotator)) paste0(' of length ', length(annotator)) else ''}."),
              class = "annotator", call = call)
  }
  unname(annotator)
}

# The name given to a file replaces the ids of its tasks, so a file whose
# tasks name two annotators would merge them: refused.
prodigy_file_annotator <- function(tbl, name, path, call) {
  ids <- unique(tbl$annotator[!is.na(tbl$annotator) & !tbl$review])
  if (any(tbl$review)) {
    mla_abort(c("{.arg annotator} cannot name the annotator of a review dataset.",
                "x" = "{.file {path}} holds review tasks, whose {.field sessions} name the annotators."),
              class = "annotator", call = call)
  }
  if (length(ids) > 1L) {
    mla_abort(c("{.arg annotator} must name a file annotated by one annotator.",
                "x" = "The tasks of {.file {path}} name {length(ids)} annotators: {.val {ids}}.",
                "i" = "Leave {.arg annotator} as {.code NULL} to read them from {.field _annotator_id} / {.field _session_id}."),
              class = "annotator", call = call)
  }
  rep(name, nrow(tbl))
}

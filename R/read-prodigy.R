#' Read a Prodigy annotation export
#'
#' Reads the JSON-lines file that `prodigy db-out <dataset>` writes, one
#' annotated task per line, for classification tasks.
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
#' Excluded answers are counted in a message.
#'
#' The annotator is `_annotator_id` (Prodigy >= 1.11 named multi-user
#' sessions), else `_session_id`. Files without either, such as the example
#' datasets Explosion publishes, name their annotator with `annotator`. The
#' item is `_input_hash` (the same input shown with other labels or to other
#' annotators is one item); `item = "_task_hash"` keys by task instead. The
#' label universe is the union of the `options` offered (in order of first
#' appearance), so options no one selected still count; for binary tasks it
#' is the sorted set of labels.
#'
#' @param path Paths to `db-out` JSON-lines files.
#' @param annotator `NULL` (default) reads each task's annotator from
#'   `_annotator_id` or `_session_id`. Otherwise the annotator of each file:
#'   a string for one file, or one name per file (e.g. `names(path)` for
#'   `c(alex = "alex.jsonl", blake = "blake.jsonl")`). A file whose tasks
#'   name more than one annotator cannot be given one name.
#' @param item Field that identifies the item: `"_input_hash"` (default) or
#'   `"_task_hash"`, or another field of the tasks.
#' @param ... Must be empty.
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
  id_fields <- c(item, "_annotator_id", "_session_id", "id")
  call <- rlang::current_env()
  parts <- lapply(seq_along(path), function(f) {
    chunks <- stream_json_lines(path[[f]], function(records, line_no) {
      prodigy_decisions(records, line_no, path[[f]], item, named = !is.null(annotator),
                        call = call)
    }, id_fields = id_fields, call = call)
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
  universe <- union(unique(out$label[choice]), sort(unique(out$label[!choice])))
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
  out$label <- factor(out$label, levels = universe)
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

# Decisions of one chunk of tasks: choice tasks give one row per option,
# binary tasks one row. Excluded answers keep a row (value NA) to be counted.
prodigy_decisions <- function(records, line_no, path, item, named, call = rlang::caller_env()) {
  where <- function(k) line_of(line_no[k], path)
  items <- json_text_field(records, item, where, call = call)
  x <- prodigy_expand_reviews(records, line_no, items)
  where <- function(k) line_of(x$line[k], path)
  annotator <- prodigy_annotator(x$records, where, optional = named, call = call)
  answer <- json_text_field(x$records, "answer", where, call = call)
  bad <- !answer %in% c("accept", "reject", "ignore")
  if (any(bad)) {
    k <- which(bad)[1]
    mla_abort(c("Every Prodigy task must have {.field answer} {.val accept}, {.val reject} or {.val ignore}.",
                "x" = paste0(where(k), " has {.val {answer[k]}}.")), class = "json_field", call = call)
  }
  rows <- prodigy_rows_fast(x$records, answer) %||% prodigy_rows_tasks(x$records, answer, where, call)
  idx <- rows$idx
  list(line = x$line[idx], item = x$item[idx], annotator = annotator[idx],
       label = rows$label, option = rows$option, value = rows$value,
       answer = answer[idx], kind = rows$kind,
       task = x$line[idx] * 2^24 + x$sub[idx], task_line = x$line[idx],
       review = x$review[idx])
}

# The rows of all tasks, task by task: prodigy_task_rows() names the first
# task at fault. `idx` gives the task of each row.
prodigy_rows_tasks <- function(records, answer, where, call) {
  rows <- lapply(seq_along(records), function(k) {
    prodigy_task_rows(records[[k]], answer[k], where(k), call)
  })
  n <- lengths(lapply(rows, `[[`, "label"))
  list(idx = rep(seq_along(records), n),
       label = unlist(lapply(rows, `[[`, "label")), option = unlist(lapply(rows, `[[`, "option")),
       value = unlist(lapply(rows, `[[`, "value")), kind = unlist(lapply(rows, `[[`, "kind")))
}

# The same rows computed for all tasks at once, or NULL when any task is
# irregular (then prodigy_rows_tasks() finds and names it).
prodigy_rows_fast <- function(records, answer) {
  opts <- lapply(records, `[[`, "options")
  choice <- !vapply(opts, is.null, NA)
  flat <- unlist(opts[choice], recursive = FALSE, use.names = FALSE)
  task <- rep(which(choice), lengths(opts[choice]))
  if (!all(vapply(flat, is.list, NA))) return(NULL)
  id <- lapply(flat, `[[`, "id")
  if (!all(lengths(id) == 1L) || any(vapply(id, is.list, NA))) return(NULL)
  id <- scalars_as_text(id)
  text <- lapply(flat, `[[`, "text")
  has_text <- vapply(text, is.character, NA) & lengths(text) == 1L
  label <- id
  label[has_text] <- unlist(text[has_text], use.names = FALSE)
  label[has_text & !nzchar(label)] <- id[has_text & !nzchar(label)]
  acc <- lapply(records[choice], `[[`, "accept")
  acc_flat <- unlist(acc, recursive = FALSE, use.names = FALSE)
  if (any(vapply(acc_flat, is.list, NA)) || any(lengths(acc_flat) != 1L)) return(NULL)
  acc_text <- scalars_as_text(acc_flat)
  codes <- unique(c(id, acc_text, label))
  # (task, text) pairs as numbers: task * (distinct texts + 1) + code
  pair <- function(t, x) t * (length(codes) + 1) + match(x, codes)
  acc_key <- pair(rep(which(choice), lengths(acc)), acc_text)
  opt_key <- pair(task, id)
  if (anyNA(id) || anyDuplicated(pair(task, label)) || !all(acc_key %in% opt_key)) {
    return(NULL)
  }
  binary <- lapply(records[!choice], `[[`, "label")
  if (!all(vapply(binary, is.character, NA) & lengths(binary) == 1L)) return(NULL)
  idx <- c(task, which(!choice))
  o <- order(idx)  # stable: a task's options stay in order
  list(idx = idx[o], label = c(label, unlist(binary, use.names = FALSE))[o],
       option = c(id, rep(NA_character_, length(binary)))[o],
       value = c(as.integer(opt_key %in% acc_key), as.integer(answer[!choice] == "accept"))[o],
       kind = rep(c("choice", "binary"), c(length(id), length(binary)))[o])
}

# The rows of one task: a choice task one per option (label = the option's
# text, else its id), a binary task one.
prodigy_task_rows <- function(r, answer, where, call) {
  if (!is.null(r[["options"]])) {
    opts <- r[["options"]]
    ids <- scalars_as_text(lapply(opts, function(o) if (is.list(o)) o[["id"]] %||% NA else NA))
    text <- vapply(opts, function(o) {
      t <- if (is.list(o)) o[["text"]]
      if (is.character(t) && length(t) == 1L && nzchar(t)) t else NA_character_
    }, "")
    if (anyNA(ids)) {
      mla_abort(c("Every option of a Prodigy task must have an {.field id}.",
                  "x" = paste0(where, " has an option without one.")),
                class = "json_field", call = call)
    }
    labels <- ifelse(is.na(text), ids, text)
    if (anyDuplicated(labels)) {
      dup <- labels[duplicated(labels)][1]
      mla_abort(c("Every option of a Prodigy task must have its own text.",
                  "x" = paste0(where, " offers {.val {dup}} for ids {.val {ids[labels == dup]}}.")),
                class = "duplicate_label", call = call)
    }
    accepted <- scalars_as_text(as.list(unlist(r[["accept"]])))
    unknown <- setdiff(accepted, ids)
    if (length(unknown) > 0L) {
      mla_abort(c("Every accepted id must be one of the task's {.field options}.",
                  "x" = paste0(where, " accepts {.val {unknown}}, not offered.")),
                class = "unknown_label", call = call)
    }
    return(list(label = labels, option = ids, value = as.integer(ids %in% accepted),
                kind = rep("choice", length(ids))))
  }
  label <- r[["label"]]
  if (is.character(label) && length(label) == 1L) {
    return(list(label = label, option = NA_character_, value = as.integer(answer == "accept"),
                kind = "binary"))
  }
  mla_abort(c("Every Prodigy task must have {.field options} (choice) or a {.field label} (binary).",
              "x" = paste0(where, " has neither."),
              "i" = "Spans ({.field spans}) are not classification decisions."),
            class = "json_field", call = call)
}

# Review tasks become one task per (version, session): the version's answer
# and accept, by that session. Other tasks pass through.
prodigy_expand_reviews <- function(records, line_no, items) {
  versions <- lapply(records, `[[`, "versions")
  is_review <- vapply(versions, is.list, NA) & lengths(versions) > 0L
  if (!any(is_review)) {
    return(list(records = records, line = line_no, item = items, sub = rep(0L, length(records)),
                review = rep(FALSE, length(records))))
  }
  parts <- lapply(seq_along(records), function(k) {
    if (!is_review[k]) return(list(records = records[k], sub = 0L))
    out <- list()
    for (v in versions[[k]]) {
      for (s in unlist(v[["sessions"]])) {
        v[["_annotator_id"]] <- s
        v[["_session_id"]] <- s
        out[[length(out) + 1L]] <- v
      }
    }
    list(records = out, sub = seq_along(out))
  })
  n <- vapply(parts, function(p) length(p$records), 1L)
  list(records = unlist(lapply(parts, `[[`, "records"), recursive = FALSE),
       line = rep(line_no, n), item = rep(items, n),
       sub = unlist(lapply(parts, `[[`, "sub")), review = rep(is_review, n))
}

prodigy_annotator <- function(records, where, optional = FALSE, call = rlang::caller_env()) {
  ann <- json_text_field(records, "_annotator_id", where, optional = TRUE, call = call)
  session <- json_text_field(records, "_session_id", where, optional = TRUE, call = call)
  ann[is.na(ann) | !nzchar(ann)] <- session[is.na(ann) | !nzchar(ann)]
  none <- is.na(ann) | !nzchar(ann)
  if (any(none) && !optional) {
    k <- which(none)[1]
    mla_abort(c("Every Prodigy task must have an annotator id ({.field _annotator_id} or {.field _session_id}).",
                "x" = paste0(where(k), " has none."),
                "i" = "Name the annotator of each file with {.arg annotator}, e.g. {.code read_prodigy(\"alex.jsonl\", annotator = \"alex\")}; annotate with named sessions ({.code ?session=alex}) to record who annotated."),
              class = "annotator", call = call)
  }
  ann[none] <- NA_character_
  ann
}

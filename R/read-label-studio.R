#' Read a Label Studio export
#'
#' Reads the annotations of a Label Studio project (Label Studio >= 1.0) from
#' its JSON, JSON-MIN or CSV (or TSV) export; the format is recognised from
#' the file.
#'
#' * **JSON** (`Export > JSON`, recommended): an array of tasks, each with
#'   `id`, `data` and `annotations[]`; every annotation has `completed_by`
#'   (the annotator, an id or an object with `email`), `was_cancelled` and
#'   `result[]`, whose entries name their control tag (`from_name`) and hold
#'   the selection under `value`: `choices` (Choices), `taxonomy` (paths of a
#'   Taxonomy, joined with `"/"`) or `labels` (span labels; a label counts as
#'   selected when the annotator gave it to any region of the task).
#' * **JSON-MIN** and **CSV**: one record (row) per submitted annotation with
#'   the task's data fields, `id` (the task), `annotator`, `annotation_id`
#'   and one field per control named by its `from_name`: a single choice as
#'   its text, several as `{"choices": [...]}`, taxonomy and span labels as a
#'   list of result values (in CSV, as a JSON string). A task without
#'   annotations is a record with an empty `annotation_id` and is skipped.
#'   These formats mix task data and controls in one record, so they need
#'   `config` or `control` to know which fields are controls, and they leave
#'   out cancelled annotations, which therefore cannot be counted.
#'
#' The label universe comes from the labeling config (`config`: the XML of
#' the project's Settings > Labeling Interface > Code, or a file holding it),
#' parsed as XML the way Label Studio parses it, so choices no one selected
#' still count. A control is a tag with `name` and `toName`; the
#' classification controls are `<Choices>` (single or `choice="multiple"`),
#' `<Taxonomy>` and the `<Labels>` family (`<Labels>`,
#' `<RectangleLabels>`, ...). A control's labels are the `<Choice>` or
#' `<Label>` tags inside it, also within nested `<View>`s; a `<Taxonomy>`
#' gives every node as a path (only leaves with `leafsOnly="true"`). A
#' `<Choice alias="...">` is exported as its alias. Comments, CDATA blocks
#' (`<Style>`) and character entities (`&#39;`) are read as XML. Without
#' `config`, the universe is the choices seen in the export, in order of
#' appearance.
#'
#' Every non-cancelled annotation is one record: a control it left empty is
#' "annotated, nothing selected" (all 0). Cancelled (skipped) annotations are
#' excluded and counted in a message; predictions are ignored.
#'
#' @param path Path to the export: `Export > JSON` (recommended),
#'   `JSON-MIN` or `CSV`.
#' @param config The labeling config: a path to an XML file or the XML text.
#'   `NULL` takes the universe from the export.
#' @param control Names (`from_name`) of the controls to read; `NULL` reads
#'   all classification controls. With several controls, labels are named
#'   `"control:choice"`.
#' @param ... Must be empty.
#' @return A tibble with one row per decision: `item` (task id), `annotator`
#'   (`completed_by`), `annotation` (annotation id), `control`, `label` (a
#'   factor whose levels are the label universe) and `value` (0/1), ready for
#'   `annotations_long(x, item, annotator, label, value)`.
#' @family readers
#' @export
#' @examples
#' export <- system.file("extdata", "label-studio-export.json", package = "mlagreement")
#' config <- system.file("extdata", "label-studio-config.xml", package = "mlagreement")
#' ls <- read_label_studio(export, config, control = "topic")
#' ls
#' levels(ls$label) # "Culture" was never selected
#' mla(annotations_long(ls, item, annotator, label, value))
read_label_studio <- function(path, config = NULL, control = NULL, ...) {
  check_dots_empty0(...)
  path <- check_read_paths(path)
  if (length(path) != 1L) {
    mla_abort(c("{.arg path} must be one export file.", "x" = "It has {length(path)} paths."),
              class = "string")
  }
  if (!is.null(control) && (!is.character(control) || anyNA(control) || length(control) == 0L)) {
    mla_abort(c("{.arg control} must be a character vector of control names.",
                "x" = "It is {.obj_type_friendly {control}}."), class = "string")
  }
  universe <- if (is.null(config)) NULL else label_studio_config(config)
  found <- label_studio_read(path[[1]], universe, control)
  controls <- control %||% (if (is.null(universe)) found$controls else names(universe))
  known <- union(names(universe), found$controls)
  unknown <- setdiff(controls, if (is.null(universe)) known else names(universe))
  if (length(unknown) > 0L) {
    mla_abort(c("{.arg control} must name classification controls of the project.",
                "x" = "Unknown: {.val {unknown}}.", "i" = "Controls: {.val {known}}."),
              class = "unknown_label")
  }
  if (length(controls) == 0L) {
    mla_abort(c("{.arg path} must hold classification results (choices, taxonomy, labels).",
                "x" = "{.file {path}} has none."), class = "empty")
  }
  if (!is.null(universe)) check_label_studio_declared(universe, controls)
  inform_excluded(c(cancelled = found$n_cancelled))
  call <- rlang::current_env()
  decisions <- lapply(controls, function(ctl) {
    sel <- found$sel[found$sel$control == ctl, ]
    levels <- if (is.null(universe)) unique(sel$label) else universe[[ctl]]
    undeclared <- setdiff(sel$label, levels)
    if (length(undeclared) > 0L) {
      k <- match(undeclared[1], sel$label)
      mla_abort(c("Every selection must be a choice declared in {.arg config}.",
                  "x" = "Task {.val {sel$item[k]}}, annotation {.val {sel$annotation[k]}} selects {.val {undeclared[1]}} in {.val {ctl}}.",
                  "i" = "Declared: {.val {levels}}."),
                class = "unknown_label", call = call)
    }
    label_studio_decisions(found$ann, sel, ctl, levels, prefix = length(controls) > 1L)
  })
  out <- bind_rows_plain(decisions)
  out$label <- factor(out$label, levels = unlist(lapply(decisions, attr, "levels")))
  out
}

# Annotations and selections of an export in any format Label Studio writes
# annotations in; JSON-MIN and CSV are read in read-label-studio-min.R.
label_studio_read <- function(path, universe, control, call = rlang::caller_env()) {
  first <- first_text_char(path)
  if (!is.na(first) && !first %in% c("[", "{")) {
    return(label_studio_csv_results(path, universe, control, call = call))
  }
  tasks <- parse_json_file(path, id_fields = c("id", "completed_by", "annotator", "annotation_id"),
                           call = call)
  if (is_label_studio_min(tasks)) {
    return(label_studio_min_results(tasks, path, universe, control, call = call))
  }
  check_label_studio_tasks(tasks, path, call)
  found <- label_studio_results(tasks, path, call)
  found$controls <- unique(found$sel$control)
  found
}

check_label_studio_tasks <- function(tasks, path, call = rlang::caller_env()) {
  is_task <- is.list(tasks) && is.null(names(tasks)) && all(vapply(tasks, is.list, NA))
  if (!is_task || length(tasks) == 0L) {
    mla_abort(c("{.arg path} must be a Label Studio JSON export: an array of tasks.",
                "x" = "{.file {path}} holds {.obj_type_friendly {tasks}} at the top level."),
              class = "version", call = call)
  }
  for (k in seq_along(tasks)) {
    t <- tasks[[k]]
    if (is.null(t$annotations)) {
      hint <- if (!is.null(t$completions)) {
        "It has {.field completions}: an export of Label Studio < 1.0. Re-export it with Label Studio >= 1.0."
      } else {
        "Is it the task import file (data only)? Export the project with {.strong Export > JSON}."
      }
      mla_abort(c("Every task of {.arg path} must have an {.field annotations} array.",
                  "x" = "Task {k} of {.file {path}} has none.", "i" = hint),
                class = "version", call = call)
    }
  }
}

# Annotations (one row each) and selections (one row per selected label).
label_studio_results <- function(tasks, path, call = rlang::caller_env()) {
  ann <- list()
  sel <- list()
  n_cancelled <- 0L
  for (k in seq_along(tasks)) {
    task <- tasks[[k]]
    item <- if (is.null(task$id)) as.character(k) else scalars_as_text(list(task$id))
    for (a in seq_along(task$annotations)) {
      an <- task$annotations[[a]]
      if (isTRUE(an$was_cancelled)) {
        n_cancelled <- n_cancelled + 1L
        next
      }
      who <- an$completed_by
      if (is.list(who)) who <- who$email %||% who$id
      if (is.null(who) || length(who) != 1L || (is.character(who) && !nzchar(who))) {
        mla_abort(c("Every annotation must have an annotator id ({.field completed_by}).",
                    "x" = "Annotation {a} of task {.val {item}} in {.file {path}} has none."),
                  class = "annotator", call = call)
      }
      aid <- if (is.null(an$id)) paste0(item, "-", a) else scalars_as_text(list(an$id))
      ann[[length(ann) + 1L]] <- list(item = item, annotator = scalars_as_text(list(who)),
                                      annotation = aid)
      for (r in an$result) {
        labels <- label_studio_selection(r)
        if (length(labels) == 0L) next
        sel[[length(sel) + 1L]] <- list(item = rep(item, length(labels)),
                                        annotation = rep(aid, length(labels)),
                                        control = rep(r$from_name, length(labels)), label = labels)
      }
    }
  }
  empty_sel <- list(item = character(), annotation = character(), control = character(),
                    label = character())
  list(ann = bind_rows_plain(c(list(list(item = character(), annotator = character(),
                                          annotation = character())), ann)),
       sel = bind_rows_plain(c(list(empty_sel), sel)),
       n_cancelled = n_cancelled)
}

# The labels one result entry selects: choices, taxonomy paths or (span)
# labels; NULL for other result types (text areas, ratings, regions only).
label_studio_selection <- function(r) {
  if (is.null(r[["from_name"]])) return(NULL)
  label_studio_value_labels(r[["value"]])
}

label_studio_value_labels <- function(v) {
  if (!is.list(v) || is.null(names(v))) return(NULL)
  if (!is.null(v[["taxonomy"]])) {
    return(vapply(v[["taxonomy"]], function(p) paste(unlist(p), collapse = "/"), ""))
  }
  key <- if (!is.null(v[["choices"]])) "choices" else grep("labels$", names(v), value = TRUE)[1]
  if (is.na(key)) return(NULL)
  unique(as.character(unlist(v[[key]])))
}

label_studio_decisions <- function(ann, sel, ctl, levels, prefix) {
  n <- nrow(ann)
  k <- length(levels)
  chosen <- paste(sel$annotation, sel$label, sep = "\r")
  rows <- rep(seq_len(n), each = k)
  lab <- rep(levels, n)
  out <- list(item = ann$item[rows], annotator = ann$annotator[rows],
              annotation = ann$annotation[rows], control = rep(ctl, n * k),
              label = if (prefix) paste0(ctl, ":", lab) else lab,
              value = as.integer(paste(ann$annotation[rows], lab, sep = "\r") %in% chosen))
  structure(out, levels = if (prefix) paste0(ctl, ":", levels) else levels)
}

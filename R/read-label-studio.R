#' Read a Label Studio export
#'
#' Reads the annotations of a Label Studio project (Label Studio >= 1.0) from
#' its JSON, JSON-MIN or CSV (or TSV) export; the format is recognised from
#' the file.
#' Cost: one pass over the file, keeping only the fields read (CSV and TSV:
#' [utils::read.table()]).
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
#' A `<Choice>` declared twice in one `<Choices>` is an error. In the export,
#' `annotations`, `result`, `choices` and `*labels` must be arrays of the
#' documented shape (a string is not read as a one-element array, `[["A"]]`
#' is not flattened), `taxonomy` an array of paths; errors name the task,
#' the annotation and the field. Numeric ids compare by value (`1.0` is `1`).
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
#' @inheritParams mla
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
  one <- length(controls) == 1L && all(found$sel$control == controls)
  decisions <- lapply(controls, function(ctl) {
    sel <- if (one) found$sel else found$sel[found$sel$control == ctl, ]
    levels <- if (is.null(universe)) unique(sel$label) else universe[[ctl]]
    code <- universe_codes(sel$label, levels, function(rows) {
      k <- rows[1]
      mla_abort(c("Every selection must be a choice declared in {.arg config}.",
                  "x" = "Task {.val {sel$item[k]}}, annotation {.val {sel$annotation[k]}} selects {.val {sel$label[k]}} in {.val {ctl}}.",
                  "i" = "Declared: {.val {levels}}."),
                class = "unknown_label", call = call)
    })
    label_studio_decisions(found$ann, sel$annotation, code, ctl, levels,
                           prefix = length(controls) > 1L)
  })
  levels <- lapply(decisions, attr, "levels")
  off <- cumsum(c(0L, lengths(levels)))
  for (j in seq_along(decisions)) decisions[[j]]$label <- decisions[[j]]$label + off[j]
  out <- bind_rows_plain(decisions)
  out$label <- codes_factor(out$label, unlist(levels))
  out
}

# Annotations and selections of an export in any format (JSON-MIN and CSV in
# read-label-studio-min*.R).
label_studio_read <- function(path, universe, control, call = rlang::caller_env()) {
  first <- first_text_char(path)
  if (!is.na(first) && !first %in% c("[", "{")) {
    return(label_studio_csv_results(path, universe, control, call = call))
  }
  x <- json_fields_array(path, label_studio_paths(), "a Label Studio JSON export: an array of tasks",
                         call = call)
  if (label_studio_is_min(x)) {
    return(label_studio_min_results(path, universe, control, call = call))
  }
  found <- label_studio_results_x(x, path, call)  # R/read-label-studio-tasks.R
  found$controls <- unique(found$sel$control)
  found
}

# The decisions of one control: a row per (annotation, label); annotations
# sharing an id share selections (`annotation`, label `code`).
label_studio_decisions <- function(ann, annotation, code, ctl, levels, prefix) {
  n <- nrow(ann)
  k <- length(levels)
  ids <- unique(ann$annotation)
  chosen <- selection_grid(length(ids), k, match(annotation, ids), code)
  pair <- if (length(ids) == n) seq_len(n * k) else
    (rep(match(ann$annotation, ids), each = k) - 1) * k + rep(seq_len(k), n)
  rows <- rep(seq_len(n), each = k)
  out <- list(item = ann$item[rows], annotator = ann$annotator[rows],
              annotation = ann$annotation[rows], control = rep(ctl, n * k),
              label = rep(seq_len(k), n), value = chosen[pair])
  structure(out, levels = if (prefix) paste0(ctl, ":", levels) else levels)
}

#' Read a Label Studio JSON export
#'
#' Reads the JSON export of a Label Studio project (Label Studio >= 1.0): an
#' array of tasks, each with `id`, `data` and `annotations[]`; every
#' annotation has `completed_by` (the annotator), `was_cancelled` and
#' `result[]`, whose entries name their control tag (`from_name`) and hold the
#' selection under `value`: `choices` (Choices), `taxonomy` (paths of a
#' Taxonomy, joined with `"/"`) or `labels` (span labels; a label counts as
#' selected when the annotator gave it to any region of the task).
#'
#' The label universe comes from the labeling config (`config`: the XML of
#' the project's Settings > Labeling Interface, or a file holding it), so
#' choices no one selected still count: the `<Choice>` children of
#' `<Choices>`, every node of a `<Taxonomy>` (only leaves with
#' `leafsOnly="true"`) and the `<Label>` children of `<Labels>` tags. A
#' `<Choice alias="...">` is exported as its alias. Without `config`, the
#' universe is the choices seen in the export, in order of appearance.
#'
#' Every non-cancelled annotation is one record: a control it left empty is
#' "annotated, nothing selected" (all 0). Cancelled (skipped) annotations are
#' excluded and counted in a message; predictions are ignored.
#'
#' @param path Path to the JSON export (`Export > JSON`).
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
  tasks <- parse_json_file(path[[1]], id_fields = c("id", "completed_by"))
  check_label_studio_tasks(tasks, path[[1]])
  found <- label_studio_results(tasks, path[[1]])
  controls <- control %||% (if (is.null(universe)) unique(found$sel$control) else names(universe))
  known <- union(names(universe), unique(found$sel$control))
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
        "Is it a JSON-MIN or CSV export? Export the project as {.val JSON}."
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
  v <- r$value
  if (is.null(r$from_name) || !is.list(v)) return(NULL)
  if (!is.null(v$taxonomy)) {
    return(vapply(v$taxonomy, function(p) paste(unlist(p), collapse = "/"), ""))
  }
  key <- if (!is.null(v$choices)) "choices" else grep("labels$", names(v), value = TRUE)[1]
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

# Label universes of the classification controls of a labeling config: a
# named list, control name -> labels (aliases where given).
label_studio_config <- function(config, call = rlang::caller_env()) {
  check_string(config, call = call)
  xml <- if (grepl("<", config, fixed = TRUE)) {
    config
  } else {
    config <- check_read_paths(config, "config", call = call)
    con <- file(config, "r")
    on.exit(close(con))
    paste(read_utf8_lines(con, config, call = call), collapse = "\n")
  }
  tags <- xml_tags(xml, call)
  out <- list()
  stack <- list()
  for (t in tags) {
    if (t$close) {
      if (length(stack) > 0L) stack <- stack[-length(stack)]
      next
    }
    control <- Find(function(s) s$kind %in% c("control", "taxonomy"), rev(stack))
    if (t$name %in% c("Choice", "Label") && !is.null(control)) {
      path <- c(vapply(Filter(function(s) s$kind == "choice", stack), `[[`, "", "value"),
                t$attrs$alias %||% t$attrs$value %||% "")
      value <- if (control$kind == "taxonomy") paste(path, collapse = "/") else path[length(path)]
      out[[control$name]] <- c(out[[control$name]], stats::setNames(value, if (t$self) "leaf" else "node"))
    }
    entry <- xml_control(t)
    if (!t$self) stack[[length(stack) + 1L]] <- entry
  }
  for (nm in names(out)) {
    v <- out[[nm]]
    leafs_only <- isTRUE(attr(tags, "leafs_only")[nm])
    out[[nm]] <- unname(if (leafs_only) v[names(v) == "leaf"] else v)
  }
  empty <- setdiff(attr(tags, "controls"), names(out))
  if (length(empty) > 0L) {
    mla_abort(c("Every classification control in {.arg config} must declare its choices.",
                "x" = "Control {.val {empty[1]}} has no {.code <Choice>} or {.code <Label>} children.",
                "i" = "Choices loaded from task data ({.code value=\"$options\"}) cannot be read; declare them."),
              class = "config", call = call)
  }
  out
}

xml_control <- function(t) {
  kind <- if (t$name == "Taxonomy") "taxonomy" else if (t$name %in% c("Choice", "Label")) "choice" else if (t$name == "Choices" || grepl("Labels$", t$name)) "control" else "other"
  list(kind = kind, name = t$attrs$name %||% "", value = t$attrs$alias %||% t$attrs$value %||% "")
}

# Start, end and self-closing tags of an XML text, with their attributes.
xml_tags <- function(xml, call) {
  xml <- gsub("<!--.*?-->", "", xml, perl = TRUE)
  xml <- gsub("<\\?.*?\\?>", "", xml, perl = TRUE)
  raw <- regmatches(xml, gregexpr("<[^<>]*>", xml, perl = TRUE))[[1]]
  rest <- gsub("<[^<>]*>", "", xml, perl = TRUE)
  if (length(raw) == 0L || grepl("[<>]", rest)) {
    mla_abort(c("{.arg config} must be a Label Studio labeling config (XML).",
                "x" = if (length(raw) == 0L) "It has no tags." else "It has an unbalanced angle bracket."),
              class = "config", call = call)
  }
  tags <- lapply(raw, function(r) {
    close <- startsWith(r, "</")
    body <- sub("^</?\\s*", "", sub("/?>$", "", r))
    name <- sub("[\\s].*$", "", body, perl = TRUE)
    m <- regmatches(body, gregexpr("([A-Za-z_:][-A-Za-z0-9_:.]*)\\s*=\\s*(\"[^\"]*\"|'[^']*')", body, perl = TRUE))[[1]]
    attrs <- stats::setNames(as.list(xml_unescape(sub("^[^=]*=\\s*.(.*).$", "\\1", m))),
                             sub("\\s*=.*$", "", m))
    list(name = name, attrs = attrs, close = close, self = endsWith(r, "/>"))
  })
  is_control <- vapply(tags, function(t) !t$close && (t$name %in% c("Choices", "Taxonomy") || grepl("Labels$", t$name)), NA)
  names_of <- vapply(tags[is_control], function(t) t$attrs$name %||% "", "")
  leafs <- vapply(tags[is_control], function(t) identical(tolower(t$attrs$leafsOnly %||% ""), "true"), NA)
  structure(tags, controls = names_of, leafs_only = stats::setNames(leafs, names_of))
}

xml_unescape <- function(x) {
  x <- gsub("&lt;", "<", x, fixed = TRUE)
  x <- gsub("&gt;", ">", x, fixed = TRUE)
  x <- gsub("&quot;", "\"", x, fixed = TRUE)
  x <- gsub("&apos;", "'", x, fixed = TRUE)
  gsub("&amp;", "&", x, fixed = TRUE)
}

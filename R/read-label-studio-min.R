# Label Studio's JSON-MIN and CSV exports, as the SDK's converter writes them
# (convert_to_json_min(), exports/csv2.py): one flat record per submitted
# annotation with the task's data fields, `id` (the task), `annotator`,
# `annotation_id` and one field per control (its `from_name`) holding the
# "prettified" selection: one choice as its text, several as
# {"choices": [...]}, other results as a list of result values; CSV writes
# what is not text as a JSON string. Cancelled annotations are not exported;
# a task without annotations is one record with a null `annotation_id`.

label_studio_min_results <- function(records, path, universe, control, call) {
  controls <- label_studio_flat_controls(universe, control, path, "JSON-MIN", call)
  where <- function(k) paste0("Record ", k, " of ", cli::format_inline("{.file {path}}"))
  label_studio_flat_results(records, controls, universe, where, path, call)
}

label_studio_csv_results <- function(path, universe, control, call) {
  records <- label_studio_csv_records(path, call)
  fmt <- if (identical(attr(records, "sep"), "\t")) "TSV" else "CSV"
  controls <- label_studio_flat_controls(universe, control, path, fmt, call)
  # data row k is after the header: line k + 1 when no cell spans lines
  where <- function(k) paste0("Data row ", k, " of ", cli::format_inline("{.file {path}}"))
  label_studio_flat_results(records, controls, universe, where, path, call)
}

# The records of a CSV (or TSV) export as lists of strings, one per row.
label_studio_csv_records <- function(path, call) {
  con <- file(path, "r")
  on.exit(close(con))
  check_no_nul(path, call)
  lines <- read_utf8_lines(con, path, call = call)
  lines[1] <- sub("^\ufeff", "", lines[1])
  sep <- if (grepl("\t", lines[1], fixed = TRUE)) "\t" else ","
  tbl <- tryCatch(
    utils::read.table(text = lines, sep = sep, header = TRUE, quote = "\"",
                      colClasses = "character", check.names = FALSE,
                      na.strings = character(), comment.char = "", encoding = "UTF-8",
                      strip.white = FALSE, blank.lines.skip = TRUE),
    error = function(e) e
  )
  if (inherits(tbl, "error")) {
    mla_abort(c("{.arg path} must be a Label Studio export (JSON, JSON-MIN or CSV).",
                "x" = "{.file {path}} is not JSON and not a valid CSV table.",
                "i" = "Reader: {first_line(conditionMessage(tbl))}",
                "i" = "Export the project again with {.strong Export > JSON}."),
              class = "format", call = call)
  }
  needed <- c("id", "annotator", "annotation_id")
  if (!all(needed %in% names(tbl))) {
    mla_abort(c("{.arg path} must be a Label Studio export (JSON, JSON-MIN or CSV).",
                "x" = "{.file {path}} is not JSON, and its header lacks {.field {setdiff(needed, names(tbl))}}.",
                "i" = "Export the project again with {.strong Export > JSON}."),
              class = "format", call = call)
  }
  # .mapply(), not Map(): a data column may be called `f`
  records <- .mapply(function(...) list(...), as.list(tbl), NULL)
  structure(records, sep = sep)
}

# Flat records have no `from_name`: only the config, or the names given in
# `control`, tell the controls from the task's data fields.
label_studio_flat_controls <- function(universe, control, path, fmt, call) {
  if (!is.null(control)) return(control)
  if (!is.null(universe)) return(names(universe))
  mla_abort(
    c("{.arg config} or {.arg control} must be given to read a Label Studio {fmt} export.",
      "x" = "{.file {path}} is a {fmt} export: each record mixes the task's data with the controls' selections, and only the labeling config tells them apart.",
      "i" = "Give the labeling config (Settings > Labeling Interface > Code) or the control names, or export the project again with {.strong Export > JSON}."),
    class = "format", call = call
  )
}

# Annotations (one row each) and selections of flat records, in the shape of
# label_studio_results_x() (read-label-studio-tasks.R).
label_studio_flat_results <- function(records, controls, universe, where, path, call) {
  fields <- unique(unlist(lapply(records, names)))
  absent <- setdiff(controls, fields)
  if (length(absent) > 0L && is.null(universe)) {
    mla_abort(c("{.arg control} must name fields of the export.",
                "x" = "{.file {path}} has no field {.field {absent}}.",
                "i" = "Fields: {.val {fields}}."),
              class = "unknown_label", call = call)
  }
  ann <- list()
  sel <- list()
  n_cancelled <- 0L
  for (k in seq_along(records)) {
    r <- records[[k]]
    aid <- flat_text(r[["annotation_id"]])
    if ("annotation_id" %in% names(r) && is.na(aid)) next
    if (is.na(aid)) aid <- paste0("record-", k)
    cancelled <- r[["was_cancelled"]]
    if (isTRUE(cancelled) || identical(tolower(as.character(cancelled)), "true")) {
      n_cancelled <- n_cancelled + 1L
      next
    }
    item <- flat_text(r[["id"]])
    who <- flat_text(r[["annotator"]])
    if (is.na(item) || is.na(who)) {
      field <- if (is.na(item)) "id" else "annotator"
      mla_abort(c("Every annotation record must have a task {.field id} and an {.field annotator}.",
                  "x" = paste0(where(k), " has no {.field {field}}.")),
                class = if (is.na(item)) "json_field" else "annotator", call = call)
    }
    ann[[length(ann) + 1L]] <- list(item = item, annotator = who, annotation = aid)
    for (ctl in controls) {
      labels <- flat_labels(r[[ctl]], universe[[ctl]])
      if (length(labels) == 0L) next
      sel[[length(sel) + 1L]] <- list(item = rep(item, length(labels)),
                                      annotation = rep(aid, length(labels)),
                                      control = rep(ctl, length(labels)), label = labels)
    }
  }
  empty_sel <- list(item = character(), annotation = character(), control = character(),
                    label = character())
  list(ann = bind_rows_plain(c(list(list(item = character(), annotator = character(),
                                          annotation = character())), ann)),
       sel = bind_rows_plain(c(list(empty_sel), sel)),
       n_cancelled = n_cancelled, controls = intersect(controls, fields))
}

# A scalar field as exact text; NA when absent, null or empty.
flat_text <- function(v) {
  if (is.null(v) || length(v) != 1L || is.list(v)) return(NA_character_)
  out <- scalars_as_text(list(v))
  if (is.na(out) || !nzchar(out)) NA_character_ else out
}

# The labels of one control's field: text (one choice), a result value
# ({"choices": [...]}, {"taxonomy": [...]}, {"labels": [...]}), a list of
# these, or in CSV any of them as a JSON string. A text that is a declared
# label is that label, even if it looks like JSON.
flat_labels <- function(v, declared) {
  if (is.null(v)) return(character())
  if (is.character(v) && length(v) == 1L) {
    if (!nzchar(v)) return(character())
    if (v %in% declared || !grepl("^\\s*[[{]", v)) return(v)
    parsed <- parse_json_text_cpp(enc2utf8(v), character())  # src/glue-json-values.cpp
    if (!is.null(parsed$error)) return(v)
    v <- parsed$value
  }
  if (is.list(v) && !is.null(names(v))) return(label_studio_value_labels(v) %||% character())
  if (is.list(v)) return(unique(unlist(lapply(v, flat_labels, declared), use.names = FALSE)))
  scalars_as_text(as.list(v))
}

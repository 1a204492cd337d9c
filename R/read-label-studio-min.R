# Label Studio's JSON-MIN and CSV exports, as the SDK's converter writes them:
# one flat record per submitted annotation with the task's data fields, `id`,
# `annotator`, `annotation_id` and one field per control holding the
# "prettified" selection (CSV writes what is not text as a JSON string). A
# task without annotations is one record with a null `annotation_id`.

label_studio_min_results <- function(path, universe, control, call) {
  controls <- label_studio_flat_controls(universe, control, path, "JSON-MIN", call)
  where <- function(k) line_of(k, path, "Record")
  flat <- label_studio_min_flat(path, controls, universe, where, call)
  label_studio_flat_results(flat, controls, universe, where, path, call)
}

label_studio_csv_results <- function(path, universe, control, call) {
  tbl <- label_studio_csv_table(path, call)
  fmt <- if (identical(attr(tbl, "sep"), "\t")) "TSV" else "CSV"
  controls <- label_studio_flat_controls(universe, control, path, fmt, call)
  # data row k is after the header: line k + 1 when no cell spans lines
  where <- function(k) line_of(k, path, "Data row")
  text <- function(name) {
    if (name %in% names(tbl)) flat_text(tbl[[name]]) else rep(NA_character_, nrow(tbl))
  }
  rec <- seq_len(nrow(tbl))
  labels <- lapply(controls, function(ctl) {
    if (!ctl %in% names(tbl)) return(list(rec = integer(), label = character()))
    string_labels(tbl[[ctl]], rec, universe[[ctl]])
  })
  cancelled <- logical(nrow(tbl))
  if ("was_cancelled" %in% names(tbl)) cancelled <- tolower(tbl$was_cancelled) %in% "true"
  flat <- list(present = names(tbl), fields = function() names(tbl),
               item = text("id"), annotator = text("annotator"), annotation = text("annotation_id"),
               has_annotation = rep("annotation_id" %in% names(tbl), nrow(tbl)),
               cancelled = cancelled,
               labels = stats::setNames(labels, controls))
  label_studio_flat_results(flat, controls, universe, where, path, call)
}

label_studio_csv_table <- function(path, call) {
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
  structure(tbl, sep = sep)
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

# Annotations and selections of flat records, in the shape of
# label_studio_results_x(). `flat`: per record the texts of `id`, `annotator`
# and `annotation_id`, whether `annotation_id` is there and whether it was
# cancelled; per control its (record, label) pairs.
label_studio_flat_results <- function(flat, controls, universe, where, path, call) {
  absent <- setdiff(controls, flat$present)
  if (length(absent) > 0L && is.null(universe)) {
    mla_abort(c("{.arg control} must name fields of the export.",
                "x" = "{.file {path}} has no field {.field {absent}}.",
                "i" = "Fields: {.val {flat$fields()}}."),
              class = "unknown_label", call = call)
  }
  # a task without annotations is one record with a null annotation_id
  keep <- !(flat$has_annotation & is.na(flat$annotation))
  n_cancelled <- sum(keep & flat$cancelled)
  keep <- keep & !flat$cancelled
  missing <- keep & (is.na(flat$item) | is.na(flat$annotator))
  if (any(missing)) {
    k <- which(missing)[1]
    field <- if (is.na(flat$item[k])) "id" else "annotator"
    mla_abort(c("Every annotation record must have a task {.field id} and an {.field annotator}.",
                "x" = "{where(k)} has no {.field {field}}."),
              class = if (is.na(flat$item[k])) "json_field" else "annotator", call = call)
  }
  aid <- flat$annotation
  no_id <- keep & is.na(aid)
  aid[no_id] <- paste0("record-", which(no_id))
  ann <- list(item = flat$item[keep], annotator = flat$annotator[keep], annotation = aid[keep])
  kept <- lapply(flat$labels[controls], function(p) keep[p$rec])
  rec <- unlist(Map(function(p, k) p$rec[k], flat$labels[controls], kept)) %||% integer()
  label <- unlist(Map(function(p, k) p$label[k], flat$labels[controls], kept)) %||% character()
  sel <- list(item = flat$item[rec], annotation = aid[rec],
              control = rep(controls, vapply(kept, sum, 0L)), label = label)
  list(ann = tibble::as_tibble(ann), sel = tibble::as_tibble(sel), n_cancelled = n_cancelled,
       controls = intersect(controls, flat$present))
}

# Scalar texts: NA where missing or empty.
flat_text <- function(v) {
  v[!is.na(v) & !nzchar(v)] <- NA_character_
  v
}

# (record, label) pairs of texts; a text that looks like JSON (a multi-choice
# value in CSV) is parsed, unless it is a declared label.
string_labels <- function(text, rec, declared) {
  ok <- !is.na(text) & nzchar(text)
  text <- text[ok]
  rec <- rec[ok]
  json <- which(!text %in% declared & grepl("^\\s*[[{]", text))
  if (length(json) == 0L) return(list(rec = rec, label = text))
  labels <- as.list(text)
  labels[json] <- lapply(text[json], flat_labels, declared)
  n <- lengths(labels)
  list(rec = rep(rec, n), label = as.character(unlist(labels, use.names = FALSE)))
}

# The labels of one control's value parsed from a JSON string.
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

# The labels of a result value: taxonomy paths, else choices, else the first
# `*labels` member.
label_studio_value_labels <- function(v) {
  if (!is.list(v) || is.null(names(v))) return(NULL)
  if (!is.null(v[["taxonomy"]])) {
    return(vapply(v[["taxonomy"]], function(p) paste(unlist(p), collapse = "/"), ""))
  }
  key <- if (!is.null(v[["choices"]])) "choices" else grep("labels$", names(v), value = TRUE)[1]
  if (is.na(key)) return(NULL)
  unique(as.character(unlist(v[[key]])))
}

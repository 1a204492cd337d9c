# The labeling config, read with xml2 as Label Studio reads it: a control is a
# tag with `name` and `toName`; its labels are the <Choice> and <Label> tags
# whose nearest control ancestor it is.

# Label universes of the classification controls: control name -> labels
# (aliases where given), in document order; character(0) for choices from the
# task data (value="$options").
label_studio_config <- function(config, call = rlang::caller_env()) {
  check_string(config, call = call)
  doc <- label_studio_config_xml(config, call)
  controls <- xml2::xml_find_all(doc, "//*[@name and @toName]")
  tags <- xml2::xml_name(controls)
  controls <- controls[tags %in% c("Choices", "Taxonomy") | grepl("Labels$", tags)]
  names_of <- xml2::xml_attr(controls, "name")
  if (length(controls) == 0L) return(list())
  paths <- xml2::xml_path(controls)
  out <- lapply(seq_along(controls), function(k) {
    label_studio_control_labels(controls[[k]], paths[k], paths)
  })
  # a <Choice> given twice is two decisions with one name; span <Label>s
  # given twice name one label
  dup <- which(vapply(out, anyDuplicated, 1L) > 0L & xml2::xml_name(controls) == "Choices")
  if (length(dup) > 0L) {
    k <- dup[1]
    mla_abort(c("Every choice of a control in {.arg config} must be declared once.",
                "x" = "Control {.val {names_of[k]}} declares {.val {out[[k]][duplicated(out[[k]])][1]}} twice.",
                "i" = "Label Studio exports a choice by its {.code alias}, else its {.code value}; give each its own."),
              class = "config", call = call)
  }
  merged <- lapply(split(out, factor(names_of, levels = unique(names_of))),
                   function(v) unique(unlist(v, use.names = FALSE)) %||% character())
  lapply(merged, as.character)
}

# A label belongs to its nearest enclosing control, so a <Choices> nested in
# another keeps its own choices.
label_studio_control_labels <- function(control, path, control_paths) {
  opts <- xml2::xml_find_all(control, ".//Choice | .//Label")
  if (length(opts) == 0L) return(character())
  owner <- vapply(seq_along(opts), function(i) {
    anc <- xml2::xml_find_all(opts[[i]], "ancestor::*")
    anc_paths <- rev(xml2::xml_path(anc))
    anc_paths[anc_paths %in% control_paths][1]
  }, "")
  opts <- opts[owner == path]
  value <- label_studio_option_value(opts)
  keep <- !is.na(value)
  if (xml2::xml_name(control) != "Taxonomy") return(value[keep])
  # Taxonomy selections are paths from the root: "Animal/Cat"
  paths <- vapply(seq_along(opts), function(i) {
    anc <- xml2::xml_find_all(opts[[i]], "ancestor::Choice")
    within <- startsWith(xml2::xml_path(anc), paste0(path, "/"))
    paste(c(label_studio_option_value(anc[within]), value[i]), collapse = "/")
  }, "")
  leafs_only <- identical(tolower(xml2::xml_attr(control, "leafsOnly")), "true")
  if (leafs_only) {
    leaf <- vapply(seq_along(opts), function(i) {
      length(xml2::xml_find_all(opts[[i]], ".//Choice")) == 0L
    }, NA)
    keep <- keep & leaf
  }
  paths[keep]
}

# What Label Studio exports for a <Choice> or <Label>: its alias, else its value.
label_studio_option_value <- function(nodes) {
  alias <- xml2::xml_attr(nodes, "alias")
  value <- xml2::xml_attr(nodes, "value")
  ifelse(is.na(alias) | !nzchar(alias), value, alias)
}

# The parsed config: XML text (it has a "<") or the path of a file holding it.
label_studio_config_xml <- function(config, call) {
  where <- cli::format_inline("{.arg config}")
  xml <- if (grepl("<", config, fixed = TRUE)) {
    config
  } else {
    path <- check_read_paths(config, "config", call = call)
    con <- file(path, "r")
    on.exit(close(con))
    where <- cli::format_inline("{.file {config}}")
    paste(read_utf8_lines(con, path, call = call), collapse = "\n")
  }
  xml <- sub("^\ufeff", "", xml)
  doc <- tryCatch(xml2::read_xml(xml), error = function(e) e)
  if (inherits(doc, "error")) {
    mla_abort(c("{.arg config} must be a Label Studio labeling config (XML).",
                "x" = "{where} is not well-formed XML.",
                "i" = "Parser: {first_line(conditionMessage(doc))}"),
              class = "config", call = call)
  }
  doc
}

check_label_studio_declared <- function(universe, controls, call = rlang::caller_env()) {
  empty <- controls[lengths(universe[controls]) == 0L & controls %in% names(universe)]
  if (length(empty) == 0L) return(invisible())
  mla_abort(c("Every classification control in {.arg config} must declare its choices.",
              "x" = "Control {.val {empty[1]}} has no {.code <Choice>} or {.code <Label>} children.",
              "i" = "Choices loaded from task data ({.code value=\"$options\"}) cannot be read; declare them, or leave the control out with {.arg control}."),
            class = "config", call = call)
}

# The readers' one JSON engine (json_fields.h): the values at given paths of
# every record as flat columns. A path is a vector of segments: keys, "*"
# (any key) and "[]" (any array element). Each value met is one emission with
# its record, kind, text (numbers in canonical form, so ids compare by value),
# the 1-based ordinals of the path's "*" and "[]" segments (`cap`) and the key
# of its last "*".

json_kinds <- c("null", "false", "true", "number", "string", "array", "object")
json_kind_text <- c("null", "a logical value", "a logical value", "a number", "a string",
                    "an array", "an object")

# The same path under two names is extracted once.
json_path_table <- function(paths) {
  key <- vapply(paths, paste, "", collapse = "\x1f")
  uniq <- unique(key)
  list(paths = unname(paths[match(uniq, key)]), id = stats::setNames(match(key, uniq), names(paths)))
}

# The extraction of one chunk as a list: `n` records, their `line`s, the
# emission columns, and `at`: the emissions of every path name, in order.
json_extract <- function(fields, line, table) {
  by_path <- fields$by_path  # the emissions of each path, in document order
  fields$by_path <- NULL
  c(fields, list(n = length(line), line = line,
                 at = stats::setNames(by_path[table$id], names(table$id))))
}

# Streams a JSON-lines file in chunks: `handler(x)` gets each chunk's
# extraction; its results are collected.
json_fields_lines <- function(path, paths, handler, chunk_lines = 50000L,
                              call = rlang::caller_env()) {
  table <- json_path_table(paths)
  json_line_chunks(path, function(file, offset, line) {  # R/read-json.R
    extract_json_lines_cpp(file, table$paths, offset, line, chunk_lines, 2^20)
  }, function(res) {
    if (length(res$line) > 0L) handler(json_extract(res$fields, res$line, table))
  }, call = call)
}

# One JSON document; `x$first` is its first character. Its records are the
# caller's: array elements or object members.
json_fields_file <- function(path, paths, call = rlang::caller_env()) {
  table <- json_path_table(paths)
  res <- extract_json_file_cpp(enc2native(path.expand(path)), table$paths)
  if (!is.null(res$error)) abort_json_document(res$error, path, call)
  x <- json_extract(res$fields, 1L, table)
  x$first <- res$first
  x
}

# Unit ids of emissions `i`: the record (depth 0) or the serial number of the
# element or member passed by the path's `depth`-th "[]" or "*" (numbered in
# document order, the same in every path through an element).
json_unit <- function(x, i, depth = 0L) {
  if (depth == 0L) x$record[i] else x$cap[[depth]][i]
}

# The first emission of `name` in each of `units` (NA where none): fields
# given twice in one object count once, as in jsonlite.
json_first <- function(x, name, units, depth = 0L) {
  i <- x$at[[name]]
  i[match(units, json_unit(x, i, depth))]
}

abort_json_shape <- function(where, field, expected, kind, affected, call) {
  mla_abort(c("The {.field {field}} field must be {expected}.",
              "x" = "{where} has {json_kind_text[kind + 1L]} there.",
              "i" = "{affected} value{?s} of this shape."),
            class = c("json_shape", "json_field"), call = call)
}

# Emissions `i` of a field must have one of the kinds `ok`; `unit_where(k)`
# names the unit of emission i[k] for the error.
check_json_kind <- function(x, i, ok, field, expected, unit_where, call) {
  kind <- x$kind[i]
  if (all(tabulate(kind + 1L, 7L)[-match(ok, json_kinds)] == 0L)) return(invisible())
  bad <- !kind %in% (match(ok, json_kinds) - 1L)
  k <- which(bad)[1]
  abort_json_shape(unit_where(k), field[min(k, length(field))], expected, x$kind[i][k], sum(bad), call)
}

# check_json_kind() of `j`, one emission per unit (NA: absent, skipped), for
# the units where `use` holds; `field` is one name or one per unit, `where(u)`
# names unit u.
check_json_units <- function(x, j, ok, field, expected, where, call, use = TRUE) {
  u <- which(use & !is.na(j))
  if (length(field) > 1L) field <- field[u]
  check_json_kind(x, j[u], ok, field, expected, function(k) where(u[k]), call)
}

# Texts of emissions `j` that are strings (NA otherwise); whether they are `true`.
json_string <- function(x, j) ifelse(!is.na(j) & x$kind[j] == 4L, x$text[j], NA_character_)
json_true <- function(x, j) !is.na(j) & x$kind[j] == 2L

# Scalar values (text) of one field for `units` (NA when absent or null);
# arrays and objects are refused. `where(u)` names unit u.
json_scalar <- function(x, name, units, field, where, required = FALSE, depth = 0L,
                        call = rlang::caller_env()) {
  json_scalar_at(x, json_first(x, name, units, depth), field, where, required, call)
}

# json_scalar() of emissions `j`, one per unit (NA: absent).
json_scalar_at <- function(x, j, field, where, required = FALSE, call = rlang::caller_env()) {
  kind <- x$kind[j]
  nested <- !is.na(kind) & kind >= 5L
  missing <- is.na(kind) | kind == 0L
  bad <- nested | (required & missing)
  if (any(bad)) {
    k <- which(bad)[1]
    shape <- if (nested[k] || identical(kind[k], 0L)) json_kind_text[kind[k] + 1L]  # array, object, null
    abort_json_field(where(k), field, shape, sum(bad), call)
  }
  x$text[j]
}

# A JSON document that is an array of objects, extracted as records: `paths`
# are relative to each element, `line` is the element's position.
json_fields_array <- function(path, paths, what, call = rlang::caller_env()) {
  x <- json_fields_file(path, c(list(.element = "[]"), lapply(paths, function(p) c("[]", p))),
                        call = call)
  el <- x$at$.element
  if (x$first != "[") {
    mla_abort(c("{.arg path} must be {what}.",
                "x" = "{.file {path}} holds {json_first_kind(x$first)} at the top level."),
              class = "version", call = call)
  }
  element <- function(k) line_of(k, path, "Element")
  check_json_kind(x, el, "object", "elements", "objects", element, call)
  # elements are numbered 1, 2, ... in order: their serial is the record
  x$record <- if (identical(x$cap[[1]][el], seq_along(el))) x$cap[[1]] else
    match(x$cap[[1]], x$cap[[1]][el])
  x$cap <- x$cap[-1]
  x$n <- length(el)
  x$line <- seq_len(x$n)
  x
}

# What a document holds, by its first character.
json_first_kind <- function(first) {
  switch(first, "{" = "an object", "[" = "an array", "\"" = "a string", n = "null",
         t = , f = "a logical value", "a number")
}

# Shared steps of the file readers: path and UTF-8 checks, JSON parsing with
# errors that name the file and line, exact ids.

# Existing regular files, named by the vector's names or the file names.
check_read_paths <- function(path, arg = "path", call = rlang::caller_env()) {
  if (!is.character(path) || length(path) == 0L || anyNA(path) || !all(nzchar(path))) {
    mla_abort(
      c("{.arg {arg}} must be a character vector of file paths.",
        "x" = "It is {.obj_type_friendly {path}}."),
      class = "string", call = call
    )
  }
  missing <- path[!file.exists(path)]
  if (length(missing) > 0L) {
    mla_abort(c("{.arg {arg}} must name existing files.",
                "x" = "{.file {missing[1]}} does not exist."),
              class = "file", call = call)
  }
  dirs <- path[dir.exists(path)]
  if (length(dirs) > 0L) {
    mla_abort(c("{.arg {arg}} must name files, not directories.",
                "x" = "{.file {dirs[1]}} is a directory.",
                "i" = "List its files with {.fn list.files}."),
              class = "file", call = call)
  }
  check_not_archives(path, arg, call)
  nm <- names(path)
  if (is.null(nm)) nm <- rep("", length(path))
  no_name <- !nzchar(nm) | is.na(nm)
  nm[no_name] <- sub("\\.[^.]*$", "", basename(path[no_name]))
  if (anyDuplicated(nm)) {
    mla_abort(c("Each file in {.arg {arg}} must have its own source name.",
                "x" = "Repeated: {.val {unique(nm[duplicated(nm)])}}.",
                "i" = "Name the paths, e.g. {.code c(train = a, dev = b)}."),
              class = "file", call = call)
  }
  stats::setNames(unname(path), nm)
}

# Exports downloaded as archives (doccano's zip of per-user files, a
# gzipped file) are refused by their magic bytes rather than failing later
# as text that is not JSON.
check_not_archives <- function(path, arg, call) {
  kinds <- c(zip = "504b0304", zip = "504b0506", gzip = "1f8b", xz = "fd377a585a00")
  for (f in path) {
    head <- paste(readBin(f, "raw", 6L), collapse = "")
    kind <- names(kinds)[startsWith(head, kinds)][1]
    if (is.na(kind)) next
    hint <- if (kind == "zip") {
      "Unzip it and pass the files it holds, e.g. {.code utils::unzip(\"export.zip\", exdir = tempfile())}."
    } else {
      "Decompress it first (e.g. {.code gunzip} in a shell) and pass the text file."
    }
    mla_abort(c("{.arg {arg}} must name text files, not compressed ones.",
                "x" = "{.file {f}} is a {kind} file.", "i" = hint),
              class = "file", call = call)
  }
}

# Split names from file names: "HS-Brexit_dev" -> "dev" when all files share
# a prefix before the last "_" (the Le-Wi-Di and TID-8 naming), else the name.
split_names <- function(nm) {
  suffix <- sub("^.*[_-]", "", nm)
  if (length(nm) > 1L && !anyDuplicated(suffix) && all(suffix != nm)) suffix else nm
}

# Lines of a text file, UTF-8 checked (the error names the line).
read_utf8_lines <- function(con, path, n = -1L, first_line = 1L, call = rlang::caller_env()) {
  lines <- readLines(con, n = n, warn = FALSE, encoding = "UTF-8")
  bad <- which(!validUTF8(lines))
  if (length(bad) > 0L) {
    line <- first_line + bad[1] - 1L
    abort_json_lines(list(kind = "bad_utf8", line = line), path, character(), call)
  }
  lines
}

# Text files hold no NUL byte; the error names the line.
check_no_nul <- function(path, call = rlang::caller_env()) {
  bytes <- readBin(path, "raw", file.size(path))
  at <- match(as.raw(0), bytes)
  if (is.na(at)) return(invisible())
  line <- sum(bytes[seq_len(at)] == as.raw(10)) + 1
  abort_json_lines(list(kind = "nul_byte", line = line), path, character(), call)
}

# The first character of a text file other than white space and a byte-order
# mark (NA for a blank file): tells a JSON export ("[", "{") from a CSV one.
first_text_char <- function(path) {
  con <- file(path, "r")
  on.exit(close(con))
  repeat {
    line <- readLines(con, n = 1L, warn = FALSE, encoding = "UTF-8")
    # NA sends invalid text on to the JSON reader, whose error names the line
    if (length(line) == 0L || !validUTF8(line)) return(NA_character_)
    line <- trimws(sub("^\ufeff", "", line))
    if (nzchar(line)) return(substr(line, 1L, 1L))
  }
}

abort_json_document <- function(err, path, call) {
  if (err$kind == "empty") {
    mla_abort(c("{.arg path} must hold a JSON document.", "x" = "{.file {path}} is empty."),
              class = "empty", call = call)
  }
  if (err$kind == "invalid_json") {
    mla_abort(
      c("{.arg path} must be one valid JSON document.",
        "x" = "{line_of(err$line, path)} is not valid JSON (truncated or malformed).",
        "i" = "Parser: {err$detail}."),
      class = "json", call = call
    )
  }
  abort_json_lines(err, path, character(), call)  # io, UTF-8 and NUL faults
}

# The classed error for the first fault a C++ scanner met (json_lines.h,
# json_fields.h); `fields` are the field names of read_tid8().
abort_json_lines <- function(err, path, fields, call) {
  line <- err$line
  where <- line_of(line, path)
  field <- fields[err$field]
  # what a field fault found: an array or object, null, or (NULL) nothing
  shape <- if (err$kind == "field_nested") {
    paste0("an ", err$value)
  } else if (identical(err$value, "null")) {
    "null"
  }
  one_object <- "Every line of {.arg path} must be one JSON object."
  msg <- switch(err$kind,
    io = c("{.arg path} must name readable files.", "x" = "{.file {path}} could not be read."),
    empty = c("{.arg path} must contain at least one record.",
              "x" = "{.file {path}} has no non-blank line."),
    bad_utf8 = c("{.arg path} must be UTF-8 text.", "x" = "{where} is not valid UTF-8."),
    nul_byte = c("{.arg path} must be a text file.", "x" = "{where} holds a NUL byte."),
    invalid_json = c(one_object, "x" = "{where} is not valid JSON.",
                     "i" = "Parser: {err$detail}."),
    not_object = c(one_object, "x" = "{where} holds {err$detail}."),
    overlong = c("{.arg path} must hold strings R can store.",
                 "x" = "{.file {path}} holds a string of 2^31 bytes or more."),
    label_guess = c(
      "{.arg label} must name the label field of the records.",
      "x" = if (length(err$found) == 0L) {
        "Line {line} has none of the TID-8 task fields."
      } else {
        "Line {line} has several TID-8 task fields: {.val {err$found}}."
      },
      "i" = "Fields of line {line}: {format_first(err$keys, 10)}."),
    abort_json_field(where, field, shape, err$affected, call)
  )
  class <- switch(err$kind, io = "file", empty = "empty", bad_utf8 = , nul_byte = "encoding",
                  invalid_json = , not_object = , overlong = "json", "json_field")
  mla_abort(msg, class = class, call = call)
}

# Row-binds tibbles with the same columns (vctrs is not in Imports).
bind_rows_plain <- function(parts) {
  cols <- names(parts[[1]])
  col <- if (length(parts) == 1L) function(nm) parts[[1]][[nm]] else {
    function(nm) unlist(lapply(parts, `[[`, nm), use.names = FALSE)
  }
  tibble::as_tibble(stats::setNames(lapply(cols, col), cols))
}

# A record without a single value in `field`: `shape` names the array or
# object there, or "null" (NULL: no such field).
abort_json_field <- function(where, field, shape, affected, call) {
  problem <- if (is.null(shape)) "has no field {.field {field}}" else if (shape == "null") {
    "has {.code null} in field {.field {field}}"
  } else {
    paste0("has a non-scalar {.field {field}} (", shape, ")")
  }
  mla_abort(c("Every record of {.arg path} must have a single value in field {.field {field}}.",
              "x" = paste0("{where} ", problem, "."), "i" = "{affected} record{?s} affected."),
            class = "json_field", call = call)
}

# The chunk loop of the JSON-lines readers: `read_chunk(file, offset, line)`
# reads the next chunk in C++, `use(res)` turns it into a result (NULL:
# nothing to keep). A file with no non-blank line is an error.
json_line_chunks <- function(path, read_chunk, use, call = rlang::caller_env()) {
  file <- enc2native(path.expand(path))
  out <- list()
  offset <- 0
  line <- 0
  repeat {
    res <- read_chunk(file, offset, line)
    if (!is.null(res$error)) abort_json_lines(res$error, path, character(), call)
    kept <- use(res)
    if (!is.null(kept)) out[[length(out) + 1L]] <- kept
    if (res$eof) break
    offset <- res$offset
    line <- res$last_line
  }
  if (length(out) == 0L) abort_json_lines(list(kind = "empty"), path, character(), call)
  out
}

# A list of scalars as character, numbers printed exactly (no "1e+05").
scalars_as_text <- function(v) {
  num <- vapply(v, is.double, NA)
  out <- as.character(unlist(v[!num], use.names = FALSE))
  if (!any(num)) return(out)
  res <- character(length(v))
  res[!num] <- out
  res[num] <- id_text(unlist(v[num], use.names = FALSE))  # R/adapter-utils.R
  res
}

# "Line 4 of file.jsonl" (or "Task 4 of ..."): formatted text holding the
# path as it is, so messages take it by substitution ("{where}"), never as
# part of a template.
line_of <- function(line, path, what = "Line") {
  paste0(what, " ", line, " of ", cli::format_inline("{.file {path}}"))
}

first_line <- function(msg) strsplit(msg, "\n", fixed = TRUE)[[1]][1]

# Item ids made unique across sources: "train:0" when several sources share
# ids (Le-Wi-Di and TID-8 ids restart in every split).
source_item_ids <- function(item, source, unique_items) {
  if (unique_items && length(unique(source)) > 1L) paste0(source, ":", item) else item
}

# Positions of `label` in `universe`; `undeclared(rows)` raises the error for
# the rows whose label is outside it.
universe_codes <- function(label, universe, undeclared = NULL) {
  code <- match(label, universe)
  rows <- which(is.na(code) & !is.na(label))
  if (length(rows) > 0L) undeclared(rows)
  code
}

# Whether each (unit, value) pair appeared before; values compare by match().
duplicated_pairs <- function(unit, value) {
  duplicated(unit * (length(value) + 1) + match(value, value))
}

# Decisions of `n` units on `k` labels, unit by unit: 1 where a selection
# (`unit`, `label`: label codes) names the pair, else 0.
selection_grid <- function(n, k, unit, label) {
  as.integer(tabulate((unit - 1) * k + label, n * k) > 0L)
}

# factor(levels[code], levels), built from the codes.
codes_factor <- function(code, levels) {
  if (!anyNA(levels) && !anyDuplicated(levels)) {
    return(structure(code, levels = levels, class = "factor"))
  }
  factor(levels[code], levels = levels)
}

# Reports excluded annotations (cancelled, skipped, ignored) by kind.
inform_excluded <- function(counts, what = "annotation") {
  counts <- counts[counts > 0]
  if (length(counts) == 0L) return(invisible())
  desc <- paste0(counts, " ", names(counts))
  noun <- paste0(what, if (sum(counts) != 1) "s")
  cli::cli_inform(c("i" = "Excluded {sum(counts)} {noun}: {desc}."),
                  class = "mlagreement_message_excluded")
}

`%||%` <- function(x, y) if (is.null(x)) y else x

# annotations_long(label_sep =): multi-select cells are split into one row per
# selected label, and the selected-labels path of annotations_long() runs on
# those rows, so every check of that path holds. The rule for one cell is in
# ?annotations_long.

annotations_long_split <- function(data, used, has_value, label_sep, labels, duplicates,
                                   single_label, threads, call = rlang::caller_env()) {
  check_string(label_sep, call = call)
  if (has_value) {
    mla_abort(c("{.arg label_sep} must be {.code NULL} when {.arg value} is given.",
                "i" = "It splits cells that list several selected labels (rows without a 0/1 value)."),
              class = "label_sep", call = call)
  }
  label_col <- data[[used[3]]]
  if (!(is.character(label_col) || is.factor(label_col))) {
    mla_abort(
      c("Column {.arg label} must hold text when {.arg label_sep} is given.",
        "x" = "It is {.obj_type_friendly {label_col}}."),
      class = "label_type", call = call
    )
  }
  # id errors name the rows of `data`, not of the split rows
  encode_ids(data[[used[1]]], "item", call = call)
  encode_ids(data[[used[2]]], "annotator", call = call)
  pieces <- split_label_cells(as.character(label_col), label_sep)
  if (pieces$n_dropped > 0) {
    cli::cli_inform(
      c("i" = "{pieces$n_dropped} empty element{?s} of {.arg label} dropped in {pieces$n_cells} cell{?s} (nothing between separators)."),
      class = "mlagreement_message_label_sep"
    )
  }
  universe <- label_universe(pieces$label, labels, call = call)
  label_codes(pieces$label, universe, has_value = FALSE, rows = pieces$row, call = call)
  split_rows <- data[pieces$row, , drop = FALSE]
  split_rows[[used[3]]] <- pieces$label
  cols <- rlang::syms(names(used))
  annotations_long(split_rows, !!cols[[1]], !!cols[[2]], !!cols[[3]], labels = labels, duplicates = duplicates,
                   single_label = single_label, threads = threads)
}

# list(row = the cell of every piece, label = the pieces (NA: nothing
# selected), n_dropped, n_cells), vectorised over all elements at once.
split_label_cells <- function(cells, label_sep) {
  trimmed <- trimws(cells)
  json <- !is.na(trimmed) & grepl("^\\[.*\\]$", trimmed) &
    (grepl("\"", trimmed, fixed = TRUE) | grepl("^\\[\\s*\\]$", trimmed))
  parsed <- json_string_arrays(unique(trimmed[json]))
  from_json <- json
  from_json[json] <- !vapply(parsed[match(trimmed[json], names(parsed))], is.null, logical(1))
  json_parts <- parsed[match(trimmed[from_json], names(parsed))]
  plain <- !is.na(trimmed) & !from_json
  # a separator appended, so a trailing one leaves an empty element to count
  # (rep_len: paste0() of no cells would give one separator)
  plain_parts <- strsplit(paste0(trimmed[plain], rep_len(label_sep, sum(plain))), label_sep,
                          fixed = TRUE)
  cell <- c(rep.int(which(plain), lengths(plain_parts)),
            rep.int(which(from_json), lengths(json_parts)))
  element <- c(strip_label_element(unlist(plain_parts, use.names = FALSE)),
               trimws(unlist(json_parts, use.names = FALSE)))
  empty <- !nzchar(element)
  # an empty cell selects nothing: its one empty element is not "dropped"
  dropped <- empty & !(plain & !nzchar(trimmed))[cell]
  row <- cell[!empty]
  nothing <- setdiff(seq_along(cells), row)
  row <- c(row, nothing)
  label <- c(element[!empty], rep(NA_character_, length(nothing)))
  o <- order(row, method = "radix")  # stable: a cell's labels keep their order
  list(row = row[o], label = label[o], n_dropped = sum(dropped),
       n_cells = length(unique(cell[dropped])))
}

strip_label_element <- function(el) {
  el <- trimws(el)
  pair <- grepl("^\\[.*\\]$", el) | grepl("^\".*\"$", el) | grepl("^'.*'$", el)
  pair <- pair & nchar(el) >= 2L
  el[pair] <- trimws(substr(el[pair], 2L, nchar(el[pair]) - 1L))
  el
}

# The JSON arrays of strings among `texts`, named by their text; NULL for a
# text that is not one (then split as plain text).
json_string_arrays <- function(texts) {
  out <- lapply(texts, function(t) {
    parsed <- parse_json_text_cpp(enc2utf8(t), character())
    v <- parsed$value
    if (!is.null(parsed$error)) return(NULL)
    if (length(v) == 0L) return(character())
    if (!is.list(v) || !is.null(names(v))) v <- as.list(v)
    ok <- vapply(v, function(e) is.character(e) && length(e) == 1L && !is.na(e), logical(1))
    if (!all(ok)) return(NULL)
    unlist(v, use.names = FALSE)
  })
  names(out) <- texts
  out
}

abort_label_sep_database <- function(call = rlang::caller_env()) {
  mla_abort(c("{.arg label_sep} must be {.code NULL} for a database table.",
              "i" = "Split the cells in SQL, or {.fn dplyr::collect} the table first."),
            class = "label_sep", call = call)
}

# SQLite stores each value with its own storage class (an untyped column may
# hold 1, '1' and 'yes' side by side), so its columns are checked by value
# with typeof(); engines with strict column types by the prototype alone.

db_is_sqlite <- function(d) inherits(dbplyr::remote_con(d), "SQLiteConnection")

# A 0/1 column on SQLite: text other than '0'/'1' and blobs refused; text
# '0'/'1' cast to integer; numbers then checked by db_check_values().
db_sqlite_binary_value <- function(d, col, call, check = TRUE) {
  sym <- rlang::sym(col)
  if (!check) return(dplyr::mutate(d, !!col := ifelse(typeof(!!sym) == "text", as.integer(!!sym), !!sym)))
  bad <- dplyr::filter(d, typeof(!!sym) == "blob" |
                         (typeof(!!sym) == "text" & !(!!sym %in% c("0", "1"))))
  abort_db_not_binary(bad, col, call)
  dplyr::mutate(d, !!col := ifelse(typeof(!!sym) == "text", as.integer(!!sym), !!sym))
}

# The classed error for a 0/1 column whose rows `bad` hold other values.
abort_db_not_binary <- function(bad, col, call) {
  first <- db_first_as_text(bad, col, c("item", "annotator"))
  if (nrow(first) == 0) return(invisible())
  n_bad <- db_count(bad)
  abort_not_binary(col, "It holds values other than 0 and 1 ({n_bad} row{?s}); first (by item, annotator): {.val {first[[col]][1]}} ({describe_db_row(first, c('item', 'annotator'))}).",
                   c("i" = "Recode it in the database, after checking what each value means."),
                   class = "value_type", call = call)
}

# Id and label columns on SQLite hold numbers or text, never both, and no
# blobs: SQLite groups item 1 and item '1' apart, so a mixed column is refused
# rather than merged by a guess.
db_check_sqlite_ids <- function(d, cols, call) {
  checks <- list()
  for (col in cols) {
    sym <- rlang::sym(col)
    checks[[paste0(col, "_text")]] <- rlang::expr(sum(ifelse(typeof(!!sym) == "text", 1L, 0L), na.rm = TRUE))
    checks[[paste0(col, "_number")]] <- rlang::expr(
      sum(ifelse(typeof(!!sym) == "integer" | typeof(!!sym) == "real", 1L, 0L), na.rm = TRUE)
    )
    checks[[paste0(col, "_blob")]] <- rlang::expr(sum(ifelse(typeof(!!sym) == "blob", 1L, 0L), na.rm = TRUE))
  }
  s <- db_summary_counts(d, !!!checks)
  for (col in cols) {
    n_text <- s[[paste0(col, "_text")]]
    n_number <- s[[paste0(col, "_number")]]
    n_blob <- s[[paste0(col, "_blob")]]
    if (n_blob == 0 && (n_text == 0 || n_number == 0)) next
    kind <- if (n_blob > 0) "blob" else "text"
    sym <- rlang::sym(col)
    others <- setdiff(c("item", "annotator", "label"), col)
    others <- intersect(others, colnames(d))
    first <- db_first_as_text(dplyr::filter(d, typeof(!!sym) == !!kind), col, others)
    what <- if (n_blob > 0) {
      paste0(n_blob, " binary (blob) value", if (n_blob > 1) "s")
    } else {
      paste0(n_number, " number", if (n_number > 1) "s", " and ", n_text, " text value",
             if (n_text > 1) "s")
    }
    mla_abort(
      c("Column {.arg {col}} must hold values of one type (numbers or text).",
        "x" = "It holds {what}; first {kind} value: {.val {first[[col]][1]}} ({describe_db_row(first, others)}).",
        "i" = "SQLite keeps a type per value, so 1 and '1' would be two ids: cast the column in the database (e.g. {.code CAST({col} AS TEXT)})."),
      class = if (col == "label") "label_type" else "id_type", call = call
    )
  }
  invisible()
}

# The first row of q by `order`, as text: a column of mixed storage classes
# would make the driver coerce (and warn).
db_first_as_text <- function(q, col, order) {
  cols <- unique(c(col, order))
  shown <- lapply(cols, function(cl) rlang::expr(as.character(!!rlang::sym(cl))))
  names(shown) <- paste0("mla_text_", cols)
  # ordered by the stored values, in the outer query (no ORDER BY in a subquery)
  q <- dplyr::arrange(dplyr::mutate(q, !!!shown), !!!rlang::syms(order))
  first <- dplyr::collect(utils::head(dplyr::select(q, !!!rlang::syms(names(shown))), 1L))
  stats::setNames(first, cols)
}

# Errors of the engine or driver under the package's class, with the engine's
# message as parent.
with_db_errors <- function(expr, call) {
  withCallingHandlers(expr, error = function(e) {
    if (inherits(e, "mlagreement_error")) return()
    mla_abort(
      c("The database query failed.",
        "i" = "The engine's message is below: is the connection open, and are the table and its columns readable?"),
      parent = e, class = "db_query", call = call
    )
  })
}

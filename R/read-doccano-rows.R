# Selected-label rows of doccano records: one per (example, annotator, label),
# or one with label NA when nothing was selected. The legacy layout
# (`annotations: [{label, user}]`) gives one row per entry.

doccano_label_keys <- c("label", "labels", "cats")

doccano_paths <- function(item, annotator) {
  p <- list(item = item, is_confirmed = "is_confirmed", annotations = "annotations",
            entry = c("annotations", "[]"), entry_user = c("annotations", "[]", "user"),
            entry_label = c("annotations", "[]", "label"),
            entry_start = c("annotations", "[]", "start_offset"), entities = "entities")
  for (k in doccano_label_keys) {
    p[[k]] <- k
    p[[paste0(k, "[]")]] <- c(k, "[]")
  }
  if (!is.null(annotator)) p$annotator <- annotator
  p
}

# Rows of one chunk: `unannotated` marks the empty lists of per-user files
# that empty = "unannotated" drops; `legacy` the rows whose labels are ids;
# `record` the example's key within its file (for repeated examples).
doccano_rows <- function(x, path, source, item, annotator, empty, call = rlang::caller_env()) {
  records <- seq_len(x$n)
  where <- function(k) line_of(x$line[k], path)
  ids <- json_scalar(x, "item", records, item, where, required = TRUE, call = call)
  who <- if (is.null(annotator)) rep(source, x$n) else {
    json_scalar(x, "annotator", records, annotator, where, call = call)
  }
  first <- lapply(doccano_label_keys, function(k) json_first(x, k, records))
  pick <- ifelse(!is.na(first[[1]]), 1L, ifelse(!is.na(first[[2]]), 2L, ifelse(!is.na(first[[3]]), 3L, NA_integer_)))
  ai <- json_first(x, "annotations", records)
  label_null <- is.na(first[[1]]) | x$kind[first[[1]]] %in% 0L
  legacy <- is.null(annotator) & !is.na(ai) & x$kind[ai] %in% 5:6 & label_null
  # the label list: null (none) or an array
  cont <- rep(NA_integer_, x$n)
  for (k in 1:3) cont[pick %in% k] <- first[[k]][pick %in% k]
  check_json_units(x, cont, c("null", "array"), doccano_label_keys[pick], "an array of label names",
                   where, call, use = !legacy)
  el <- sort(unlist(lapply(1:3, function(k) {
    i <- x$at[[paste0(doccano_label_keys[k], "[]")]]
    i[x$record[i] %in% which(!legacy & pick %in% k)]
  })))
  # faults by record: in a label list 1 null, 2 an array (spans), 3 an
  # object; 7 legacy spans, 8 no label list, 9 no annotator; the first
  # record with one is reported
  fault <- integer(x$n)
  bad_el <- el[x$kind[el] %in% c(0L, 5L, 6L)]
  fault[rev(x$record[bad_el])] <- rev(match(x$kind[bad_el], c(0L, 5L, 6L)))
  entries <- doccano_legacy(x, legacy, where, call)
  fault[x$record[x$at$entry_start][legacy[x$record[x$at$entry_start]]]] <- 7L
  fault[!legacy & is.na(pick)] <- 8L
  fault[entries$record[is.na(entries$annotator)]] <- 9L
  fault[!legacy & (is.na(who) | !nzchar(who))] <- 9L
  if (any(fault > 0L)) {
    k <- which(fault > 0L)[1]
    abort_doccano_record(fault[k], where(k), !is.na(json_first(x, "entities", k)), call)
  }
  rec <- x$record[el]
  lab <- x$text[el]
  keep <- !duplicated_pairs(rec, lab)
  rec <- rec[keep]
  lab <- lab[keep]
  none <- which(!legacy & !records %in% rec)
  confirmed <- json_true(x, json_first(x, "is_confirmed", records))
  unannotated <- is.null(annotator) && empty == "unannotated"
  r <- c(rec, none, entries$record)
  o <- order(r, method = "radix")
  r <- r[o]
  list(file = rep(source, length(r)), line = x$line[r], item = ids[r],
       annotator = c(who[rec], who[none], entries$annotator)[o],
       label = c(lab, rep(NA_character_, length(none)), entries$label)[o],
       unannotated = c(rep(FALSE, length(rec)), unannotated & !confirmed[none],
                       rep(FALSE, length(entries$record)))[o],
       legacy = legacy[r],
       record = ifelse(legacy[r] | is.null(annotator), ids[r], paste(ids[r], who[r], sep = "\r")))
}

abort_doccano_record <- function(fault, where, has_entities, call) {
  if (fault == 9L) {
    mla_abort(c("Every annotation must have an annotator id.",
                "x" = "{where} has none.",
                "i" = "Give one file per user, or name the user field in {.arg annotator}."),
              class = "annotator", call = call)
  }
  spans <- "Sequence-labeling and relation exports hold spans, not classifications."
  problem <- switch(
    as.character(fault),
    "1" = c("x" = "{where} has {.code null} in its label list.", "i" = "A label is a name."),
    "2" = c("x" = "{where} has spans ({.code [start, end, label]}).", "i" = spans),
    "3" = c("x" = "{where} has an object in its label list.", "i" = "A label is a name."),
    "7" = c("x" = "{where} has {.field annotations} with {.field start_offset}: spans.", "i" = spans),
    "8" = c("x" = if (has_entities) "{where} has {.field entities} and no label list." else "{where} has no label list.",
            "i" = if (has_entities) spans else "doccano writes one ({.field label}, {.field labels} or {.field cats}) on every line of a text-classification export.")
  )
  mla_abort(c("Every line of a doccano text-classification export must list label names.", problem),
            class = "json_field", call = call)
}

# The legacy entries, one row per (user, label); annotator NA without a user.
doccano_legacy <- function(x, legacy, where, call) {
  ai <- json_first(x, "annotations", seq_len(x$n))
  check_json_units(x, ai, "array", "annotations", "an array of {label, user} entries", where, call,
                   use = legacy)
  en <- x$at$entry
  en <- en[legacy[x$record[en]]]
  check_json_kind(x, en, "object", "annotations", "an array of {label, user} entries",
                  function(k) where(x$record[en][k]), call)
  member <- function(name, field) {
    i <- x$at[[name]]
    j <- i[match(x$cap[[1]][en], x$cap[[1]][i])]
    check_json_units(x, j, json_kinds[1:5], field, "a string or a number",
                     function(u) where(x$record[en][u]), call)
    x$text[j]
  }
  list(record = x$record[en], annotator = member("entry_user", "user"),
       label = member("entry_label", "label"))
}

# An example listed twice in one user's file would merge two annotations.
check_doccano_repeats <- function(tbl, path, item, call) {
  first <- !duplicated(tbl$line)
  dup <- duplicated(tbl$record[first])
  if (!any(dup)) return(invisible())
  k <- which(first)[which(dup)[1]]
  before <- tbl$line[first][match(tbl$record[k], tbl$record[first])]
  mla_abort(c("Every example must appear once in each user's file.",
              "x" = "{line_of(tbl$line[k], path)} repeats {.field {item}} {.val {tbl$item[k]}} of line {before}.",
              "i" = "{sum(dup)} repeated line{?s}; a user's two annotations of one example cannot be told apart."),
            class = "duplicate_item", call = call)
}

# Label Studio's JSON-MIN export, control by control, in the flat form of
# label_studio_flat_results(). A control's value, as the converter prettifies
# it, is a text (one choice), a result value ({"choices": [...]},
# {"taxonomy": [[...], ...]}, {"<x>labels": [...]}) or an array of these.

# The paths of control j: its value, array elements, object members and their
# array elements, and the parts of taxonomy paths.
label_studio_min_paths <- function(controls) {
  paths <- list(id = "id", annotator = "annotator", annotation_id = "annotation_id",
                was_cancelled = "was_cancelled")
  for (j in seq_along(controls)) {
    ctl <- controls[[j]]
    paths[paste0(c("v", "el", "ok", "okel", "otax", "ek", "ekel", "etax"), j)] <- list(
      ctl, c(ctl, "[]"), c(ctl, "*"), c(ctl, "*", "[]"), c(ctl, "taxonomy", "[]", "[]"),
      c(ctl, "[]", "*"), c(ctl, "[]", "*", "[]"), c(ctl, "[]", "taxonomy", "[]", "[]"))
  }
  paths
}

label_studio_min_flat <- function(path, controls, universe, where, call) {
  what <- "a Label Studio JSON-MIN export"
  x <- json_fields_array(path, label_studio_min_paths(controls), what, call = call)
  recs <- seq_len(x$n)
  text <- function(name) {
    j <- json_first(x, name, recs)
    out <- x$text[j]
    out[!is.na(j) & x$kind[j] >= 5L] <- NA_character_  # arrays and objects are no id
    flat_text(out)
  }
  cancelled <- x$text[json_first(x, "was_cancelled", recs)]
  labels <- lapply(seq_along(controls), function(j) {
    min_control_labels(x, j, universe[[controls[[j]]]], where, controls[[j]], call)
  })
  present <- controls[lengths(x$at[paste0("v", seq_along(controls))]) > 0L]
  list(present = present,
       fields = function() {
         f <- json_fields_array(path, list(field = "*"), what, call = call)
         unique(f$key[f$at$field])
       },
       item = text("id"), annotator = text("annotator"), annotation = text("annotation_id"),
       has_annotation = !is.na(json_first(x, "annotation_id", recs)),
       cancelled = !is.na(cancelled) & tolower(cancelled) == "true",
       labels = stats::setNames(labels, controls))
}

label_rows <- function(...) {
  parts <- list(...)
  col <- function(name) unlist(lapply(parts, `[[`, name), use.names = FALSE)
  list(rec = col("rec") %||% integer(), pos = col("pos") %||% integer(),
       sub = col("sub") %||% integer(), label = col("label") %||% character())
}

# The (record, label) pairs of control j, in order; each label once per record.
min_control_labels <- function(x, j, declared, where, ctl, call) {
  at <- function(name) x$at[[paste0(name, j)]]
  v <- at("v")
  twice <- anyDuplicated(x$record[v])
  if (twice > 0L) {
    mla_abort(c("Every record must hold each control once.",
                "x" = "{where(x$record[v][twice])} has the field {.field {ctl}} twice."),
              class = "json_field", call = call)
  }
  el <- at("el")
  # values (position 0) and array elements (their serial), not objects
  values <- list(rec = x$record[v], pos = integer(length(v)), kind = x$kind[v], text = x$text[v])
  elems <- list(rec = x$record[el], pos = x$cap[[1]][el], kind = x$kind[el], text = x$text[el])
  scalars <- function(d) {
    s <- d$kind %in% 1:3  # false, true, number: their text
    str <- which(d$kind == 4L)
    p <- string_labels(d$text[str], seq_along(str), declared)
    label_rows(list(rec = d$rec[s], pos = d$pos[s], sub = integer(sum(s)), label = d$text[s]),
               list(rec = d$rec[str][p$rec], pos = d$pos[str][p$rec], sub = seq_along(p$rec),
                    label = p$label))
  }
  # objects at the value (unit: the record) or at an element (its serial)
  top <- min_object_labels(x, at("ok"), at("okel"), at("otax"), x$record, depth = 0L)
  inner <- min_object_labels(x, at("ek"), at("ekel"), at("etax"), x$cap[[1]], depth = 1L)
  of <- match(inner$unit, elems$pos)
  # an array in a choices or labels array is refused, as in the JSON export
  names_only <- function(obj, record_of) {
    check_json_kind(x, obj$elements, c("null", json_kinds[2:5]), x$key[obj$elements],
                    "an array of names (not nested)",
                    function(k) where(record_of(obj$element_unit[k])), call)
  }
  names_only(top, identity)
  names_only(inner, function(u) elems$rec[match(u, elems$pos)])
  out <- label_rows(scalars(values), scalars(elems),
                    list(rec = top$unit, pos = integer(length(top$unit)), sub = top$sub,
                         label = top$label),
                    list(rec = elems$rec[of], pos = elems$pos[of], sub = inner$sub,
                         label = inner$label))
  o <- order(out$rec, out$pos, out$sub, method = "radix")
  rec <- out$rec[o]
  label <- out$label[o]
  keep <- !is.na(label) & !duplicated_pairs(rec, label)
  list(rec = rec[keep], label = label[keep])
}

# The labels of result-value objects: the taxonomy paths (parts joined by "/")
# when `taxonomy` is non-null, else `choices`, else the first member whose
# name ends in "labels". `unit_of` gives an emission's object; `mem`, `arr`
# and `tax` are members, their array elements and taxonomy path parts.
min_object_labels <- function(x, mem, arr, tax, unit_of, depth) {
  cap <- function(i, k) x$cap[[depth + k]][i]
  m_unit <- unit_of[mem]
  m_key <- x$key[mem]
  units <- unique(m_unit)
  non_null <- function(key) units %in% m_unit[m_key == key & x$kind[mem] != 0L]
  lab <- grepl("labels$", m_key)
  use <- ifelse(non_null("taxonomy"), "taxonomy",
                ifelse(non_null("choices"), "choices", m_key[lab][match(units, m_unit[lab])]))
  uses <- function(unit, key) (key == use[match(unit, units)]) %in% TRUE
  # taxonomy: one label per path, in order
  t_unit <- unit_of[tax]
  t <- uses(t_unit, "taxonomy")
  o <- which(t)[order(t_unit[t], cap(tax, 1L)[t], cap(tax, 2L)[t], method = "radix")]
  path_of <- cap(tax, 1L)[o]
  first <- !duplicated_pairs(t_unit[o], path_of)
  paths <- list(unit = t_unit[o][first], sub = path_of[first],
                label = unname(vapply(split(x$text[tax][o], cumsum(first)), paste, "",
                                      collapse = "/")))
  # choices and *labels: a scalar value is its text, an array its elements
  sc <- uses(m_unit, m_key) & m_key != "taxonomy" & x$kind[mem] %in% 1:4
  a_unit <- unit_of[arr]
  a <- uses(a_unit, x$key[arr]) & x$key[arr] != "taxonomy"
  list(unit = c(paths$unit, m_unit[sc], a_unit[a]),
       sub = c(paths$sub, integer(sum(sc)), cap(arr, 2L)[a]),
       label = c(paths$label, x$text[mem][sc], x$text[arr][a]),
       elements = arr[a], element_unit = a_unit[a])
}

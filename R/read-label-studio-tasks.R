# Annotations and selections of Label Studio's JSON export: `annotations` and
# `result` must be arrays, `value` an object, `choices` and the `*labels`
# arrays of names, `taxonomy` an array of paths.

label_studio_paths <- function() {
  a <- c("annotations", "[]")
  r <- c(a, "result", "[]")
  list(task_id = "id", annotations = "annotations", completions = "completions",
       annotation_id = "annotation_id", annotator = "annotator",
       annotation = a, a_id = c(a, "id"), cancelled = c(a, "was_cancelled"),
       by = c(a, "completed_by"), by_email = c(a, "completed_by", "email"),
       by_id = c(a, "completed_by", "id"), result = c(a, "result"), result_el = r,
       from_name = c(r, "from_name"), value = c(r, "value"), value_key = c(r, "value", "*"),
       value_item = c(r, "value", "*", "[]"), taxonomy_part = c(r, "value", "taxonomy", "[]", "[]"))
}

# Whether the tasks are JSON-MIN records: flat, with annotation fields.
label_studio_is_min <- function(x) {
  tasks <- seq_len(x$n)
  has <- function(name) !is.na(json_first(x, name, tasks))
  x$n > 0L && all(!has("annotations") & !has("completions") & (has("annotation_id") | has("annotator")))
}

label_studio_results_x <- function(x, path, call) {
  tasks <- seq_len(x$n)
  task_where <- function(k) line_of(k, path, "Task")
  ai <- json_first(x, "annotations", tasks)
  none <- is.na(ai) | x$kind[ai] == 0L
  if (x$n == 0L) {
    mla_abort(c("{.arg path} must be a Label Studio JSON export: an array of tasks.",
                "x" = "{.file {path}} holds an empty array at the top level."), class = "version", call = call)
  }
  if (any(none)) {
    k <- which(none)[1]
    hint <- if (!is.na(json_first(x, "completions", k))) {
      "It has {.field completions}: an export of Label Studio < 1.0. Re-export it with Label Studio >= 1.0."
    } else {
      "Is it the task import file (data only)? Export the project with {.strong Export > JSON}."
    }
    mla_abort(c("Every task of {.arg path} must have an {.field annotations} array.",
                "x" = "Task {k} of {.file {path}} has none.", "i" = hint),
              class = "version", call = call)
  }
  check_json_kind(x, ai, "array", "annotations", "an array of annotations", task_where, call)
  item <- json_scalar(x, "task_id", tasks, "id", task_where, call = call)
  item[is.na(item)] <- as.character(tasks[is.na(item)])
  an <- x$at$annotation
  check_json_kind(x, an, "object", "annotations", "an array of annotations (objects)",
                  function(k) task_where(x$record[an][k]), call)
  unit <- x$cap[[1]][an]
  rec <- x$record[an]
  index <- seq_along(an) - match(rec, rec) + 1L
  where <- function(k) cli::format_inline("Annotation {index[k]} of task {.val {item[rec[k]]}} in {.file {path}}")
  cancelled <- json_true(x, json_first(x, "cancelled", unit, 1L))
  who <- label_studio_completed_by(x, unit, where, call)
  who[cancelled] <- "-"
  if (anyNA(who) || !all(nzchar(who))) {
    k <- which(is.na(who) | !nzchar(who))[1]
    mla_abort(c("Every annotation must have an annotator id ({.field completed_by}).",
                "x" = "{where(k)} has none."),
              class = "annotator", call = call)
  }
  aid <- json_scalar(x, "a_id", unit, "id", where, depth = 1L, call = call)
  miss <- which(is.na(aid))
  aid[miss] <- paste0(item[rec[miss]], "-", index[miss])
  keep <- !cancelled
  ann <- tibble::tibble(item = item[rec][keep], annotator = who[keep], annotation = aid[keep])
  kept <- which(keep)  # messages about kept annotation k name the k-th kept one
  sel <- label_studio_selections(x, unit[keep], aid[keep], item[rec][keep], function(k) where(kept[k]), call)
  list(ann = ann, sel = sel, n_cancelled = sum(cancelled))
}

# The annotator of each annotation: `completed_by` as an id, or an object
# with `email` (else `id`); NA where there is none.
label_studio_completed_by <- function(x, unit, where, call) {
  j <- json_first(x, "by", unit, 1L)
  expected <- "a user id or an object with the user's email"
  check_json_units(x, j, json_kinds[-6], "completed_by", expected, where, call)
  who <- rep(NA_character_, length(j))
  scalar <- which(x$kind[j] %in% 1:4)
  who[scalar] <- x$text[j[scalar]]
  obj <- !is.na(j) & x$kind[j] == 6L
  for (f in c("by_id", "by_email")) {
    e <- json_first(x, f, unit, 1L)
    check_json_units(x, e, json_kinds[1:5], "completed_by", expected, where, call, use = obj)
    use <- obj & !is.na(e) & x$kind[e] != 0L
    who[use] <- x$text[e[use]]
  }
  who
}

# Selections (one row per selected label) of the kept annotations `unit`.
label_studio_selections <- function(x, unit, aid, item, where, call) {
  rl <- x$at$result_el
  a <- match(x$cap[[1]][rl], unit)
  rl <- rl[!is.na(a)]
  a <- a[!is.na(a)]
  res <- x$cap[[2]][rl]
  rc <- json_first(x, "result", unit, 1L)
  check_json_units(x, rc, c("null", "array"), "result", "an array of results", where, call)
  where_result <- function(k) where(a[k])  # result k's annotation
  check_json_kind(x, rl, "object", "result", "an array of results (objects)", where_result, call)
  from <- json_first(x, "from_name", res, 2L)
  check_json_units(x, from, c("null", "string"), "from_name", "a control name", where_result, call)
  val <- json_first(x, "value", res, 2L)
  ok <- !is.na(from) & x$kind[from] == 4L & !is.na(val)
  check_json_units(x, val, "object", "value", "an object", where_result, call, use = ok)
  # the selection key of each result: taxonomy, choices, else the first *labels
  vk <- x$at$value_key
  vk <- vk[x$cap[[2]][vk] %in% res[ok]]
  key <- x$key[vk]
  rank <- ifelse(key == "taxonomy" & x$kind[vk] != 0L, 1L,
                 ifelse(key == "choices" & x$kind[vk] != 0L, 2L, ifelse(grepl("labels$", key), 3L, NA)))
  vk <- vk[!is.na(rank)]
  rank <- rank[!is.na(rank)]
  o <- order(x$cap[[2]][vk], rank, method = "radix")
  vk <- vk[o][!duplicated(x$cap[[2]][vk][o])]
  ra <- a[match(x$cap[[2]][vk], res)]
  taxonomy <- x$key[vk] == "taxonomy"
  check_json_kind(x, vk, c("null", "array"), x$key[vk],
                  "an array (choices, labels or taxonomy paths)", function(k) where(ra[k]), call)
  el <- x$at$value_item
  el <- el[x$cap[[3]][el] %in% x$cap[[3]][vk]]
  ea <- ra[match(x$cap[[3]][el], x$cap[[3]][vk])]
  tax_el <- x$cap[[3]][el] %in% x$cap[[3]][vk][taxonomy]
  check_json_kind(x, el[!tax_el], c("null", json_kinds[2:5]), x$key[el][!tax_el],
                  "an array of names (not nested)", function(k) where(ea[!tax_el][k]), call)
  check_json_kind(x, el[tax_el], "array", "taxonomy", "an array of paths (arrays of names)",
                  function(k) where(ea[tax_el][k]), call)
  el_keep <- x$kind[el] != 0L
  label <- x$text[el]
  label[tax_el] <- label_studio_taxonomy_paths(x, x$cap[[4]][el[tax_el]], where, ea[tax_el], call)
  el <- el[el_keep]
  ea <- ea[el_keep]
  label <- label[el_keep]
  tax_el <- tax_el[el_keep]
  control <- x$text[from[match(x$cap[[2]][el], res)]]
  # choices and labels count once per result; taxonomy paths as given
  dup <- !tax_el & duplicated_pairs(x$cap[[2]][el], label)
  tibble::tibble(item = item[ea][!dup], annotation = aid[ea][!dup], control = control[!dup],
                 label = label[!dup])
}

# Taxonomy paths joined with "/" (`path` the serial of each path array).
label_studio_taxonomy_paths <- function(x, path, where, which_ann, call) {
  if (length(path) == 0L) return(character())
  tp <- x$at$taxonomy_part
  tp <- tp[x$cap[[3]][tp] %in% path]
  check_json_kind(x, tp, json_kinds[2:5], "taxonomy", "an array of paths (arrays of names)",
                  function(k) where(which_ann[match(x$cap[[3]][tp][k], path)]), call)
  joined <- vapply(split(x$text[tp], factor(x$cap[[3]][tp], levels = path)), paste, "", collapse = "/")
  unname(joined)
}

# The decisions of Prodigy tasks: a task is a line, or in a review task one
# (version, session) pair; a choice task gives one row per option, a binary
# task one row. `options`, `accept`, `versions` and `sessions` must be arrays,
# options objects, ids and accepted ids scalars.

prodigy_paths <- function(item) {
  task <- list(answer = "answer", label = "label", options = "options", option = c("options", "[]"),
               option_id = c("options", "[]", "id"), option_text = c("options", "[]", "text"),
               accept = "accept", accepted = c("accept", "[]"))
  version <- lapply(task, function(p) c("versions", "[]", p))
  names(version) <- paste0("v_", names(task))
  c(list(item = item, annotator = "_annotator_id", session_id = "_session_id",
         versions = "versions", version = c("versions", "[]"),
         sessions = c("versions", "[]", "sessions"),
         review_session = c("versions", "[]", "sessions", "[]")),
    task, version)
}

# Decisions of one chunk of lines. Excluded answers keep a row to be counted.
prodigy_decisions <- function(x, path, item, named, call = rlang::caller_env()) {
  where_line <- function(k) line_of(x$line[k], path)
  items <- json_scalar(x, "item", seq_len(x$n), item, where_line, required = TRUE, call = call)
  tasks <- prodigy_tasks(x, where_line, call)
  where <- function(k) where_line(tasks$record[k])
  annotator <- prodigy_annotator(x, tasks, where, optional = named, call = call)
  answer <- json_scalar_at(x, prodigy_first(x, "answer", tasks), "answer", where, TRUE, call)
  bad <- !answer %in% c("accept", "reject", "ignore")
  if (any(bad)) {
    k <- which(bad)[1]
    mla_abort(c("Every Prodigy task must have {.field answer} {.val accept}, {.val reject} or {.val ignore}.",
                "x" = "{where(k)} has {.val {answer[k]}}."), class = "json_field", call = call)
  }
  rows <- prodigy_rows(x, tasks, answer, where, call)
  idx <- rows$idx
  line <- x$line[tasks$record][idx]
  list(line = line, item = items[tasks$record][idx], annotator = annotator[idx],
       label = rows$label, option = rows$option, value = rows$value,
       answer = answer[idx], kind = rows$kind, task = line * 2^24 + tasks$sub[idx],
       task_line = line, review = tasks$depth[idx] == 1L)
}

# The tasks of a chunk in order: a line without `versions`, else one per
# (version, session); `unit` is the record or the version's serial.
prodigy_tasks <- function(x, where, call) {
  records <- seq_len(x$n)
  check_json_units(x, json_first(x, "versions", records), c("null", "array"), "versions",
                   "an array of the reviewed versions", where, call)
  ver <- x$at$version
  check_json_kind(x, ver, "object", "versions", "an array of objects (one per version)",
                  function(k) where(x$record[ver][k]), call)
  si <- x$at$sessions
  check_json_kind(x, si, c("null", "array"), "sessions", "an array of session ids",
                  function(k) where(x$record[si][k]), call)
  se <- x$at$review_session
  check_json_kind(x, se, c("null", "false", "true", "number", "string"), "sessions",
                  "an array of session ids (not nested)", function(k) where(x$record[se][k]), call)
  se <- se[x$kind[se] != 0L]
  plain <- which(!records %in% x$record[ver])
  record <- c(plain, x$record[se])
  o <- order(record, method = "radix")
  depth <- rep(0:1, c(length(plain), length(se)))[o]
  record <- record[o]
  sub <- seq_along(record) - match(record, record) + 1L
  list(record = record, unit = c(plain, x$cap[[1]][se])[o], depth = depth,
       session = c(rep(NA_character_, length(plain)), x$text[se])[o],
       sub = ifelse(depth == 1L, sub, 0L))
}

prodigy_annotator <- function(x, tasks, where, optional = FALSE, call = rlang::caller_env()) {
  plain <- which(tasks$depth == 0L)
  ann <- session <- tasks$session
  w <- function(k) where(plain[k])
  ann[plain] <- json_scalar(x, "annotator", tasks$record[plain], "_annotator_id", w, call = call)
  session[plain] <- json_scalar(x, "session_id", tasks$record[plain], "_session_id", w, call = call)
  ann[is.na(ann) | !nzchar(ann)] <- session[is.na(ann) | !nzchar(ann)]
  none <- is.na(ann) | !nzchar(ann)
  if (any(none) && !optional) {
    k <- which(none)[1]
    mla_abort(c("Every Prodigy task must have an annotator id ({.field _annotator_id} or {.field _session_id}).",
                "x" = "{where(k)} has none.",
                "i" = "Name the annotator of each file with {.arg annotator}, e.g. {.code read_prodigy(\"alex.jsonl\", annotator = \"alex\")}; annotate with named sessions ({.code ?session=alex}) to record who annotated."),
              class = "annotator", call = call)
  }
  ann[none] <- NA_character_
  ann
}

# Rows of all tasks: a choice task one per option (1 when its id is accepted),
# a binary task one row (1 for "accept"). `idx` gives each row's task.
prodigy_rows <- function(x, tasks, answer, where, call) {
  parts <- lapply(0:1, function(d) {
    at <- which(tasks$depth == d)
    prodigy_options(x, if (d == 0L) "" else "v_", tasks$unit[at], d, function(k) where(at[k]), call)
  })
  choice <- logical(length(tasks$record))
  fault <- integer(length(tasks$record))
  for (d in 0:1) {
    at <- which(tasks$depth == d)
    choice[at] <- parts[[d + 1L]]$choice
    fault[at] <- parts[[d + 1L]]$fault
  }
  label <- json_string(x, prodigy_first(x, "label", tasks))
  fault[!choice & is.na(label)] <- 4L
  if (any(fault > 0L)) prodigy_abort_task(which(fault > 0L)[1], fault, parts, tasks, where, call)
  rows <- lapply(0:1, function(d) {
    group <- which(tasks$depth == d)
    p <- parts[[d + 1L]]
    u <- p$task_unit[choice[group]]
    r <- sequence(p$count[u]) + rep(p$start[u] - 1L, p$count[u])
    list(idx = rep(group[choice[group]], p$count[u]), label = p$label[r], option = p$id[r],
         value = p$value[r])
  })
  bin <- which(!choice)
  idx <- c(rows[[1]]$idx, rows[[2]]$idx, bin)
  o <- order(idx, method = "radix")  # stable: a task's options stay in order
  n_choice <- length(idx) - length(bin)
  list(idx = idx[o], label = c(rows[[1]]$label, rows[[2]]$label, label[bin])[o],
       option = c(rows[[1]]$option, rows[[2]]$option, rep(NA_character_, length(bin)))[o],
       value = c(rows[[1]]$value, rows[[2]]$value, as.integer(answer[bin] == "accept"))[o],
       kind = rep(c("choice", "binary"), c(n_choice, length(bin)))[o])
}

# The emission of a field of every task: on its line, or in its version.
prodigy_first <- function(x, name, tasks) {
  j <- rep(NA_integer_, length(tasks$record))
  for (d in 0:1) {
    at <- which(tasks$depth == d)
    j[at] <- json_first(x, if (d == 0L) name else paste0("v_", name), tasks$unit[at], d)
  }
  j
}

# The options and accepted ids of the tasks of one depth; per distinct unit
# `fault` 1 (an option without id), 2 (two options with one text), 3 (an
# accepted id not offered).
prodigy_options <- function(x, prefix, units, d, where, call) {
  nm <- function(s) paste0(prefix, s)
  uu <- unique(units)
  task_unit <- match(units, uu)
  w <- function(u) where(match(u, task_unit))
  oi <- json_first(x, nm("options"), uu, d)
  has <- !is.na(oi) & x$kind[oi] != 0L
  shape <- "an array of options (objects with an id and a text)"
  check_json_units(x, oi, "array", "options", shape, w, call, use = has)
  el <- x$at[[nm("option")]]
  eu <- match(json_unit(x, el, d), uu)
  el <- el[!is.na(eu)]
  eu <- eu[!is.na(eu)]
  check_json_kind(x, el, "object", "options", shape, function(k) w(eu[k]), call)
  opt <- json_unit(x, el, d + 1L)
  member <- function(name, field) {
    i <- x$at[[nm(name)]]
    j <- i[match(opt, json_unit(x, i, d + 1L))]
    check_json_units(x, j, json_kinds[1:5], field, "a string or a number",
                     function(u) w(eu[u]), call)
    j
  }
  j <- member("option_id", "id")
  ids <- x$text[j]
  t <- member("option_text", "text")
  text <- x$text[t]
  use <- which(x$kind[t] == 4L & nzchar(text))
  label <- ids
  label[use] <- text[use]
  ai <- json_first(x, nm("accept"), uu, d)
  check_json_units(x, ai, c("null", "array"), "accept", "an array of the accepted option ids",
                   w, call)
  ae <- x$at[[nm("accepted")]]
  au <- match(json_unit(x, ae, d), uu)
  ae <- ae[!is.na(au)]
  au <- au[!is.na(au)]
  check_json_kind(x, ae, json_kinds[1:5], "accept", "an array of option ids (not nested)",
                  function(k) w(au[k]), call)
  au <- au[x$kind[ae] != 0L]
  accepted <- x$text[ae[x$kind[ae] != 0L]]
  codes <- unique(c(ids, label))
  pair <- function(u, v) u * (length(codes) + 1) + match(v, codes, nomatch = 0L)
  opt_key <- pair(eu, ids)
  acc_key <- pair(au, accepted)  # an id not offered has code 0, so no match
  fault <- integer(length(uu))
  fault[au[!acc_key %in% opt_key & has[au]]] <- 3L
  fault[eu[duplicated_pairs(eu, label) & !is.na(ids)]] <- 2L
  fault[eu[is.na(ids)]] <- 1L
  fault[!has] <- 0L
  list(choice = has[task_unit], fault = fault[task_unit], task_unit = task_unit,
       start = match(seq_along(uu), eu), count = tabulate(eu, length(uu)), unit = eu,
       id = ids, label = label, value = as.integer(opt_key %in% acc_key),
       accepted_unit = au, accepted = accepted)
}

prodigy_abort_task <- function(k, fault, parts, tasks, where, call) {
  d <- tasks$depth[k]
  p <- parts[[d + 1L]]
  u <- p$task_unit[match(k, which(tasks$depth == d))]
  ids <- p$id[p$unit %in% u]
  labels <- p$label[p$unit %in% u]
  switch(fault[k],
    mla_abort(c("Every option of a Prodigy task must have an {.field id}.",
                "x" = "{where(k)} has an option without one."),
              class = "json_field", call = call),
    {
      dup <- labels[duplicated(labels)][1]
      mla_abort(c("Every option of a Prodigy task must have its own text.",
                  "x" = "{where(k)} offers {.val {dup}} for ids {.val {ids[labels == dup]}}."),
                class = "duplicate_label", call = call)
    },
    {
      unknown <- setdiff(p$accepted[p$accepted_unit %in% u], ids)
      mla_abort(c("Every accepted id must be one of the task's {.field options}.",
                  "x" = "{where(k)} accepts {.val {unknown}}, not offered."),
                class = "unknown_label", call = call)
    },
    mla_abort(c("Every Prodigy task must have {.field options} (choice) or a {.field label} (binary).",
                "x" = "{where(k)} has neither.",
                "i" = "Spans ({.field spans}) are not classification decisions."),
              class = "json_field", call = call)
  )
}

# The answers of a Le-Wi-Di file: one row per (item, annotator, layer), in
# file order. `annotators` is a comma-joined string (2023) unless
# `annotations` is an object keyed by annotator (2025); a layer is a
# comma-joined string or such an object.

lewidi_paths <- function() {
  other <- c("*", "other_info", "other annotations")
  other2 <- c("*", "other_info", "other_annotations")
  list(item = "*", annotators = c("*", "annotators"), annotations = c("*", "annotations"),
       answer = c("*", "annotations", "*"), task = c("*", "annotation task"),
       split = c("*", "split"), soft = c("*", "soft_label", "*"),
       other = other, layer = c(other, "*"), layer_answer = c(other, "*", "*"),
       other2 = other2, layer2 = c(other2, "*"), layer2_answer = c(other2, "*", "*"))
}

lewidi_answers <- function(path, source, call = rlang::caller_env()) {
  x <- json_fields_file(path, lewidi_paths(), call = call)  # units are items
  it <- x$at$item
  if (x$first != "{" || length(it) == 0L || any(x$kind[it] != 6L)) {
    what <- if (x$first != "{") json_first_kind(x$first) else if (length(it) == 0L) "an empty object" else {
      k <- which(x$kind[it] != 6L)[1]
      cli::format_inline("{json_kind_text[x$kind[it][k] + 1L]} as item {.val {x$key[it][k]}}")
    }
    mla_abort(c("{.arg path} must be a Le-Wi-Di file: a JSON object of items keyed by id.",
                "x" = "{.file {path}} holds {what} at the top level."),
              class = "version", call = call)
  }
  ids <- x$key[it]
  item <- x$cap[[1]][it]
  n <- length(it)
  per <- function(name) json_first(x, name, item, 1L)
  where <- function(k) cli::format_inline("item {.val {ids[k]}} of {.file {path}}")
  ann <- lewidi_annotators(x, item, per, where, call)
  main <- json_string(x, per("task"))
  main[is.na(main)] <- "annotations"
  layers <- lewidi_layers(x, item, main, per)
  answer <- lewidi_layer_answers(x, layers, ann, where, call)
  split <- json_string(x, per("split"))
  split[is.na(split) | !nzchar(split)] <- source
  # the answers are `code` into `levels`, layer instance by instance; an
  # instance's answers start after `ans0`, its annotators after `who0`
  n <- ann$n[layers$item]
  names <- unique(layers$name)
  inst <- list(item = layers$item, n = n, who0 = ann$start[layers$item] - 1L,
               ans0 = cumsum(n) - n, layer = match(layers$name, names))
  list(ids = ids, split = split, file = source, inst = inst, layer_names = names,
       names = ann$name, code = answer$code, levels = answer$levels, soft = lewidi_soft(x, item, main))
}

lewidi_annotators <- function(x, item, per, where, call) {
  ac <- per("annotations")
  obj <- !is.na(ac) & x$kind[ac] == 6L
  at <- per("annotators")
  str <- !obj & !is.na(at) & x$kind[at] == 4L
  if (!all(obj | str)) {
    k <- which(!(obj | str))[1]
    mla_abort(c("Every Le-Wi-Di item must list its annotators.",
                "x" = "{.field annotators} of {where(k)} is missing or not a comma-joined string.",
                "i" = "Known layouts: Le-Wi-Di 2023 (comma-joined strings) and 2025 (an {.field annotations} object)."),
              class = "version", call = call)
  }
  # every item is `obj` or `str` here: its annotators are the keys of its
  # annotations (am) or the parts of its string
  am <- x$at$answer
  parts <- split_comma_codes(x$text[at[str]])
  ka <- match(x$cap[[1]][am], item)
  key <- x$key[am]
  of <- rep(which(str), parts$n)
  flat <- parts$levels[parts$code]
  if (length(am) > 0L) {
    of <- c(ka, of)
    flat <- c(key, flat)
  }
  if (is.unsorted(of)) {
    o <- order(of, method = "radix")
    of <- of[o]
    flat <- flat[o]
  }
  n <- tabulate(of, length(item))
  start <- cumsum(n) - n + 1L
  bad <- n == 0L
  # empty or repeated names: keys one by one, strings once per distinct string
  bad[ka[!nzchar(key) | duplicated_pairs(ka, key)]] <- TRUE
  lv <- parts$levels
  of_u <- rep(seq_along(parts$len), parts$len)
  bad_u <- logical(length(parts$len))
  bad_u[of_u[!nzchar(lv) | duplicated_pairs(of_u, lv)]] <- TRUE
  bad[which(str)[bad_u[parts$at]]] <- TRUE
  if (any(bad)) {
    k <- which(bad)[1]
    a <- flat[of == k]
    problem <- if (length(a) == 0L) {
      if (str[k]) "{.field annotators} of {where(k)} is empty." else "{.field annotations} of {where(k)} is an empty object."
    } else if (any(!nzchar(a))) {
      "Annotators of {where(k)}: {.val {a}}, annotator {which(!nzchar(a))[1]} has no id."
    } else {
      "Annotators of {where(k)}: {.val {a}}, {.val {a[duplicated(a)][1]}} twice."
    }
    mla_abort(c("Every annotation must have an annotator id, once per item.", "x" = problem),
              class = "annotator", call = call)
  }
  list(name = flat, n = n, start = start)
}

# The layers of every item: the main one (`annotations`), then those of
# `other annotations`; `at` is the emission holding its answers, NA if none.
lewidi_layers <- function(x, item, main, per) {
  o1 <- per("other")
  use2 <- is.na(o1) | x$kind[o1] == 0L
  l1 <- x$at$layer
  l1 <- l1[!use2[match(x$cap[[1]][l1], item)]]
  l2 <- x$at$layer2
  l2 <- l2[use2[match(x$cap[[1]][l2], item)]]
  lo <- sort(c(l1, l2))
  li <- match(x$cap[[1]][lo], item)
  at <- c(per("annotations"), lo)
  it <- c(seq_along(item), li)
  o <- order(it, method = "radix")
  list(item = it[o], name = c(main, x$key[lo])[o], at = at[o],
       serial = c(rep(NA_integer_, length(item)), x$cap[[2]][lo])[o],
       main = rep(c(TRUE, FALSE), c(length(item), length(lo)))[o])
}

# One answer per (layer, annotator), layer by layer: `code` into `levels`.
lewidi_layer_answers <- function(x, layers, ann, where, call) {
  n_ann <- ann$n[layers$item]
  kind <- x$kind[layers$at]
  str <- which(kind == 4L)
  parts <- split_comma_codes(x$text[layers$at[str]])
  for (i in list(x$at$answer, x$at$layer_answer, x$at$layer2_answer)) {
    check_json_kind(x, i, json_kinds[2:5], "annotations", "answers (strings or numbers)",
                    function(k) where(match(x$cap[[1]][i][k], x$cap[[1]][x$at$item])), call)
  }
  # the main layer's annotators are its keys (2025); other layers looked up by name
  mm <- x$at$answer
  main_obj <- which(kind == 6L & layers$main)
  mm_layer <- main_obj[match(match(x$cap[[1]][mm], x$cap[[1]][x$at$item]), layers$item[main_obj])]
  # the answers of string layers are in order; those of objects are placed
  # (`of`: their layer instance) with a sort, only when there are any
  of <- mm_layer
  text <- x$text[mm]
  oo <- which(kind == 6L & !layers$main)
  if (length(oo) > 0L) {
    lm <- c(x$at$layer_answer, x$at$layer2_answer)
    key <- paste(x$cap[[2]][lm], x$key[lm], sep = "\r")
    want <- rep(oo, n_ann[oo])
    who <- ann$name[sequence(n_ann[oo]) + rep(ann$start[layers$item[oo]] - 1L, n_ann[oo])]
    v <- x$text[lm][match(paste(layers$serial[want], who, sep = "\r"), key)]
    of <- c(of, want[!is.na(v)])
    text <- c(text, v[!is.na(v)])
  }
  text <- text[!is.na(of)]
  of <- of[!is.na(of)]
  len <- tabulate(of, length(layers$item))
  len[str] <- len[str] + parts$n
  bad <- len != n_ann
  if (any(bad)) {
    k <- which(bad)[1]
    mla_abort(c("Every layer of a Le-Wi-Di item must hold one answer per annotator.",
                "x" = "Layer {.val {layers$name[k]}} of {where(layers$item[k])} has {len[k]} answer{?s} for {n_ann[k]} annotator{?s}."),
              class = "json_field", call = call)
  }
  u <- unique(text)
  code <- parts$code
  if (length(of) > 0L) {
    o <- order(c(rep(str, parts$n), of), method = "radix")
    code <- c(code, match(text, u) + length(parts$levels))[o]
  }
  list(code = code, levels = c(parts$levels, u))
}

# The soft-label categories of each main layer and whether they are nested
# (one 0/1 distribution per category), as the last item with soft labels says.
lewidi_soft <- function(x, item, main) {
  sk <- x$at$soft
  si <- match(x$cap[[1]][sk], item)
  soft <- list()
  for (m in unique(main[si])) {
    mine <- which(main[si] == m)
    last <- si[mine][length(mine)]
    first_of_last <- sk[mine][match(last, si[mine])]
    soft[[m]] <- list(keys = unique(x$key[sk][mine]), nested = x$kind[first_of_last] == 6L)
  }
  soft
}

# Comma-joined strings as their trimmed parts ("0, 1" -> "0", "1"), each
# distinct string split once: parts `code` into `levels`, `len` parts per
# distinct string, `at` the distinct string of each text.
split_comma_codes <- function(text) {
  u <- unique(text)
  parts <- strsplit(u, ",", fixed = TRUE)
  flat <- as.character(unlist(parts, use.names = FALSE))
  space <- grepl("[[:space:]]", flat)
  flat[space] <- trimws(flat[space])
  len <- lengths(parts)
  at <- match(text, u)
  n <- len[at]
  list(levels = flat, code = sequence(n, from = cumsum(len)[at] - n + 1L), n = n, len = len, at = at)
}

split_commas <- function(text) {
  parts <- split_comma_codes(text)
  list(flat = parts$levels[parts$code], n = parts$n)
}

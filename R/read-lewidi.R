#' Read Le-Wi-Di shared-task files
#'
#' Reads the JSON files of the Learning With Disagreements shared tasks
#' (Le-Wi-Di 2023, SemEval Task 11, and Le-Wi-Di 2025): one JSON object per
#' file whose keys are item ids, each item holding the annotator ids
#' (`annotators`), their answers (`annotations`), `soft_label`, `split`,
#' `lang` and `other_info`. Cost: one pass over each file, keeping only the
#' fields read. Both editions are read:
#'
#' * 2023: `annotations` and `annotators` are comma-joined strings in the
#'   same order (`"0,1,0"`, `"Ann1,Ann2,Ann3"`); further annotation layers sit
#'   in `other_info$"other annotations"` (HS-Brexit's aggressive and
#'   offensive language layers).
#' * 2025: `annotations` is an object from annotator id to answer
#'   (`{"Ann1": "2"}`); a multi-label answer is comma-joined
#'   (`"contradiction,entailment"`, VariErrNLI), with one soft label per
#'   category.
#'
#' Every layer becomes labels of one design: a layer whose answers are 0/1
#' is one label (its name is the layer's `annotation task`, or the key in
#' `other annotations`); any other layer is one label per category, its
#' universe the `soft_label` keys (so categories no one chose still count),
#' else its sorted distinct answers (numeric order when every answer is a
#' number, see [annotations_long()]). HS-Brexit's hate speech, aggressive and
#' offensive layers thus form one 3-label design.
#' A layer whose soft label is 0/1 but whose answers are other numbers is on
#' another scale than its soft label (ConvAbuse: severities from -3 to 1,
#' negative meaning abusive): it is read as one label per answer category,
#' with a warning of class `mlagreement_warning_lewidi_value`; recode
#' `answer` to measure agreement on the soft label's classes.
#'
#' Values that are not 0/1 in a layer that is otherwise 0/1 (`"No"` where 0/1
#' is expected) are not coerced: their decision is `NA`, the raw answer
#' stays in `answer`, and a warning of class
#' `mlagreement_warning_lewidi_value` names the layer, the values and the
#' first item.
#'
#' An item whose `annotators` string is empty, or names an annotator twice,
#' is an error naming the item.
#'
#' Item ids restart in every file: with several files, ids are prefixed with
#' the split (`"train:1"`) unless `unique_items = FALSE`; the original id is
#' kept in `id`.
#'
#' @param path Paths to Le-Wi-Di JSON files (for instance the train and dev
#'   files of one data set); names of the vector name the files.
#' @param layers Names of the layers to read; `NULL` (default) reads all.
#' @param unique_items Make item ids unique across files (see above).
#' @inheritParams mla
#' @return A tibble with one row per decision: `file`, `split`, `item`,
#'   `id`, `annotator`, `layer`, `label` (a factor whose levels are the
#'   label universe), `value` (0/1/`NA`) and `answer` (the raw answer), ready
#'   for `annotations_long(x, item, annotator, label, value)`.
#' @references
#' Leonardelli, E., Abercrombie, G., Almanea, D., Basile, V., Fornaciari, T.,
#' Plank, B., Rieser, V., Uma, A. and Poesio, M. (2023). SemEval-2023 Task 11:
#' Learning With Disagreements (LeWiDi). Proceedings of the 17th International
#' Workshop on Semantic Evaluation (SemEval-2023).
#' @family readers
#' @export
#' @examples
#' files <- system.file("extdata", c("lewidi-2023_train.json", "lewidi-2023_dev.json"),
#'                      package = "mlagreement")
#' brexit <- read_lewidi(files)
#' brexit
#' x <- annotations_long(brexit, item, annotator, label, value)
#' dim(x)
#' mla(x)
#'
#' # 2025 edition, categorical answers with a declared universe
#' csc <- read_lewidi(system.file("extdata", "lewidi-2025_dev.json", package = "mlagreement"))
#' levels(csc$label)
read_lewidi <- function(path, layers = NULL, unique_items = TRUE, ...) {
  check_dots_empty0(...)
  path <- check_read_paths(path)
  if (!is.null(layers) && (!is.character(layers) || anyNA(layers))) {
    mla_abort(c("{.arg layers} must be a character vector of layer names.",
                "x" = "It is {.obj_type_friendly {layers}}."), class = "string")
  }
  call <- rlang::current_env()
  read <- lapply(seq_along(path), function(f) lewidi_answers(path[[f]], names(path)[f], call = call))
  soft <- list()
  for (r in read) {
    for (l in names(r$soft)) {
      soft[[l]] <- list(keys = union(soft[[l]]$keys, r$soft[[l]]$keys), nested = r$soft[[l]]$nested)
    }
  }
  # the splits of each file, from its items
  splits <- lapply(read, function(r) unique(r$split[!duplicated(r$ids)]))
  one_split <- all(lengths(splits) == 1L) && length(unique(unlist(splits))) == length(path)
  a <- lewidi_combine(read)
  rm(read)
  found <- a$layer_names
  if (!is.null(layers)) {
    unknown <- setdiff(layers, found)
    if (length(unknown) > 0L) {
      mla_abort(c("{.arg layers} must name layers of the files.",
                  "x" = "Unknown: {.val {unknown}}.", "i" = "Layers: {.val {found}}."),
                class = "unknown_label")
    }
    found <- layers
  }
  out <- lewidi_decisions(a, found, soft, call)
  source <- if (one_split) out$split else out$file
  out$item <- source_item_ids(out$id, source, unique_items && length(path) > 1L)
  tibble::as_tibble(out[c("file", "split", "item", "id", "annotator", "layer", "label", "value", "answer")])
}

# The answers of all files as one, indices shifted to match.
lewidi_combine <- function(read) {
  names <- unique(unlist(lapply(read, `[[`, "layer_names")))
  shift <- function(field, by) {
    off <- cumsum(c(0L, vapply(read, function(r) length(r[[by]]), 0L)))
    unlist(lapply(seq_along(read), function(f) read[[f]][[field]] + off[f]), use.names = FALSE)
  }
  cat_of <- function(field) unlist(lapply(read, `[[`, field), use.names = FALSE)
  inst <- list(item = shift(c("inst", "item"), "ids"), n = cat_of(c("inst", "n")),
               who0 = shift(c("inst", "who0"), "names"), ans0 = shift(c("inst", "ans0"), "code"),
               layer = unlist(lapply(read, function(r) match(r$layer_names, names)[r$inst$layer])))
  list(ids = cat_of("ids"), split = cat_of("split"), files = vapply(read, `[[`, "", "file"),
       item_file = rep(seq_along(read), lengths(lapply(read, `[[`, "ids"))),
       inst = inst, layer_names = names, names = cat_of("names"),
       code = shift("code", "levels"), levels = cat_of("levels"))
}

# The decision columns, layer by layer in `found` order, one row per 0/1
# answer or per category. Rows stay indices until the end: the character
# columns are made last, so fewer garbage collections scan them.
lewidi_decisions <- function(a, found, soft, call) {
  a$levels[a$levels %in% c("", "NA", "null")] <- NA_character_
  lid <- match(found, a$layer_names)
  sel <- lapply(lid, function(j) which(a$inst$layer == j))
  size <- vapply(sel, function(s) sum(a$inst$n[s]), 0)
  sel <- unlist(sel)
  nn <- a$inst$n[sel]
  code <- a$code[sequence(nn, from = a$inst$ans0[sel] + 1L)]
  who <- sequence(nn, from = a$inst$who0[sel] + 1L)
  item <- rep(a$inst$item[sel], nn)
  end <- cumsum(size)
  parts <- lapply(seq_along(found), function(j) {
    rows <- if (size[j] > 0) (end[j] - size[j] + 1):end[j] else integer()  # a compact sequence
    lewidi_layer(if (length(found) == 1L) code else code[rows], a$levels, found[j], soft[[found[j]]],
                 prefix = length(found) > 1L, call = call,
                 where = function(k) list(id = a$ids[item[rows[k]]], annotator = a$names[who[rows[k]]]))
  })
  binary <- vapply(parts, function(p) is.null(p$cat), NA)
  k <- ifelse(binary, 1L, lengths(lapply(parts, `[[`, "universe")))
  universe <- unlist(lapply(parts, `[[`, "universe"))
  off <- cumsum(c(0L, k))[seq_along(k)]
  label <- if (all(binary)) rep(off + 1L, size) else
    unlist(lapply(seq_along(parts), function(j) off[j] + (parts[[j]]$cat %||% rep(1L, size[j]))))
  out <- list(value = if (length(parts) == 1L) parts[[1]]$value else unlist(lapply(parts, `[[`, "value")))
  rm(parts)
  layer <- rep.int(seq_along(found), size)
  if (!all(binary)) {  # one row per category of each answer
    e <- rep(seq_along(code), rep(k, size))
    code <- code[e]
    who <- who[e]
    item <- item[e]
    layer <- layer[e]
  }
  # each index is dropped once its columns are made (the peak is the result)
  out$label <- codes_factor(label, universe)
  rm(label)
  out$annotator <- a$names[who]
  rm(who)
  out$layer <- found[layer]
  rm(layer)
  out$answer <- a$levels[code]
  out$file <- if (length(a$files) == 1L) rep(a$files, length(code)) else a$files[a$item_file[item]]
  rm(code)
  out$id <- a$ids[item]
  out$split <- a$split[item]
  out
}

# Decisions of one layer: a 0/1 layer is one label, any other one label per
# category (the soft-label keys where declared). `cat` is the category of
# each decision (NULL: one per answer); `where(k)` names answer k.
lewidi_layer <- function(code, levels, layer, soft, prefix, where, call = rlang::caller_env()) {
  num <- suppressWarnings(as.numeric(levels))
  is01 <- !is.na(num) & num %in% c(0, 1)
  used <- tabulate(code, length(levels))
  # 0/1 soft-label keys make a 0/1 layer unless numeric answers outside 0/1
  # show the answers are on another scale (ConvAbuse: severities -3 to 1)
  declared_binary <- !is.null(soft) && !soft$nested &&
    all(suppressWarnings(as.numeric(soft$keys)) %in% c(0, 1)) &&
    !any((!is.na(num) & !is01)[used > 0L])
  binary <- declared_binary ||
    (is.null(soft) && any(is01[used > 0L]) && all((is01 | is.na(num))[used > 0L]))
  if (binary) {
    bad <- !is.na(levels) & !is01
    if (any(used[bad] > 0L)) {
      rows <- which(bad[code])
      first <- where(rows[1])
      mla_warn(
        c("Layer {.val {layer}} must hold 0/1 answers; {length(rows)} {?is/are} not 0/1 and {?is/are} {.code NA} in {.field value}.",
          "x" = "Values: {.val {unique(levels[code[rows]])}}; first at item {.val {first$id}}, annotator {.val {first$annotator}}.",
          "i" = "The raw answers are in {.field answer}."),
        class = "lewidi_value", call = call)
    }
    value <- rep(NA_integer_, length(levels))
    u <- which(used > 0L)
    value[u] <- ifelse(is01[u], as.integer(num[u]), NA_integer_)
    return(list(value = value[code], universe = layer))
  }
  answer <- levels[code]
  nested <- !is.null(soft) && soft$nested
  chosen <- if (nested) split_commas(answer) else list(flat = trimws(answer), n = rep(1L, length(answer)))
  of <- rep(seq_along(answer), chosen$n)
  used <- unique(chosen$flat[!is.na(answer)[of]])
  universe <- if (is.null(soft)) sort_labels(used) else union(soft$keys, sort_labels(used))
  # declared keys keep their order, unless all are numbers like the answers
  if (!anyNA(suppressWarnings(as.numeric(universe)))) universe <- sort_labels(universe)
  undeclared <- setdiff(used, soft$keys)
  if (!is.null(soft) && length(undeclared) > 0L) {
    mla_warn(c("Layer {.val {layer}} has answers outside its soft-label categories.",
               "x" = "Undeclared: {.val {undeclared}}; they are added to the label universe.",
               "i" = "Each category is a label: {.val {universe}}. If the answers are on another scale than the soft label, recode {.field answer} to measure agreement on the soft label's classes."),
             class = "lewidi_value", call = call)
  }
  k <- length(universe)
  value <- selection_grid(length(answer), k, of, match(chosen$flat, universe))
  value[rep(is.na(answer), each = k)] <- NA_integer_
  list(value = value, cat = rep(seq_len(k), length(answer)),
       universe = if (prefix) paste0(layer, ": ", universe) else universe)
}

#' Read Le-Wi-Di shared-task files
#'
#' Reads the JSON files of the Learning With Disagreements shared tasks
#' (Le-Wi-Di 2023, SemEval Task 11, and Le-Wi-Di 2025): one JSON object per
#' file whose keys are item ids, each item holding the annotator ids
#' (`annotators`), their answers (`annotations`), `soft_label`, `split`,
#' `lang` and `other_info`. Both editions are read:
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
#' else its sorted distinct answers. HS-Brexit's hate speech, aggressive and
#' offensive layers thus form one 3-label design.
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
#' @param ... Must be empty.
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
  answers <- bind_rows_plain(lapply(read, `[[`, "answers"))
  soft <- list()
  for (r in read) {
    for (l in names(r$soft)) {
      soft[[l]] <- list(keys = union(soft[[l]]$keys, r$soft[[l]]$keys), nested = r$soft[[l]]$nested)
    }
  }
  found <- unique(answers$layer)
  if (!is.null(layers)) {
    unknown <- setdiff(layers, found)
    if (length(unknown) > 0L) {
      mla_abort(c("{.arg layers} must name layers of the files.",
                  "x" = "Unknown: {.val {unknown}}.", "i" = "Layers: {.val {found}}."),
                class = "unknown_label")
    }
    answers <- answers[answers$layer %in% layers, ]
    found <- layers
  }
  parts <- lapply(found, function(l) {
    # columns as a plain list: tibble row subsetting is slow at millions of rows
    rows <- which(answers$layer == l)
    a <- lapply(as.list(answers), `[`, rows)
    lewidi_layer(a, l, soft[[l]], prefix = length(found) > 1L, call = call)
  })
  out <- bind_rows_plain(parts)
  out$label <- factor(out$label, levels = unlist(lapply(parts, attr, "universe")))
  # the splits of each file, from its items (not its rows)
  splits <- lapply(read, function(r) unique(r$answers$split[!duplicated(r$answers$id)]))
  one_split <- all(lengths(splits) == 1L) && length(unique(unlist(splits))) == length(path)
  source <- if (one_split) out$split else out$file
  out$item <- source_item_ids(out$id, source, unique_items && length(path) > 1L)
  out[c("file", "split", "item", "id", "annotator", "layer", "label", "value", "answer")]
}

# Decisions of one layer: a 0/1 layer is one label; any other layer one label
# per category of its universe (the soft-label keys where declared).
lewidi_layer <- function(a, layer, soft, prefix, call = rlang::caller_env()) {
  a$answer[a$answer %in% c("", "NA", "null")] <- NA_character_
  num <- suppressWarnings(as.numeric(a$answer))
  is01 <- !is.na(num) & num %in% c(0, 1)
  declared_binary <- !is.null(soft) && !soft$nested &&
    all(suppressWarnings(as.numeric(soft$keys)) %in% c(0, 1))
  binary <- declared_binary ||
    (is.null(soft) && any(is01) && all(is01 | is.na(num) | is.na(a$answer)))
  if (binary) {
    bad <- !is.na(a$answer) & !is01
    if (any(bad)) {
      cli::cli_warn(
        c("Layer {.val {layer}} must hold 0/1 answers; {sum(bad)} {?is/are} not 0/1 and {?is/are} {.code NA} in {.field value}.",
          "x" = "Values: {.val {unique(a$answer[bad])}}; first at item {.val {a$id[bad][1]}}, annotator {.val {a$annotator[bad][1]}}.",
          "i" = "The raw answers are in {.field answer}."),
        class = "mlagreement_warning_lewidi_value", call = call)
    }
    a$label <- rep(layer, length(a$answer))
    a$value <- ifelse(is01, as.integer(num), NA_integer_)
    attr(a, "universe") <- layer
    return(a)
  }
  nested <- !is.null(soft) && soft$nested
  chosen <- if (nested) split_commas(a$answer) else list(flat = trimws(a$answer), n = rep(1L, length(a$answer)))
  of <- rep(seq_along(a$answer), chosen$n)
  used <- unique(chosen$flat[!is.na(a$answer)[of]])
  universe <- if (is.null(soft)) sort_categories(used) else union(soft$keys, sort_categories(used))
  undeclared <- setdiff(used, soft$keys)
  if (!is.null(soft) && length(undeclared) > 0L) {
    cli::cli_warn(c("Layer {.val {layer}} has answers outside its soft-label categories.",
                    "x" = "Undeclared: {.val {undeclared}}; they are added to the label universe."),
                  class = "mlagreement_warning_lewidi_value", call = call)
  }
  k <- length(universe)
  rows <- rep(seq_along(a$answer), each = k)
  out <- lapply(a, `[`, rows)
  cat <- rep(universe, length(a$answer))
  # (answer, category) pairs as numbers
  selected <- (of - 1) * k + match(chosen$flat, universe)
  out$value <- as.integer(((rows - 1) * k + rep(seq_len(k), length(a$answer))) %in% selected)
  out$value[is.na(a$answer[rows])] <- NA_integer_
  out$label <- if (prefix) paste0(layer, ": ", cat) else cat
  attr(out, "universe") <- if (prefix) paste0(layer, ": ", universe) else universe
  out
}

# Numeric categories in numeric order ("-5" before "-4"), others sorted.
sort_categories <- function(x) {
  num <- suppressWarnings(as.numeric(x))
  if (length(x) > 0L && !anyNA(num)) x[order(num)] else sort(x)
}

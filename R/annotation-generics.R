# What differs between the records (`annotations`) and a summary of them
# (`annotation_counts`), asked by dispatch so that no verb branches on the
# class (DESIGN.md, "Where the code is not yet one path").

# Anything a verb accepts, as an `annotations` object (records or summary).
as_annotation_source <- function(x, ...) UseMethod("as_annotation_source")
as_annotation_source.default <- function(x, ...) as_annotations(x, ...)
as_annotation_source.annotations <- function(x, ...) x

# Whether the records are attached (a summary holds only their statistics).
has_records <- function(x) UseMethod("has_records")
has_records.annotations <- function(x) TRUE
has_records.annotation_counts <- function(x) FALSE

# The records themselves: `x` when it holds them, else the classed error.
require_records <- function(x, what, arg = "x", call = rlang::caller_env()) {
  if (!has_records(x)) abort_needs_records(what, arg = arg, call = call)
  invisible(x)
}

n_items <- function(x) UseMethod("n_items")
n_items.annotations <- function(x) length(x$items)
n_items.annotation_counts <- function(x) x$n_items

# Both sources keep the annotator ids in `$annotators` and their records in
# `$annotator_records`, in the object's annotator order.
n_annotators <- function(x) length(x$annotators)

# Annotator ids as text.
annotator_ids <- function(x) id_text(x$annotators)

# The label universe as declared, in the object's label order (both sources).
label_names <- function(x) x$labels

# Item ids, in the records' item order.
item_ids <- function(x, call = rlang::caller_env()) require_records(x, "item ids", call = call)$items

# The item and annotator of records r, as text for messages naming them.
record_ids <- function(a, r) {
  list(item = id_text(a$items[record_item(a)[r]]), annotator = id_text(a$annotators[record_annotator(a)[r]]))
}

# The one error about a record: `rule`, broken first by the record `ids`
# (record_ids()), which `does` something. Messages are cli text evaluated in
# the caller's frame.
abort_record <- function(ids, rule, does, hints = NULL, class, call, .envir = parent.frame()) {
  env <- rlang::env(.envir, record_ids_ = ids)
  x <- paste0("Item {.val {record_ids_$item}}, annotator {.val {record_ids_$annotator}} ", does, ".")
  mla_abort(c(rule, "x" = x, hints), class = class, call = call, .envir = env)
}

# Records stored (dense arrays: items x annotators; summaries: with decisions).
stored_records <- function(x) UseMethod("stored_records")
stored_records.annotations <- function(x) {
  if (is_sparse_layout(x)) return(as.double(length(x$item)))
  length(x$values) / length(x$labels)
}
stored_records.annotation_counts <- function(x) x$n_stored_records

# Each item's (x, m) on the labels `cols`: list(items, x, m). `what` names the
# analysis a summary without per-item tables cannot give.
item_count_cells <- function(x, cols, threads = mla_threads(), call = rlang::caller_env(),
                             what = "the bootstrap", arg = "fit") {
  UseMethod("item_count_cells")
}
item_count_cells.annotations <- function(x, cols, threads = mla_threads(), call = rlang::caller_env(),
                                         what = "the bootstrap", arg = "fit") {
  counts <- item_label_counts(x, cols, threads = threads)
  storage.mode(counts$x) <- "integer"
  storage.mode(counts$m) <- "integer"
  list(items = x$items, x = counts$x, m = counts$m)
}
item_count_cells.annotation_counts <- function(x, cols, threads = mla_threads(),
                                               call = rlang::caller_env(), what = "the bootstrap",
                                               arg = "fit") {
  cells <- counts_item_cells(x, what, arg, call = call)  # R/annotation-counts-boot.R
  list(items = cells$items, x = item_cell_matrix(cells$x, cols), m = item_cell_matrix(cells$m, cols),
       n_records = cells$n_records)
}

# Items, their records with a decision and their disagreement, for item rows.
item_rows <- function(x, fit, call = rlang::caller_env()) UseMethod("item_rows")
item_rows.annotations <- function(x, fit, call = rlang::caller_env()) {
  list(items = x$items, n_annotators = item_annotator_counts(x), disagreement = fit$item_disagreement)
}
item_rows.annotation_counts <- function(x, fit, call = rlang::caller_env()) {
  cells <- item_count_cells(x, fit$label_index, call = call, what = "item-level rows", arg = "x")
  d <- cells_item_disagreement_cpp(cells$x, cells$m, mla_threads())
  # single-label rows: the share of agreeing pairs (single_label_corpus())
  if (!is.null(fit$single_label)) d <- d * fit$single_label$q / 2
  list(items = cells$items, n_annotators = cells$n_records, disagreement = d)
}

has_item_cells <- function(x) UseMethod("has_item_cells")
has_item_cells.annotations <- function(x) TRUE
has_item_cells.annotation_counts <- function(x) !is.null(x$item_cells) || !is.null(x$db_source)

mla_fit <- function(x, baseline, labels, structure, weights, threads, call) UseMethod("mla_fit")
mla_fit.annotations <- function(x, baseline, labels, structure, weights, threads, call) {
  mla_records(x, baseline, labels, structure, weights, threads, call = call)
}
mla_fit.annotation_counts <- function(x, baseline, labels, structure, weights, threads, call) {
  st <- resolve_label_structure(x, structure$label_weights, structure$label_groups,
                                structure$label_tree, call = call)
  if (!is.null(st) && !is_group_of_every_category(x, st)) {
    require_records(x, "labels with structure", call = call)
  }
  if (!identical(weights, "identity")) require_records(x, "category weights", call = call)
  if (baseline == "conger") require_records(x, "the annotator-specific baseline (\"conger\")", call = call)
  mla_counts(x, baseline, labels, call = call)
}

# Annotator-pair sums of annotator_agreement(): with `pairs = FALSE` the
# records need no pair table.
annotator_sums <- function(x, pairs, call = rlang::caller_env()) UseMethod("annotator_sums")
annotator_sums.annotations <- function(x, pairs, call = rlang::caller_env()) {
  if (!pairs) return(annotator_sums_linear(x))
  size <- pair_design_size(x)
  check_pair_memory(size$pairs * (16 * length(x$labels) + 256), size$pairs,
                    "The pair table of annotator_agreement()",
                    "Use {.code pairs = FALSE} for the per-annotator rows only.")
  sums <- pair_sums_checked(annotation_view(x), call = call)
  sums$has_pair <- length(sums$a) > 0L
  sums
}
annotator_sums.annotation_counts <- function(x, pairs, call = rlang::caller_env()) {
  sums <- counts_pair_sums(x, call = call)  # R/annotation-counts-pairs.R
  sums$has_pair <- length(sums$a) > 0L
  sums
}

# annotator_agreement()'s per-annotator kappa needs each decision with the
# others on its item, so a summary has none.
annotator_kappa <- function(x) UseMethod("annotator_kappa")
annotator_kappa.annotations <- function(x) annotator_crowd_kappa(x)
annotator_kappa.annotation_counts <- function(x) rep(NA_real_, n_annotators(x))

# 1 - A_e of the pooled-marginal baseline on the whole corpus.
corpus_chance_disagreement <- function(x) UseMethod("corpus_chance_disagreement")
corpus_chance_disagreement.annotations <- function(x) {
  tally <- label_tally(x)
  check_estimable(x, tally)
  mla_estimates(tally)$corpus$w[1]
}
corpus_chance_disagreement.annotation_counts <- function(x) counts_chance_disagreement(x)

# Records with at least one decision (a dense array also holds the
# unassigned cells as records).
record_has_decision <- function(x) rowSums(!is.na(record_values(x))) > 0

# Items each annotator shares with at least one other annotator.
shared_items_per_annotator <- function(x) UseMethod("shared_items_per_annotator")
shared_items_per_annotator.annotations <- function(x) {
  rec_item <- record_item(x)
  has <- record_has_decision(x)
  on_shared <- has & x$item_annotators[rec_item] >= 2L
  tabulate(record_annotator(x)[on_shared], nbins = n_annotators(x))
}
shared_items_per_annotator.annotation_counts <- function(x) counts_shared_items(x)

alpha_hamming <- function(a, call = rlang::caller_env()) UseMethod("alpha_hamming")
alpha_hamming.annotations <- function(a, call = rlang::caller_env()) {
  t <- label_tally(a)
  est <- hamming_alpha_estimates(t)
  pairable <- !is.na(t$item_disagreement)
  if (!any(pairable)) check_pairable(0, call = call)
  list(observed = est$observed, expected = est$expected, n_items = sum(pairable),
       n_values = sum(a$item_annotators[pairable]))
}
alpha_hamming.annotation_counts <- function(a, call = rlang::caller_env()) {
  counts_alpha_hamming(a, call = call)
}

alpha_set_source_rows <- function(a, specs, threads, call) UseMethod("alpha_set_source_rows")
alpha_set_source_rows.annotations <- function(a, specs, threads, call) {
  if (any(vapply(specs, `[[`, "", "kind") == "size")) {
    return(alpha_set_rows(a, specs, threads, call = call))  # R/alpha-custom.R
  }
  alpha_builtin_set_rows(a, specs, threads, call = call)  # R/krippendorff-alpha.R
}
alpha_set_source_rows.annotation_counts <- function(a, specs, threads, call) {
  counts_alpha_set_rows(a, specs, threads, call = call)  # R/annotation-counts-sets.R
}

# The distances a source can compute (a summary: Hamming and set distances).
check_source_distances <- function(a, specs, call = rlang::caller_env()) {
  UseMethod("check_source_distances")
}
check_source_distances.annotations <- function(a, specs, call = rlang::caller_env()) invisible()
check_source_distances.annotation_counts <- function(a, specs, call = rlang::caller_env()) {
  check_counts_distances(specs, call = call)
}

item_annotator_counts <- function(x) x$item_annotators
annotator_record_counts <- function(x) x$annotator_records

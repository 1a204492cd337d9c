# The per-item tables of a database summary for the item bootstrap, from the
# per-item queries of the summary (annotations-db-counts.R).

db_item_cells <- function(src, s, call = rlang::caller_env()) {
  if (is.null(src$item_cells)) check_item_cell_size(s$n_items, length(s$labels), call)
  db_cached(src, "item_cells", "per-item", call, function() {
    compute <- if (src$selected) db_selected_item_cells else db_decision_item_cells
    cells <- compute(src$query, s$labels, call)
    db_check_unchanged(src, "per-item", db_item_cells_totals(cells), call)
    cells
  })
}

db_decision_item_cells <- function(d, universe, call) {
  cells <- dplyr::collect(dplyr::filter(db_decision_cells(d), m > 0L))
  # every item, with its records with a decision (items without one have none)
  per_item <- dplyr::collect(db_decision_items(db_decision_records(d)))
  items <- sort(unique(db_check_collected_ids(per_item$item, "item", call)))
  compact_item_cells(items, item_label_matrix(items, universe, cells, "x"),
                     item_label_matrix(items, universe, cells, "m"),
                     normalise_count(per_item$n_records)[match(items, per_item$item)])
}

db_selected_item_cells <- function(d, universe, call) {
  q <- lapply(db_selected_cells(d)[c("items", "cells")], dplyr::collect)
  items <- sort(unique(db_check_collected_ids(q$items$item, "item", call)))
  m_item <- normalise_count(q$items$m)[match(items, q$items$item)]
  compact_item_cells(items, item_label_matrix(items, universe, q$cells, "x"),
                     rep(m_item, length(universe)), m_item)
}

# Column `col` of per-(item, label) rows as an items x labels matrix, 0 elsewhere.
item_label_matrix <- function(items, universe, cells, col) {
  out <- matrix(0L, length(items), length(universe))
  out[cbind(match(cells$item, items), match(id_text(cells$label), universe))] <-
    as.integer(normalise_count(cells[[col]]))
  out
}

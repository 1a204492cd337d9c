# The per-item tables of a database summary for the item bootstrap.

db_item_cells <- function(src, s, call = rlang::caller_env()) {
  if (!is.null(src$item_cells)) return(src$item_cells)
  check_item_cell_size(s$n_items, length(s$labels), call)
  d <- src$query
  src$item_cells <- tryCatch(
    if (src$selected) db_selected_item_cells(d, s$labels) else db_decision_item_cells(d, s$labels),
    error = function(e) abort_db_query("per-item", e, call)
  )
  src$item_cells
}

db_decision_item_cells <- function(d, universe) {
  cells <- dplyr::summarise(dplyr::group_by(d, item, label),
                            m = sum(ifelse(is.na(value), 0L, 1L), na.rm = TRUE),
                            x = sum(value, na.rm = TRUE), .groups = "drop")
  cells <- dplyr::collect(dplyr::filter(cells, m > 0L))
  items <- sort(unique(dplyr::collect(db_distinct(d, item))$item))
  # records with a decision, per item (items without one have none)
  decided <- db_distinct(dplyr::filter(d, !is.na(value)), item, annotator)
  per_item <- dplyr::collect(db_count_by(decided, item, name = "n"))
  n_records <- normalise_count(per_item$n)[match(items, per_item$item)]
  fill_item_cells(items, universe, cells$item, cells$label, normalise_count(cells$m),
                  normalise_count(cells$x), ifelse(is.na(n_records), 0, n_records))
}

db_selected_item_cells <- function(d, universe) {
  per_item <- dplyr::collect(db_count_by(db_distinct(d, item, annotator), item, name = "m"))
  cells <- dplyr::collect(db_count_by(dplyr::filter(d, !is.na(label)), item, label, name = "x"))
  items <- sort(unique(per_item$item))
  k <- length(universe)
  m_item <- normalise_count(per_item$m)[match(items, per_item$item)]
  out <- fill_item_cells(items, universe, cells$item, cells$label, rep(0, nrow(cells)),
                         normalise_count(cells$x), m_item)
  compact_item_cells(items, as.integer(out$x), rep(m_item, k), m_item)
}

fill_item_cells <- function(items, universe, item, label, m, x, n_records) {
  i <- match(item, items)
  j <- match(as.character(label), universe)
  xm <- mm <- matrix(0L, length(items), length(universe))
  xm[cbind(i, j)] <- as.integer(x)
  mm[cbind(i, j)] <- as.integer(m)
  compact_item_cells(items, xm, mm, n_records)
}

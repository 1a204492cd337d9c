# The units an item bootstrap draws: items or clusters of items, grouped by
# stratum (mla_boot(), mla_compare()).

# Resampled units (items or clusters) grouped by stratum, as 0-based indices.
# `rated`: the items with a decision on the fit's labels. Only units holding
# one are drawn, as the estimates and the analytic standard errors count
# them, so storing unannotated items (an array's empty rows) changes nothing;
# the other items are attached to the first unit, where they add nothing.
boot_units <- function(cluster, strata, n_items, rated = NULL, call = rlang::caller_env()) {
  unit <- if (is.null(cluster)) seq_len(n_items) else match(cluster, unique(cluster))
  item_stratum <- if (!is.null(strata)) match(strata, unique(strata))
  if (!is.null(strata)) check_clusters_in_strata(cluster, unit, item_stratum, call = call)
  if (!is.null(rated) && !all(rated) && any(rated)) {
    kept <- sort(unique(unit[rated]))
    unit <- match(unit, kept)
    unit[is.na(unit)] <- 1L
  }
  unit_of_item <- if (identical(unit, seq_len(n_items))) integer(0) else unit - 1L
  n_units <- max(unit)
  unit_stratum <- if (is.null(strata)) {
    rep(1L, n_units)
  } else {
    owner <- if (is.null(rated) || !any(rated)) seq_len(n_items) else which(rated)
    s <- item_stratum[owner][match(seq_len(n_units), unit[owner])]
    match(s, sort(unique(s)))  # strata without a rated item drop out
  }
  order <- order(unit_stratum, seq_len(n_units))
  start <- c(0L, cumsum(tabulate(unit_stratum)))
  by_unit <- order(unit, seq_len(n_items))
  list(
    n_units = n_units, unit = unit, unit_of_item = as.integer(unit_of_item),
    order = as.integer(order - 1L), start = as.integer(start),
    unit_start = as.integer(c(0L, cumsum(tabulate(unit, n_units)))),
    unit_items = as.integer(by_unit - 1L),
    n_strata = length(start) - 1L
  )
}

check_clusters_in_strata <- function(cluster, unit, item_stratum, call = rlang::caller_env()) {
  per_unit <- tapply(item_stratum, unit, function(s) length(unique(s)))
  if (any(per_unit > 1L)) {
    bad <- unique(cluster)[as.integer(names(per_unit)[per_unit > 1L])]
    mla_abort(c("Each cluster must lie within one stratum.",
                "x" = "{cli::qty(length(bad))}Cluster{?s} spanning several strata: {format_first(bad)}.",
                "i" = "Check {.arg cluster} and {.arg strata}."),
              class = "boot_strata", call = call)
  }
}

# Items with a decision on the fit's labels: from the item cells' m, or the
# records' counts of boot_record_data().
boot_rated_items <- function(data) {
  if (!is.null(data$m)) rowSums(data$m) > 0 else data$rated
}

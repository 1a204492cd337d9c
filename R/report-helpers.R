# Helpers of the mla-report R Markdown template (inst/rmarkdown/templates),
# kept in the package so that they are tested with it. Internal: the template
# calls them with `:::`.

# The declared label universe from the report's `labels` parameter: a
# character vector (e.g. `!r c("a, b", "c")` in the YAML header), a path to
# a text file with one label per line, or a comma-separated string. NULL
# when not given.
report_label_universe <- function(labels) {
  if (is.null(labels) || (length(labels) == 1L && (is.na(labels) || !nzchar(trimws(labels))))) {
    return(NULL)
  }
  labels <- as.character(labels)
  if (length(labels) > 1L) return(labels)
  if (file.exists(labels) && !dir.exists(labels)) {
    out <- trimws(readLines(labels, warn = FALSE, encoding = "UTF-8"))
    return(out[nzchar(out)])
  }
  trimws(strsplit(labels, ",", fixed = TRUE)[[1]])
}

# Distances from the `distances` parameter: a vector or a comma-separated
# string.
report_distances <- function(distances) {
  if (length(distances) == 1L) distances <- trimws(strsplit(distances, ",", fixed = TRUE)[[1]])
  check_choice(distances, c("hamming", "jaccard", "masi"), multiple = TRUE, arg_name = "distances")
}

# Records with some but not all decisions missing, and the annotations of
# the complete records only (same label universe), for the set distances,
# which need complete label sets.
report_complete_records <- function(x) {
  v <- record_values(x)
  n_missing <- rowSums(is.na(v))
  partial <- n_missing > 0 & n_missing < ncol(v)
  complete <- n_missing == 0
  out <- list(n_records = sum(n_missing < ncol(v)), n_partial = sum(partial),
              n_complete = sum(complete), annotations = x)
  if (out$n_partial == 0) return(out)
  if (out$n_complete == 0) {
    out$annotations <- NULL
    return(out)
  }
  rows <- which(complete)
  long <- data.frame(
    item = rep(id_text(x$items[record_item(x)[rows]]), ncol(v)),
    annotator = rep(id_text(x$annotators[record_annotator(x)[rows]]), ncol(v)),
    label = rep(x$labels, each = length(rows)),
    value = as.vector(v[rows, , drop = FALSE]),
    stringsAsFactors = FALSE
  )
  out$annotations <- annotations_long(long, "item", "annotator", "label", "value",
                                      labels = x$labels)
  out
}

# "n noun" with the plural when n != 1.
report_count <- function(n, noun, plural = paste0(noun, "s")) {
  paste(format_count(n), if (n == 1) noun else plural)
}

# A list of names for a sentence: the first `n`, then how many more.
report_name_list <- function(x, n = 12L) {
  x <- as.character(x)
  shown <- paste(utils::head(x, n), collapse = ", ")
  if (length(x) > n) shown <- paste0(shown, " and ", length(x) - n, " more")
  shown
}

# Rows of a label-level table in the order of the declared universe.
report_universe_order <- function(tab, universe) {
  tab[order(match(tab$label, universe)), , drop = FALSE]
}

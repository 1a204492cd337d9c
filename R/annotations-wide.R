#' Annotations from a wide data frame
#'
#' Builds an [annotations][as_annotations] object from one row per
#' (item, annotator) record with one 0/1/`NA` column per label, the layout of
#' raw multi-label corpora such as GoEmotions or ConvAbuse.
#' Cost: one pass over the rows codes the ids, then the counting pass of
#' [as_annotations()] reads the label columns; a database table is summarised
#' in the database.
#'
#' @param data A data frame, one row per (item, annotator) record.
#' @param item,annotator <[`tidy-select`][tidyselect::language]> One column
#'   each: item ids and annotator ids.
#' @param labels <[`tidy-select`][tidyselect::language]> The label columns
#'   (0/1/`NA`, logical or numeric). Their names are the label universe.
#' @inheritParams annotations_long
#' @param duplicates What to do with repeated (item, annotator) rows:
#'   `"error"` (default), or keep the `"first"` / `"last"` in row order.
#' @return An object of class `annotations`.
#' @family annotation constructors
#' @export
#' @examples
#' wide <- data.frame(
#'   item = c(1, 1, 2, 2),
#'   coder = c("a", "b", "a", "b"),
#'   joy = c(1, 1, 0, NA),
#'   anger = c(0, 1, 0, 0)
#' )
#' annotations_wide(wide, item, coder, c(joy, anger))
annotations_wide <- function(data, item, annotator, labels,
                             duplicates = c("error", "first", "last"), threads = mla_threads()) {
  if (inherits(data, "tbl_lazy")) {
    return(with_db_errors(annotations_wide_db(data, rlang::enquo(item), rlang::enquo(annotator),
                                              rlang::enquo(labels), duplicates),
                          rlang::current_env()))
  }
  check_data_frame(data)
  duplicates <- check_choice(duplicates, c("error", "first", "last"))
  pos <- select_roles(data, list(item = rlang::enquo(item), annotator = rlang::enquo(annotator),  # R/select-roles.R
                                 labels = rlang::enquo(labels)), several = "labels")
  item_col <- data[[pos$item]]
  ann_col <- data[[pos$annotator]]
  label_pos <- pos$labels
  check_nonempty_rows(data)
  it <- encode_ids(item_col, "item")
  an <- encode_ids(ann_col, "annotator")
  universe <- names(label_pos)
  for (nm in universe) {
    rows_desc <- function(r) {
      paste0("item ", it$keys[it$codes[r]], ", annotator ", an$keys[an$codes[r]])
    }
    data[[nm]] <- binary_values(data[[nm]], nm, rows_desc)
  }
  pair <- (as.double(it$codes) - 1) * length(an$keys) + an$codes
  # each row's decisions tell copies from re-annotations; the argument is a
  # promise, so they are pasted only when some (item, annotator) pair repeats
  keep <- resolve_duplicates(pair, pair, it, an, duplicates, "row",
                             content = do.call(paste, c(unname(as.list(data[universe])), sep = "\r")))
  values <- matrix(NA_integer_, sum(keep), length(universe))
  for (j in seq_along(universe)) values[, j] <- as.integer(data[[universe[j]]][keep])
  new_annotations(values, "records", it$codes[keep], an$codes[keep], it$keys, an$keys,
                  universe, threads = check_threads(threads))
}

# The checks of annotation_counts(): each table on its own (columns, counts),
# then against the others, since a contradiction between them gives
# impossible numbers (a negative missing share) rather than an error.

check_table_columns <- function(df, cols, arg = rlang::caller_arg(df), call = rlang::caller_env()) {
  missing <- setdiff(cols, names(df))
  if (length(missing) > 0) {
    mla_abort(c("{.arg {arg}} must have columns {.field {cols}}.",
                "x" = "Missing: {.field {missing}}."),
              class = "counts_table", call = call)
  }
}

check_count_columns <- function(df, cols, arg, call = rlang::caller_env()) {
  for (col in cols) {
    v <- suppressWarnings(as.double(normalise_count(df[[col]])))
    bad <- which(is.na(v) | v < 0 | v != round(v))
    if (length(bad) > 0) {
      mla_abort(c("Column {.field {col}} of {.arg {arg}} must hold whole numbers >= 0.",
                  "x" = "Row {bad[1]} is {.val {format(df[[col]][bad[1]])}}."),
                class = "counts_table", call = call)
    }
  }
}

# pairable: TRUE/FALSE (or 1/0), no NA.
check_pairable_column <- function(design, call = rlang::caller_env()) {
  v <- design$pairable
  ok <- (is.logical(v) || (is.numeric(v) && !is.object(v))) & !is.na(v) & v %in% c(0, 1)
  bad <- which(!ok)[1]
  if (is.na(bad)) return(invisible())
  mla_abort(c("Column {.field pairable} of {.arg design} must hold {.code TRUE} or {.code FALSE}.",
              "x" = "Row {bad} is {.val {format(v[bad])}}."),
            class = "counts_table", call = call)
}

check_universe_labels <- function(universe, lab, call = rlang::caller_env()) {
  universe <- check_label_universe(universe, arg = "universe", call = call)
  extra <- setdiff(lab, universe)
  if (length(extra) > 0) {
    mla_abort(c("Every label of {.arg labels} must be in {.arg universe}.",
                "x" = "Undeclared: {.val {extra}}."), class = "unknown_label", call = call)
  }
  universe
}

# The labels table against the design: no label is decided more often on an
# item than the item has records. Checked before the tally, whose rows run to
# the largest m.
check_labels_m_within_design <- function(labels, design, call = rlang::caller_env()) {
  m <- normalise_count(labels$m)
  items <- normalise_count(design$n_items)
  top <- max(0, normalise_count(design$n_records)[items > 0])
  over <- which(m >= 1 & m > top)
  if (length(over) > 0) {
    r <- over[1]
    mla_abort(c("{.arg labels} must not count more decisions on an item than {.arg design} gives it records.",
                "x" = "Row {r} (label {.val {id_text(labels$label[r])}}) has {.code m = {m[r]}}; the largest {.field n_records} of {.arg design} is {top}."),
              class = "counts_inconsistent", call = call)
  }
}

# Items with m or more decisions on each label (m x labels), from the tally's
# items with exactly m (cnt), summed from the largest m down.
items_with_at_least <- function(cnt) {
  for (k in rev(seq_len(nrow(cnt) - 1L))) cnt[k, ] <- cnt[k, ] + cnt[k + 1L, ]
  cnt
}

# Counted from the top: the items with m or more decisions on a label are at
# most the items with m or more records.
check_labels_items_within_design <- function(labels, tally, universe, design, call = rlang::caller_env()) {
  m <- normalise_count(labels$m)
  j <- match(id_text(labels$label), universe)
  rec <- normalise_count(design$n_records)
  items <- normalise_count(design$n_items)
  rows <- which(m >= 1)
  at_least <- items_with_at_least(tally$cnt)
  allowed <- vapply(seq_len(nrow(at_least)), function(k) sum(items[rec >= k]), numeric(1))
  claimed <- at_least[cbind(m[rows], j[rows])]
  over <- rows[claimed > allowed[m[rows]]]
  if (length(over) > 0) {
    r <- over[1]
    mla_abort(c("{.arg labels} must not count more items than {.arg design} has.",
                "x" = "Counting row {r} (label {.val {id_text(labels$label[r])}}, {.code m = {m[r]}}) and the label's rows of larger m, {.arg labels} has {claimed[match(r, rows)]} items with {m[r]} or more decisions on the label; {.arg design} has {allowed[m[r]]} items with {.code n_records >= {m[r]}}."),
              class = "counts_inconsistent", call = call)
  }
}

# `pairable` against the labels: an item is pairable when some label has two
# or more decisions on it, so the items with k >= 2 decisions on a label are
# pairable items with k or more records, a pairable item has two records,
# and the pairable items are at most the (label, item) cells with m >= 2.
check_pairable_within_labels <- function(tally, universe, design, call = rlang::caller_env()) {
  rec <- normalise_count(design$n_records)
  items <- normalise_count(design$n_items)
  pairable <- design$pairable == 1
  abort_inconsistent <- function(x) {
    mla_abort(c("{.arg design} must mark as {.field pairable} the items that {.arg labels} gives two or more decisions on a label, and only those.",
                "x" = x), class = "counts_inconsistent", call = call, .envir = parent.frame())
  }
  r <- which(pairable & rec < 2 & items > 0)[1]
  if (!is.na(r)) {
    abort_inconsistent("Row {r} is {.code pairable = TRUE} with {.code n_records = {rec[r]}}: a label with two decisions needs two records.")
  }
  at_least <- items_with_at_least(tally$cnt)
  two_plus <- if (nrow(at_least) >= 2) sum(at_least[2, ]) else 0
  if (nrow(at_least) >= 2) {
    ks <- seq(2, nrow(at_least))
    allowed <- vapply(ks, function(k) sum(items[pairable & rec >= k]), numeric(1))
    over <- which(at_least[ks, , drop = FALSE] > allowed, arr.ind = TRUE)
    if (nrow(over) > 0) {
      k <- ks[over[1, 1]]
      j <- over[1, 2]
      abort_inconsistent("Label {.val {universe[j]}} has {at_least[k, j]} item{?s} with {k} or more decisions; {.arg design} has {allowed[k - 1]} pairable item{?s} with {.code n_records >= {k}}.")
    }
  }
  n_pairable <- sum(items[pairable])
  if (n_pairable > two_plus) {
    abort_inconsistent("{.arg design} has {n_pairable} pairable item{?s}; {.arg labels} has {two_plus} (label, item) cell{?s} with two or more decisions.")
  }
}

# The design against the annotators: a record is one annotator's on one item.
check_design_annotators <- function(design, annotators, call = rlang::caller_env()) {
  rec <- normalise_count(design$n_records)
  stored <- normalise_count(design$n_stored)
  items <- normalise_count(design$n_items)
  abort_inconsistent <- function(what, x) {
    mla_abort(c(what, "x" = x), class = "counts_inconsistent", call = call, .envir = parent.frame())
  }
  r <- which(stored < rec)[1]
  if (!is.na(r)) {
    abort_inconsistent("{.arg design} must not have more records with decisions than records ({.field n_stored}).",
                       "Row {r} has {.code n_records = {rec[r]}} and {.code n_stored = {stored[r]}}.")
  }
  n_annotators <- nrow(annotators)
  r <- which(stored > n_annotators & items > 0)[1]
  if (!is.na(r)) {
    abort_inconsistent("{.arg design} must not give an item more records than {.arg annotators} has annotators.",
                       "Row {r} has {.code n_stored = {stored[r]}}; {.arg annotators} has {n_annotators} row{?s}.")
  }
  per_annotator <- normalise_count(annotators$n_records)
  total_items <- sum(items)
  r <- which(per_annotator > total_items)[1]
  if (!is.na(r)) {
    abort_inconsistent("{.arg annotators} must not count more records per annotator than {.arg design} has items.",
                       "Row {r} (annotator {.val {id_text(annotators$annotator[r])}}) has {.code n_records = {per_annotator[r]}}; {.arg design} has {total_items} items.")
  }
  from_design <- sum(rec * items)
  if (sum(per_annotator) != from_design) {
    abort_inconsistent("{.arg annotators} and {.arg design} must count the same records with decisions.",
                       "{.arg annotators} sums {.field n_records} to {sum(per_annotator)}; {.arg design} to {from_design} ({.code sum(n_records * n_items)}).")
  }
}

# sum_x and sum_dis must be reachable by n items with x in 0..m: sum_x <= m n,
# and sum_dis = sum x (m - x) (concave in x) between its value with the
# positives packed into as few items as possible and spread as evenly.
check_label_sums_possible <- function(labels, keep, m, n, sx, sdis, call) {
  r <- sx %% m
  least <- r * (m - r)
  a <- sx %/% n
  b <- sx - a * n
  most <- b * (a + 1) * (m - a - 1) + (n - b) * a * (m - a)
  bad <- which(sx > m * n | sdis < least | sdis > most)[1]
  if (is.na(bad)) return(check_label_sums_parity(labels, keep, m, sx, sdis, call))
  row <- which(keep)[bad]
  range <- if (sx[bad] > m[bad] * n[bad]) "none" else paste(least[bad], "to", most[bad])
  mla_abort(c("{.arg labels} must have sums that {.code n_items} items with {.code m} decisions can give: {.code sum_x <= m * n_items} and {.code sum_dis} (the sum of x (m - x)) within the range those items allow.",
              "x" = "Row {row} (label {.val {id_text(labels$label[row])}}, m = {m[bad]}, n_items = {n[bad]}) has {.code sum_x = {sx[bad]}} and {.code sum_dis = {sdis[bad]}}; possible {.code sum_dis}: {range}."),
            class = "counts_table", call = call)
}

# x (m - x) is even when m is odd (one factor is even) and has the parity of
# x when m is even (x and m - x are both even or both odd), so sum_dis is even
# for odd m and has the parity of sum_x for even m.
check_label_sums_parity <- function(labels, keep, m, sx, sdis, call) {
  parity <- ifelse(m %% 2 == 1, 0, sx %% 2)
  bad <- which(sdis %% 2 != parity)[1]
  if (is.na(bad)) return(invisible())
  row <- which(keep)[bad]
  must <- if (parity[bad] == 0) "even" else "odd"
  mla_abort(c("{.arg labels} must have a {.code sum_dis} of the parity that {.code m} and {.code sum_x} give: x (m - x) is even when m is odd and has the parity of x when m is even.",
              "x" = "Row {row} (label {.val {id_text(labels$label[row])}}, m = {m[bad]}) has {.code sum_x = {sx[bad]}} and {.code sum_dis = {sdis[bad]}}; {.code sum_dis} must be {must}."),
            class = "counts_table", call = call)
}

# A row with m = 0 counts items without decisions on the label: nothing to
# add when its sums are 0, a contradiction otherwise. A row without a label
# has no column.
check_label_rows_placed <- function(labels, j, m, call) {
  r <- which(is.na(labels$label))[1]
  if (!is.na(r)) {
    mla_abort(c("{.arg labels} must name a label on every row.", "x" = "Row {r} has label {.code NA}."),
              class = "counts_table", call = call)
  }
  sums <- normalise_count(labels$sum_x) + normalise_count(labels$sum_dis)
  r <- which(m == 0 & sums > 0)[1]
  if (!is.na(r)) {
    mla_abort(c("{.arg labels} rows with {.code m = 0} must have {.code sum_x = 0} and {.code sum_dis = 0}: their items have no decisions on the label.",
                "x" = "Row {r} (label {.val {id_text(labels$label[r])}}) has {.code sum_x = {labels$sum_x[r]}} and {.code sum_dis = {labels$sum_dis[r]}}."),
              class = "counts_table", call = call)
  }
}

# A single-label record decides every category and selects exactly one: each
# label has a decision in every record, and the positives count the records.
check_single_label_tally <- function(tally, universe, design, call = rlang::caller_env()) {
  records <- sum(normalise_count(design$n_records) * normalise_count(design$n_items))
  decisions <- colSums(seq_len(nrow(tally$cnt)) * tally$cnt)
  j <- which(decisions != records)[1]
  if (!is.na(j)) {
    mla_abort(c("{.arg labels} must give every category a decision in every record when {.code single_label = TRUE}.",
                "x" = "Category {.val {universe[j]}} has {decisions[j]} decisions; {.arg design} has {records} records."),
              class = "counts_inconsistent", call = call)
  }
  positives <- sum(tally$sx)
  if (positives != records) {
    mla_abort(c("{.arg labels} must count one chosen category per record when {.code single_label = TRUE}.",
                "x" = "Its {.field sum_x} add up to {positives}; {.arg design} has {records} records."),
              class = "counts_inconsistent", call = call)
  }
}


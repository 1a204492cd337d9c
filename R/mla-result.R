# Builds the `mla` result from the estimator kernel's output (estimators.h):
# corpus, label and item tibbles in long form over the baselines, the design
# and the reasons for every undefined value. Every number comes from the
# kernel; this file only arranges them.

mla_estimates <- function(tally) mla_table_estimates_cpp(tally$cnt, tally$sx, tally$sdis)

new_mla <- function(x, cols, est, tally, baseline, structured = FALSE) {
  lab <- est$label
  k <- length(cols)
  labels <- label_names(x)[cols]
  label_tbl <- fast_tibble(
    label = rep_baselines(labels),
    baseline = baseline_column(k),
    prevalence = rep_baselines(lab$prevalence),
    observed = rep_baselines(lab$observed),
    expected = as.vector(lab$expected),
    estimate = as.vector(lab$estimate),
    weight = as.vector(lab$weight),
    floor = as.vector(lab$floor),
    positive_agreement = rep_baselines(lab$positive_agreement),
    negative_agreement = rep_baselines(lab$negative_agreement),
    note = rep_baselines(sparse_label_notes(lab))
  )
  cor <- est$corpus
  corpus_tbl <- fast_tibble(
    baseline = baseline_names,
    observed = cor$observed,
    expected = cor$expected,
    estimate = cor$estimate,
    floor_observed = cor$floor_observed,
    floor = cor$floor,
    note = corpus_sparse_note(labels, sparse_label_notes(lab))
  )
  structure(
    list(
      corpus = corpus_tbl,
      label = label_tbl,
      # item rows (items x baselines) are built by tidy(): one value per item
      item_disagreement = tally$item_disagreement,
      corpus_w = cor$w,
      design = mla_design(x, labels, lab, cor, structured),
      baseline = baseline,
      labels = labels,
      notes = category_indicator_notes(undefined_notes(labels, lab$reason, cor$reason), x, labels,
                                       structured),
      annotations = x,
      label_index = cols
    ),
    class = "mla"
  )
}

mla_design <- function(x, labels, lab, cor, structured = FALSE) {
  counts <- design_counts(x, n_labels = length(labels), n_decisions = sum(lab$decisions))
  list(
    n_items = n_items(x),
    n_annotators = n_annotators(x),
    n_labels = length(labels),
    n_records = x$n_records,
    counts = counts,
    missing_share = design_missing_share(counts),
    coverage = design_coverage(counts),
    # the mean of the label prevalences p_j (item-weighted under missing
    # data, Gwet), and the plain share of positive decisions
    prevalence = mean(lab$prevalence[lab$n_rated > 0]),
    pooled_prevalence = sum(lab$positives) / sum(lab$decisions),
    n_labels_used = cor$n_labels_used,
    never_selected = labels[lab$positives == 0 & lab$n_rated > 0],
    always_selected = labels[lab$positives == lab$decisions & lab$n_rated > 0],
    sparse_labels = labels[!is.na(sparse_label_notes(lab))],
    annotators_per_item = item_annotator_counts(x),
    n_pairable_items = n_pairable_items(item_annotator_counts(x)),
    single_label = is_single_label(x) && length(labels) == length(label_names(x)) && !structured,
    # a single-label design analysed as category indicators (on some of its
    # categories, or with a label structure): its number of categories
    categories_of = if (is_single_label(x) && (length(labels) < length(label_names(x)) || structured)) {
      length(label_names(x))
    }
  )
}

# `labels` on some categories of a single-label design, or a label structure
# on one: the categories become category-versus-rest labels and the corpus
# rows multi-label coefficients over them. Said in the notes, since nothing
# else in the fit shows it.
category_indicator_notes <- function(notes, x, labels, structured = FALSE) {
  q <- length(label_names(x))
  k <- length(labels)
  if (!is_single_label(x) || (k == q && !structured)) return(notes)
  reason <- paste0("single-label design", category_indicator_scope(k, q, structured), ": ",
                   if (structured) "structured multi-label" else "multi-label (Hamming)",
                   " agreement of the ", if (k < q) "chosen ", "categories' ",
                   "category-versus-rest indicators, not Fleiss' kappa, AC1 or ",
                   "Brennan-Prediger of the categories")
  fast_tibble(
    level = c("corpus", notes$level),
    label = c(NA_character_, notes$label),
    baseline = c(NA_character_, notes$baseline),
    reason = c(reason, notes$reason)
  )
}

# How a single-label design's categories became indicators (notes, print()).
category_indicator_scope <- function(k, q, structured) {
  paste0(if (k < q) paste0(" on ", k, " of its ", q, " categories"),
         if (structured) " with a label structure")
}

# Items with at least two records, without an items-long temporary.
n_pairable_items <- function(records_per_item) {
  if (length(records_per_item) == 0L) return(0L)
  sum(tabulate(records_per_item, nbins = max(records_per_item))[-1L])
}

# Labels where no item has two positive (or two negative) decisions: the
# coefficient is fixed by the number of positives alone, whatever the
# annotators did. Reported with this note, not hidden.
sparse_label_notes <- function(lab) {
  rated <- lab$n_rated > 0 & lab$positives > 0 & lab$positives < lab$decisions
  no_pos <- rated & !(lab$positive_agreement > 0) %in% TRUE
  no_neg <- rated & !(lab$negative_agreement > 0) %in% TRUE
  note <- rep(NA_character_, length(rated))
  note[no_neg] <- "too little information: no item has two negative decisions on this label"
  note[no_pos] <- "too little information: no item has two positive decisions on this label"
  note
}

corpus_sparse_note <- function(labels, notes) {
  sparse <- labels[!is.na(notes)]
  if (length(sparse) == 0L) return(NA_character_)
  paste0(length(sparse), " label", if (length(sparse) > 1) "s", " with too little information (",
         format_first(sparse, 5), "); see the label rows")
}

# The text of the kernel's reason codes (enum Reason in estimators.h).
undefined_reasons <- c(
  "label is constant: chance agreement is 1 under this baseline",
  "no item has two decisions on this label",
  "no decisions on this label",
  "every label is constant: chance agreement is 1"
)

# Notes for eq. 7 floors of nominal variables (single-label designs, label
# groups) left undefined: the exact floor's work grows with the number of
# different m (nominal_floor.h), and is capped.
add_nominal_floor_notes <- function(notes, level, label) {
  if (length(level) == 0L) return(notes)
  fast_tibble(
    level = c(level, notes$level),
    label = c(label, notes$label),
    baseline = c(rep(NA_character_, length(level)), notes$baseline),
    reason = c(rep("eq. 7 floor not computed: the items have too many different numbers of decisions",
                   length(level)), notes$reason)
  )
}

# The `note` column of tidy()'s rows with the reasons of `notes` (fit$notes)
# that name the row's level, label and baseline; a reason without a baseline
# (label) holds for every baseline (label). So an NA in tidy() says why where
# it stands.
notes_in_rows <- function(rows, notes, level) {
  notes <- notes[notes$level == level, , drop = FALSE]
  if (nrow(notes) == 0L) return(rows$note)
  # keys are never "", which `[` matches to nothing
  label_key <- function(label) ifelse(is.na(label), "\r", paste0("=", label))
  row_label <- label_key(if (level == "label") rows$label else rep(NA_character_, nrow(rows)))
  joined <- function(key, reason) vapply(split(reason, key), paste, "", collapse = "; ")
  any_baseline <- is.na(notes$baseline)
  for_all <- joined(label_key(notes$label[any_baseline]), notes$reason[any_baseline])
  for_one <- joined(paste(label_key(notes$label[!any_baseline]), notes$baseline[!any_baseline], sep = "\r"),
                    notes$reason[!any_baseline])
  note <- append_note(rows$note, unname(for_one[paste(row_label, rows$baseline, sep = "\r")]))
  note <- append_note(note, unname(for_all[row_label]))
  # a label-level reason without a label holds for every label row
  if (level == "label") note <- append_note(note, rep(unname(for_all["\r"]), nrow(rows)))
  note
}

# `note` with `more` added where `more` is not NA ("; " between two notes).
append_note <- function(note, more) {
  add <- !is.na(more)
  note[add] <- ifelse(is.na(note[add]), more[add], paste0(note[add], "; ", more[add]))
  note
}

# Why each undefined value is undefined: corpus rows, then label rows
# (label-major within each baseline).
undefined_notes <- function(labels, label_reason, corpus_reason) {
  label_reason <- as.vector(label_reason)
  keep <- label_reason > 0L
  corpus_bad <- which(corpus_reason > 0L)
  fast_tibble(
    level = c(rep("corpus", length(corpus_bad)), rep("label", sum(keep))),
    label = c(rep(NA_character_, length(corpus_bad)), rep_baselines(labels)[keep]),
    baseline = c(baseline_names[corpus_bad], baseline_column(length(labels))[keep]),
    reason = undefined_reasons[c(corpus_reason[corpus_bad], label_reason[keep])]
  )
}

# Item level, items x baselines: the observed value with the corpus baseline.
item_table <- function(fit, call = rlang::caller_env()) {
  rows <- item_rows(fit$annotations, fit, call = call)  # R/annotation-generics.R
  est <- mla_item_estimates_cpp(rows$disagreement, fit$corpus_w)
  nb <- length(fit$corpus_w)
  fast_tibble(
    item = rep(rows$items, times = nb),
    n_annotators = rep(rows$n_annotators, times = nb),
    baseline = rep(fit_baselines(fit)[seq_len(nb)], each = length(rows$items)),
    observed = rep(est$observed, times = nb),
    estimate = as.vector(est$estimate)
  )
}

# tibble::tibble() without its input checks, recycling length-1 columns.
fast_tibble <- function(...) {
  cols <- list(...)
  n <- max(lengths(cols))
  cols <- lapply(cols, function(col) if (length(col) == 1L && n != 1L) rep(col, n) else col)
  tibble::new_tibble(cols, nrow = n)
}

hamming_alpha_estimates <- function(tally) hamming_alpha_cpp(tally$cnt, tally$sx, tally$sdis)

# Records with a decision on the fit's labels, per item and per annotator of
# its annotations, from one count pass (the object's own counts when the fit
# reads every label): the fit's annotators are those with any, its items
# those with any. Every count of a fit's annotators (resampling, jackknife,
# rescaling, refusals) and of the items an item bootstrap draws reads this.
fit_record_counts <- function(fit, threads = mla_threads()) {
  a <- fit$annotations
  cols <- fit$label_index
  if (identical(as.integer(cols), seq_along(label_names(a)))) {
    return(list(item_annotators = item_annotator_counts(a),
                annotator_records = annotator_record_counts(a)))
  }
  count_labels(a, cols, keep_counts = FALSE, threads = threads)[c("item_annotators", "annotator_records")]
}

# The baseline registry, in the order of the kernel's `Baseline` enum
# (estimators.h), which is the column order of every labels x baselines
# matrix. "conger" is computed only when asked for (`always = FALSE`): it
# needs the records.
baseline_registry <- data.frame(
  name = c("fleiss", "ac1", "pabak", "conger"),
  label = c("pooled marginal (Fleiss/Scott)", "Gwet AC1", "PABAK",
            "annotator marginals (Conger/Cohen)"),
  short = c("F", "AC1", "PABAK", "C"),
  # the same baselines on single-label (categorical) designs
  single_label = c("Fleiss' kappa", "Gwet's AC1", "Brennan-Prediger", "Conger's kappa"),
  always = c(TRUE, TRUE, TRUE, FALSE),
  stringsAsFactors = FALSE
)

# The baselines every fit has (the kernel's), and every baseline a user can ask for.
baseline_names <- baseline_registry$name[baseline_registry$always]
n_baselines <- length(baseline_names)
all_baseline_names <- baseline_registry$name

# Display label (print/format) and short label (floor line) of baselines `b`.
baseline_label <- function(b, single_label = FALSE) {
  labels <- if (single_label) baseline_registry$single_label else baseline_registry$label
  stats::setNames(labels, all_baseline_names)[b]
}
baseline_short <- function(b) {
  stats::setNames(baseline_registry$short, all_baseline_names)[b]
}

# The baselines of a fit, in the order of its corpus rows.
fit_baselines <- function(fit) fit$corpus$baseline

# `values` repeated once per baseline, for long tables.
rep_baselines <- function(values) rep(values, times = n_baselines)
baseline_column <- function(n) rep(baseline_names, each = n)

# The baseline registry: every baseline's name, display labels and position,
# in the order of the C++ kernel's `Baseline` enum (inst/include/mlagreement/estimators.h),
# which is also the column order of every labels x baselines matrix it returns.
baseline_registry <- data.frame(
  name = c("fleiss", "ac1", "pabak"),
  label = c("pooled marginal (Fleiss/Scott)", "Gwet AC1", "PABAK"),
  short = c("F", "AC1", "PABAK"),
  # the same baselines on single-label (categorical) designs
  single_label = c("Fleiss' kappa", "Gwet's AC1", "Brennan-Prediger"),
  stringsAsFactors = FALSE
)

baseline_names <- baseline_registry$name
n_baselines <- length(baseline_names)

# Display label (print/format) and short label (floor line) of baselines `b`.
baseline_label <- function(b, single_label = FALSE) {
  labels <- if (single_label) baseline_registry$single_label else baseline_registry$label
  stats::setNames(labels, baseline_names)[b]
}
baseline_short <- function(b) {
  stats::setNames(baseline_registry$short, baseline_names)[b]
}

# One row per value x baseline in long tables: `values` repeated per baseline,
# and the matching baseline column.
rep_baselines <- function(values) rep(values, times = n_baselines)
baseline_column <- function(n) rep(baseline_names, each = n)

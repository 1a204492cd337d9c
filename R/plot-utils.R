# Plot parts shared by the autoplot() methods, and the choices that keep a
# plot readable at 7 x 5 in whatever the size of the design.

theme_mla <- function() {
  ggplot2::theme_minimal(base_size = 11) +
    ggplot2::theme(
      panel.grid.minor = ggplot2::element_blank(),
      panel.spacing = ggplot2::unit(1.2, "lines"),
      strip.text = ggplot2::element_text(face = "bold", hjust = 0),
      legend.position = "bottom",
      plot.caption = ggplot2::element_text(colour = "grey30", hjust = 0),
      plot.caption.position = "plot",
      plot.title.position = "plot",
      # room for half a tick label ("0.800") centred on the right panel edge,
      # which ggplot2 does not reserve
      plot.margin = ggplot2::margin(5.5, 14, 5.5, 5.5)
    )
}

# Baselines as plots name them.
baseline_display <- c(fleiss = "pooled marginal (F)", ac1 = "AC1", pabak = "PABAK")
# Single-label designs: the corpus coefficients users of categorical data know.
baseline_display_single <- c(fleiss = "Fleiss' kappa", ac1 = "Gwet's AC1",
                             pabak = "Brennan-Prediger")
# Short names for axis titles (no nested parentheses).
baseline_plot_short <- c(fleiss = "pooled marginal", ac1 = "AC1", pabak = "PABAK")
# The names of the baseline asked for by mla(baseline = "conger") (the colour
# scale keeps the three baselines of every fit).
conger_display <- c(conger = "annotator marginals (Conger)")
conger_display_single <- c(conger = "Conger's kappa")
conger_plot_short <- c(conger = "annotator marginals")

# Measures of simulation_study() as plots name them.
measure_display <- c(
  observed = "Observed agreement A_o", mla_fleiss = "MLA, pooled marginal",
  mla_ac1 = "MLA, AC1", mla_pabak = "MLA, PABAK", floor_observed = "Floor of A_o (eq. 7)",
  alpha_hamming = "Alpha, Hamming", alpha_jaccard = "Alpha, Jaccard",
  alpha_masi = "Alpha, MASI", masi = "Mean MASI", jaccard = "Mean Jaccard",
  augmented_kappa = "Augmented kappa", am = "Am", boot_f1 = "Boot-F1"
)

display_measure <- function(m) {
  out <- unname(measure_display[m])
  ifelse(is.na(out), m, out)
}

okabe_ito <- c("#E69F00", "#56B4E9", "#009E73", "#CC79A7", "#0072B2", "#D55E00",
               "#F0E442", "#000000")

baseline_factor <- function(b) {
  factor(baseline_display[b], levels = baseline_display)
}

scale_colour_baseline <- function() {
  ggplot2::scale_colour_manual(
    values = stats::setNames(c("#0072B2", "#D55E00", "#009E73"), baseline_display),
    name = "Baseline", drop = FALSE
  )
}

# Caption parts joined and wrapped so that no line is wider than a 7 in plot.
wrap_caption <- function(parts, width = 100L) {
  parts <- parts[!is.na(parts) & nzchar(parts)]
  if (length(parts) == 0L) return(NULL)
  paste(strwrap(paste(parts, collapse = " "), width = width), collapse = "\n")
}

# Font size (pt) for n discrete axis values sharing `space_pt` points; NA when
# even `min_pt` would overlap (the caller drops the axis text).
axis_text_size <- function(n, space_pt = 250, max_pt = 8.8, min_pt = 5) {
  size <- min(max_pt, 0.75 * space_pt / max(n, 1))
  if (size < min_pt) NA_real_ else size
}

# Which labels a plot shows: those named in `labels`, else all, then at most
# `n_max` (NULL: `auto_max`), keeping the largest `rank_by`. Returns the
# chosen names and a caption sentence.
choose_labels <- function(candidates, rank_by, labels, n_max, auto_max, universe,
                          why, arg = "labels", call = rlang::caller_env()) {
  if (!is.null(labels)) {
    labels <- check_choice(labels, universe, multiple = TRUE, arg_name = arg, call = call,
                           class = "plot_argument")
    keep <- candidates %in% labels
    candidates <- candidates[keep]
    rank_by <- rank_by[keep]
  }
  limit <- if (is.null(n_max)) auto_max else n_max
  if (length(candidates) <= limit) return(list(labels = candidates, note = NULL))
  top <- order(-rank_by, seq_along(candidates), na.last = TRUE)[seq_len(limit)]
  chosen <- candidates[sort(top)]
  note <- paste0(limit, " of ", length(candidates), " labels shown (", why,
                 "); choose others with `", arg, "`.")
  list(labels = chosen, note = note)
}

check_plot_limit <- function(n, arg = rlang::caller_arg(n), call = rlang::caller_env()) {
  if (is.null(n)) return(NULL)
  check_whole(n, min = 1, arg = arg, call = call, class = "plot_argument")
}

# Axis names of at most `width` characters: a longer name keeps its start and
# its end around "..." (ids often share a long prefix and differ at the end),
# with as much of the end as keeps all names distinct; ASCII, which every
# graphics device can draw. The full names stay in the data and in tidy().
truncate_ids <- function(x, width = 20L) {
  x <- as.character(x)
  long <- !is.na(x) & nchar(x) > width
  if (!any(long)) return(x)
  keep <- width - 3L
  for (tail in seq(ceiling(keep / 2), keep)) {
    out <- x
    out[long] <- paste0(substr(x[long], 1L, keep - tail), "...",
                        substr(x[long], nchar(x[long]) - tail + 1L, nchar(x[long])))
    if (!anyDuplicated(out[!is.na(out)])) return(out)
  }
  # names that differ only in the middle: numbered
  make.unique(out, sep = "...")
}

# Label names on a discrete y axis, at most 40 characters (see truncate_ids()).
scale_y_label_names <- function() {
  ggplot2::scale_y_discrete(labels = function(x) truncate_ids(x, 40L))
}

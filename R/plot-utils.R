# Plot parts shared by the autoplot() methods: theme, baseline names and
# colours.

theme_mla <- function() {
  ggplot2::theme_minimal(base_size = 11) +
    ggplot2::theme(
      panel.grid.minor = ggplot2::element_blank(),
      strip.text = ggplot2::element_text(face = "bold", hjust = 0),
      legend.position = "bottom",
      plot.caption = ggplot2::element_text(colour = "grey30", hjust = 0)
    )
}

# Baselines as plots name them, in the order of baseline_names.
baseline_display <- c(fleiss = "pooled marginal (F)", ac1 = "AC1", pabak = "PABAK")

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

# Benchmark: the full Table 4 design of the paper (n in {3,5,10}, N in
# {20,50,100}, k in {5,10,25}, 3 prevalences, 4 scenarios, 20 repeats =
# 6,480 data sets) with the MLA measures. Aim: well under 60 s on 2 cores.
# Run from the package root: Rscript bench/simulation.R
pkgload::load_all(quiet = TRUE)
options(cli.progress_show_after = Inf)

set.seed(1)
full <- system.time(study <- simulation_study(measures = "mla"))[["elapsed"]]
n_sets <- length(unique(study$seed))

# What a user would otherwise write: simulate_annotations() + mla() per data
# set. Timed on every 20th data set and scaled up.
cells <- unique(as.data.frame(study)[c("scenario", "prevalence", "n_annotators", "n_items",
                                       "n_labels", "seed")])
sub <- cells[seq(1, nrow(cells), by = 20), ]
naive <- system.time(for (r in seq_len(nrow(sub))) {
  d <- sub[r, ]
  set.seed(d$seed)
  fit <- mla(simulate_annotations(d$n_items, d$n_annotators, d$n_labels, d$prevalence,
                                  scenario = d$scenario))
})[["elapsed"]] * nrow(cells) / nrow(sub)

cat(sprintf("Full Table 4 design, MLA measures: %d data sets in %.2f s (%.2f ms per data set)\n",
            n_sets, full, 1000 * full / n_sets))
cat(sprintf("Ratio to the 60 s budget: %.3f\n", full / 60))
cat(sprintf("simulate_annotations() + mla() per data set (extrapolated): %.2f s; ratio study / naive: %.2f\n",
            naive, full / naive))

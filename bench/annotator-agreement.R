# Speed of annotator_agreement() relative to mla() on the same data.
# Run with: Rscript -e 'devtools::load_all(); source("bench/annotator-agreement.R")'
set.seed(1)
time_it <- function(expr, reps = 3) {
  expr <- substitute(expr)
  min(vapply(seq_len(reps), function(i) system.time(eval(expr, parent.frame(3)))[["elapsed"]],
             numeric(1)))
}

# Dense, fully crossed: 1e5 items x 5 annotators x 20 labels
arr <- array(rbinom(1e5 * 5 * 20, 1, 0.2), c(1e5, 5, 20))
ann <- as_annotations(arr)
t_mla <- time_it(mla(ann))
t_agr <- time_it(annotator_agreement(ann))
cat(sprintf("dense 1e5 x 5 x 20: mla %.3fs, annotator_agreement %.3fs, ratio %.2f\n",
            t_mla, t_agr, t_agr / t_mla))

# Sparse crowdsourcing: 1e5 items, 2000 annotators, 3 per item, 10 labels
n_items <- 1e5
who <- t(replicate(n_items, sample(2000, 3)))
long <- data.frame(item = rep(seq_len(n_items), each = 3), annotator = as.vector(t(who)))
vals <- matrix(rbinom(nrow(long) * 10, 1, 0.2), nrow(long), 10,
               dimnames = list(NULL, paste0("L", 1:10)))
wide <- cbind(long, vals)
sp <- annotations_wide(wide, item, annotator, tidyselect::starts_with("L"))
t_mla <- time_it(mla(sp))
t_agr <- time_it(annotator_agreement(sp))
n_pairs <- nrow(tidy(annotator_agreement(sp)))
cat(sprintf("sparse 1e5 items, 2000 annotators: mla %.3fs, annotator_agreement %.3fs, ratio %.2f (%d pairs of %d possible)\n",
            t_mla, t_agr, t_agr / t_mla, n_pairs, 2000 * 1999 / 2))

# ConvAbuse
cv <- annotations_long(convabuse_types, item, annotator, label, value)
t_mla <- time_it(mla(cv), 10)
t_agr <- time_it(annotator_agreement(cv), 10)
cat(sprintf("ConvAbuse: mla %.4fs, annotator_agreement %.4fs, ratio %.2f\n",
            t_mla, t_agr, t_agr / t_mla))

# Designs of real studies at their real size, shared by the plot and report tests.

# 800 annotators, 5 per item: noisy copies of a latent label set, each item
# assigned to 5 annotators drawn from the pool.
crowd_design <- function(n_items = 1000, pool = 800, per_item = 5, k = 4) {
  truth <- matrix(stats::rbinom(n_items * k, 1, 0.3), n_items, k)
  item <- rep(seq_len(n_items), each = per_item)
  flip <- matrix(stats::rbinom(length(item) * k, 1, 0.15), length(item), k)
  who <- unlist(lapply(seq_len(n_items), function(i) sample(pool, per_item)))
  long <- data.frame(
    item = rep(sprintf("i%04d", item), k),
    annotator = rep(sprintf("w%03d", who), k),
    label = rep(sprintf("L%d", seq_len(k)), each = length(item)),
    value = as.vector(abs(truth[item, ] - flip))
  )
  annotations_long(long, item, annotator, label, value)
}


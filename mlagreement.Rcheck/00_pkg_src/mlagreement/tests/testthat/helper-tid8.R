# Plain-R transcription of the TID-8 scoring recipe (seed 001), line by line:
#   em = sum(p == g) / len(g); classes = sorted(set(gold));
#   per class tp, fp, fn; prec/rec 0 on zero division; f1 0 when p + r = 0;
#   macro_f1 = sum(f1) / len(f1)
ref_tid8_metrics <- function(predictions, gold_labels) {
  predictions <- as.character(predictions)
  gold_labels <- as.character(gold_labels)
  em <- sum(mapply(function(p, g) p == g, predictions, gold_labels)) / length(gold_labels)
  classes <- sort(unique(gold_labels))
  f1_scores <- c()
  for (c in classes) {
    tp <- 0; fp <- 0; fn <- 0
    for (k in seq_along(gold_labels)) {
      p <- predictions[k]; g <- gold_labels[k]
      if (p == c && g == c) tp <- tp + 1
      if (p == c && g != c) fp <- fp + 1
      if (p != c && g == c) fn <- fn + 1
    }
    prec <- if (tp + fp > 0) tp / (tp + fp) else 0
    rec <- if (tp + fn > 0) tp / (tp + fn) else 0
    f1 <- if (prec + rec > 0) 2 * prec * rec / (prec + rec) else 0
    f1_scores <- c(f1_scores, f1)
  }
  c(accuracy = em, macro_f1 = sum(f1_scores) / length(f1_scores))
}

# Most frequent label, ties to the first seen (Python Counter.most_common(1)).
ref_most_frequent <- function(x) {
  best <- NULL
  best_n <- 0
  for (v in unique(x)) {
    n <- sum(x == v)
    if (n > best_n) {
      best <- v
      best_n <- n
    }
  }
  best
}

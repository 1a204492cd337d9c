# annotator_agreement()'s per-annotator kappa (defined in
# ?annotator_agreement), linear in the records: per record and label, the
# other decisions and positives on the item are m_ij - 1 and x_ij - v. One
# value per annotator (NA without comparisons or chance disagreement).
annotator_crowd_kappa <- function(x) {
  t <- record_item_totals(x)  # R/annotator-agreement.R
  dec <- t$dec
  pos <- t$pos
  others <- (t$m - 1) * dec
  other_pos <- (t$x - pos) * dec
  disagree <- ifelse(pos, others - other_pos, other_pos)
  ann <- record_annotator(x)
  J <- n_annotators(x)
  by_annotator <- function(u) {  # annotators x labels sums
    out <- matrix(0, J, ncol(u))
    s <- rowsum(u, ann)
    out[as.integer(rownames(s)), ] <- s
    out
  }
  n_cmp <- by_annotator(others)
  p <- by_annotator(pos * others) / n_cmp
  q <- by_annotator(other_pos) / n_cmp
  d <- by_annotator(disagree) / n_cmp
  e <- p * (1 - q) + q * (1 - p)
  shared <- n_cmp > 0
  d[!shared] <- 0
  e[!shared] <- 0
  # equal label weights in both means, so the number of labels cancels
  ifelse(rowSums(e) > 0, 1 - rowSums(d) / rowSums(e), NA_real_)
}

# How closely the annotators' scores follow their prevalence: the Spearman or
# Pearson correlation, whichever is larger in absolute value (Pearson catches
# a few annotators who tick far more than the rest); NA with fewer than 4
# annotators or a constant column.
prevalence_rank_correlation <- function(score, prevalence) {
  ok <- !is.na(score) & !is.na(prevalence)
  if (sum(ok) < 4L || stats::sd(score[ok]) == 0 || stats::sd(prevalence[ok]) == 0) {
    return(NA_real_)
  }
  r <- c(Spearman = stats::cor(score[ok], prevalence[ok], method = "spearman"),
         Pearson = stats::cor(score[ok], prevalence[ok]))
  r[which.max(abs(r))]
}

# |correlation| above which print() says the ranking mostly follows how many
# labels the annotators tick.
prevalence_note_threshold <- 0.8

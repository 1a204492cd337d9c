# The bounded per-annotator coefficient of annotator_agreement(): annotator
# a against the rest of the crowd, Cohen-style, with a's own marginal.
#
# Every decision of a on item i and label j is compared with each of the
# m_ij - 1 other decisions there. Over a's comparisons on label j (C_j of
# them), p_j is the share in which a said 1, q_j the share in which the other
# annotator said 1, and D_j the share that disagree; the chance disagreement
# of two independent raters with these marginals is
# E_j = p_j (1 - q_j) + q_j (1 - p_j). Labels are pooled as in eq. 6:
# kappa_a = 1 - mean_j D_j / mean_j E_j over the labels a shares. The 2 x 2
# table of the comparisons has margins p_j and q_j, so D_j <= 2 E_j and
# kappa_a lies in [-1, 1].
#
# Linear in the records: per record and label, the other decisions and
# positives on the item are m_ij - 1 and x_ij - v. Returns one value per
# annotator (NA without comparisons or chance disagreement).
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

# How closely the annotators' scores follow their prevalence, over the
# ranked annotators: the Spearman (whole ranking) or Pearson (a few
# annotators who tick far more than the rest) correlation, whichever is
# larger in absolute value, named by its method; NA when it cannot say
# anything (fewer than 4 annotators, or either column constant).
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

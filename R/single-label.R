# Single-label designs are stored one-hot and marked; mla() then reports
# Fleiss' kappa, Gwet's AC1 and Brennan-Prediger under the three baseline
# names. The label-wise one-hot AC1 and PABAK would count the joint absence of
# two unused categories as agreement, so they are not the corpus values; they
# stay as category-versus-rest label rows.

# Marks an annotations object as single-label after checking that every
# record with a decision has exactly one positive and no missing decision.
mark_single_label <- function(a, check = TRUE, call = rlang::caller_env()) {
  if (check) check_single_label_records(a, call = call)
  a$single_label <- TRUE
  a
}

is_single_label <- function(x) isTRUE(x$single_label)

# A fit of single-label coefficients: its design says so, not its annotations
# (a subset of the categories or a label structure makes the categories
# multi-label indicators).
is_single_label_fit <- function(fit) isTRUE(fit$design$single_label)

check_single_label_records <- function(a, call) {
  v <- record_values(a)
  n_dec <- rowSums(!is.na(v))
  n_pos <- rowSums(v == 1L, na.rm = TRUE)
  bad <- which(n_dec > 0 & (n_dec < ncol(v) | n_pos != 1L))
  if (length(bad) == 0L) return(invisible())
  r <- bad[1]
  abort_single_label(record_ids(a, r), length(bad), n_dec[r], n_pos[r], ncol(v), call)
}

# The single-label rule broken first by the record `ids`, which has `n_dec`
# decisions and `n_pos` positives on `k` categories (records and databases).
abort_single_label <- function(ids, n_bad, n_dec, n_pos, k, call) {
  what <- if (n_dec < k) "has a missing decision on some categories" else paste0("selects ", n_pos, " categories")
  abort_record(ids, "Every record of a single-label design must select exactly one category.",
               "{what}; {n_bad} such record{?s} in all",
               c("i" = "Leave {.arg single_label} at {.code FALSE} for multi-label data."),
               class = "single_label", call = call)
}

# Replaces the corpus rows of a single-label fit by the categorical
# coefficients from the kernel, with the eq. 7 floor unless `with_floor` is
# FALSE.
single_label_corpus <- function(fit, tally, with_floor = TRUE) {
  est <- single_label_estimates_cpp(tally$cnt, tally$sx, tally$sdis, with_floor = with_floor)
  corpus <- fit$corpus
  corpus$observed <- rep(1 - est$d_obs, 3L)
  corpus$expected <- 1 - est$w
  corpus$estimate <- est$estimate
  corpus$floor_observed <- rep(est$floor_observed, 3L)
  corpus$floor <- est$floor
  fit$corpus <- corpus
  fit$corpus_w <- est$w
  # item rows: observed = the item's share of agreeing pairs, 1 - q d / 2 of
  # its Hamming disagreement d over the q one-hot labels
  fit$item_disagreement <- fit$item_disagreement * est$q / 2
  fit$single_label <- list(q = est$q, alpha = est$alpha,
                           alpha_d_obs = est$alpha_d_obs, alpha_d_exp = est$alpha_d_exp)
  fit$notes <- single_label_notes(fit$notes, est)
  if (with_floor && is.na(est$floor_observed) && !is.na(est$d_obs)) {
    fit$notes <- add_nominal_floor_notes(fit$notes, "corpus", NA_character_)
  }
  fit
}

single_label_notes <- function(notes, est) {
  add <- list(
    list("label", NA_character_, NA_character_,
         "single-label design: label rows are category-versus-rest (one-hot) coefficients")
  )
  undefined <- which(is.na(est$estimate))
  for (b in undefined) {
    add[[length(add) + 1L]] <- list("corpus", NA_character_, baseline_names[b],
                                    "only one category in use: chance agreement is 1")
  }
  rows <- fast_tibble(
    level = vapply(add, `[[`, "", 1L),
    label = vapply(add, `[[`, "", 2L),
    baseline = vapply(add, `[[`, "", 3L),
    reason = vapply(add, `[[`, "", 4L)
  )
  keep_old <- !(notes$level == "corpus" & notes$baseline %in% baseline_names[undefined])
  fast_tibble(
    level = c(rows$level, notes$level[keep_old]),
    label = c(rows$label, notes$label[keep_old]),
    baseline = c(rows$baseline, notes$baseline[keep_old]),
    reason = c(rows$reason, notes$reason[keep_old])
  )
}

# Agreement rows of annotator_agreement() and model_agreement() on the scale
# of mla()'s A_o and A_e. Two one-hot records over q categories disagree on
# 2 of their q cells when their categories differ and on none otherwise, so
# their Hamming agreement h is 1 - 2 (1 - c) / q for the categorical
# agreement c, and each pair of records compared makes q Hamming decisions.
# Scores against the corpus baseline are the same on either scale.
on_category_scale <- function(x, rows) {
  if (!is_single_label(x)) return(rows)
  q <- length(label_names(x))
  for (col in intersect(c("observed", "expected"), names(rows))) {
    rows[[col]] <- 1 - (1 - rows[[col]]) * q / 2
  }
  if ("n_decisions" %in% names(rows)) rows$n_decisions <- as.integer(round(rows$n_decisions / q))
  rows
}

# The pilot of mla_sample_size(): its size, the checks of its standard
# error and its annotators' part.

# The default pilot: at least kPilotItems items, and enough for about
# kPilotDisagreements expected disagreeing item-labels, which carry the
# information of the SE (its relative error is about 1 / sqrt(2 D) for D of
# them), up to kPilotCells annotations.
kPilotItems <- 20000L
kPilotDisagreements <- 10000
kPilotCells <- 5e6

default_pilot <- function(errors, n_annotators, n_labels) {
  wanted <- ceiling(kPilotDisagreements / (n_labels * disagreement_rate(errors, n_annotators)))
  cap <- floor(kPilotCells / (n_annotators * n_labels))
  as.integer(max(kPilotItems, min(wanted, cap)))
}

# Expected disagreeing item-labels per item of the noisy generator: an
# item-label's decisions disagree unless all keep or all flip its truth.
disagreement_rate <- function(errors, n_annotators) {
  errors <- rep_len(errors, n_annotators)
  1 - prod(1 - errors) - prod(errors)
}

# The planned n scales as the pilot's SE squared, so its relative error is
# about sqrt(2 / D); beyond kPlanSpread, say so and what pilot brings it to
# half that.
kPlanSpread <- 0.05

inform_pilot_precision <- function(pilot, errors, n_annotators, n_labels) {
  per_item <- n_labels * disagreement_rate(errors, n_annotators)
  disagreeing <- pilot * per_item
  spread <- sqrt(2 / disagreeing)
  if (spread <= kPlanSpread) return(invisible())
  percent <- round(100 * spread)
  half <- 100 * kPlanSpread / 2
  needed <- format_count(ceiling(2 / (kPlanSpread / 2)^2 / per_item))
  cli::cli_inform(
    c("i" = "The planned {.field n_items} is uncertain by about {percent}% (one standard deviation over pilots): the pilot of {format_count(pilot)} items holds about {round(disagreeing)} disagreeing item-labels.",
      " " = "A {.arg pilot} of {needed} items brings it to about {half}%."),
    class = "mlagreement_message_sample_size_precision"
  )
}

# The plan scales the pilot's standard error, which must be positive and
# finite: it is 0 when the pilot holds no disagreeing decision and NA when
# its coefficient is undefined (e.g. every label constant), both more likely
# the rarer the labels and the higher the agreement.
check_pilot_se <- function(pilot_row, pilot, prevalence, errors, n_annotators, n_labels,
                           call = rlang::caller_env()) {
  se0 <- pilot_row$std.error
  if (is.finite(se0) && se0 > 0) return(se0)
  disagreeing <- signif(pilot * n_labels * disagreement_rate(errors, n_annotators), 2)
  if (!is.na(pilot_row$estimate) && isTRUE(pilot_row$observed == 1)) {
    mla_abort(
      c("The pilot's standard error is 0: its {format_count(pilot)} items hold no disagreeing decision.",
        "x" = "At this {.arg prevalence} and {.arg agreement}, about {disagreeing} disagreeing item-label{?s} are expected in it: too few to plan from.",
        "i" = "Use a larger {.arg pilot}."),
      class = "sample_size", call = call
    )
  }
  positives <- signif(pilot * min(prevalence), 2)
  note <- pilot_row$note
  mla_abort(
    c(if (is.na(pilot_row$estimate)) {
        "The pilot's coefficient is undefined, so it has no standard error to plan from."
      } else {
        "The pilot's standard error is {se0}: there is none to plan from."
      },
      "x" = if (!is.na(note)) "The pilot's fit says: {note}.",
      "i" = "Use a larger {.arg pilot} or check {.arg prevalence}: at prevalence {min(prevalence)}, about {positives} of its {format_count(pilot)} items are expected to be positive on the rarest label."),
    class = "sample_size", call = call
  )
}

# Blocks of the pilot whose annotator jackknives give the 1/n part.
kPilotBlocks <- 20L

# The annotators' part of the variance as tidy(fit, annotators = "random")
# estimates it at n items, fixed + per_item / n: the jackknife over
# annotators also carries their item x annotator interaction, which
# shrinks as 1/n to first order. Fitted through the jackknife on the whole
# pilot (n0 items) and its mean over the pilot's disjoint blocks of m items;
# their terms linear in the interaction cancel in the difference.
pilot_annotator_part <- function(a, fit, row) {
  jack_var <- function(f) {
    v <- suppressMessages(annotator_variance(f, "corpus"),  # R/analytic-annotators.R
                          classes = "mlagreement_message_few_annotators")
    v$var[row]
  }
  n0 <- n_items(a)
  m <- n0 %/% kPilotBlocks
  v0 <- jack_var(fit)
  vm <- mean(vapply(seq_len(kPilotBlocks), function(b) {
    jack_var(mla(a[(b - 1L) * m + seq_len(m), , ]))
  }, numeric(1)), na.rm = TRUE)
  per_item <- if (is.finite(vm)) max(0, (vm - v0) / (1 / m - 1 / n0)) else 0
  list(fixed = max(0, v0 - per_item / n0), per_item = per_item)
}

#' Items needed for a confidence interval of a given half-width
#'
#' How many items a study needs so that the analytic confidence interval of
#' the corpus coefficient (see [tidy.mla()]) has an expected half-width of
#' `half_width`, for a design of `n_annotators` annotators who label every
#' item on `n_labels` labels with prevalence `prevalence`, when the true
#' agreement is `agreement` (as kappaSize does for single-label kappa).
#' Cost: one simulated pilot study of `pilot` items (by default up to 5
#' million annotations, see *Method*), fitted with its standard
#' error (with `annotator_sd`, also its jackknife over annotators, whole and
#' in 20 blocks); `assurance` adds two rounds of 200 simulated studies of the
#' size found.
#'
#' @section Method:
#' The design is the paper's noisy generator ([simulate_annotations()] with
#' `scenario = "noisy"`): every decision is the item's hidden truth flipped
#' with probability \eqn{\varepsilon}. First \eqn{\varepsilon} is solved so
#' that the closed-form corpus coefficient of [analytic_agreement()] under
#' `baseline` equals `agreement`. Then one pilot study of `pilot` items is
#' simulated and its analytic standard error \eqn{s_0} computed; the
#' linearisation's SE scales as \eqn{1/\sqrt{n}}, so
#' \deqn{n = \lceil (t_{n-1, 1-\alpha/2} \, s_0 \sqrt{n_0} / w)^2 \rceil}
#' (solved for the t quantile by iteration). The pilot uses R's random number
#' generator: [set.seed()] makes the answer reproducible, and a larger
#' `pilot` makes it more precise. Its information is in its disagreeing
#' decisions, not in its items: with \eqn{D} expected disagreeing
#' item-labels (an item-label whose decisions are not all equal), the
#' relative error of \eqn{s_0} is about \eqn{1/\sqrt{2D}} (up to a third
#' more for rare labels, less for common ones), and that of `n` about
#' \eqn{\sqrt{2/D}}, twice as large. \eqn{D} falls with the prevalence of
#' rare labels and with the agreement: 20000 items at prevalence 0.01, 3
#' annotators and agreement 0.7 hold about 250, and plan `n` to within about
#' 11%. So the default pilot holds at least 20000 items and enough for
#' \eqn{D = 10000} (`n` to within about 1.4%), up to 5 million annotations
#' (items times annotators times labels); when \eqn{\sqrt{2/D}} exceeds
#' 5%, a message (class `mlagreement_message_sample_size_precision`) says
#' so and names the `pilot` that halves it.
#' A pilot whose standard error is 0 (its items hold no disagreeing decision)
#' or undefined (e.g. every label constant in it) gives nothing to scale:
#' that is an error asking for a larger `pilot`. So is a plan of more items
#' than an integer holds (\eqn{2^{31} - 1}).
#'
#' @section Assurance:
#' The half-width of a study's interval is itself an estimate: with the
#' expected half-width equal to `half_width`, about half of the planned
#' studies miss it. With `assurance` (e.g. 0.8), `n` is the number of items
#' at which that share of studies reaches `half_width`: starting from the
#' plan for the expected half-width, 200 studies of the planned size are
#' simulated, the `assurance` quantile of their standard errors replaces the
#' pilot's (scaled as \eqn{1/\sqrt{n}}), and this is done twice. The cost is
#' that of 400 fits of the planned size.
#'
#' @section Correlated labels and heterogeneous annotators:
#' `label_cor` simulates the pilot with that latent correlation between the
#' labels of a vector ([simulate_annotations()]'s `correlation`): correlated
#' labels carry less independent information, so more items are needed.
#' `annotator_sd` gives the annotators different error rates (on the logit
#' scale, standard deviation `annotator_sd` around the noisy generator's
#' \eqn{\varepsilon}; the pilot's \eqn{J} annotators sit at the normal
#' quantiles `qnorm(ppoints(J))`), and plans for the interval of
#' `tidy(fit, annotators = "random")` (annotators sampled from a
#' population; see [tidy.mla()], *Annotators as a sample*). Its variance is
#' the items' part \eqn{s_0^2 n_0 / n} plus the jackknife over annotators,
#' which at \eqn{n} items also carries the item-by-annotator interaction.
#' To first order in \eqn{1/n} its expectation is \eqn{a + b/n}: \eqn{a}
#' the annotators' own part, which no number of items removes, and
#' \eqn{b/n} the interaction. With \eqn{v_0} the jackknife on the whole
#' pilot and \eqn{\bar v_m} its mean over the pilot's 20 disjoint blocks of
#' \eqn{m = \lfloor n_0/20 \rfloor} items, \eqn{b = (\bar v_m - v_0) /
#' (1/m - 1/n_0)} and \eqn{a = v_0 - b/n_0} (both at least 0; the terms
#' linear in the interaction cancel in the difference). The planned
#' half-width is then
#' \deqn{t_{\nu, 1-\alpha/2} \sqrt{s_0^2 n_0/n + a + b/n},}
#' with Satterthwaite's \eqn{\nu} for the two parts (\eqn{n - 1} and
#' \eqn{J - 1} degrees of freedom), as the interval computes it; \eqn{\nu}
#' falls towards \eqn{J - 1} as \eqn{n} grows, so the half-width need not
#' fall monotonically, and `n` is the smallest number of items reaching
#' `half_width`. A half-width below the smallest that \eqn{J} annotators give
#' with any number of items cannot be reached, and that is an error naming
#' it. `assurance` cannot be combined with `annotator_sd > 0` (an error): its
#' simulated studies would redraw only the items' part, while the
#' annotators' jackknife part, planned at its expectation, varies much
#' between studies with few annotators, so fewer studies than `assurance`
#' would reach `half_width`.
#'
#' @param half_width Target half-width \eqn{w} of the interval (> 0).
#' @param prevalence Label prevalence: one value, or one per label.
#' @param n_annotators Annotators per item (at least 2).
#' @param n_labels Number of labels.
#' @param agreement Expected corpus coefficient under `baseline`, in (0, 1).
#' @param baseline `"fleiss"`, `"ac1"` or `"pabak"`.
#' @param pilot Items of the pilot simulation; `NULL` (default) sizes it
#'   for the precision described in *Method*.
#' @inheritParams mla
#' @inheritParams tidy.mla
#' @param assurance `NULL` (default: the expected half-width is `half_width`)
#'   or the share of studies, in (0, 1), that should reach it (not with
#'   `annotator_sd > 0`).
#' @param label_cor Latent correlation between labels, in \[0, 1).
#' @param annotator_sd Standard deviation of the annotators' error rates on
#'   the logit scale (0: identical annotators, conditioning on them).
#' @return A one-row tibble: `baseline`, `agreement`, `error` (the noisy
#'   generator's \eqn{\varepsilon}), `half_width`, `conf.level`,
#'   `std.error_pilot`, `assurance` (`NA` without), `n_items`.
#' @export
#' @examples
#' set.seed(1)
#' mla_sample_size(0.05, prevalence = 0.2, n_annotators = 3, n_labels = 5,
#'                 agreement = 0.7, pilot = 2000)
mla_sample_size <- function(half_width, prevalence, n_annotators, n_labels, agreement,
                            conf.level = 0.95, baseline = c("fleiss", "ac1", "pabak"),
                            pilot = NULL, ..., assurance = NULL, label_cor = 0,
                            annotator_sd = 0) {
  check_dots_empty0(...)
  check_number_in(half_width, 0, 1, open = TRUE, class = "sample_size")
  n_annotators <- check_whole(n_annotators, min = 2, class = "sample_size")
  n_labels <- check_whole(n_labels, min = 1, class = "sample_size")
  prevalence <- check_probabilities(prevalence, n_labels, "label", class = "sample_size")
  check_number_in(agreement, 0, 1, open = TRUE, class = "sample_size")
  check_conf_level(conf.level)
  baseline <- check_choice(baseline, baseline_names)
  if (!is.null(pilot)) pilot <- check_whole(pilot, min = 100, class = "sample_size")
  if (!is.null(assurance)) check_number_in(assurance, 0, 1, open = TRUE, class = "sample_size")
  check_number_in(label_cor, 0, 1, class = "sample_size")
  check_number_in(annotator_sd, 0, 5, class = "sample_size")
  if (annotator_sd > 0 && n_annotators < 3) {
    mla_abort(c("{.arg annotator_sd} needs at least 3 annotators.",
                "x" = "{.arg n_annotators} is {n_annotators}."), class = "sample_size")
  }
  if (annotator_sd > 0 && !is.null(assurance)) {
    mla_abort(
      c("{.arg assurance} cannot be combined with {.arg annotator_sd} > 0.",
        "x" = "The annotators' part of the variance is planned at its expectation; it varies between studies, so fewer than {.arg assurance} of them would reach {.arg half_width}.",
        "i" = "Plan the expected half-width ({.code assurance = NULL}), or condition on the annotators ({.code annotator_sd = 0})."),
      class = "sample_size"
    )
  }
  error <- noisy_error_for(agreement, prevalence, baseline)
  errors <- if (annotator_sd > 0) {
    stats::plogis(stats::qlogis(error) + annotator_sd * stats::qnorm(stats::ppoints(n_annotators)))
  } else {
    error
  }
  pilot <- pilot %||% default_pilot(errors, n_annotators, n_labels)  # R/sample-size-pilot.R
  a <- simulate_annotations(pilot, n_annotators, n_labels, prevalence = prevalence,
                            scenario = "noisy", error = errors, correlation = label_cor)
  fit <- mla(a)
  row <- match(baseline, fit$corpus$baseline)
  se0 <- check_pilot_se(tidy(fit)[row, ], pilot, prevalence, errors, n_annotators, n_labels)
  plan <- list(se0 = se0, n0 = pilot, n_annotators = n_annotators, fixed = 0, per_item = 0)
  if (annotator_sd > 0) plan[c("fixed", "per_item")] <- pilot_annotator_part(a, fit, row)
  n <- solve_sample_size(half_width, conf.level, plan)
  if (is.null(assurance)) inform_pilot_precision(pilot, errors, n_annotators, n_labels)
  if (!is.null(assurance)) {
    design <- list(n_annotators = n_annotators, n_labels = n_labels, prevalence = prevalence,
                   error = errors, correlation = label_cor, row = row)
    for (round in 1:2) {
      # the SE that `assurance` of the studies of n items stay below, as at n0
      se_n <- study_standard_errors(n, design, 200L)
      plan$se0 <- stats::quantile(se_n, assurance, names = FALSE) * sqrt(n / pilot)
      n <- solve_sample_size(half_width, conf.level, plan)
    }
  }
  tibble::tibble(baseline = baseline, agreement = agreement, error = error,
                 half_width = half_width, conf.level = conf.level,
                 std.error_pilot = se0, assurance = if (is.null(assurance)) NA_real_ else assurance,
                 n_items = as.integer(max(n, 2)))
}

# The items' standard errors of `B` simulated studies of `n` items.
study_standard_errors <- function(n, design, B) {
  vapply(seq_len(B), function(b) {
    a <- simulate_annotations(max(n, 2), design$n_annotators, design$n_labels,
                              prevalence = design$prevalence, scenario = "noisy",
                              error = design$error, correlation = design$correlation)
    tidy(mla(a))$std.error[design$row]
  }, numeric(1))
}

# The half-width tidy(fit, annotators = "random") gives at n items for the
# planned parts: the items' se0^2 n0 / n, the annotators' fixed + per_item / n,
# and Student's t with Satterthwaite's df (n - 1 and J - 1); with no
# annotators' part, the items' t_{n - 1} interval.
planned_half_width <- function(n, conf.level, plan) {
  v_items <- plan$se0^2 * plan$n0 / n
  v_ann <- plan$fixed + plan$per_item / n
  df <- if (plan$fixed + plan$per_item > 0) {
    satterthwaite_df(v_items, n - 1, v_ann, plan$n_annotators - 1)  # R/analytic-se.R
  } else {
    n - 1
  }
  stats::qt(1 - (1 - conf.level) / 2, df) * sqrt(v_items + v_ann)
}

# The largest plan: `n_items` is an integer.
kMaxItems <- .Machine$integer.max

# Smallest n >= 2 whose planned half-width is at most w. With annotators the
# half-width need not fall monotonically (df drop towards J - 1 as the items'
# part shrinks), so a geometric grid up to kMaxItems finds the first step
# below w and bisection the n within it.
solve_sample_size <- function(w, conf.level, plan, call = rlang::caller_env()) {
  width <- function(n) planned_half_width(n, conf.level, plan)
  steps <- floor(log(kMaxItems / 2) / log(1.01))
  grid <- unique(c(ceiling(2 * 1.01^(0:steps)), kMaxItems))
  below <- which(width(grid) <= w)
  if (!length(below)) abort_unreachable(w, conf.level, plan, min(width(grid)), call)
  if (below[1] == 1L) return(2)
  lo <- grid[below[1] - 1L]
  hi <- grid[below[1]]
  while (hi - lo > 1) {
    mid <- floor((lo + hi) / 2)
    if (width(mid) > w) lo <- mid else hi <- mid
  }
  hi
}

abort_unreachable <- function(w, conf.level, plan, grid_min, call) {
  limit <- stats::qt(1 - (1 - conf.level) / 2, plan$n_annotators - 1) * sqrt(plan$fixed)
  if (limit <= w) {
    mla_abort(
      c("{.arg half_width} {w} needs more than {format_count(kMaxItems)} items, the largest plan.",
        "i" = "Plan a wider {.arg half_width}."),
      class = "sample_size", call = call
    )
  }
  floor_w <- min(grid_min, limit)
  mla_abort(
    c("{.arg half_width} cannot be reached with {plan$n_annotators} annotators sampled from a population.",
      "x" = "The smallest half-width they give, with any number of items, is {format_fixed(floor_w)}; {.arg half_width} is {w}.",
      "i" = "Plan more annotators, or condition on them ({.code annotator_sd = 0})."),
    class = "sample_size", call = call
  )
}

# The noisy generator's flip probability whose closed-form corpus coefficient
# is `agreement`.
noisy_error_for <- function(agreement, prevalence, baseline, call = rlang::caller_env()) {
  coef_at <- function(error) {
    an <- analytic_agreement(prevalence, error = error)
    an <- an[an$generator == "noisy" & an$baseline == baseline, ]
    ae <- mean(an$expected)
    (an$observed[1] - ae) / (1 - ae)
  }
  top <- coef_at(1e-9)
  bottom <- coef_at(0.5 - 1e-9)
  if (!(agreement < top && agreement > bottom)) {
    mla_abort(
      c("{.arg agreement} must be reachable by the noisy generator at this prevalence.",
        "x" = "Under {.val {baseline}} it ranges from {format_fixed(bottom)} to {format_fixed(top)}; {.arg agreement} is {agreement}."),
      class = "sample_size", call = call
    )
  }
  stats::uniroot(function(e) coef_at(e) - agreement, c(1e-9, 0.5 - 1e-9), tol = 1e-12)$root
}

#' Items needed for a confidence interval of a given half-width
#'
#' How many items a study needs so that the analytic confidence interval of
#' the corpus coefficient (see [tidy.mla()]) has an expected half-width of
#' `half_width`, for a design of `n_annotators` annotators who label every
#' item on `n_labels` labels with prevalence `prevalence`, when the true
#' agreement is `agreement` (as kappaSize does for single-label kappa).
#' Cost: one simulated pilot study of `pilot` items, fitted with its standard
#' error; `assurance` adds two rounds of 200 simulated studies of the size
#' found.
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
#' `pilot` makes it more precise (its relative error is about
#' \eqn{1/\sqrt{2 n_0}} in the SE).
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
#' \eqn{\varepsilon}), and plans for annotators sampled from a population
#' (`tidy(fit, annotators = "random")`): the annotators' part of the
#' variance does not shrink with more items, so a half-width below it cannot
#' be reached with `n_annotators` annotators, and that is an error naming
#' the smallest reachable half-width.
#'
#' @param half_width Target half-width \eqn{w} of the interval (> 0).
#' @param prevalence Label prevalence: one value, or one per label.
#' @param n_annotators Annotators per item (at least 2).
#' @param n_labels Number of labels.
#' @param agreement Expected corpus coefficient under `baseline`, in (0, 1).
#' @param baseline `"fleiss"`, `"ac1"` or `"pabak"`.
#' @param pilot Items of the pilot simulation.
#' @inheritParams mla
#' @inheritParams tidy.mla
#' @param assurance `NULL` (default: the expected half-width is `half_width`)
#'   or the share of studies, in (0, 1), that should reach it.
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
                            pilot = 20000, ..., assurance = NULL, label_cor = 0,
                            annotator_sd = 0) {
  check_dots_empty0(...)
  check_number_in(half_width, 0, 1, open = TRUE, class = "sample_size")
  n_annotators <- check_whole(n_annotators, min = 2, class = "sample_size")
  n_labels <- check_whole(n_labels, min = 1, class = "sample_size")
  prevalence <- check_probabilities(prevalence, n_labels, "label", class = "sample_size")
  check_number_in(agreement, 0, 1, open = TRUE, class = "sample_size")
  check_conf_level(conf.level)
  baseline <- check_choice(baseline, baseline_names)
  pilot <- check_whole(pilot, min = 100, class = "sample_size")
  if (!is.null(assurance)) check_number_in(assurance, 0, 1, open = TRUE, class = "sample_size")
  check_number_in(label_cor, 0, 1, class = "sample_size")
  check_number_in(annotator_sd, 0, 5, class = "sample_size")
  if (annotator_sd > 0 && n_annotators < 3) {
    mla_abort(c("{.arg annotator_sd} needs at least 3 annotators.",
                "x" = "{.arg n_annotators} is {n_annotators}."), class = "sample_size")
  }
  error <- noisy_error_for(agreement, prevalence, baseline)
  errors <- if (annotator_sd > 0) {
    stats::plogis(stats::qlogis(error) + annotator_sd * stats::qnorm(stats::ppoints(n_annotators)))
  } else {
    error
  }
  a <- simulate_annotations(pilot, n_annotators, n_labels, prevalence = prevalence,
                            scenario = "noisy", error = errors, correlation = label_cor)
  fit <- mla(a)
  row <- match(baseline, fit$corpus$baseline)
  se0 <- tidy(fit)$std.error[row]
  v_ann <- if (annotator_sd > 0) {
    suppressMessages(tidy(fit, annotators = "random"))$std.error[row]^2 - se0^2
  } else {
    0
  }
  n <- solve_sample_size(half_width, conf.level, se0, pilot, v_ann, n_annotators)
  if (!is.null(assurance)) {
    design <- list(n_annotators = n_annotators, n_labels = n_labels, prevalence = prevalence,
                   error = errors, correlation = label_cor, row = row)
    for (round in 1:2) {
      # the SE that `assurance` of the studies of n items stay below, as at n0
      se_n <- study_standard_errors(n, design, 200L)
      se_a <- stats::quantile(se_n, assurance, names = FALSE) * sqrt(n / pilot)
      n <- solve_sample_size(half_width, conf.level, se_a, pilot, v_ann, n_annotators)
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

# Smallest n with t_{n - 1} sqrt(se0^2 n0 / n + v_ann) <= w.
solve_sample_size <- function(w, conf.level, se0, n0, v_ann, n_annotators,
                              call = rlang::caller_env()) {
  q <- function(n) stats::qt(1 - (1 - conf.level) / 2, max(n - 1, 1))
  floor_w <- q(Inf) * sqrt(v_ann)
  if (v_ann > 0 && floor_w >= w) {
    mla_abort(
      c("{.arg half_width} cannot be reached with {n_annotators} annotators sampled from a population.",
        "x" = "The annotators' part of the variance alone gives a half-width of {format_fixed(floor_w)}; {.arg half_width} is {w}.",
        "i" = "Plan more annotators, or condition on them ({.code annotator_sd = 0})."),
      class = "sample_size", call = call
    )
  }
  width <- function(n) q(n) * sqrt(se0^2 * n0 / n + v_ann)
  hi <- 2
  while (width(hi) > w) {
    hi <- hi * 2
    if (hi > 1e12) {
      mla_abort("{.arg half_width} {w} needs more than 1e12 items.", class = "sample_size",
                call = call)
    }
  }
  lo <- max(1, hi / 2)
  while (hi - lo > 1) {
    mid <- floor((lo + hi) / 2)
    if (width(mid) > w) lo <- mid else hi <- mid
  }
  hi
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

#' Items needed for a confidence interval of a given half-width
#'
#' How many items a study needs so that the analytic confidence interval of
#' the corpus coefficient (see [tidy.mla()]) has an expected half-width of
#' `half_width`, for a design of `n_annotators` annotators who label every
#' item on `n_labels` labels with prevalence `prevalence`, when the true
#' agreement is `agreement` (as kappaSize does for single-label kappa).
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
#' @param half_width Target half-width \eqn{w} of the interval (> 0).
#' @param prevalence Label prevalence: one value, or one per label.
#' @param n_annotators Annotators per item (at least 2).
#' @param n_labels Number of labels.
#' @param agreement Expected corpus coefficient under `baseline`, in (0, 1).
#' @param conf.level Confidence level.
#' @param baseline `"fleiss"`, `"ac1"` or `"pabak"`.
#' @param pilot Items of the pilot simulation.
#' @param ... Must be empty.
#' @return A one-row tibble: `baseline`, `agreement`, `error` (the noisy
#'   generator's \eqn{\varepsilon}), `half_width`, `conf.level`,
#'   `std.error_pilot`, `n_items`.
#' @export
#' @examples
#' set.seed(1)
#' mla_sample_size(0.05, prevalence = 0.2, n_annotators = 3, n_labels = 5,
#'                 agreement = 0.7, pilot = 2000)
mla_sample_size <- function(half_width, prevalence, n_annotators, n_labels, agreement,
                            conf.level = 0.95, baseline = c("fleiss", "ac1", "pabak"),
                            pilot = 20000, ...) {
  check_dots_empty0(...)
  check_number_in(half_width, 0, 1, open = TRUE, class = "sample_size")
  n_annotators <- check_whole(n_annotators, min = 2, class = "sample_size")
  n_labels <- check_whole(n_labels, min = 1, class = "sample_size")
  prevalence <- check_probabilities(prevalence, n_labels, "label", class = "sample_size")
  check_number_in(agreement, 0, 1, open = TRUE, class = "sample_size")
  check_conf_level(conf.level)
  baseline <- check_choice(baseline, baseline_names)
  pilot <- check_whole(pilot, min = 100, class = "sample_size")
  error <- noisy_error_for(agreement, prevalence, baseline)
  a <- simulate_annotations(pilot, n_annotators, n_labels, prevalence = prevalence,
                            scenario = "noisy", error = error)
  cor <- tidy(mla(a))
  se0 <- cor$std.error[cor$baseline == baseline]
  n <- pilot
  for (iter in 1:20) {
    n_new <- ceiling((stats::qt(1 - (1 - conf.level) / 2, max(n - 1, 1)) * se0 *
                        sqrt(pilot) / half_width)^2)
    if (n_new == n) break
    n <- n_new
  }
  tibble::tibble(baseline = baseline, agreement = agreement, error = error,
                 half_width = half_width, conf.level = conf.level,
                 std.error_pilot = se0, n_items = as.integer(max(n, 2)))
}

# The noisy generator's flip probability whose closed-form corpus coefficient
# (analytic_agreement(), means of A_e over labels) is `agreement`.
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

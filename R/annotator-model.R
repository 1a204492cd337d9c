#' Which annotators to trust: a latent-class (Dawid-Skene) annotator model
#'
#' Fits the annotator model of Dawid and Skene (1979) by EM. Every item has
#' a hidden true value and every annotator reports it with their own error
#' rates, so annotators are judged by how their decisions relate to the
#' estimated truth, not by how many labels they select.
#' Cost: one pass over the decisions per EM iteration; standard errors invert
#' one dense information matrix per label (two rows per annotator; not computed
#' beyond 1,000 annotators).
#'
#' @section The model:
#' **Multi-label data** (binary decisions): each label \eqn{j} is its own
#' latent-class model. The truth \eqn{z_{ij}} of item \eqn{i} is 1 with
#' prevalence \eqn{p_j}; annotator \eqn{a} selects the label with
#' probability \eqn{\alpha_{aj}} (sensitivity) when \eqn{z_{ij} = 1} and
#' leaves it with probability \eqn{\beta_{aj}} (specificity) when
#' \eqn{z_{ij} = 0} (`model = "two-coin"`). `"one-coin"` sets
#' \eqn{\alpha_{aj} = \beta_{aj}}, one accuracy. With `pool_labels = TRUE`
#' every annotator has one sensitivity and specificity (or accuracy) for
#' all labels, while each label keeps its prevalence.
#'
#' **Single-label data** (mutually exclusive categories, see
#' [as_annotations()]): the classic multi-class model, one \eqn{q \times q}
#' confusion matrix \eqn{\pi_a[z, y]} = P(annotator \eqn{a} says \eqn{y}
#' | truth \eqn{z}) per annotator (`"one-coin"`: accuracy \eqn{\pi_a[z, z]}
#' and \eqn{(1 - \pi_a[z, z]) / (q - 1)} for each other category), and one
#' prevalence per category. Per category, the sensitivity is
#' \eqn{\pi_a[k, k]} and the specificity is one-versus-rest,
#' \eqn{\sum_{z \ne k} p_z (1 - \pi_a[z, k]) / \sum_{z \ne k} p_z}.
#'
#' Only decisions that were made enter the likelihood: a missing decision
#' (`NA`) is absent, never a "not selected", and items may have any number
#' of annotators (sparse crowds).
#'
#' @section Fitting:
#' EM starts from the soft majority vote (each item's posterior is its
#' share of decisions for each class), followed by an M-step. With
#' `accelerate = FALSE` iteration \eqn{t} is the \eqn{t}-th EM step (an
#' E-step with observed log-likelihood \eqn{\ell_t}). With
#' `accelerate = TRUE` (default) EM steps are grouped into SQUAREM cycles
#' (Varadhan and Roland 2008, scheme S3): two EM steps from
#' \eqn{\theta_0} give \eqn{r = \theta_1 - \theta_0} and
#' \eqn{v = \theta_2 - \theta_1 - r}; the point
#' \eqn{\theta_0 + 2\alpha r + \alpha^2 v}, with
#' \eqn{\alpha = |r| / |v|} at least 1 (a plain double step) and at most a
#' bound that grows while it is reached, is moved into the parameter space
#' and followed by one EM step, and it is kept only if its log-likelihood is
#' at least that of \eqn{\theta_0} (else \eqn{\theta_2} is kept). Both
#' reach the same maximum; where annotators make EM slow (spammers and
#' adversarial annotators flatten the likelihood) SQUAREM takes a fraction
#' of the E-steps. `fit$trace` holds the log-likelihood of every step (every
#' cycle's kept point when accelerated), which never decreases, and
#' `fit$iterations` the number of E-steps.
#'
#' EM stops once the log-likelihood still to gain, projected from the last
#' two gains \eqn{d_{t-1}, d_t} by Aitken's acceleration
#' (\eqn{d_t / (1 - a)} with rate \eqn{a = d_t / d_{t-1}}), is at most `tol`,
#' or the last gain is within rounding of the log-likelihood (converged), or
#' after `max_iter` E-steps (with a warning). A gain in log-likelihood of
#' `tol` is about \eqn{\sqrt{2\,tol}} standard errors of the parameters,
#' whatever the number of decisions; a relative change of the
#' log-likelihood (a common rule) lets that error grow with the data. Every
#' probability is kept within \eqn{[10^{-6}, 1 - 10^{-6}]}, so that one
#' decision an annotator otherwise "never" makes does not rule a class out.
#' The start is the majority vote, so the fit describes annotators relative
#' to a crowd whose majority is better than chance; an adversarial
#' annotator (sensitivity + specificity < 1) is found as such, but a crowd
#' that is mostly adversarial would be read with its labels swapped. The
#' fit is deterministic and does not depend on `threads` (labels are fitted
#' in parallel, sums in a fixed order).
#'
#' @section Standard errors:
#' Binary models (multi-label data) get standard errors from the observed
#' information: minus the Hessian of the observed log-likelihood at the
#' estimates, computed exactly item by item with Louis' identity.
#' Single-label models get them from the observed information of the
#' multi-class model in the same way (free parameters: \eqn{q - 1}
#' prevalences and \eqn{q - 1} entries of every row of every confusion
#' matrix), carried to each category's sensitivity and one-versus-rest
#' specificity by the delta method. Intervals
#' (`tidy(conf.int = TRUE)`) are Wald intervals on the logit scale for
#' sensitivity, specificity and prevalence, and on the original scale
#' (clipped to \[0, 1\]) for the spammer score. A parameter at the bound
#' \eqn{10^{-6}} or \eqn{1 - 10^{-6}} has no standard error (`NA`), nor has
#' a single-label quantity all of whose entries are at the bound. Where the
#' information of a group is not positive definite (a message says for how
#' many labels) standard errors are `NA` where the data do not determine
#' them: a singular information (eigenvalues of the information scaled to
#' unit diagonal at most \eqn{\sqrt{\epsilon}} times the largest count as
#' 0, whatever the units or order of the parameters) leaves the parameters
#' along its null space unidentified, e.g. an annotator whose items nobody
#' else labels (only \eqn{p\alpha + (1 - p)(1 - \beta)} is identified):
#' they, and quantities that move them, get `NA`, while the identified
#' parameters keep theirs (from the generalized inverse). An indefinite
#' information (too few decisions, or EM stopped short of the maximum: a
#' smaller `tol` helps) gives `NA` for the whole group. With more than 1,000
#' annotators, or single-label models with more free parameters than 1,000
#' binary annotators have
#' (2,001), no standard errors are computed (nor when their matrices would
#' need more than half of option `mlagreement.max_memory`).
#'
#' @section Spammer score:
#' \eqn{|\alpha + \beta - 1|} (Raykar and Yu 2012): 0 for an annotator whose
#' decisions do not depend on the truth (\eqn{\alpha = 1 - \beta}), 1 for a
#' perfect one (and for a perfectly adversarial one, whose decisions are
#' informative once reversed: see the sign of \eqn{\alpha + \beta - 1}).
#'
#' @param x An [annotations][as_annotations()] object (or anything
#'   [as_annotations()] accepts); the model needs the records.
#' @param model `"two-coin"` (sensitivity and specificity, or a confusion
#'   matrix per annotator) or `"one-coin"` (one accuracy per annotator).
#' @param pool_labels For multi-label data: `TRUE` to give every annotator
#'   one set of parameters for all labels; `FALSE` (default) for parameters
#'   per label.
#' @param max_iter Maximum number of E-steps.
#' @param tol Convergence tolerance: the log-likelihood still to gain
#'   (see Fitting; 0: until it does not change at all, or `max_iter`).
#' @param accelerate `TRUE` (default) for SQUAREM cycles of EM steps,
#'   `FALSE` for plain EM, step by step.
#' @inheritParams mla_boot
#' @return An object of class `mla_annotator_model`, with
#'   [tidy()][tidy.mla_annotator_model] (`level = "annotators"`, `"items"`,
#'   `"labels"`, `"confusion"`), [glance()][glance.mla_annotator_model],
#'   [augment()][augment.mla_annotator_model],
#'   [predict()][predict.mla_annotator_model], `print()` and `autoplot()`
#'   methods. `trace` holds the log-likelihood of every step or cycle.
#' @family annotator evaluation
#' @references
#' Dawid, A. P. and Skene, A. M. (1979). Maximum likelihood estimation of
#' observer error-rates using the EM algorithm. *Journal of the Royal
#' Statistical Society C*, 28(1), 20-28. \doi{10.2307/2346806}
#'
#' Raykar, V. C. and Yu, S. (2012). Eliminating spammers and ranking
#' annotators for crowdsourced labeling tasks. *Journal of Machine Learning
#' Research*, 13, 491-518.
#'
#' Louis, T. A. (1982). Finding the observed information matrix when using
#' the EM algorithm. *Journal of the Royal Statistical Society B*, 44(2),
#' 226-233. \doi{10.1111/j.2517-6161.1982.tb01203.x}
#'
#' Varadhan, R. and Roland, C. (2008). Simple and globally convergent
#' methods for accelerating the convergence of any EM algorithm.
#' *Scandinavian Journal of Statistics*, 35(2), 335-353.
#' \doi{10.1111/j.1467-9469.2007.00585.x}
#' @export
#' @examples
#' set.seed(1)
#' x <- simulate_annotations(200, 6, 4, prevalence = 0.3, scenario = "noisy",
#'                           error = c(0.05, 0.1, 0.1, 0.15, 0.5, 0.5))
#' fit <- annotator_model(x)
#' fit
#' tidy(fit)
#' glance(fit)
annotator_model <- function(x, model = c("two-coin", "one-coin"), pool_labels = FALSE,
                            max_iter = 500, tol = 1e-8, accelerate = TRUE,
                            threads = mla_threads(), ...) {
  check_dots_empty0(...)
  model <- check_choice(model, c("two-coin", "one-coin"))
  check_bool(pool_labels)
  max_iter <- check_whole(max_iter)
  tol <- check_number_in(tol, 0, 1)
  check_bool(accelerate)
  threads <- check_threads(threads)
  a <- require_records(as_annotation_source(x), "the annotator model")
  single <- is_single_label(a)
  check_model_design(a, single, pool_labels)
  check_model_memory(a, single)
  info <- want_information(a, single, model, pool_labels)
  res <- annotator_model_cpp(annotation_view(a), single, model == "one-coin",
                             pool_labels, as.integer(max_iter), tol, accelerate, annotator_model_floor,
                             threads, info)
  if (!res$converged) {
    mla_warn(c(
      "The EM did not converge in {max_iter} iteration{?s}.",
      "i" = "The last gain of the log-likelihood was {signif(last_gain(res$trace), 3)} (tol = {tol}).",
      "i" = "Raise {.arg max_iter}."
    ), class = "not_converged")
  }
  new_annotator_model(a, res, model, pool_labels && !single, single, max_iter, tol, info)
}

# The bound every probability is kept in (C++ `floor`), and the annotators
# above which no standard errors are computed (the information, 2 rows per
# annotator, is inverted densely).
annotator_model_floor <- 1e-6
annotator_model_se_max <- 1000L

last_gain <- function(trace) {
  n <- length(trace)
  if (n < 2L) return(NA_real_)
  trace[n] - trace[n - 1L]
}

check_model_memory <- function(a, single, call = rlang::caller_env()) {
  cells <- as.double(n_items(a)) * if (single) 1 else length(label_names(a))
  q <- if (single) length(label_names(a)) else 2
  bytes <- 40 * cells + 8 * cells * q + 16 * a$n_decisions +
    24 * as.double(n_annotators(a)) * q * q * (if (single) 1 else length(label_names(a)))
  check_memory(bytes, paste0("The annotator model of ", format_count(n_items(a)), " items x ",
                             length(label_names(a)), " labels"),
               "Fit fewer labels at a time ({.code x[, , labels]}).", class = "memory", call = call)
}

# Whether to compute the observed information: not beyond
# annotator_model_se_max annotators (or as many free parameters), nor when
# its matrices would need more than half the memory limit (with a message).
want_information <- function(a, single, model, pool_labels) {
  n_ann <- n_annotators(a)
  if (n_ann > annotator_model_se_max) return(FALSE)
  k <- length(label_names(a))
  per <- if (model == "one-coin") 1 else if (single) k * (k - 1) else 2
  p <- (if (single) k - 1 else if (pool_labels) k else 1) + per * as.double(n_ann)
  if (single && (k < 2L || p > 2 * annotator_model_se_max + 1)) return(FALSE)
  bytes <- (if (single) 40 else 16 * (if (pool_labels) 1 else k)) * p^2
  if (bytes <= memory_limit() / 2) return(TRUE)
  cli::cli_inform(c(
    "i" = "No standard errors: the information matrices would need {format_gib(bytes)}.",
    "i" = if (single) "Fit fewer annotators at a time, or raise option {.code mlagreement.max_memory}."
          else "Fit fewer labels at a time, or raise option {.code mlagreement.max_memory}."
  ))
  FALSE
}

check_model_design <- function(a, single, pool_labels, call = rlang::caller_env()) {
  if (a$n_decisions == 0) {
    mla_abort("{.arg x} must have at least one decision.", class = "design", call = call)
  }
  if (single && pool_labels) {
    mla_abort(
      c("{.arg pool_labels} applies to multi-label data only.",
        "x" = "{.arg x} is single-label: one confusion matrix per annotator covers its categories."),
      class = "arg", call = call
    )
  }
  if (single && length(label_names(a)) > 255L) {
    mla_abort(c("A single-label model takes at most 255 categories.",
                "x" = "{.arg x} has {length(label_names(a))}."), class = "design", call = call)
  }
  invisible()
}

new_annotator_model <- function(a, res, model, pooled, single, max_iter, tol, info) {
  q <- nrow(res$prevalence)
  n_ann <- n_annotators(a)
  groups <- if (single) "(all)" else if (pooled) "(pooled)" else label_names(a)
  # [annotator, truth, response, group]
  confusion <- vapply(res$confusion, function(v) aperm(array(v, c(q, q, n_ann)), c(3, 2, 1)),
                      array(0, c(n_ann, q, q)))
  dim(confusion) <- c(n_ann, q, q, length(groups))
  # an annotator without decisions in a group has no estimates there (the
  # EM start does not enter the likelihood)
  idle <- group_decisions(res$annotator_n, pooled) == 0
  for (g in seq_along(groups)) confusion[idle[, g], , , g] <- NA_real_
  structure(
    list(
      model = model, pooled = pooled, single_label = single, labels = label_names(a),
      items = id_text(item_ids(a)), annotators = annotator_ids(a), groups = groups,
      prevalence = res$prevalence, posterior = res$posterior, confusion = confusion,
      item_n = res$item_n, annotator_n = res$annotator_n,
      covariance = if (info && single) single_label_covariance(res, n_ann, model)
                   else if (info) model_covariance(res, pooled, n_ann, model, length(label_names(a))),
      trace = res$trace, iterations = res$iterations, converged = res$converged,
      max_iter = max_iter, tol = tol,
      # a single-label decision is a record's category choice, not its q cells
      n_decisions = sum(as.double(res$annotator_n))
    ),
    class = "mla_annotator_model"
  )
}

# Decisions per annotator (rows) and parameter group (columns), from the
# decisions per annotator and problem.
group_decisions <- function(annotator_n, pooled) {
  if (pooled) matrix(rowSums(annotator_n), ncol = 1L) else annotator_n
}

# Variances from the observed information of each parameter group. Parameters
# at the probability bound, or of annotators without decisions in the group,
# are held fixed (no standard error).
model_covariance <- function(res, pooled, n_ann, model, n_labels) {
  per <- if (model == "one-coin") 1L else 2L
  n_prev <- if (pooled) n_labels else 1L
  groups <- length(res$information)
  prev_var <- rep(NA_real_, n_labels)
  ann <- array(NA_real_, c(n_ann, 3L, groups))
  singular <- 0L
  for (g in seq_len(groups)) {
    info <- res$information[[g]]
    labels_g <- if (pooled) seq_len(n_labels) else g
    theta <- c(res$prevalence[2, labels_g], group_parameters(res$confusion[[g]], n_ann, per))
    at_bound <- theta <= annotator_model_floor * (1 + 1e-9) |
      theta >= 1 - annotator_model_floor * (1 + 1e-9)
    free <- which(diag(info) > 0 & !at_bound)
    v <- matrix(NA_real_, length(theta), length(theta))
    inv <- restricted_inverse(info, list(keep = free, dep = rep(NA_integer_, length(free))))
    if (is.null(inv) || anyNA(inv)) singular <- singular + 1L
    if (!is.null(inv)) v[free, free] <- inv
    prev_var[labels_g] <- diag(v)[seq_len(n_prev)]
    idx <- n_prev + (seq_len(n_ann) - 1L) * per
    if (per == 2L) {
      ann[, , g] <- cbind(v[cbind(idx + 1L, idx + 1L)], v[cbind(idx + 2L, idx + 2L)],
                          v[cbind(idx + 1L, idx + 2L)])
    } else {
      s <- v[cbind(idx + 1L, idx + 1L)]
      ann[, , g] <- cbind(s, s, s)
    }
  }
  if (singular > 0L) inform_not_positive_definite(singular, groups)
  list(prevalence = prev_var, annotators = ann)
}

# Two-coin sensitivity and specificity, or one-coin accuracy, in the order of
# the information's rows.
group_parameters <- function(conf, n_ann, per) {
  arr <- array(conf, c(2L, 2L, n_ann))  # [y, z, annotator]
  sens <- arr[2, 2, ]
  spec <- arr[1, 1, ]
  if (per == 1L) sens else as.vector(rbind(sens, spec))
}

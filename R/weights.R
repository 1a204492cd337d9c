# Ordered and numeric categories of single-label designs: irrCAC's agreement
# weights for mla(), Krippendorff's ordinal, interval and ratio metrics for
# krippendorff_alpha(); both from the items x categories counts, in C++.

#' @rdname mla
#' @param weights For single-label designs: agreement weights between
#'   categories, one of irrCAC's `"identity"` (the default: unweighted
#'   coefficients), `"linear"`, `"quadratic"`, `"ordinal"`, `"radical"`,
#'   `"ratio"`, `"circular"`, `"bipolar"`, or a \eqn{q \times q} matrix of
#'   weights in \[0, 1\] with unit diagonal, rows and columns in the order of
#'   the declared categories or named by them (in any order). The corpus rows then hold the weighted Fleiss
#'   kappa, Gwet's AC2 and the weighted Brennan-Prediger coefficient (Gwet
#'   2014, as irrCAC computes them); see the section *Weighted single-label
#'   coefficients*.
#' @section Weighted single-label coefficients:
#' With agreement weights \eqn{w_{kl}} (\eqn{w_{kk} = 1}) and \eqn{r_{ik}}
#' the ratings of item \eqn{i} in category \eqn{k},
#' \deqn{p_a = \mathrm{mean}_{i: r_i \ge 2} \frac{\sum_{k,l} w_{kl} r_{ik} r_{il} - r_i}{r_i (r_i - 1)},
#'   \quad \pi_k = \mathrm{mean}_{i: r_i \ge 1} r_{ik} / r_i;}
#' Fleiss' chance agreement is \eqn{\sum_{k,l} w_{kl} \pi_k \pi_l}, AC2's
#' \eqn{\frac{\sum_{k,l} w_{kl}}{q(q-1)} \sum_k \pi_k (1 - \pi_k)} and
#' Brennan-Prediger's \eqn{\sum_{k,l} w_{kl} / q^2}. The named weights are
#' irrCAC's: they use the categories' numeric values when every declared
#' category is a number (codes `1:5`, `-3:3`) and the ranks \eqn{1, \dots, q}
#' of the declared order otherwise (`"ordinal"` always uses the ranks).
#' Categories keep their declared order, including unused ones, which
#' change the range of the scale. irrCAC keeps unused categories only given
#' `categ.labels`, which it turns into text and so weighs by ranks: the two
#' agree there when the codes are the ranks `1:q`. A ratio
#' scale with a category at 0 gets weight 1 on the diagonal (irrCAC's
#' formula is 0/0 there). Label rows stay the unweighted
#' category-versus-rest coefficients; item rows use the weighted agreement
#' of each item. The standard errors of `tidy(fit, conf.int = TRUE)` are
#' those of the weighted coefficients, from their own influence terms
#' (irrCAC's `coeff.se`), and [mla_boot()] resamples items for them.
#' @name mla
NULL

weight_schemes <- c("identity", "linear", "quadratic", "ordinal", "radical", "ratio",
                    "circular", "bipolar")

# Numeric values of the categories: the labels as numbers when all are,
# else (or with ranks = TRUE) their ranks in the declared order.
category_values <- function(a, ranks = FALSE) {
  v <- suppressWarnings(as.numeric(label_names(a)))
  if (ranks || anyNA(v)) seq_along(label_names(a)) else v
}

numeric_categories <- function(a) !anyNA(suppressWarnings(as.numeric(label_names(a))))

# Whether `weights` asks for weighted coefficients: a matrix, or a scheme
# other than "identity" (its name checked).
uses_category_weights <- function(weights, call = rlang::caller_env()) {
  !is.character(weights) ||
    check_choice(weights, weight_schemes, arg_name = "weights", call = call, class = "weights") != "identity"
}

# The weighted corpus rows of an mla() fit on a single-label design.
apply_category_weights <- function(fit, x, weights, call = rlang::caller_env()) {
  if (!uses_category_weights(weights, call)) return(fit)
  if (!is_single_label(x) || !isTRUE(fit$single_label$q == length(label_names(x)))) {
    mla_abort(
      c("{.arg weights} need a single-label design over all its categories.",
        "x" = if (is_single_label(x)) "{.arg labels} selects a subset of the categories." else "{.arg x} is multi-label.",
        "i" = "Category weights compare the one category each annotator chose."),
      class = "weights", call = call
    )
  }
  W <- category_weight_matrix(x, weights, call)
  counts <- item_label_counts(x)$x
  est <- weighted_agreement_cpp(counts, W)
  corpus <- fit$corpus
  corpus$observed <- rep(1 - est$d_obs, 3L)
  corpus$expected <- 1 - est$w
  corpus$estimate <- est$estimate
  corpus$floor_observed <- NA_real_  # the nominal floor is of identity agreement
  corpus$floor <- NA_real_
  fit$corpus <- corpus
  fit$corpus_w <- est$w
  fit$item_disagreement <- est$item_d
  fit$weights <- list(name = if (is.character(weights)) weights else "custom", matrix = W)
  fit$notes <- weight_notes(fit$notes, fit$weights$name)
  fit
}

category_weight_matrix <- function(x, weights, call) {
  q <- length(label_names(x))
  if (is.character(weights)) {
    if (weights == "ratio" && any(category_values(x) < 0)) {
      mla_abort(
        c("{.arg weights} {.val ratio} need non-negative category values.",
          "x" = "Categories {.val {label_names(x)[category_values(x) < 0]}} are negative."),
        class = "weights", call = call
      )
    }
    W <- category_weights_cpp(match(weights, weight_schemes) - 1L,
                              category_values(x, ranks = weights == "ordinal"))
    dimnames(W) <- list(label_names(x), label_names(x))
    return(W)
  }
  W <- check_weight_matrix(weights, label_names(x), call)
  dimnames(W) <- list(label_names(x), label_names(x))
  W
}

# A user's weight matrix: q x q, rows and columns in the categories' order or
# named by them (then put in that order); finite, in [0, 1], unit diagonal,
# symmetric. Each failure names the entry.
check_weight_matrix <- function(weights, categories, call) {
  q <- length(categories)
  fail <- function(problem) {
    mla_abort(c("{.arg weights} must be a weight name or a symmetric {q} x {q} matrix of weights in [0, 1] with unit diagonal.",
                "x" = problem, "i" = "Weight names: {.val {weight_schemes}}."),
              class = "weights", call = call, .envir = parent.frame())
  }
  if (!is.matrix(weights) || !is.numeric(weights) || !identical(dim(weights), c(q, q))) {
    fail(if (is.matrix(weights)) "It is {.obj_type_friendly {weights}} ({nrow(weights)} x {ncol(weights)})." else "It is {.obj_type_friendly {weights}}.")
  }
  for (side in 1:2) {
    nm <- dimnames(weights)[[side]]
    if (is.null(nm)) next
    if (anyNA(match(categories, nm)) || anyDuplicated(nm) > 0L) {
      fail("Its {c('row', 'column')[side]} names {.val {nm}} are not the categories {.val {categories}}.")
    }
    weights <- if (side == 1L) weights[categories, , drop = FALSE] else weights[, categories, drop = FALSE]
  }
  W <- unname(weights) + 0
  first <- function(cond) which(cond, arr.ind = TRUE)[1L, ]
  entry <- function(rc) list(row = categories[rc[1]], col = categories[rc[2]], value = W[rc[1], rc[2]])
  if (!all(is.finite(W))) {
    e <- entry(first(!is.finite(W)))
    fail("Its entry at row {.val {e$row}}, column {.val {e$col}} is {e$value}.")
  }
  if (any(W < 0 | W > 1)) {
    e <- entry(first(W < 0 | W > 1))
    fail("Its entry at row {.val {e$row}}, column {.val {e$col}} is {e$value}, outside [0, 1].")
  }
  if (any(diag(W) != 1)) {
    k <- which(diag(W) != 1)[1L]
    e <- entry(c(k, k))
    fail("Its diagonal entry for {.val {e$row}} is {e$value}, not 1.")
  }
  if (!isTRUE(all.equal(W, t(W), check.attributes = FALSE))) {
    rc <- first(abs(W - t(W)) == max(abs(W - t(W))))
    e <- entry(rc)
    e2 <- entry(rev(rc))
    fail("Its entry at row {.val {e$row}}, column {.val {e$col}} is {e$value}, but the one at row {.val {e2$row}}, column {.val {e2$col}} is {e2$value}.")
  }
  W
}

# Weighted coefficients have an item replicate engine only: records carry no
# category weights.
check_boot_weights <- function(fit, resample, call = rlang::caller_env()) {
  check_boot_conger(fit, resample, call = call)  # R/conger.R
  if (is.null(fit$weights) || resample == "items") return(invisible())
  mla_abort(
    c("{.arg resample} must be {.val items} for a weighted fit.",
      "x" = "{.arg fit} uses {.val {fit$weights$name}} category weights and {.arg resample} is {.val {resample}}.",
      "i" = "Resample items (optionally with {.arg cluster} or {.arg strata}), or bootstrap the unweighted {.code mla(x)}."),
    class = "boot_weights", call = call
  )
}

weight_notes <- function(notes, name) {
  fast_tibble(
    level = c("corpus", notes$level),
    label = c(NA_character_, notes$label),
    baseline = c(NA_character_, notes$baseline),
    reason = c(paste0("weighted coefficients (", name, " weights): fleiss = weighted Fleiss kappa, ",
                      "ac1 = Gwet's AC2, pabak = weighted Brennan-Prediger; no eq. 7 floor"), notes$reason)
  )
}

# Krippendorff's alpha with a single-label metric: nominal from the label
# tables (the single-label kernel, in double-double), the others from the
# coincidence matrix of the items x categories counts.
alpha_category_row <- function(a, metric, call) {
  if (metric == "nominal") {
    est <- single_label_estimates_cpp(label_tally(a)$cnt, label_tally(a)$sx, label_tally(a)$sdis,
                                      with_floor = FALSE)
    size <- alpha_hamming(a, call = call)
    return(list(observed = est$alpha_d_obs, expected = est$alpha_d_exp,
                n_items = size$n_items, n_values = size$n_values))
  }
  values <- metric_category_values(a, metric, call)
  res <- category_alpha_cpp(item_label_counts(a)$x, match(metric, category_metrics) - 1L, values)
  check_pairable(res$n_items, call = call)
  res[c("observed", "expected", "n_items", "n_values")]
}

# The category values a metric reads: interval and ratio need numbers (ratio
# non-negative ones); ordinal reads only their order.
metric_category_values <- function(a, metric, call) {
  if (metric %in% c("interval", "ratio") && !numeric_categories(a)) {
    not_numbers <- utils::head(label_names(a)[is.na(suppressWarnings(as.numeric(label_names(a))))], 5)
    mla_abort(
      c("{.arg distance} {.val {metric}} needs numeric categories.",
        "x" = "Categories {.val {not_numbers}} are not numbers.",
        "i" = "Use {.code distance = \"ordinal\"} for ordered categories without values."),
      class = "distance", call = call
    )
  }
  values <- category_values(a)
  if (metric == "ratio" && any(values < 0)) {
    mla_abort(
      c("{.arg distance} {.val ratio} needs non-negative category values (a ratio scale).",
        "x" = "Categor{?y/ies} {.val {label_names(a)[values < 0]}} {?is/are} negative.",
        "i" = "Use {.code distance = \"interval\"} for scales with negative values."),
      class = "distance", call = call
    )
  }
  values
}

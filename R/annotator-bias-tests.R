# The statistics of annotator_bias(); the formulas are on its help page.

bias_tests <- function(complete, labels, J, correct) {
  L <- length(labels)
  n <- complete$n
  q_den <- J * complete$N - complete$sum_R2
  q <- (J - 1) * (J * colSums(complete$T_a^2) - complete$N^2) / q_den
  q_note <- ifelse(n == 0, paste0("no item with decisions from all ", J, " annotators"),
                   ifelse(q_den == 0, "every complete item is unanimous", NA_character_))
  q[!is.na(q_note)] <- NA_real_
  rows <- test_rows(labels, "cochran_q", n, J, q, J - 1, q_note)
  if (J == 2L) {
    b <- complete$T_a[1, ] - complete$both
    c <- complete$T_a[2, ] - complete$both
    mc <- (abs(b - c) - if (correct) 1 else 0)^2 / (b + c)
    mc_note <- ifelse(n == 0, "no item with decisions from both annotators",
                      ifelse(b + c == 0, "no discordant item", NA_character_))
    mc[!is.na(mc_note)] <- NA_real_
    rows <- rbind(rows, test_rows(labels, "mcnemar", n, J, mc, 1, mc_note))
    rows <- rows[order(rep(seq_len(L), 2L)), ]
  }
  rows
}

test_rows <- function(label, test, n, J, statistic, df, note) {
  tibble::tibble(
    label = label, test = test, n_items = as.integer(n), n_annotators = as.integer(J),
    statistic = unname(statistic), df = as.double(df),
    p.value = unname(stats::pchisq(statistic, df, lower.tail = FALSE)),
    note = unname(note)
  )
}

# Stuart-Maxwell and Bhapkar on two annotators' q x q table.
category_homogeneity <- function(x, d) {
  has <- rowSums(d$dec) > 0
  chosen <- matrix(NA_integer_, n_items(x), 2L)
  chosen[cbind(d$item[has], d$annotator[has])] <- max.col(d$pos[has, , drop = FALSE],
                                                         ties.method = "first")
  chosen <- chosen[!is.na(chosen[, 1]) & !is.na(chosen[, 2]), , drop = FALSE]
  q <- length(x$labels)
  n_both <- nrow(chosen)
  tab <- matrix(tabulate((chosen[, 2] - 1L) * q + chosen[, 1], q * q), q, q)
  # a category without discordant ratings has a zero row in S (its margins
  # are equal): left out, as a generalised inverse would
  discordant <- rowSums(tab) + colSums(tab) - 2 * diag(tab) > 0
  tab <- tab[discordant, discordant, drop = FALSE]
  n <- n_both
  K <- nrow(tab)
  stats <- c(NA_real_, NA_real_)
  note <- if (n == 0) {
    "no item rated by both annotators"
  } else if (K < 2L) {
    "fewer than 2 categories with discordant ratings"
  } else {
    NA_character_
  }
  if (is.na(note)) {
    keep <- seq_len(K - 1L)
    dvec <- (rowSums(tab) - colSums(tab))[keep]
    S <- -(tab + t(tab))
    diag(S) <- rowSums(tab) + colSums(tab) - 2 * diag(tab)
    S <- S[keep, keep, drop = FALSE]
    quad <- function(M) tryCatch(drop(t(dvec) %*% solve(M, dvec)), error = function(e) NA_real_)
    stats <- c(quad(S), quad(S - tcrossprod(dvec) / n))
    if (anyNA(stats)) note <- "the margins' covariance matrix is singular (e.g. perfect agreement)"
  }
  test_rows(NA_character_, c("stuart_maxwell", "bhapkar"), n, 2L, stats, K - 1L,
            rep(note, 2L))
}

bias_indices <- function(complete, labels, J) {
  n <- complete$n
  p_a <- sweep(complete$T_a, 2L, n, `/`)
  p_bar <- colMeans(p_a)
  pi <- 2 * p_bar - 1
  bi <- if (J == 2L) {
    p_a[1, ] - p_a[2, ]
  } else {
    sqrt(4 * colSums(sweep(p_a, 2L, p_bar)^2) / (J * (J - 1)))
  }
  observed <- complete$agree / (n * J * (J - 1))
  pabak <- 2 * observed - 1
  kappa <- (pabak - pi^2 + bi^2) / (1 - pi^2 + bi^2)
  tibble::tibble(
    label = labels, n_items = as.integer(n), n_annotators = as.integer(J),
    observed = finite_or_na(unname(observed)), prevalence_index = finite_or_na(unname(pi)),
    bias_index = finite_or_na(unname(bi)), pabak = finite_or_na(unname(pabak)),
    kappa = finite_or_na(unname(kappa))
  )
}

#' Tidy annotator bias diagnostics
#'
#' @param x An `mla_annotator_bias` object from [annotator_bias()].
#' @param level `"annotators"`: one row per label and annotator (`label`,
#'   `annotator`, `n_items`, `prevalence`, `pooled_prevalence`,
#'   `deviation`, `std.error`, `conf.low`, `conf.high`); `"tests"`: one row
#'   per label and test (`label`, `test`, `n_items`, `n_annotators`,
#'   `statistic`, `df`, `p.value`, `note`); `"indices"`: one row per label
#'   (`label`, `n_items`, `n_annotators`, `observed`, `prevalence_index`,
#'   `bias_index`, `pabak`, `kappa`). See [annotator_bias()].
#' @inheritParams mla
#' @return A tibble.
#' @family clinical coefficients
#' @export
#' @examples
#' b <- annotator_bias(annotations_long(bias_example, item, annotator, label, value))
#' tidy(b)
#' @method tidy mla_annotator_bias
tidy.mla_annotator_bias <- function(x, level = c("annotators", "tests", "indices"), ...) {
  check_dots_empty0(...)
  level <- check_choice(level, c("annotators", "tests", "indices"))
  x[[level]]
}

#' @export
print.mla_annotator_bias <- function(x, ...) {
  cat(format(x, ...), sep = "\n")
  invisible(x)
}

#' @export
format.mla_annotator_bias <- function(x, ...) {
  tests <- x$tests
  q <- tests[tests$test == "cochran_q" & !is.na(tests$p.value), ]
  q <- q[order(q$p.value), ]
  a <- x$annotators[!is.na(x$annotators$deviation), ]
  far <- a[order(-abs(a$deviation)), ][seq_len(min(3L, nrow(a))), ]
  cli::cli_format_method({
    what <- count_noun(length(x$labels), if (x$single_label) "category" else "label")
    cli::cli_text("{.cls mla_annotator_bias}: {x$n_annotators} annotator{?s}, {what}, ",
                  "{x$n_items} item{?s}")
    # Labels and annotator ids enter cli only as substituted values, which
    # cli never reads as markup.
    if (nrow(q) > 0) {
      smallest <- paste0(
        utils::head(q$label, 3), " (Q = ", format_fixed(utils::head(q$statistic, 3), 2),
        ", p = ", format.pval(utils::head(q$p.value, 3), digits = 2), ")", collapse = ", ")
      cli::cli_text("Cochran's Q: {sum(q$p.value < 0.05)} of {nrow(q)} label{?s} with p < 0.05 ",
                    "(unadjusted); smallest p: {smallest}")
    } else {
      cli::cli_text("Cochran's Q: not computable on any label (see {.code note}).")
    }
    sm <- tests[tests$test == "stuart_maxwell", ]
    if (nrow(sm) == 1L && !is.na(sm$p.value)) {
      cli::cli_text("Stuart-Maxwell: chi-squared {format_fixed(sm$statistic, 2)} on {sm$df} df, ",
                    "p = {format.pval(sm$p.value, digits = 2)}")
    }
    if (nrow(far) > 0) {
      largest <- paste0(
        "annotator ", far$annotator, " on ", far$label, " (", sprintf("%+.3f", far$deviation),
        ", ", round(100 * x$conf.level), "% CI ", format_fixed(far$conf.low, 3), " to ",
        format_fixed(far$conf.high, 3), ")", collapse = "; ")
      cli::cli_text("Largest deviations from the pooled prevalence: {largest}")
    }
    cli::cli_text("Use {.code tidy(x, level = \"annotators\" | \"tests\" | \"indices\")}.")
  })
}

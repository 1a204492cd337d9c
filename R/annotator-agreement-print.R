# print() and format() of annotator_agreement() (R/annotator-agreement.R).

#' @export
print.mla_annotator_agreement <- function(x, ...) {
  check_dots_empty0(...)
  cat(format(x), sep = "\n")
  invisible(x)
}

#' @export
format.mla_annotator_agreement <- function(x, ...) {
  check_dots_empty0(...)
  a <- x$annotators
  p <- x$pairs
  ranked <- a[!is.na(a$estimate), ]
  low <- ranked[order(ranked$estimate), ][seq_len(min(3L, nrow(ranked))), ]
  no_pairs <- isFALSE(x$pair_table)
  cli::cli_format_method({
    cli::cli_text("{.cls mla_annotator_agreement}: {nrow(a)} annotator{?s}, ",
                  if (no_pairs) "no pair table (pairs = FALSE), " else "{nrow(p)} pair{?s} sharing items, ",
                  "{length(x$labels)} label{?s}")
    format_annotator_scales(x)
    defined <- p$estimate[!is.na(p$estimate)]
    if (no_pairs) {
      cli::cli_text("Pairs: not computed.")
    } else if (length(defined) > 0) {
      cli::cli_text("Pairs: median {format_fixed(stats::median(defined))}, ",
                    "range {format_fixed(min(defined))} to {format_fixed(max(defined))} ",
                    "({length(defined)} of {nrow(p)} pair{?s} with enough shared items)")
    } else {
      cli::cli_text("Pairs: none shares {x$min_items} or more items.")
    }
    # Annotator ids enter cli only as substituted values, which cli never
    # reads as markup: an id like "coder{1+1}" prints as it is.
    if (nrow(low) > 0) {
      lowest <- paste0(low$annotator, " (", flag_details(x, low, a, no_pairs), ")",
                       collapse = ", ")
      cli::cli_text("Lowest agreement with the others: {lowest}")
    }
    by_kappa <- ranked[!is.na(ranked$kappa), ]
    by_kappa <- by_kappa[order(by_kappa$kappa), ][seq_len(min(3L, nrow(by_kappa))), ]
    if (nrow(by_kappa) > 0) {
      lowest_kappa <- paste0(
        by_kappa$annotator, " (", format_fixed(by_kappa$kappa), ", score ",
        format_fixed(by_kappa$estimate), ")", collapse = ", ")
      cli::cli_text("Lowest kappa: {lowest_kappa}")
    }
    format_prevalence_note(x, nrow(ranked))
    light <- x$light$estimate[1L]
    if (!is.null(light) && !is.na(light)) {
      cli::cli_text("Light's kappa (mean of {x$light$n_pairs[1L]} pairwise Cohen kappa{?s}): {format_fixed(light)}")
    }
    unranked <- sum(is.na(a$estimate))
    if (unranked > 0) {
      cli::cli_text("{unranked} annotator{?s} with fewer than {x$min_items} shared items not ranked.")
    }
    cli::cli_text("Use {.code tidy(x, level = \"pairs\")} or {.code tidy(x, level = \"annotators\")}.")
  })
}

# What the scores are, with the lower end of the corpus-baseline scale.
format_annotator_scales <- function(x) {
  lowest <- if (isTRUE(x$expected < 1)) 1 - 1 / (1 - x$expected) else NA_real_
  cli::cli_text("Scores: 1 - (1 - observed) / (1 - A_e) with the corpus baseline A_e = ",
                "{format_fixed(x$expected)}, for pairs and annotators with at least ",
                "{x$min_items} shared item{?s}",
                if (is.na(lowest)) "." else paste0(
                  "; they run from ", format_fixed(lowest),
                  " (no shared decision agrees) to 1, not from -1 like a kappa."))
  if (isTRUE(x$has_kappa)) {
    cli::cli_text("kappa: each annotator against the others, with their own chance term (from -1 to 1).")
  } else {
    cli::cli_text("kappa: needs the records (not available on a summary).")
  }
}

# Score, kappa, observed, prevalence and support of the flagged annotators.
flag_details <- function(x, low, a, no_pairs) {
  k <- length(x$labels)
  prevalence <- if (isTRUE(x$single_label)) {
    ""
  } else {
    paste0("; ticks ", formatC(low$prevalence * k, format = "f", digits = 2), " of ", k,
           " labels per record, median annotator ",
           formatC(stats::median(a$prevalence, na.rm = TRUE) * k, format = "f", digits = 2))
  }
  paste0(format_fixed(low$estimate),
         if (isTRUE(x$has_kappa)) paste0(", kappa ", format_fixed(low$kappa)) else "",
         "; observed ", format_fixed(low$observed), prevalence,
         "; ", low$n_shared_items, " shared items",
         if (no_pairs) "" else paste0(", ", low$n_partners, " partners"))
}

format_prevalence_note <- function(x, n_ranked) {
  rho <- x$prevalence_rho
  if (is.null(rho) || is.na(rho) || abs(rho) <= prevalence_note_threshold) return(invisible())
  cli::cli_text(paste0(
    "Note: the ranking mostly follows prevalence ({names(rho)} correlation {format_fixed(rho, 2)} ",
    "between score and prevalence over {n_ranked} ranked annotators): with rarely ticked labels, ticking more ",
    "of them alone lowers Hamming agreement.",
    if (isTRUE(x$has_kappa)) " {.field kappa} in {.code tidy(x, level = \"annotators\")} judges each annotator against their own chance agreement." else ""
  ))
}

# Helpers of the mla-report template (skeleton.Rmd), which sources this
# file from its own directory; rmarkdown::draft() copies both. They use
# exported functions of mlagreement only (the package's tests check that and
# call them directly).

# Fixed decimals; + 0 turns the negative zero of a rounded -1e-17 into 0.
fmt <- function(v, digits = 3) {
  ifelse(is.na(v), "NA", formatC(round(v, digits) + 0, format = "f", digits = digits))
}
report_number <- function(n) format(n, big.mark = ",", scientific = FALSE, trim = TRUE)

# "n noun" with the plural when n != 1.
report_count <- function(n, noun, plural = paste0(noun, "s")) {
  paste(report_number(n), if (n == 1) noun else plural)
}

# A list of names for a sentence: the first `n`, then how many more.
report_name_list <- function(x, n = 12L) {
  x <- as.character(x)
  shown <- paste(utils::head(x, n), collapse = ", ")
  if (length(x) > n) shown <- paste0(shown, " and ", length(x) - n, " more")
  shown
}

# The declared label universe from the `labels` parameter: a character
# vector, a path to a text file with one label per line, or a
# comma-separated string. NULL when not given.
report_label_universe <- function(labels) {
  if (is.null(labels) || (length(labels) == 1L && (is.na(labels) || !nzchar(trimws(labels))))) {
    return(NULL)
  }
  labels <- as.character(labels)
  if (length(labels) > 1L) return(labels)
  if (file.exists(labels) && !dir.exists(labels)) {
    out <- trimws(readLines(labels, warn = FALSE, encoding = "UTF-8"))
    return(out[nzchar(out)])
  }
  trimws(strsplit(labels, ",", fixed = TRUE)[[1]])
}

# Distances from the `distances` parameter: a vector or a comma-separated string.
report_distances <- function(distances) {
  if (length(distances) == 1L) distances <- trimws(strsplit(distances, ",", fixed = TRUE)[[1]])
  known <- c("hamming", "jaccard", "masi")
  bad <- setdiff(distances, known)
  if (length(distances) == 0L || length(bad) > 0L) {
    stop("params$distances must name distances among ", paste(known, collapse = ", "),
         if (length(bad) > 0L) paste0("; not ", paste(bad, collapse = ", ")), ".", call. = FALSE)
  }
  distances
}

# Records with some but not all decisions missing, and the annotations of
# the complete records only (same label universe), for the set distances,
# which need complete label sets.
report_complete_records <- function(x) UseMethod("report_complete_records")

report_complete_records.annotations <- function(x) {
  long <- as.data.frame(x)
  record <- paste(match(long$item, unique(long$item)), match(long$annotator, unique(long$annotator)))
  n_missing <- tapply(is.na(long$value), record, sum)
  k <- nlevels(long$label)
  out <- list(n_records = sum(n_missing < k), n_partial = sum(n_missing > 0 & n_missing < k),
              n_complete = sum(n_missing == 0), annotations = x)
  if (out$n_partial == 0) return(out)
  if (out$n_complete == 0) {
    out$annotations <- NULL
    return(out)
  }
  kept <- long[record %in% names(n_missing)[n_missing == 0], , drop = FALSE]
  out$annotations <- annotations_long(kept, "item", "annotator", "label", "value",
                                      labels = levels(long$label))
  out
}

# A summary (annotation_counts()) cannot drop its partial records: when a
# decision is missing, krippendorff_alpha() says which record is partial and
# the report skips the set distances with that message.
report_complete_records.annotation_counts <- function(x) {
  g <- glance(mla(x))
  complete <- g$n_missing_decisions == 0
  list(n_records = g$n_records, n_partial = if (complete) 0 else NA,
       n_complete = if (complete) g$n_records else NA, annotations = x)
}

# "2 to 5, mean 3.40" from a fit's design: per item on records, as a
# histogram (value, n) on a summary.
report_annotators_per_item <- function(d) {
  h <- d$annotators_per_item_hist
  if (is.null(h)) h <- list(value = d$annotators_per_item, n = rep(1, length(d$annotators_per_item)))
  paste0(paste(unique(range(h$value[h$n > 0])), collapse = " to "), ", mean ",
         fmt(sum(h$value * h$n) / sum(h$n), 2))
}

# Rows of a label-level table in the order of the declared universe.
report_universe_order <- function(tab, universe) {
  tab[order(match(tab$label, universe)), , drop = FALSE]
}

# The design in two sentences, from glance(fit): coverage of the items x
# annotators grid (a sparse design is not missing data), then whole missing
# records and missing decisions inside records; a third when some items
# have fewer than two annotators.
report_design <- function(g) {
  pct <- function(s) {
    if (s > 0 && s < 0.001) return("< 0.1%")
    if (s < 1 && s > 0.999) return("> 99.9%")
    paste0(formatC(100 * s, format = "f", digits = 1), "%")
  }
  first <- paste0(report_number(g$n_records), " of ", report_number(as.double(g$n_items) * g$n_annotators),
                  " item x annotator cells annotated (", pct(g$coverage), ")",
                  if (g$coverage < 0.5) "; a sparse design, not missing data" else "")
  parts <- character()
  if (g$n_empty_records > 0) {
    parts <- paste0(report_count(g$n_empty_records, "record"),
                    " without any decision (whole label vector missing)")
  }
  n_dec <- as.double(g$n_records) * g$n_labels
  n_miss <- g$n_missing_decisions
  parts <- c(parts, paste0(report_number(n_miss), " of ", report_number(n_dec),
                           " decisions missing inside annotated records",
                           if (n_miss > 0) paste0(" (", pct(n_miss / n_dec), ")") else ""))
  c(first, paste(parts, collapse = "; "), report_unpaired(g))
}

# Items with fewer than two annotators have no pair and do not enter A_o;
# said only when there are some (the words of print(fit)).
report_unpaired <- function(g) {
  if (is.null(g$n_pairable_items)) return(NULL)
  n_out <- g$n_items - g$n_pairable_items
  if (n_out <= 0) return(NULL)
  paste0(report_number(n_out), " of ", report_number(g$n_items), " items ",
         if (n_out == 1) "has" else "have", " fewer than 2 annotators and ",
         if (n_out == 1) "does" else "do", " not enter A_o")
}

read_report_data <- function(data) {
  if (is.data.frame(data) || is_annotations(data)) return(data)
  if (file.exists(data)) {
    if (grepl("\\.rds$", data, ignore.case = TRUE)) return(readRDS(data))
    return(utils::read.csv(data, stringsAsFactors = FALSE, check.names = FALSE))
  }
  env <- new.env()
  suppressWarnings(utils::data(list = data, package = "mlagreement", envir = env))
  if (exists(data, envir = env, inherits = FALSE)) return(get(data, envir = env))
  if (!exists(data, envir = globalenv())) {
    stop("params$data must name a data set of mlagreement, an object in the R session or a file; ",
         "'", data, "' is none of these.", call. = FALSE)
  }
  get(data, envir = globalenv())
}

# A report_table() as a kable: fixed decimals, numbers right-aligned.
report_kable <- function(tab, caption = NULL) {
  align <- ifelse(vapply(tab, is.numeric, TRUE), "r", "l")
  knitr::kable(format(tab), align = align, caption = caption, row.names = FALSE)
}

# What a bootstrap design resamples, for the report's sentences.
report_resampled <- function(resample) {
  switch(resample, items = "items", annotators = "annotators",
         both = "both items and annotators (two-way)", resample)
}

# The interval type tidy(boot) uses by default: BCa, or percentile for
# two-way resampling.
report_interval_type <- function(bs) {
  if (identical(bs$resample, "both")) "percentile" else "BCa"
}

# krippendorff_alpha() columns with readable names.
report_alpha_names <- function(tab) {
  names_map <- c(distance = "Distance", observed_disagreement = "Observed disagreement",
                 expected_disagreement = "Expected disagreement", estimate = "Alpha",
                 n_items = "Items", n_values = "Values", records = "Records")
  tab <- as.data.frame(tab)
  names(tab) <- ifelse(names(tab) %in% names(names_map), names_map[names(tab)], names(tab))
  tab
}

# A condition's message as one sentence of plain text: no colours, no bullet
# symbols, no console line breaks.
report_condition_text <- function(cnd) {
  lines <- strsplit(cli::ansi_strip(conditionMessage(cnd)), "\n", fixed = TRUE)[[1]]
  lines <- trimws(sub("^(\u2139|\u2716|\u2714|\u2022|!|x|i|\\*|v) ", "", lines))
  text <- paste(lines[nzchar(lines)], collapse = " ")
  # statistic names such as "L01:positive_agreement" in readable words
  gsub("(positive|negative)_agreement", "\\1 agreement", text)
}

# Collects the warnings of the package's calls, with their text, for the
# report's Caveats list instead of hiding them: `capture(expr)` runs expr and
# keeps each warning (muffled), `texts()` returns them once each. Warnings of
# the classes in `skip` are muffled without being kept (the report says the
# same in its own words).
report_warnings <- function(skip = character()) {
  kept <- character()
  list(
    capture = function(expr) {
      withCallingHandlers(expr, warning = function(w) {
        if (!any(inherits(w, skip, which = TRUE) > 0)) kept <<- c(kept, report_condition_text(w))
        invokeRestart("muffleWarning")
      })
    },
    texts = function() unique(kept)
  )
}

# A plot, or, when the package refuses to draw it, a sentence with its reason.
report_plot <- function(expr, what) {
  p <- tryCatch(expr, mlagreement_error = function(e) e)
  if (inherits(p, "condition")) {
    cat("\n*The ", what, " is not drawn. ", report_condition_text(p), "*\n\n", sep = "")
    return(invisible(NULL))
  }
  print(p)
  invisible(p)
}

# Caveats of the label rows: the notes of tidy(fit) (why a value is NA or
# rests on too little information) grouped by note, and the bootstrap
# replicates that were undefined for a label's coefficient. Returns the
# caveat sentences and, per label, the numbers of its caveats ("" if none).
report_label_caveats <- function(labels, notes, boot_na = NULL, R = NULL, start = 1L) {
  texts <- character()
  refs <- rep("", length(labels))
  add <- function(who, text) {
    texts <<- c(texts, text)
    at <- labels %in% who
    refs[at] <<- ifelse(nzchar(refs[at]), paste0(refs[at], ", ", start + length(texts) - 1L),
                        as.character(start + length(texts) - 1L))
  }
  for (note in unique(stats::na.omit(notes))) {
    who <- labels[notes %in% note]
    add(who, paste0(report_name_list(who), ": ", note, "."))
  }
  if (length(boot_na) > 0L && any(boot_na > 0, na.rm = TRUE)) {
    who <- labels[boot_na > 0 & !is.na(boot_na)]
    n <- boot_na[boot_na > 0 & !is.na(boot_na)]
    add(who, paste0("Bootstrap replicates in which the coefficient is undefined: ",
                    paste0(who, " (", report_number(n), " of ", report_number(R), ")", collapse = ", "),
                    "; the interval uses the defined replicates only."))
  }
  list(texts = texts, refs = refs)
}

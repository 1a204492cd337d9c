# Helpers of the mla-report template (skeleton/report-helpers.R, which the
# report sources), called directly: the report's parameters (label universe,
# distances), the complete records the set distances need, and the sentence
# and table helpers. They are sourced into an environment whose parent is
# the global environment, so they see exported functions only, as a
# rendered report does.
report_skeleton <- function(file) {
  system.file("rmarkdown", "templates", "mla-report", "skeleton", file, package = "mlagreement")
}

local_report_helpers <- function(.env = parent.frame()) {
  env <- new.env(parent = globalenv())
  withr::with_package("mlagreement", sys.source(report_skeleton("report-helpers.R"), envir = env))
  for (name in ls(env)) assign(name, get(name, envir = env), envir = .env)
}

test_that("report helpers: label universes with commas, distances, complete records", {
  local_report_helpers()
  expect_null(report_label_universe(""))
  expect_null(report_label_universe(NULL))
  expect_identical(report_label_universe("a, b ,c"), c("a", "b", "c"))
  expect_identical(report_label_universe(c("pain, chest", "fever")), c("pain, chest", "fever"))
  path <- withr::local_tempfile(fileext = ".txt")
  writeLines(c("pain, chest", "", "fever "), path)
  expect_identical(report_label_universe(path), c("pain, chest", "fever"))
  expect_identical(report_distances("masi, hamming"), c("masi", "hamming"))
  expect_error(report_distances("cosine"), "not cosine")
  arr <- array(c(1L, 0L, 1L, 1L, 0L, 0L, NA, 1L), c(2, 2, 2))
  rec <- report_complete_records(as_annotations(arr))
  expect_equal(c(rec$n_records, rec$n_partial, rec$n_complete), c(4, 1, 3))
  expect_equal(rec$annotations$n_records, 3)
  expect_identical(rec$annotations$labels, as_annotations(arr)$labels)
  expect_identical(report_count(1, "record"), "1 record")
  expect_identical(report_count(1200, "record"), "1,200 records")
  expect_identical(report_name_list(letters[1:3], 2), "a, b and 1 more")
})

test_that("report helpers: NA and whole-vector parameters, no partial or no complete records", {
  local_report_helpers()
  expect_null(report_label_universe(NA))
  expect_null(report_label_universe("   "))
  expect_identical(report_distances(c("jaccard", "hamming")), c("jaccard", "hamming"))
  expect_error(report_distances(c("hamming", "cosine")), "not cosine")
  expect_error(report_distances(character()), "params\\$distances")
  # no partial record: the annotations come back unchanged
  x <- as_annotations(array(c(1L, 0L, 1L, 1L, 0L, 0L, 1L, 1L), c(2, 2, 2)))
  rec <- report_complete_records(x)
  expect_equal(c(rec$n_records, rec$n_partial, rec$n_complete), c(4, 0, 4))
  expect_identical(rec$annotations, x)
  # every record partial: no annotations for the set distances
  arr <- array(c(1L, 0L, 1L, 1L, NA, NA, NA, NA), c(2, 2, 2))
  rec <- report_complete_records(as_annotations(arr))
  expect_equal(c(rec$n_records, rec$n_partial, rec$n_complete), c(4, 4, 0))
  expect_null(rec$annotations)
  # the complete records keep their values: a record of item 2, annotator 1
  arr <- array(c(1L, 0L, 1L, 1L, 0L, 1L, NA, 0L), c(2, 2, 2))
  rec <- report_complete_records(as_annotations(arr))
  expect_identical(rec$n_complete, 3L)
  kept <- as.array(rec$annotations)
  expect_identical(unname(kept[2, 1, ]), c(0L, 1L))
  expect_true(all(is.na(kept[1, 2, ])))
})

test_that("report helpers: counts, name lists and the universe's order", {
  local_report_helpers()
  expect_identical(report_count(0, "record"), "0 records")
  expect_identical(report_count(2, "category", "categories"), "2 categories")
  expect_identical(report_name_list(c("x", "y")), "x, y")
  expect_identical(report_name_list(1:14), "1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 and 2 more")
  tab <- data.frame(label = c("b", "c", "a"), estimate = c(2, 3, 1))
  out <- report_universe_order(tab, c("a", "b", "c"))
  expect_identical(out$label, c("a", "b", "c"))
  expect_identical(out$estimate, c(1, 2, 3))
  # labels outside the universe go last, one row stays a data frame
  expect_identical(report_universe_order(tab, c("c", "a"))$label, c("c", "a", "b"))
  expect_identical(report_universe_order(tab[1, , drop = FALSE], "b"), tab[1, , drop = FALSE])
})

test_that("report helpers: the design sentences equal those of print()", {
  local_report_helpers()
  # sparse, with empty records and missing decisions inside records
  long <- data.frame(item = c(1, 1, 2, 2, 3, 3, 3), annotator = c("a", "b", "a", "c", "b", "c", "d"),
                     label = "x", value = c(1, NA, 0, 1, NA, 1, 0))
  wide <- data.frame(item = rep(1:3, each = 2), annotator = rep(c("a", "b"), 3),
                     l1 = c(1, 0, NA, NA, 1, 1), l2 = c(0, NA, NA, NA, 1, 0))
  for (x in list(as_annotations(array(c(1L, 0L, 1L, 1L, 0L, 0L, NA, 1L), c(2, 2, 2))),
                 annotations_long(long, item, annotator, label, value),
                 suppressWarnings(annotations_wide(wide, item, annotator, c(l1, l2))))) {
    fit <- suppressWarnings(mla(x))
    expect_identical(report_design(glance(fit)),
                     c(format_design_counts(fit$design$counts), unpaired_items_text(fit$design)))
  }
  # a share that is not 0 or 1 is never rounded to 0% or 100%
  g <- list(n_records = 5000, n_items = 5000, n_annotators = 1, coverage = 0.9995, n_empty_records = 0,
            n_labels = 2, n_missing_decisions = 1)
  expect_identical(report_design(g),
                   c("5,000 of 5,000 item x annotator cells annotated (> 99.9%)",
                     "1 of 10,000 decisions missing inside annotated records (< 0.1%)"))
})

# The names the template's code refers to (calls and values, not `$` fields),
# and the names it assigns: the report's chunks and inline `r ...` code, and
# its helpers' file.
template_names <- function(rmd, helpers) {
  text <- readLines(rmd, warn = FALSE)
  fence <- grepl("^```", text)
  in_chunk <- (cumsum(fence) %% 2 == 1) & !fence
  inline <- unlist(regmatches(text, gregexpr("`r [^`]+`", text)))
  code <- c(text[in_chunk], substr(inline, 4, nchar(inline) - 1), readLines(helpers, warn = FALSE))
  tokens <- utils::getParseData(parse(text = code, keep.source = TRUE))
  tokens <- tokens[tokens$terminal, ]
  tokens <- tokens[order(tokens$line1, tokens$col1), ]
  before <- c("", tokens$token[-nrow(tokens)])
  after <- c(tokens$token[-1], "")
  symbol <- tokens$token %in% c("SYMBOL", "SYMBOL_FUNCTION_CALL") & !before %in% c("'$'", "'@'")
  list(used = unique(tokens$text[symbol]),
       assigned = unique(tokens$text[symbol & after == "LEFT_ASSIGN"]))
}

test_that("the template calls exported functions only", {
  files <- report_skeleton(c("skeleton.Rmd", "report-helpers.R"))
  for (f in files) expect_false(any(grepl(":::|asNamespace|getNamespace", readLines(f, warn = FALSE))))
  names <- template_names(files[1], files[2])
  internal <- setdiff(ls(asNamespace("mlagreement")), getNamespaceExports("mlagreement"))
  expect_identical(intersect(setdiff(names$used, names$assigned), internal), character())
  expect_true(all(c("report_count", "report_complete_records", "fit") %in% names$assigned))
})

test_that("report helpers: a summary's records and annotators per item", {
  local_report_helpers()
  arr <- array(c(1L, 0L, 1L, 1L, 0L, 0L, NA, 1L), c(2, 2, 2))
  s <- as_annotation_counts(as_annotations(arr))
  rec <- report_complete_records(s)
  # a summary knows its records but not how many are partial
  expect_equal(rec$n_records, 4)
  expect_true(is.na(rec$n_partial))
  expect_identical(rec$annotations, s)
  full <- as_annotation_counts(as_annotations(array(c(1L, 0L, 1L, 1L, 0L, 0L, 1L, 1L), c(2, 2, 2))))
  expect_equal(unlist(report_complete_records(full)[c("n_records", "n_partial", "n_complete")]),
               c(n_records = 4, n_partial = 0, n_complete = 4))
  # the same text from a record fit's per-item counts and a summary's histogram
  long <- data.frame(item = c(1, 1, 2, 2, 2), annotator = c("a", "b", "a", "b", "c"), label = "x", value = 1L)
  x <- annotations_long(long, item, annotator, label, value)
  expect_identical(report_annotators_per_item(mla(x)$design), "2 to 3, mean 2.50")
  expect_identical(report_annotators_per_item(mla(as_annotation_counts(x))$design), "2 to 3, mean 2.50")
})

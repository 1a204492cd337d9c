test_that("the mla-report template drafts and renders to HTML", {
  skip_on_cran()
  skip_if_not_installed("rmarkdown")
  skip_if_not_installed("knitr")
  skip_if_not(rmarkdown::pandoc_available(), "pandoc is not available")
  dir <- withr::local_tempdir()
  withr::local_dir(dir)
  path <- rmarkdown::draft("report.Rmd", template = "mla-report", package = "mlagreement",
                           edit = FALSE)
  expect_true(file.exists("report.Rmd"))
  out <- rmarkdown::render("report.Rmd", params = list(R = 50), quiet = TRUE,
                           envir = new.env())
  expect_true(file.exists(out))
  html <- paste(readLines(out, warn = FALSE), collapse = "\n")
  html <- gsub("data:image/png;base64,[^\"]*", "", html)
  # the worked example's published values
  expect_true(grepl("0.232", html), label = "0.232")
  expect_true(grepl("0.903", html), label = "0.903")
  expect_true(grepl(">\\s*-0.344\\s*<", html), label = "-0.344")
  # readable table heads, no raw column names, and what the bootstrap resampled
  for (head in c("Observed agreement", "Positive agreement", "Weight \\(eq\\. 6\\)", "95% CI lower")) {
    expect_true(grepl(paste0("<th[^>]*>\\s*", head, "\\s*</th>"), html, fixed = FALSE), label = head)
  }
  expect_false(grepl("floor_observed|positive_agreement|conf\\.low|observed_disagreement", html))
  expect_true(grepl("50 resamples of items", html), label = "50 resamples of items")
  # 4 items: the headline and tables take the analytic interval, as mla_boot() advises
  fit <- mla(annotations_long(bias_example, item, annotator, label, value))
  ci <- tidy(fit, baseline = "fleiss")
  headline <- sprintf("95%% analytic interval %.3f to %.3f", ci$conf.low, ci$conf.high)
  expect_true(grepl(headline, html, fixed = TRUE), label = headline)
  expect_true(grepl("The intervals are analytic", html), label = "The intervals are analytic")
  expect_true(grepl("shown for reference only", html), label = "bootstrap for reference")
  expect_true(grepl("1 label without an interval: L01", html), label = "label without an interval")
  expect_true(grepl("20 of\\s+them were never selected", html), label = "20 of\\s+them were never selected")
  for (section in c("Label universe", "Meaning of joint omissions", "Baseline model",
                    "Diagnostics", "Uncertainty")) {
    expect_true(grepl(section, html), label = section)
  }
})

test_that("the template takes other data, columns and a primary baseline", {
  skip_on_cran()
  skip_if_not_installed("rmarkdown")
  skip_if_not(rmarkdown::pandoc_available(), "pandoc is not available")
  dir <- withr::local_tempdir()
  withr::local_dir(dir)
  rmarkdown::draft("report.Rmd", template = "mla-report", package = "mlagreement", edit = FALSE)
  selected <- bias_example[bias_example$value == 1, c("item", "annotator", "label")]
  names(selected) <- c("sentence", "coder", "type")
  selected$type <- as.character(selected$type)    # the universe comes from `labels`
  saveRDS(selected, "selected.rds")
  out <- rmarkdown::render("report.Rmd", quiet = TRUE, envir = new.env(), params = list(
    data = "selected.rds", item = "sentence", annotator = "coder", label = "type",
    value = "", labels = paste(sprintf("L%02d", 1:31), collapse = ", "),
    baseline = "ac1", R = 0
  ))
  html <- paste(readLines(out, warn = FALSE), collapse = "\n")
  html <- gsub("data:image/png;base64,[^\"]*", "", html)
  expect_true(grepl("primary baseline is <strong>Gwet", html), label = "AC1 primary")
  expect_true(grepl("0.903", html), label = "0.903")
  expect_true(grepl("R = 0 was requested|not available", html), label = "R = 0 was requested|not available")
})

render_report <- function(params, dir) {
  rmd <- rmarkdown::draft(file.path(dir, "report.Rmd"), template = "mla-report",
                          package = "mlagreement", edit = FALSE)
  out <- rmarkdown::render(rmd, params = params, quiet = TRUE, envir = new.env(),
                           output_file = paste0("r", sample(1e6, 1), ".html"))
  html <- paste(readLines(out, warn = FALSE), collapse = "\n")
  html <- gsub("(?s)<script.*?</script>|<style.*?</style>|<!--.*?-->", "", html, perl = TRUE)
  gsub("data:image/png;base64,[^\"]*", "", html)
}
expect_in_page <- function(page, pattern, fixed = FALSE) {
  expect_true(grepl(pattern, page, fixed = fixed), label = pattern)
}

test_that("the report declares labels with commas, in the universe's order", {
  skip_on_cran()
  skip_if_not_installed("rmarkdown")
  skip_if_not(rmarkdown::pandoc_available(), "pandoc is not available")
  dir <- withr::local_tempdir()
  long <- data.frame(item = rep(1:6, each = 3), annotator = rep(c("a", "b", "c"), 6),
                     label = rep(c("pain, chest", "fever", NA), 6))
  universe <- c("fever", "pain, chest", "rash")
  html <- render_report(list(data = long, value = "", labels = universe, R = 0), dir)
  expect_in_page(html, "3\\s+declared\\s+labels")
  expect_in_page(html, "1 of\\s+them\\s+was\\s+never\\s+selected\\s+by\\s+any\\s+annotator:\\s+rash\\.")
  cells <- regmatches(html, gregexpr("<td[^>]*>(fever|pain, chest|rash)</td>", html))[[1]]
  expect_identical(sub("<td[^>]*>(.*)</td>", "\\1", cells), universe)
  expect_false(grepl("annotator\\s+\\.", html))            # no stray space before a period
})

test_that("single-label designs get the categorical report", {
  skip_on_cran()
  skip_if_not_installed("rmarkdown")
  skip_if_not(rmarkdown::pandoc_available(), "pandoc is not available")
  dir <- withr::local_tempdir()
  withr::local_seed(3)
  codes <- matrix(sample(c("offensive", "not"), 40 * 4, TRUE), 40, 4)
  x <- as_annotations(codes)
  fit <- mla(x)
  html <- render_report(list(data = x, R = 20), dir)
  expect_in_page(html, "Fleiss(\u2019|'|&#39;) kappa")
  expect_in_page(html, "Brennan-Prediger")
  expect_in_page(html, "<td[^>]*>nominal</td>")
  expect_in_page(html, formatC(fit$single_label$alpha, format = "f", digits = 3), fixed = TRUE)
  # two categories: one category-versus-rest row, not two mirrored ones
  expect_in_page(html, "one row is\\s+shown")
  rows <- regmatches(html, gregexpr("<td[^>]*>(offensive|not)</td>", html))[[1]]
  expect_length(rows, 1L)
  expect_false(grepl("hamming", html))
})

test_that("a summary (annotation_counts) gets the report of its records", {
  skip_on_cran()
  skip_if_not_installed("rmarkdown")
  skip_if_not(rmarkdown::pandoc_available(), "pandoc is not available")
  dir <- withr::local_tempdir()
  withr::local_seed(5)
  arr <- array(rbinom(30 * 3 * 4, 1, 0.4), c(30, 3, 4))
  arr[1, 1, 2] <- NA  # one partial record
  a <- as_annotations(arr)
  html <- render_report(list(data = as_annotation_counts(a), R = 0), dir)
  expect_in_page(html, formatC(tidy(mla(a))$estimate[1], format = "f", digits = 3), fixed = TRUE)
  # a summary cannot drop the partial record: the set distances are skipped
  # with the message naming it
  expect_in_page(html, "set\\s+distances\\s+were\\s+skipped")
  expect_in_page(html, "Item\\s+.{0,12}1.{0,12},\\s+annotator")
  # without missing decisions the summary reports the set distances
  full <- as_annotations(array(rbinom(30 * 3 * 4, 1, 0.4), c(30, 3, 4)))
  html_full <- render_report(list(data = as_annotation_counts(full), R = 0), withr::local_tempdir())
  sets <- krippendorff_alpha(full, c("jaccard", "masi"))
  for (e in sets$estimate) expect_in_page(html_full, formatC(e, format = "f", digits = 3), fixed = TRUE)
  expect_in_page(html, "annotators per item: 3, mean 3.00", fixed = TRUE)
})

test_that("the report renders on designs without label or item coefficients, saying why", {
  skip_on_cran()
  skip_if_not_installed("rmarkdown")
  skip_if_not_installed("ggplot2")
  skip_if_not(rmarkdown::pandoc_available(), "pandoc is not available")
  d <- expand.grid(item = paste0("i", 1:30), annotator = c("a", "b", "c"), label = c("x", "y", "z"),
                   stringsAsFactors = FALSE)
  d$value <- 0L                                    # every decision 0: mla() gives NA with reasons
  html <- render_report(list(data = d, R = 20), withr::local_tempdir())
  expect_in_page(html, "plot of the item coefficients is not drawn")
  expect_in_page(html, "needs at least one item with a coefficient")
  expect_in_page(html, "plot of the label coefficients is not drawn")
  expect_in_page(html, "chance agreement is 1")
  expect_false(grepl("\\bError\\b", html))
  # half the items with one annotator: the design says they do not enter A_o
  withr::local_seed(3)
  u <- expand.grid(item = paste0("i", 1:40), annotator = c("a", "b", "c"), label = c("x", "y", "z"),
                   stringsAsFactors = FALSE)
  u$value <- stats::rbinom(nrow(u), 1, 0.3)
  u <- u[!(u$item %in% paste0("i", 1:20) & u$annotator != "a"), ]
  html_u <- render_report(list(data = u, R = 0), withr::local_tempdir())
  expect_in_page(html_u, "20 of 40 items have fewer than 2\\s+annotators\\s+and\\s+do\\s+not\\s+enter\\s+A_o")
})

test_that("the report lists the package's caveats: label notes, bootstrap and warnings", {
  skip_on_cran()
  skip_if_not_installed("rmarkdown")
  skip_if_not(rmarkdown::pandoc_available(), "pandoc is not available")
  withr::local_seed(4)
  d <- expand.grid(item = sprintf("i%02d", 1:40), annotator = c("a", "b", "c"), label = c("x", "y", "rare"),
                   stringsAsFactors = FALSE)
  d$value <- stats::rbinom(nrow(d), 1, 0.4)
  d$value[d$label == "rare"] <- 0L
  d$value[d$label == "rare" & d$item == "i01" & d$annotator == "a"] <- 1L   # one positive decision
  fit <- mla(annotations_long(d, item, annotator, label, value, labels = c("x", "y", "rare", "unused")))
  notes <- tidy(fit, level = "label", baseline = "fleiss")
  expect_match(notes$note[notes$label == "rare"], "too little information")
  expect_match(notes$note[notes$label == "unused"], "no decisions")
  html <- render_report(list(data = d, labels = "x, y, rare, unused", R = 30), withr::local_tempdir())
  expect_in_page(html, "<h2>Caveats</h2>", fixed = TRUE)
  expect_in_page(html, "rare:\\s+too\\s+little\\s+information")
  expect_in_page(html, "unused:\\s+no\\s+decisions")
  expect_in_page(html, "<th[^>]*>\\s*Caveats\\s*</th>")
  # the undefined bootstrap replicates of the rare label, counted
  bs <- local({
    withr::local_seed(1)
    suppressWarnings(mla_boot(fit, R = 30))
  })
  n_na <- sum(!is.finite(bs$t[, "rare:fleiss"]))
  if (n_na > 0) expect_in_page(html, paste0("rare\\s+\\(", n_na, "\\s+of\\s+30\\)"))
})

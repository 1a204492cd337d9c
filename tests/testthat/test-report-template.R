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
  expect_true(grepl("0.2320", html), label = "0.2320")
  expect_true(grepl("0.9031", html), label = "0.9031")
  expect_true(grepl("-0.3440", html), label = "-0.3440")
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

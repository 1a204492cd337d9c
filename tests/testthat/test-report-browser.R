# The report as a reader sees it: rendered to HTML on every kind of design
# mla() accepts and opened in headless Chromium (Debian's `chromium`, which
# .ci/run installs). Every figure must load, the per-label interval table be
# there and the page raise no script error. Screenshots are kept in
# MLA_TEST_ARTIFACTS (default tempdir()) for review.

chromium_binary <- function() {
  for (b in c("chromium", "chromium-browser", "google-chrome")) {
    path <- Sys.which(b)
    if (nzchar(path)) return(unname(path))
  }
  ""
}

chromium_run <- function(args) {
  profile <- withr::local_tempdir()
  flags <- c("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--hide-scrollbars", paste0("--user-data-dir=", profile))
  out <- suppressWarnings(system2(chromium_binary(), c(flags, args), stdout = TRUE, stderr = FALSE))
  paste(out, collapse = "\n")
}

# A copy of the page with a probe that records script errors and, once
# loaded, whether every image decoded, as attributes of <html>.
probe_copy <- function(html) {
  probe <- paste0(
    "<script>(function(){var h=document.documentElement;",
    "window.addEventListener('error',function(e){h.setAttribute('data-errors',",
    "(h.getAttribute('data-errors')||'')+'|'+(e.message||('resource '+((e.target&&(e.target.src||e.target.href))||'?'))))},true);",
    "window.addEventListener('load',function(){var r=[];",
    "for(var i=0;i<document.images.length;i++){var m=document.images[i];",
    "r.push(m.complete&&m.naturalWidth>0?m.naturalWidth+'x'+m.naturalHeight:'broken')}",
    "h.setAttribute('data-images',r.join(','))})})();</script>")
  lines <- readLines(html, warn = FALSE)
  at <- grep("<head>", lines, fixed = TRUE)[1]
  lines[at] <- sub("<head>", paste0("<head>", probe), lines[at], fixed = TRUE)
  path <- sub("\\.html$", "-probe.html", html)
  writeLines(lines, path)
  path
}

# The page without scripts, styles and embedded images (what a reader reads).
visible_html <- function(html) {
  text <- paste(readLines(html, warn = FALSE), collapse = "\n")
  text <- gsub("(?s)<script.*?</script>|<style.*?</style>", "", text, perl = TRUE)
  gsub("data:image/[^\"]*", "", text)
}

dom_attribute <- function(dom, name) {
  m <- regmatches(dom, regexpr(paste0(name, "=\"[^\"]*\""), dom))
  if (length(m) == 0L) return(NA_character_)
  sub(paste0("^", name, "=\"([^\"]*)\"$"), "\\1", m)
}

report_variants <- function() {
  withr::local_seed(11)
  partial <- array(stats::rbinom(80 * 4 * 12, 1, 0.3), c(80, 4, 12),
                   dimnames = list(sprintf("p%02d", 1:80), paste0("c", 1:4), paste0("finding ", 1:12)))
  partial[cbind(sample(80, 25, TRUE), sample(4, 25, TRUE), sample(12, 25, TRUE))] <- NA
  categories <- matrix(sample(c("offensive", "not offensive"), 60 * 5, TRUE, c(0.3, 0.7)), 60, 5)
  list(
    complete = simulate_annotations(60, 4, 6, 0.3, scenario = "noisy", error = 0.2),
    partial = as_annotations(partial),
    crowd = crowd_design(),
    single_label = as_annotations(categories),
    one_label = simulate_annotations(50, 3, 1, 0.3, scenario = "noisy", error = 0.2),
    labels31 = simulate_annotations(100, 4, 31, seq(0.02, 0.5, length.out = 31),
                                    scenario = "noisy", error = 0.15)
  )
}

test_that("the report renders on every design and a browser shows all of it", {
  skip_on_cran()
  skip_if_not_installed("rmarkdown")
  skip_if_not_installed("ggplot2")
  skip_if_not(rmarkdown::pandoc_available(), "pandoc is not available")
  if (chromium_binary() == "" && Sys.getenv("MLA_REQUIRE_BROWSER") == "1") {
    fail("MLA_REQUIRE_BROWSER is set but chromium is not installed")
  }
  skip_if(chromium_binary() == "", "chromium is not installed (.ci/run installs it)")
  dir <- withr::local_tempdir()
  artifacts <- Sys.getenv("MLA_TEST_ARTIFACTS", tempdir())
  dir.create(artifacts, showWarnings = FALSE, recursive = TRUE)
  rmd <- rmarkdown::draft(file.path(dir, "report.Rmd"), template = "mla-report",
                          package = "mlagreement", edit = FALSE)
  variants <- report_variants()
  for (name in names(variants)) {
    x <- variants[[name]]
    html <- rmarkdown::render(rmd, params = list(data = x, R = 30), quiet = TRUE,
                              output_file = paste0("report-", name, ".html"),
                              envir = new.env())
    page <- visible_html(html)
    # the per-label table with intervals, and no knitr error output
    expect_true(grepl("Per-label", page), label = paste(name, "has a per-label table"))
    expect_true(grepl("<th[^>]*>\\s*95% CI lower\\s*</th>", page), label = paste(name, "has intervals"))
    expect_false(grepl("\\bError\\b", page), label = paste(name, "shows an error"))
    # no record was dropped: the design line counts all of them
    expect_true(grepl(paste0(format(x$n_records, big.mark = ","), " of "), page),
                label = paste(name, "reports all records"))

    dom <- chromium_run(c("--virtual-time-budget=10000", "--dump-dom",
                          paste0("file://", probe_copy(html))))
    images <- strsplit(dom_attribute(dom, "data-images"), ",")[[1]]
    expect_gte(length(images), 3L)
    expect_false(any(images == "broken"), info = name)
    expect_identical(dom_attribute(dom, "data-errors"), NA_character_, info = name)
    expect_true(grepl("<table", dom), label = paste(name, "tables in the DOM"))
    shot <- file.path(artifacts, paste0("report-", name, ".png"))
    chromium_run(c(paste0("--screenshot=", shot), "--window-size=1200,3000",
                   "--virtual-time-budget=10000", paste0("file://", html)))
    expect_true(file.exists(shot) && file.size(shot) > 10000, info = name)
  }
})

test_that("the browser probe sees broken images and script errors", {
  skip_on_cran()
  skip_if(chromium_binary() == "", "chromium is not installed (.ci/run installs it)")
  page <- withr::local_tempfile(fileext = ".html")
  writeLines(c("<html><head><title>t</title></head><body>",
               "<img src='missing.png'><script>undefined_function();</script></body></html>"), page)
  dom <- chromium_run(c("--virtual-time-budget=5000", "--dump-dom", paste0("file://", probe_copy(page))))
  expect_identical(dom_attribute(dom, "data-images"), "broken")
  errors <- dom_attribute(dom, "data-errors")
  expect_match(errors, "undefined_function")
  expect_match(errors, "missing.png")
})

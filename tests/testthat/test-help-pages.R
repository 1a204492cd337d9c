# Docs hygiene (DESIGN.md, "Documentation"): every function that computes
# says its cost in one sentence on its help page, and no help page carries a
# timing or memory figure (those live in bench/README.md).

help_texts <- function(db) {
  vapply(db, function(rd) {
    paste(utils::capture.output(tools::Rd2txt(rd, options = list(underline_titles = FALSE))),
          collapse = "\n")
  }, character(1))
}

help_aliases <- function(db) {
  lapply(db, function(rd) {
    tags <- vapply(rd, function(x) attr(x, "Rd_tag"), character(1))
    unlist(lapply(rd[tags == "\\alias"], as.character))
  })
}

test_that("every exported function that computes states its cost", {
  db <- tools::Rd_db("mlagreement")
  skip_if(length(db) == 0, "help pages not installed")
  texts <- help_texts(db)
  aliases <- help_aliases(db)
  # presenters and trivial accessors: nothing to cost
  exempt <- c("as_boot", "augment", "glance", "tidy", "is_annotations", "mla_threads")
  fns <- setdiff(getNamespaceExports("mlagreement"), exempt)
  page <- vapply(fns, function(f) {
    hit <- names(aliases)[vapply(aliases, function(a) f %in% a, logical(1))]
    if (length(hit) == 0) NA_character_ else hit[1]
  }, character(1))
  expect_false(anyNA(page), label = paste("undocumented:", toString(fns[is.na(page)])))
  without <- fns[!grepl("Cost:", texts[page], fixed = TRUE)]
  expect_identical(without, character(0))
})

test_that("no help page carries a timing or memory figure", {
  db <- tools::Rd_db("mlagreement")
  skip_if(length(db) == 0, "help pages not installed")
  texts <- help_texts(db)
  figure <- "[0-9][0-9.,]*\\s?(ms|s|milliseconds?|seconds?|minutes?|hours?|[KMGT]i?B)\\b"
  hits <- regmatches(texts, gregexpr(figure, texts, perl = TRUE))
  expect_identical(Filter(length, hits), setNames(list(), character(0)))
})

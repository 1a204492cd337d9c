# The field-path extractor (R/read-json-fields.R, json_fields.h) against
# jsonlite, and every reader on every fixture against the hand counts of
# the reader tests and tests/testthat/fixtures/README.md.

extract_doc <- function(txt, paths) {
  path <- local_text_file(txt, "doc.json")
  json_fields_file(path, paths)
}

r_kind <- function(v) {
  if (is.null(v)) return("null")
  if (is.list(v)) return(if (is.null(names(v))) "array" else "object")
  if (is.logical(v)) return(if (isTRUE(v)) "true" else "false")
  if (is.character(v)) "string" else "number"
}

test_that("members and elements come back with jsonlite's keys, kinds and values", {
  withr::local_seed(29)
  for (i in 1:300) {
    txt <- json_random()[1]
    ref <- jsonlite::parse_json(txt)
    x <- extract_doc(txt, list(member = "*", element = "[]"))
    got <- c(x$at$member, x$at$element)
    if (!is.list(ref)) {
      expect_length(got, 0L)
      next
    }
    expect_identical(unname(vapply(ref, r_kind, "")), unname(json_kinds[x$kind[got] + 1L]), info = txt)
    if (!is.null(names(ref))) expect_identical(x$key[got], names(ref), info = txt)
    scalar <- vapply(ref, function(v) !is.list(v) && !is.null(v), NA)
    text <- x$text[got][scalar]
    want <- ref[scalar]
    num <- vapply(want, is.numeric, NA)
    expect_identical(text[!num], unname(vapply(want[!num], as.character, "")), info = txt)
    expect_equal(as.numeric(text[num]), as.numeric(unlist(want[num])), info = txt)
  }
})

test_that("numbers are canonical: equal values give equal text, large integers stay exact", {
  canon <- function(v) extract_doc(paste0("[", paste(v, collapse = ","), "]"), list(e = "[]"))$text
  expect_identical(canon(c("1", "1.0", "1e0", "10e-1", "0.1E1", "1.000")), rep("1", 6))
  expect_identical(canon(c("-0", "0.0", "0e5")), rep("0", 3))
  expect_identical(canon(c("1.5", "15e-1", "0.015e2", "-2.50")), c("1.5", "1.5", "1.5", "-2.5"))
  big <- c("123456789012345678901", "123456789012345678902", "9007199254740993")
  expect_identical(canon(big), big)
  expect_identical(canon(c("1.23456789012345678901e20", "1e21")),
                   c("123456789012345678901", "1000000000000000000000"))
  # the value is kept: R's own parser reads the canonical text as the same double
  withr::local_seed(1)
  v <- c(sprintf("%.6e", runif(50, -1e6, 1e6)), sprintf("%.3f", runif(50, -10, 10)), "1e-7", "3e300")
  expect_identical_numbers(as.numeric(canon(v)), as.numeric(v))
})

test_that("serial numbers tie the fields of one element together across paths", {
  x <- extract_doc('{"o": [{"id": 1, "t": "a"}, {"t": "b"}, {"id": 3}], "p": [{"id": 9}]}',
                   list(id = c("o", "[]", "id"), t = c("o", "[]", "t"), el = c("o", "[]"),
                        pid = c("p", "[]", "id")))
  el <- x$cap[[1]][x$at$el]
  expect_identical(match(x$cap[[1]][x$at$id], el), c(1L, 3L))
  expect_identical(match(x$cap[[1]][x$at$t], el), c(1L, 2L))
  expect_false(any(x$cap[[1]][x$at$pid] %in% el))
  # every element of a depth takes a serial, numbers off every path too
  # (they were skipped: tools/fuzz/json_fields.cpp)
  ser <- function(arr) {
    extract_doc(sprintf('{"x": %s, "o": [{"id": 1}, {"id": 2}]}', arr), list(id = c("o", "[]", "id")))$cap[[1]]
  }
  expect_identical(ser("[1, 2.5]"), c(3L, 4L))
  expect_identical(ser('["a", null]'), c(3L, 4L))
})

test_that("every reader gives the hand counts of every fixture", {
  counts <- function(tbl, value = "value") {
    selected <- if (value %in% names(tbl)) sum(tbl[[value]], na.rm = TRUE) else sum(!is.na(tbl$label))
    c(rows = nrow(tbl), items = length(unique(tbl$item)), annotators = length(unique(tbl$annotator)),
      labels = nlevels(tbl$label), selected = selected)
  }
  q <- function(expr) suppressWarnings(suppressMessages(expr))
  # (rows, items, annotators, labels, selected): the counts in the reader tests
  expect_equal(counts(q(read_prodigy(extdata("prodigy-choice.jsonl")))), c(rows = 28, items = 3, annotators = 3, labels = 4, selected = 8))
  files <- c(alex = fixture("prodigy-binary-alex.jsonl"), blake = fixture("prodigy-binary-blake.jsonl"))
  expect_equal(counts(q(read_prodigy(files, annotator = names(files)))), c(rows = 8, items = 4, annotators = 2, labels = 2, selected = 4))
  expect_equal(counts(q(read_prodigy(fixture("prodigy-choice-int-ids.jsonl"))))[c("rows", "labels", "selected")], c(rows = 12, labels = 3, selected = 4))
  expect_equal(counts(q(read_prodigy(fixture("prodigy-review-choice.jsonl"))))[c("rows", "annotators", "labels", "selected")], c(rows = 18, annotators = 3, labels = 3, selected = 7))
  dc <- c(alice = extdata("doccano-alice.jsonl"), bob = extdata("doccano-bob.jsonl"))
  expect_equal(counts(q(read_doccano(dc, labels = extdata("doccano-labels.json"))))[c("rows", "items", "annotators", "labels")], c(rows = 9, items = 4, annotators = 2, labels = 4))
  expect_equal(nrow(q(read_doccano(dc, labels = extdata("doccano-labels.json"), empty = "none"))), 10L)
  ls <- q(read_label_studio(extdata("label-studio-export.json"), extdata("label-studio-config.xml"), control = "topic"))
  expect_equal(counts(ls), c(rows = 28, items = 3, annotators = 3, labels = 4, selected = 8))
  rich <- q(read_label_studio(fixture("label-studio-rich-export.json"), fixture("label-studio-config-rich.xml"),
                                 control = c("sentiment", "topic", "taxonomy", "entities")))
  expect_equal(nrow(rich), 48L)
  expect_equal(as.vector(tapply(rich$value, rich$annotation, sum)), c(5L, 4L, 2L, 3L))
  mn <- q(read_label_studio(fixture("label-studio-export-min.json"), extdata("label-studio-config.xml"), control = "topic"))
  expect_equal(counts(mn), c(rows = 28, items = 3, annotators = 3, labels = 4, selected = 8))
  lw <- q(read_lewidi(extdata(c("lewidi-2023_train.json", "lewidi-2023_dev.json"))))
  expect_equal(counts(lw)[c("rows", "items", "annotators", "labels")], c(rows = 108, items = 6, annotators = 6, labels = 3))
  x <- annotations_long(q(read_lewidi(extdata("lewidi-2025_dev.json"))), item, annotator, label, value)
  expect_equal(c(dim(x), x$n_records), c(3, 6, 7, 11))
})

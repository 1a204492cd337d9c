ls_config <- function() extdata("label-studio-config.xml")
ls_full <- function(...) {
  suppressMessages(read_label_studio(extdata("label-studio-export.json"), ls_config(), ...))
}

test_that("JSON-MIN and CSV exports give the JSON export's design", {
  # the project of label-studio-export.json as the SDK's converter writes it:
  # 7 submitted annotations (the cancelled one is not exported) and a task
  # without annotations (104), which is skipped
  expect_no_message(mn <- read_label_studio(fixture("label-studio-export-min.json"), ls_config()))
  expect_identical(mn, ls_full())
  cs <- read_label_studio(fixture("label-studio-export.csv"), ls_config())
  expect_identical(cs, ls_full())
  topic <- read_label_studio(fixture("label-studio-export.csv"), ls_config(), control = "topic")
  expect_equal(nrow(topic), 28L) # 7 annotations x 4 choices
  expect_equal(sum(topic$value), 8L)
  expect_false("104" %in% topic$item)
})

test_that("flat exports read with control only, and as TSV", {
  x <- read_label_studio(fixture("label-studio-export-min.json"), control = "topic")
  # universe from the selections, in order of appearance: no "Culture"
  expect_equal(levels(x$label), c("Politics", "econ", "Sports"))
  expect_equal(sum(x$value), 8L)
  tsv <- local_text_file(c(
    "annotation_id\tannotator\tid\ttext\ttopic",
    '1\t"a@x.org"\t7\t"one"\t"{""choices"":[""A"",""B""]}"',
    '2\t"b@x.org"\t7\t"one"\t"A"',
    '3\t"b@x.org"\t8\t"two"\t""'
  ), "export.tsv")
  y <- read_label_studio(tsv, control = "topic")
  expect_equal(y$annotator, c("a@x.org", "a@x.org", "b@x.org", "b@x.org", "b@x.org", "b@x.org"))
  expect_equal(y$value, c(1L, 1L, 1L, 0L, 0L, 0L))
  # a declared choice that looks like JSON is that choice
  odd <- local_text_file(c('"annotation_id","annotator","id","topic"', '1,"1",5,"[x]"'), "odd.csv")
  z <- read_label_studio(odd, '<View><Choices name="topic" toName="t"><Choice value="[x]"/><Choice value="y"/></Choices></View>')
  expect_equal(z$value, c(1L, 0L))
})

test_that("flat exports without config or control, and broken ones, are classed errors", {
  expect_mla_snapshot(read_label_studio(fixture("label-studio-export-min.json")),
                      "format")
  expect_mla_snapshot(read_label_studio(fixture("label-studio-export.csv")),
                      "format")
  expect_mla_snapshot(read_label_studio(fixture("label-studio-export-min.json"), control = "topics"),
                      "unknown_label")
  # written in a temporary directory: fixtures first
  other <- local_text_file(c("a,b", "1,2"), "other.csv")
  expect_mla_snapshot(read_label_studio(other, control = "topic"), "format")
  nobody <- local_text_file('[{"id": 9, "annotation_id": 3, "annotator": null, "topic": "A"}]', "nobody.json")
  expect_mla_snapshot(read_label_studio(nobody, control = "topic"), "annotator")
})

# The JSON-MIN labels of a control's value, in plain R over jsonlite's parse
# (the converter's prettified values: a choice, a result value or a list of
# these; numbers and logical values are their text).
ref_min_labels <- function(v) {
  if (is.null(v)) return(character())
  if (is.list(v) && !is.null(names(v))) {
    if (!is.null(v$taxonomy)) return(vapply(v$taxonomy, function(p) paste(unlist(p), collapse = "/"), ""))
    key <- if (!is.null(v$choices)) "choices" else grep("labels$", names(v), value = TRUE)[1]
    return(if (is.na(key)) character() else as.character(unlist(v[[key]])))
  }
  if (is.list(v)) return(unlist(lapply(v, ref_min_labels)))
  if (is.character(v)) return(v[nzchar(v)])
  if (is.logical(v)) return(if (v) "TRUE" else "FALSE")
  format(v, scientific = FALSE)
}

random_min_value <- function(labs) {
  pick <- function(k) paste(sprintf('"%s"', sample(labs, k, TRUE)), collapse = ", ")
  switch(sample(11, 1),
    sprintf('"%s"', sample(labs, 1)), sprintf('{"choices": [%s]}', pick(sample(0:3, 1))),
    sprintf('[{"start": 0, "end": 3, "labels": [%s]}, {"labels": [%s]}]', pick(2), pick(1)),
    sprintf('{"taxonomy": [[%s], [%s]]}', pick(2), pick(1)),
    sprintf('[{"taxonomy": [[%s]]}, {"choices": [%s]}, %s]', pick(1), pick(1), pick(1)),
    "null", '""', sprintf("[%s]", pick(2)), sprintf('{"choices": null, "labels": [%s]}', pick(1)),
    sprintf('{"hypertextlabels": [%s], "choices": [%s]}', pick(2), pick(1)), '{"rating": 3}')
}

test_that("JSON-MIN values of every prettified shape give the plain-R labels", {
  skip_if_not_installed("jsonlite")
  withr::local_seed(28)
  labs <- c("A", "B", "C", "D")
  for (f in 1:30) {
    n <- sample(1:10, 1)
    recs <- vapply(seq_len(n), function(i) {
      sprintf('{"id": %d, "annotator": %d, "annotation_id": %s, "text": "t", "topic": %s}',
              sample(3, 1), sample(3, 1), if (runif(1) < 0.1) "null" else i, random_min_value(labs))
    }, "")
    path <- local_text_file(c("[", paste(recs, collapse = ",\n"), "]"), "min.json")
    got <- suppressMessages(read_label_studio(path, control = "topic"))
    parsed <- jsonlite::fromJSON(path, simplifyVector = FALSE)
    kept <- Filter(function(r) !is.null(r$annotation_id), parsed)
    chosen <- lapply(kept, function(r) unique(ref_min_labels(r$topic)))
    universe <- unique(unlist(chosen))
    expect_equal(levels(got$label), universe %||% character())
    ref_value <- unlist(lapply(chosen, function(ch) as.integer(universe %in% ch)))
    expect_equal(got$value, ref_value %||% integer(), info = paste(recs, collapse = "\n"))
    expect_equal(got$annotation, rep(vapply(kept, function(r) as.character(r$annotation_id), ""),
                                     each = length(universe)))
  }
})

test_that("a JSON-MIN record with a control twice is a classed error", {
  path <- local_text_file('[{"id": 1, "annotator": 1, "annotation_id": 1, "topic": "A", "topic": "B"}]',
                          "twice.json")
  expect_error(read_label_studio(path, control = "topic"), "Record 1 .* twice",
               class = "mlagreement_error_json_field")
  expect_mla_snapshot(read_label_studio(path, control = "topic"), "json_field")
})

test_that("a JSON-MIN selection nested in an array is refused, not read as none", {
  recs <- c('{"id": 1, "annotator": 1, "annotation_id": 1, "topic": {"choices": ["A"]}}',
            '{"id": 1, "annotator": 2, "annotation_id": 2, "topic": {"choices": [["A"]]}}',
            '{"id": 2, "annotator": 1, "annotation_id": 3, "topic": [{"choices": [["B"]]}]}')
  nested <- local_text_file(c("[", paste(recs[1:2], collapse = ",\n"), "]"), "nested.json")
  expect_error(read_label_studio(nested, control = "topic"), "Record 2 .* an array there",
               class = "mlagreement_error_json_shape")
  inner <- local_text_file(c("[", paste(recs[c(1, 3)], collapse = ",\n"), "]"), "inner.json")
  expect_error(read_label_studio(inner, control = "topic"), "Record 2 .* an array there",
               class = "mlagreement_error_json_shape")
  expect_mla_snapshot(read_label_studio(nested, control = "topic"), "json_shape")
  fine <- local_text_file(c("[", recs[1], "]"), "fine.json")
  expect_identical(as.character(read_label_studio(fine, control = "topic")$label), "A")
})

test_that("flat export cells keep numeric labels at full precision", {
  # 0.1 + 0.2 and 0.3 are two labels; -0 is the label 0
  expect_identical(flat_labels("[0.30000000000000004, 0.3, -0, 100000]", character()),
                   c("0.30000000000000004", "0.3", "0", "100000"))
  expect_identical(scalars_as_text(list(0.1 + 0.2, "a", 7L)), c("0.30000000000000004", "a", "7"))
})

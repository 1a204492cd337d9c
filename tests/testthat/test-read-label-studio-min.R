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

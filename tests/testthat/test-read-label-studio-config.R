rich_config <- function() fixture("label-studio-config-rich.xml")

test_that("a multi-line, attribute-rich config gives its full label universe", {
  u <- label_studio_config(rich_config())
  # hand count: 4 + 3 + 3 + 2 labels; the TextArea is no classification
  # control, the dynamic Choices declares none, and the <Choice>s in the
  # comment and the CDATA block are text
  expect_named(u, c("sentiment", "topic", "taxonomy", "entities", "dynamic"))
  expect_equal(u$sentiment, c("Positive", "Negative", "unsure", "Mixed & other"))
  expect_equal(u$topic, c("Politics", "Sports > Football", "econ"))
  expect_equal(u$taxonomy, c("Animal/Cat", "Animal/dog", "Plant")) # leafsOnly: no "Animal"
  expect_equal(u$entities, c("PER", "ORG"))
  expect_equal(u$dynamic, character())
  xml <- paste(readLines(rich_config(), warn = FALSE), collapse = "\n")
  expect_identical(label_studio_config(xml), u)
})

test_that("read_label_studio() reads an export of the rich config", {
  controls <- c("sentiment", "topic", "taxonomy", "entities")
  expect_message(
    x <- read_label_studio(fixture("label-studio-rich-export.json"), rich_config(), control = controls),
    "1 cancelled", class = "mlagreement_message_excluded"
  )
  # hand count: 4 submitted annotations x 12 labels; selected 5, 4, 2 and 3
  expect_equal(nrow(x), 48L)
  expect_equal(as.list(tapply(x$value, x$annotation, sum)),
               list(`11` = 5L, `12` = 4L, `13` = 2L, `14` = 3L))
  expect_equal(nlevels(x$label), 12L)
  expect_true("sentiment:Mixed & other" %in% x$label[x$value == 1L])
  expect_true("sentiment:unsure" %in% x$label[x$value == 1L])
  # two regions labelled PER by annotator 5 are one selection of PER
  expect_equal(x$value[x$annotation == "11" & x$label == "entities:PER"], 1L)
  # the dynamic control declares no choices: refused only when it is read
  expect_mla_snapshot(read_label_studio(fixture("label-studio-rich-export.json"), rich_config()),
                      "config")
})

test_that("labels belong to their nearest control; taxonomies without leafsOnly keep every node", {
  xml <- '<View><Choices name="outer" toName="t"><Choice value="a"/>
    <View><Choices name="inner" toName="t" perRegion="true"><Choice value="b"/></Choices></View>
  </Choices><Taxonomy name="tax" toName="t"><Choice value="A"><Choice value="B">
    <Choice value="C"/></Choice></Choice></Taxonomy>
  <RectangleLabels name="box" toName="img"><Label value="car"/><Label value="car"/></RectangleLabels></View>'
  u <- label_studio_config(xml)
  expect_equal(u, list(outer = "a", inner = "b", tax = c("A", "A/B", "A/B/C"), box = "car"))
  expect_equal(label_studio_config("<View><Text name='t' value='$text'/></View>"), list())
})

test_that("bad configs are classed errors naming the file", {
  bad <- local_text_file(c("<View>", '  <Choices name="a" toName="t">', "</View>"), "config.xml")
  expect_mla_snapshot(read_label_studio(extdata("label-studio-export.json"), bad), "config")
  expect_mla_snapshot(read_label_studio(extdata("label-studio-export.json"), "missing-config.xml"), "file")
})

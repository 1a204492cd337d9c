ls_export <- function() extdata("label-studio-export.json")
ls_config <- function() extdata("label-studio-config.xml")

test_that("read_label_studio() reads one control with the config's universe", {
  expect_message(
    ls <- read_label_studio(ls_export(), ls_config(), control = "topic"),
    "Excluded 1 annotation: 1 cancelled", class = "mlagreement_message_excluded"
  )
  expect_equal(names(ls), c("item", "annotator", "annotation", "control", "label", "value"))
  # 3 tasks; annotators 1, 2, 3; 7 submitted annotations (1 cancelled) x 4 choices
  expect_equal(nrow(ls), 28L)
  expect_equal(levels(ls$label), c("Politics", "Sports", "econ", "Culture"))
  expect_equal(sum(ls$value), 8L)
  expect_false(any(ls$annotator == "3" & ls$item == "101"))
  x <- suppressMessages(annotations_long(ls, item, annotator, label, value))
  expect_equal(dim(x), c(3L, 3L, 4L))
  expect_true("Culture" %in% x$labels)
  # the same design built by hand from the export, read by eye
  arr <- array(NA_integer_, c(3, 3, 4), dimnames = list(c("101", "102", "103"), c("1", "2", "3"),
                                                        c("Politics", "Sports", "econ", "Culture")))
  arr["101", "1", ] <- c(1, 0, 1, 0)
  arr["101", "2", ] <- c(1, 0, 0, 0)
  arr["102", "1", ] <- c(0, 1, 0, 0)
  arr["102", "2", ] <- c(1, 1, 0, 0)
  arr["102", "3", ] <- c(0, 0, 0, 0) # submitted with no topic: nothing selected
  arr["103", "1", ] <- c(0, 0, 1, 0)
  arr["103", "3", ] <- c(0, 0, 1, 0)
  expect_identical(mla_results(x)$corpus, mla_results(as_annotations(arr))$corpus)
  expect_identical(mla_results(x)$label, mla_results(as_annotations(arr))$label)
})

test_that("read_label_studio() reads all controls, taxonomy paths and no config", {
  all <- suppressMessages(read_label_studio(ls_export(), ls_config()))
  expect_equal(levels(all$label), c(
    paste0("sentiment:", c("Positive", "Negative", "Neutral", "Mixed")),
    paste0("topic:", c("Politics", "Sports", "econ", "Culture")),
    paste0("taxonomy:", c("Animal", "Animal/Cat", "Animal/Dog", "Plant"))
  ))
  tax <- all[all$control == "taxonomy" & all$value == 1L, ]
  expect_equal(paste(tax$item, tax$annotator, tax$label),
               c("101 1 taxonomy:Animal/Cat", "103 1 taxonomy:Plant",
                 "103 3 taxonomy:Animal", "103 3 taxonomy:Animal/Dog"))
  # predictions are ignored: no "Sports" for task 101
  expect_equal(sum(all$value[all$item == "101" & all$label == "topic:Sports"]), 0L)
  bare <- suppressMessages(read_label_studio(ls_export(), control = "sentiment"))
  expect_equal(levels(bare$label), c("Positive", "Negative", "Neutral"))
  xml <- paste(readLines(ls_config(), warn = FALSE), collapse = "\n")
  expect_equal(suppressMessages(read_label_studio(ls_export(), xml, control = "topic")),
               suppressMessages(read_label_studio(ls_export(), ls_config(), control = "topic")))
})

test_that("read_label_studio() reports bad exports and configs", {
  old <- local_text_file('[{"id": 1, "data": {"text": "a"}, "completions": [{"result": []}]}]')
  expect_mla_snapshot(read_label_studio(old))
  expect_mla_error(read_label_studio(old), "version")
  data_only <- local_text_file('[{"id": 1, "data": {"text": "a"}}]')
  expect_mla_snapshot(read_label_studio(data_only))
  expect_mla_error(read_label_studio(data_only), "version")
  obj <- local_text_file('{"id": 1}')
  expect_mla_error(read_label_studio(obj), "version")
  anon <- local_text_file('[{"id": 7, "annotations": [{"id": 1, "result": [], "was_cancelled": false}]}]')
  expect_mla_snapshot(read_label_studio(anon))
  expect_mla_error(read_label_studio(anon), "annotator")
  cut <- local_text_file(substr(paste(readLines(ls_export(), warn = FALSE), collapse = "\n"), 1, 500), "cut.json")
  expect_mla_snapshot(read_label_studio(cut))
  expect_mla_error(read_label_studio(cut), "json")
  empty_control <- '<View><Text name="t" value="$text"/><Choices name="topic" toName="t" value="$options"/></View>'
  expect_mla_snapshot(read_label_studio(ls_export(), empty_control))
  expect_mla_error(suppressMessages(read_label_studio(ls_export(), empty_control)), "config")
  expect_mla_snapshot(read_label_studio(ls_export(), "<View><Choices"))
  expect_mla_error(suppressMessages(read_label_studio(ls_export(), "<View><Choices")), "config")
  fewer <- '<View><Choices name="topic" toName="t"><Choice value="Politics"/></Choices></View>'
  expect_mla_snapshot(read_label_studio(ls_export(), fewer, control = "topic"))
  expect_mla_error(suppressMessages(read_label_studio(ls_export(), ls_config(), control = "nope")),
                   "unknown_label")
  expect_mla_error(suppressMessages(read_label_studio(c(ls_export(), ls_export()))))
})

test_that("a cancelled annotation earlier in the file does not shift the place an error names", {
  ok <- '{"id": 11, "completed_by": 1, "result": [], "was_cancelled": false}'
  gone <- '{"id": 12, "completed_by": 2, "result": [], "was_cancelled": true}'
  bad <- paste0('{"id": 21, "completed_by": 1, "was_cancelled": false, "result": [{"from_name": "topic",',
                ' "to_name": "t", "type": "choices", "value": {"choices": "Sports"}}]}')
  shifted <- local_text_file(paste0('[{"id": 1, "data": {"t": "a"}, "annotations": [', ok, ", ", gone, ']},',
                                    ' {"id": 2, "data": {"t": "b"}, "annotations": [', ok, ", ", bad, ']}]'))
  err <- expect_mla_error(read_label_studio(shifted), "json_shape")
  expect_match(conditionMessage(err), "Annotation 2 of task \"2\"")
  expect_mla_snapshot(read_label_studio(shifted), "json_shape")
})

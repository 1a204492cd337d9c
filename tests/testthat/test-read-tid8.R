write_jsonl <- function(lines) {
  dir <- withr::local_tempdir(.local_envir = parent.frame())
  withr::local_dir(dir, .local_envir = parent.frame())
  writeLines(lines, "tid8.jsonl")
  "tid8.jsonl"
}

test_that("read_tid8() reads the TID-8 layout", {
  skip_if_not_installed("jsonlite")
  path <- write_jsonl(c(
    '{"sentence": "text one", "task": "t", "respondent_id": "r1", "uid": 0, "original_id": "k0", "id": 0, "offensive": "offensive_speech", "anns_except_current_one": ["offensive_speech"]}',
    '{"sentence": "text one", "respondent_id": "r2", "uid": 0, "id": 1, "offensive": "not_offensive_speech"}',
    "",
    '{"respondent_id": 7, "uid": 1, "id": 2, "offensive": "not_offensive_speech"}'
  ))
  tid <- read_tid8(path)
  expect_s3_class(tid, "tbl_df")
  expect_equal(names(tid), c("line", "item", "annotator", "label", "text"))
  expect_equal(tid$line, c(1L, 2L, 4L))
  expect_equal(tid$item, c("0", "0", "1"))
  expect_equal(tid$annotator, c("r1", "r2", "7"))
  expect_equal(tid$label, c("offensive_speech", "not_offensive_speech", "not_offensive_speech"))
  expect_equal(tid$text, c("text one", "text one", NA))
  expect_equal(names(read_tid8(path, text = NULL)), c("line", "item", "annotator", "label"))
  expect_equal(read_tid8(path, label = "id")$label, c("0", "1", "2"))
  # feeds the package's functions
  ann <- annotations_long(tid, item, annotator, label)
  expect_equal(ann$labels, c("not_offensive_speech", "offensive_speech"))
  tid$.pred <- "offensive_speech"
  expect_equal(annotator_metrics(tid, label, .pred)$accuracy, 1 / 3)
})

test_that("read_tid8() errors name the line", {
  skip_if_not_installed("jsonlite")
  good <- '{"uid": 0, "respondent_id": "r1", "emotion": "positive"}'
  path <- write_jsonl(c(good, good, '{"uid": 1, "respondent_id": "r2", "emotion": '))
  expect_mla_snapshot(read_tid8(path))
  expect_error(read_tid8(path), class = "mlagreement_error_json")
  path <- write_jsonl(c(good, '{"uid": 1} {"uid": 2}'))
  expect_mla_snapshot(read_tid8(path))
  path <- write_jsonl(c(good, "[1, 2]"))
  expect_mla_snapshot(read_tid8(path))
  expect_error(read_tid8(path), class = "mlagreement_error_json")
  path <- write_jsonl(c(good, good, '{"uid": 1, "emotion": "negative"}'))
  expect_mla_snapshot(read_tid8(path))
  expect_error(read_tid8(path), class = "mlagreement_error_json_field")
  path <- write_jsonl(c(good, '{"uid": 1, "respondent_id": "r2", "emotion": ["a", "b"]}'))
  expect_mla_snapshot(read_tid8(path))
  path <- write_jsonl(c('{"uid": 1, "respondent_id": "r2", "stance": "pro"}'))
  expect_mla_snapshot(read_tid8(path))
  expect_error(read_tid8(path), class = "mlagreement_error_json_field")
  path <- write_jsonl(c('{"uid": 1, "respondent_id": "r2", "humor": "funny", "emotion": "joy"}'))
  expect_mla_snapshot(read_tid8(path))
  path <- write_jsonl(c("", "  "))
  expect_mla_snapshot(read_tid8(path))
  expect_error(read_tid8(path), class = "mlagreement_error_empty")
  expect_mla_snapshot(read_tid8("no-such-file.jsonl"))
  expect_error(read_tid8("no-such-file.jsonl"), class = "mlagreement_error_file")
  expect_mla_snapshot(read_tid8(c("a", "b")))
  expect_mla_snapshot(read_tid8(path, label = 1))
  expect_error(read_tid8(path, label = 1), class = "mlagreement_error_string")
})

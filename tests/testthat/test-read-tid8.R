write_jsonl <- function(lines) {
  dir <- withr::local_tempdir(.local_envir = parent.frame())
  withr::local_dir(dir, .local_envir = parent.frame())
  writeLines(lines, "tid8.jsonl")
  "tid8.jsonl"
}

test_that("read_tid8() reads the TID-8 layout", {
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
  expect_mla_snapshot(read_tid8(character()))
  expect_mla_snapshot(read_tid8(path, label = 1))
  expect_error(read_tid8(path, label = 1), class = "mlagreement_error_string")
})

test_that("read_tid8() reads several files with a split column and unique ids", {
  t8 <- read_tid8(extdata(c("tid8-train.jsonl", "tid8-test.jsonl")))
  expect_equal(names(t8), c("line", "item", "annotator", "label", "text", "split", "uid"))
  expect_equal(table(t8$split)[c("train", "test")], c(train = 8L, test = 4L), ignore_attr = TRUE)
  expect_equal(unique(t8$item), c("train:0", "train:1", "train:2", "test:0", "test:1"))
  expect_equal(t8$line[t8$split == "test"], 1:4)
  named <- read_tid8(c(a = extdata("tid8-train.jsonl"), b = extdata("tid8-test.jsonl")),
                     unique_items = FALSE)
  expect_equal(unique(named$split), c("a", "b"))
  expect_equal(unique(named$item), c("0", "1", "2"))
  x <- annotations_long(t8, item, annotator, label)
  expect_equal(dim(x), c(5L, 4L, 2L))
})

test_that("read_tid8() keeps large ids exact and streams across blocks", {
  path <- write_jsonl(c(
    '{"uid": 3000000000, "respondent_id": 123456789012345678901, "offensive": "a"}',
    '{"uid": 3000000000, "respondent_id": 123456789012345678902, "offensive": "b"}',
    '{"uid": 1e5, "respondent_id": "r\\u00e9\\"x", "offensive": true}'
  ))
  tid <- read_tid8(path, text = NULL)
  expect_equal(tid$item, c("3000000000", "3000000000", "1e5"))
  expect_equal(tid$annotator, c("123456789012345678901", "123456789012345678902", "r\u00e9\"x"))
  expect_equal(tid$label, c("a", "b", "TRUE"))
  expect_equal(length(unique(tid$annotator)), 3L)
  # tiny blocks: lines split across reads, CRLF endings, blank lines
  lines <- sprintf('{"uid": %d, "respondent_id": "r%d", "emotion": "e%d", "sentence": "s \\u00fc %d"}',
                   1:50, 1:50 %% 7, 1:50 %% 3, 1:50)
  lines[c(10, 30)] <- ""
  path <- write_jsonl(lines)
  whole <- read_tid8(path)
  for (bytes in c(17, 64, 200)) {
    expect_identical(mlagreement:::read_tid8_file(path, "emotion", "uid", "respondent_id",
                                                  "sentence", block_bytes = bytes)[names(whole)],
                     mlagreement:::read_tid8_file(path, "emotion", "uid", "respondent_id",
                                                  "sentence")[names(whole)])
  }
  expect_equal(nrow(whole), 48L)
  expect_equal(whole$line[10], 11L)
  expect_equal(whole$text[1], "s \u00fc 1")
  writeBin(charToRaw(paste0(paste(lines[1:3], collapse = "\r\n"), "\r\n")), path)
  expect_equal(read_tid8(path)$item, c("1", "2", "3"))
})

test_that("read_tid8() reports truncated, non-UTF-8 and directory inputs", {
  good <- '{"uid": 0, "respondent_id": "r1", "emotion": "positive"}'
  path <- write_jsonl(c(good, good, substr(good, 1, 20)))
  expect_mla_snapshot(read_tid8(path))
  expect_error(read_tid8(path), class = "mlagreement_error_json")
  writeBin(c(charToRaw(good), as.raw(10), charToRaw('{"uid": 1, "respondent_id": "r'),
             as.raw(0xff), charToRaw('", "emotion": "x"}'), as.raw(10)), path)
  expect_mla_snapshot(read_tid8(path))
  expect_error(read_tid8(path), class = "mlagreement_error_encoding")
  expect_error(read_tid8(tempdir()), class = "mlagreement_error_file")
  expect_error(read_tid8(character()), class = "mlagreement_error_string")
})

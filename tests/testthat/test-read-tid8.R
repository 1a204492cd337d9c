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
  expect_mla_error(read_tid8(path), "json")
  path <- write_jsonl(c(good, '{"uid": 1} {"uid": 2}'))
  expect_mla_snapshot(read_tid8(path))
  path <- write_jsonl(c(good, "[1, 2]"))
  expect_mla_snapshot(read_tid8(path))
  expect_mla_error(read_tid8(path), "json")
  path <- write_jsonl(c(good, good, '{"uid": 1, "emotion": "negative"}'))
  expect_mla_snapshot(read_tid8(path))
  expect_mla_error(read_tid8(path), "json_field")
  path <- write_jsonl(c(good, '{"uid": 1, "respondent_id": "r2", "emotion": ["a", "b"]}'))
  expect_mla_snapshot(read_tid8(path))
  path <- write_jsonl(c('{"uid": 1, "respondent_id": "r2", "stance": "pro"}'))
  expect_mla_snapshot(read_tid8(path))
  expect_mla_error(read_tid8(path), "json_field")
  path <- write_jsonl(c('{"uid": 1, "respondent_id": "r2", "humor": "funny", "emotion": "joy"}'))
  expect_mla_snapshot(read_tid8(path))
  path <- write_jsonl(c("", "  "))
  expect_mla_snapshot(read_tid8(path))
  expect_mla_error(read_tid8(path), "empty")
  expect_mla_snapshot(read_tid8("no-such-file.jsonl"))
  expect_mla_error(read_tid8("no-such-file.jsonl"), "file")
  expect_mla_snapshot(read_tid8(character()))
  expect_mla_snapshot(read_tid8(path, label = 1))
  expect_mla_error(read_tid8(path, label = 1), "string")
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
  expect_equal(tid$item, c("3000000000", "3000000000", "100000"))  # by value, as every reader
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
  expect_mla_error(read_tid8(path), "json")
  writeBin(c(charToRaw(good), as.raw(10), charToRaw('{"uid": 1, "respondent_id": "r'),
             as.raw(0xff), charToRaw('", "emotion": "x"}'), as.raw(10)), path)
  expect_mla_snapshot(read_tid8(path))
  expect_mla_error(read_tid8(path), "encoding")
  expect_mla_error(read_tid8(tempdir()), "file")
  expect_mla_error(read_tid8(character()), "string")
})

# A JSON number's text by its value, written independently of the C++ one:
# digits without leading zeros, a fraction without trailing zeros, no
# exponent (for numbers of at most 400 digits).
ref_canonical_number <- function(s) {
  vapply(s, function(t) {
    m <- regmatches(t, regexec("^(-?)([0-9]+)(?:[.]([0-9]+))?(?:[eE]([+-]?[0-9]+))?$", t,
                               perl = TRUE))[[1]]
    digits <- paste0(m[3], m[4])
    e <- (if (m[5] == "") 0L else as.integer(m[5])) - nchar(m[4])
    digits <- sub("^0+", "", digits)
    if (digits == "") return("0")
    stripped <- sub("0+$", "", digits)
    e <- e + nchar(digits) - nchar(stripped)
    n <- nchar(stripped)
    body <- if (e >= 0) {
      paste0(stripped, strrep("0", e))
    } else if (n > -e) {
      paste0(substr(stripped, 1, n + e), ".", substr(stripped, n + e + 1, n))
    } else {
      paste0("0.", strrep("0", -e - n), stripped)
    }
    paste0(if (m[2] == "-") "-", body)
  }, "", USE.NAMES = FALSE)
}

# Independent plain-R reader: jsonlite on every line, the numbers of the
# fields quoted (and marked) first so that they never pass through a double.
ref_read_tid8 <- function(path, label, item = "uid", annotator = "respondent_id",
                          text = "sentence") {
  lines <- sub("\r$", "", readLines(path, encoding = "UTF-8", warn = FALSE))
  keep <- which(grepl("[^ \t]", lines))
  fields <- c(item = item, annotator = annotator, label = label, text = text)
  keys <- paste(fields, collapse = "|")
  quoted <- gsub(paste0('"(', keys, ')"(\\s*):(\\s*)(-?[0-9][0-9.eE+-]*)'), '"\\1":"#NUM#\\4"',
                 lines[keep], perl = TRUE)
  records <- lapply(quoted, jsonlite::parse_json)
  column <- function(f) {
    vapply(records, function(r) {
      v <- r[[f]]
      if (is.null(v)) return(NA_character_)
      if (is.logical(v)) return(as.character(v))
      if (startsWith(v, "#NUM#")) ref_canonical_number(substring(v, 6)) else v
    }, "")
  }
  tibble::as_tibble(c(list(line = keep), lapply(fields, column)))
}

test_that("read_tid8() equals a plain jsonlite reader on the fixtures and on escapes", {
  for (f in c("tid8-train.jsonl", "tid8-test.jsonl")) {
    expect_identical(read_tid8(extdata(f)), ref_read_tid8(extdata(f), "offensive"))
  }
  withr::local_seed(3)
  n <- 300
  pieces <- c("a", "\\n", "\\\"", "\\\\", "\\/", "\\t", "\\u00e9", "\\u20ac", "\\ud83d\\ude00",
              "\u00fc", "\u4e2d", "{", "}", ",", ":", "[")
  sentence <- vapply(seq_len(n), function(i) paste(sample(pieces, 6, TRUE), collapse = ""), "")
  uid <- format(sample(c(0, 3e9, 2^53 + 2, 1e20), n, TRUE) + seq_len(n), scientific = FALSE,
                trim = TRUE)
  lines <- sprintf('{"meta": {"uid": "nested", "x": [1, {"a": null}]}, "respondent_id": %s, "uid": %s, "emotion": "%s", "sentence": "%s", "uid": "dup"}',
                   sample(c('"r1"', "7", "-1.5e3", "123456789012345678901"), n, TRUE), uid,
                   sample(c("joy", "ang\\u00e9r", "s\\\"ad"), n, TRUE), sentence)
  lines[c(5, 50)] <- "  \t "
  lines[7] <- sub(', "sentence": "[^}]*"', "", lines[7])
  path <- write_jsonl(lines)
  got <- read_tid8(path)
  expect_identical(got, ref_read_tid8(path, "emotion"))
  # the top-level fields, the first of duplicated keys
  expect_identical(got$item, uid[-c(5, 50)])
  expect_true(is.na(got$text[got$line == 7]))
  expect_true("\U0001F600" %in% unlist(strsplit(got$text, "")))
  for (bytes in c(7, 100, 4096)) {
    blocks <- read_tid8_file(path, "emotion", "uid", "respondent_id", "sentence",
                             block_bytes = bytes)
    attr(blocks, "label") <- NULL
    expect_identical(blocks, got)
  }
  # a byte order mark is skipped
  writeBin(c(as.raw(c(0xef, 0xbb, 0xbf)), charToRaw(paste0(lines[1], "\n", lines[2], "\n"))), path)
  expect_identical(read_tid8(path)$item, uid[1:2])
  # escaped keys are keys
  path <- write_jsonl('{"u\\u0069d": 1, "respondent_id": "a", "humor": "x"}')
  expect_identical(read_tid8(path)$item, "1")
})

test_that("read_tid8() refuses what JSON or R strings cannot hold, naming the line", {
  good <- '{"uid": 0, "respondent_id": "r1", "emotion": "positive"}'
  bad <- c('{"uid": 01, "respondent_id": "r1", "emotion": "x"}',
           '{"uid": 1, respondent_id: "r1", "emotion": "x"}',
           '{"uid": 1, "respondent_id": "r1", "emotion": "\\ud800"}',
           '{"uid": 1, "respondent_id": "r1", "emotion": "a\\u0000b"}',
           '{"uid": 1, "respondent_id": "r1", "emotion": "\\x"}',
           '{"uid": 1, "respondent_id": "r1", "emotion": "x",}',
           '{"uid": 1, "respondent_id": "r1", "emotion": tru}',
           '{"uid": 1, "respondent_id": "r1", "emotion": "x"}}',
           '"just a string"')
  for (b in bad) {
    path <- write_jsonl(c(good, good, b, good))
    err <- expect_mla_error(read_tid8(path), "json")
    expect_match(conditionMessage(err), "Line 3 of", fixed = TRUE)
  }
  path <- write_jsonl(c(good, bad[3]))
  expect_mla_snapshot(read_tid8(path))
  writeBin(c(charToRaw(good), as.raw(10), charToRaw('{"uid": 1'), as.raw(0),
             charToRaw(', "respondent_id": "r", "emotion": "x"}')), path)
  expect_mla_snapshot(read_tid8(path))
  expect_mla_error(read_tid8(path), "encoding")
  # overlong and surrogate UTF-8 forms
  for (seq in list(as.raw(c(0xc0, 0xaf)), as.raw(c(0xed, 0xa0, 0x80)), as.raw(c(0xf4, 0x90, 0x80, 0x80)))) {
    writeBin(c(charToRaw('{"uid": 1, "respondent_id": "'), seq,
               charToRaw('", "emotion": "x"}')), path)
    expect_mla_error(read_tid8(path), "encoding")
  }
  # the records affected count the whole file
  path <- write_jsonl(c(good, '{"uid": 1, "emotion": "x"}', good, '{"uid": 2, "respondent_id": null, "emotion": "x"}'))
  expect_error(read_tid8(path), "2 records affected", class = "mlagreement_error_json_field")
  # a directory that slips past the path checks is a read error
  expect_mla_error(read_tid8_file(tempdir(), "emotion", "uid", "respondent_id", NULL), "file")
})

test_that("unique_items must be TRUE or FALSE, even with one file", {
  p <- system.file("extdata", "tid8-train.jsonl", package = "mlagreement")
  expect_mla_error(read_tid8(p, unique_items = NA), "bool")
  # a sixth positional argument lands in unique_items and is refused
  expect_mla_error(read_tid8(p, NULL, "uid", "respondent_id", "sentence", 1), "bool")
})

test_that("read_tid8() says a null label is null, not absent", {
  good <- '{"uid": 0, "respondent_id": "r1", "emotion": "positive"}'
  path <- write_jsonl(c(good, '{"uid": 1, "respondent_id": "r2", "emotion": null}'))
  err <- expect_mla_error(read_tid8(path), "json_field")
  expect_match(conditionMessage(err), "Line 2 of .* has `null` in field emotion")
  expect_mla_snapshot(read_tid8(path), "json_field")
})

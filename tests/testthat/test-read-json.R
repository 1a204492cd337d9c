test_that("read_prodigy() and read_doccano() refuse invalid UTF-8, naming the line", {
  good <- '{"id": 1, "text": "a", "label": ["x"], "answer": "accept", "_session_id": "s", "_input_hash": 1}'
  path <- local_text_file("", "bad.jsonl")
  writeBin(c(charToRaw(good), as.raw(10), charToRaw('{"id": 2, "text": "'), as.raw(0xfe),
             charToRaw('", "label": ["x"]}'), as.raw(10)), path)
  expect_error(read_prodigy(path), "Line 2", class = "mlagreement_error_encoding")
  expect_error(read_doccano(path), "Line 2", class = "mlagreement_error_encoding")
})

test_that("the JSON readers keep large integer ids exact", {
  big <- "123456789012345678901"
  ls <- local_text_file(sprintf(
    '[{"id": 3000000000, "data": {"text": "a"}, "annotations": [{"id": %s, "completed_by": %s, "was_cancelled": false, "result": [{"from_name": "s", "type": "choices", "value": {"choices": ["x"]}}]}, {"id": 2, "completed_by": 123456789012345678902, "result": []}]}]',
    big, big))
  out <- read_label_studio(ls)
  expect_equal(unique(out$item), "3000000000")
  expect_equal(unique(out$annotation), c(big, "2"))
  expect_equal(unique(out$annotator), c(big, "123456789012345678902"))
  dc <- local_text_file(c(sprintf('{"id": %s, "text": "a", "label": ["x"], "user": 9007199254740993}', big),
                          '{"id": 123456789012345678902, "text": "b", "label": [], "user": 9007199254740993}'),
                        "d.jsonl")
  out <- read_doccano(dc, annotator = "user", labels = "x")
  expect_equal(out$item, c(big, "123456789012345678902"))
  expect_equal(unique(out$annotator), "9007199254740993")
})

test_that("the MTurk / Prolific recipe of the vignette gives the batch's design", {
  batch <- utils::read.csv(extdata("mturk-batch.csv"))
  approved <- batch[batch$AssignmentStatus != "Rejected", ]
  x <- annotations_wide(approved, HITId, WorkerId, tidyselect::starts_with("Answer."))
  expect_equal(x$labels, c("Answer.sports", "Answer.politics", "Answer.economy"))
  # the same design read by hand: one record per approved assignment
  hits <- unique(approved$HITId)
  workers <- sort(unique(approved$WorkerId))
  arr <- array(NA_integer_, c(length(hits), length(workers), 3),
               dimnames = list(hits, workers, x$labels))
  for (r in seq_len(nrow(approved))) {
    arr[approved$HITId[r], approved$WorkerId[r], ] <- unlist(approved[r, x$labels])
  }
  arr <- arr[sort(hits), , , drop = FALSE]
  expect_identical(mla_results(x), mla_results(as_annotations(arr)))
  expect_equal(sum(!is.na(as.array(x)[, , 1])), nrow(approved))
})

test_that("the package's JSON parser gives jsonlite::parse_json()'s values on random JSON", {
  skip_long()
  withr::local_seed(28)
  for (i in 1:400) {
    txt <- json_random()
    expect_identical(parse_json_pkg(txt[1]), jsonlite::parse_json(txt[1]), info = txt[1])
    # numbers under "id" come back as their text: jsonlite of the quoted text
    expect_identical(parse_json_pkg(txt[1], "id"), jsonlite::parse_json(txt[2]), info = txt[1])
  }
})

test_that("the JSON parser agrees with jsonlite on edge cases", {
  same <- function(txt) expect_identical(parse_json_pkg(txt), jsonlite::parse_json(txt), info = txt)
  numbers <- c("1", "1.0", "-0", "-0.0", "0", "1e2", "1E+2", "1.5e-3", "2147483647", "2147483648",
               "-2147483647", "-2147483648", "9007199254740993", "123456789012345678901",
               "1e400", "-1e400", "1e-400", "0.1", "-12.5e1", "9223372036854775807",
               "9223372036854775808")
  for (x in numbers) same(x)
  for (x in c("{}", "[]", "[{}]", "{\"a\":[]}", "null", "true", "false", "[null,1]",
              "{\"a\":null}", "{\"a\":1,\"a\":2}", "\"\"", " \t\r\n[1 , 2]\n\n",
              "\"\\u00e9\\u65e5\\ud83d\\ude00\\/\\b\\f\\n\\r\\t\\\"\\\\\"",
              "{\"\\u00e9\":\"\u00e9\"}", "\"\\uD83D\\uDE00\"")) {
    same(x)
  }
  deep <- paste0(strrep("[", 500), "1", strrep("]", 500))
  same(deep)
  same(paste0(strrep("{\"a\":", 200), "{}", strrep("}", 200)))
  expect_error(parse_json_pkg(paste0(strrep("[", 600), strrep("]", 600))), "deeper than 512")
})

test_that("numbers of id fields come back as their exact text, at any depth", {
  txt <- '{"id": 123456789012345678901, "x": {"id": -1.5e3, "n": 3000000000}, "v": [{"id": 0}], "user": 7}'
  expect_identical(
    parse_json_pkg(txt, c("id", "user")),
    list(id = "123456789012345678901", x = list(id = "-1.5e3", n = 3e9), v = list(list(id = "0")),
         user = "7")
  )
  # strings, arrays and objects under an id key are left as they are
  expect_identical(parse_json_pkg('{"id": "a", "x": {"id": [1]}}', "id"),
                   list(id = "a", x = list(id = list(1L))))
})

test_that("the JSON parser refuses what JSON or R strings cannot hold", {
  bad <- c("[1,]", "{\"a\":1,}", "01", "[1] x", "1 2", "nan", "\"a", "[", "{\"a\"", "'a'",
           "\"\\u0000\"", "\"\\ud800\"", "\"\\udc00\"", "\"\\x\"", "\"a\tb\"", "-", "1.", "1e",
           "tru", "{1:2}", "")
  for (x in bad) expect_error(parse_json_pkg(x), info = x)
})

test_that("JSON documents with faults give classed errors naming the file and line", {
  doc <- function(path) json_fields_file(path, list(id = "id"))
  cut <- local_text_file(c("[", '  {"id": 1,', '   "a": '), "cut.json")
  expect_error(doc(cut), "Line 3", class = "mlagreement_error_json")
  expect_snapshot(error = TRUE, doc(cut))
  trail <- local_text_file(c('{"a": 1}', "x"), "trail.json")
  expect_error(doc(trail), "trailing garbage", class = "mlagreement_error_json")
  blank <- local_text_file(c("", "  "), "blank.json")
  expect_error(doc(blank), "empty", class = "mlagreement_error_empty")
  path <- local_text_file("", "bad.json")
  writeBin(c(charToRaw('[\n"a",\n"'), as.raw(0xc3), charToRaw('"]')), path)
  expect_error(doc(path), "Line 3 .* not valid UTF-8", class = "mlagreement_error_encoding")
  writeBin(c(charToRaw('[\n"a",\n\n"'), as.raw(0), charToRaw('"]')), path)
  expect_error(doc(path), "Line 4 .* NUL byte", class = "mlagreement_error_encoding")
  bom <- local_text_file("", "bom.json")
  writeBin(c(as.raw(c(0xef, 0xbb, 0xbf)), charToRaw('{"id": 12}')), bom)
  x <- doc(bom)
  expect_identical(x$text[x$at$id], "12")
})

test_that("JSON lines are streamed in chunks, with faults naming the line", {
  lines <- c('{"id": 1, "a": [1.5, "x"]}', "", '  {"id": 22}  ', '{"id": 3}\r')
  path <- local_text_file(lines, "ok.jsonl")
  got <- json_fields_lines(path, list(id = "id", a = c("a", "[]")),
                           function(x) list(x$line, x$text[x$at$id], x$text[x$at$a]), chunk_lines = 2L)
  expect_length(got, 2L)
  expect_identical(got[[1]], list(c(1L, 3L), c("1", "22"), c("1.5", "x")))
  expect_identical(got[[2]], list(4L, "3", character()))
  handler <- function(x) NULL
  lines_of <- function(path, ...) json_fields_lines(path, list(id = "id"), handler, ...)
  arr <- local_text_file(c('{"id": 1}', "[1]"), "arr.jsonl")
  expect_error(lines_of(arr), "Line 2 .* holds an array", class = "mlagreement_error_json")
  cut <- local_text_file(c('{"id": 1}', '{"id": 2}', '{"id": '), "cut.jsonl")
  expect_error(lines_of(cut, chunk_lines = 1L), "Line 3 .* not valid JSON",
               class = "mlagreement_error_json")
  path <- local_text_file("", "nul.jsonl")
  writeBin(c(charToRaw('{"id": 1}\n{"id": "'), as.raw(0), charToRaw('"}\n')), path)
  expect_error(lines_of(path), "Line 2 .* NUL byte", class = "mlagreement_error_encoding")
  empty <- local_text_file(c("", " "), "empty.jsonl")
  expect_error(lines_of(empty), "at least one record", class = "mlagreement_error_empty")
})

# A string of 2^31 bytes or more cannot be an R string; the extractor flags it
# (its C++ unit is in test-cpp-primitives.R) and both JSON glues report it as a
# classed error naming the file. The 2 GB file itself is not written here.
test_that("a string longer than R strings can be is a classed error", {
  overlong <- function(...) list(error = list(kind = "overlong", line = 0, detail = ""))
  local_mocked_bindings_compat(extract_json_file_cpp = overlong, extract_json_lines_cpp = overlong)
  doc <- local_text_file('{"1": {"annotators": "a", "annotations": "1"}}', "long.json")
  expect_error(read_lewidi(doc), "2\\^31 bytes", class = "mlagreement_error_json")
  expect_mla_snapshot(read_lewidi(doc), "json")
  lines <- local_text_file('{"text": "a", "answer": "accept", "_annotator_id": "x"}', "long.jsonl")
  expect_error(read_prodigy(lines), "long.jsonl.*2\\^31 bytes", class = "mlagreement_error_json")
})

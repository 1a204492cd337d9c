test_that("read_prodigy() and read_doccano() refuse invalid UTF-8, naming the line", {
  good <- '{"id": 1, "text": "a", "label": ["x"], "answer": "accept", "_session_id": "s", "_input_hash": 1}'
  path <- local_text_file("", "bad.jsonl")
  writeBin(c(charToRaw(good), as.raw(10), charToRaw('{"id": 2, "text": "'), as.raw(0xfe),
             charToRaw('", "label": ["x"]}'), as.raw(10)), path)
  expect_error(read_prodigy(path), "Line 2", class = "mlagreement_error_encoding")
  expect_error(read_doccano(path), "Line 2", class = "mlagreement_error_encoding")
})

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

test_that("read_doccano() reads one file per user with the label file's universe", {
  files <- c(alice = extdata("doccano-alice.jsonl"), bob = extdata("doccano-bob.jsonl"))
  dc <- read_doccano(files, labels = extdata("doccano-labels.json"))
  expect_equal(names(dc), c("file", "line", "item", "annotator", "label"))
  expect_equal(nrow(dc), 10L)
  expect_equal(levels(dc$label), c("sports", "politics", "economy", "culture"))
  expect_equal(sum(is.na(dc$label)), 1L) # bob's example 3: no label
  x <- annotations_long(dc, item, annotator, label)
  expect_equal(dim(x), c(4L, 2L, 4L))
  arr <- array(0L, c(4, 2, 4), dimnames = list(as.character(1:4), c("alice", "bob"),
                                               c("sports", "politics", "economy", "culture")))
  arr[1, "alice", "sports"] <- 1L
  arr[2, "alice", c("politics", "economy")] <- 1L
  arr[3, "alice", "economy"] <- 1L
  arr[4, "alice", "sports"] <- 1L
  arr[1, "bob", "sports"] <- 1L
  arr[2, "bob", "politics"] <- 1L
  arr[4, "bob", c("sports", "politics")] <- 1L
  expect_identical(mla_results(x)$corpus, mla_results(as_annotations(arr))$corpus)
  # file names as annotators, universe seen
  seen <- read_doccano(unname(files))
  expect_equal(unique(seen$annotator), c("doccano-alice", "doccano-bob"))
  expect_equal(levels(seen$label), c("economy", "politics", "sports"))
})

test_that("read_doccano() reads a user field and the legacy layout", {
  path <- local_text_file(c('{"id": 1, "text": "a", "label": ["x"], "user": "u1"}',
                            '{"id": 1, "text": "a", "label": [], "user": "u2"}'), "d.jsonl")
  dc <- read_doccano(path, annotator = "user", labels = c("x", "y"))
  expect_equal(dc$annotator, c("u1", "u2"))
  expect_equal(as.character(dc$label), c("x", NA))
  legacy <- local_text_file('{"id": 5, "text": "a", "annotations": [{"label": 2, "user": 1}, {"label": 3, "user": 1}, {"label": 2, "user": 4}], "meta": {}}', "l.jsonl")
  lg <- read_doccano(legacy)
  expect_equal(lg$annotator, c("1", "1", "4"))
  expect_equal(as.character(lg$label), c("2", "3", "2"))
})

test_that("read_doccano() reports bad files", {
  spans <- local_text_file('{"id": 1, "text": "Tokyo", "label": [[0, 5, "LOC"]]}', "s.jsonl")
  expect_mla_snapshot(read_doccano(spans))
  expect_error(read_doccano(spans), class = "mlagreement_error_json_field")
  anon <- local_text_file('{"id": 1, "text": "a", "label": ["x"]}', "a.jsonl")
  expect_mla_snapshot(read_doccano(anon, annotator = "user"))
  expect_error(read_doccano(anon, annotator = "user"), class = "mlagreement_error_annotator")
  expect_mla_snapshot(read_doccano(anon, labels = c("y", "z")))
  expect_error(read_doccano(anon, labels = c("y", "z")), class = "mlagreement_error_unknown_label")
  noid <- local_text_file('{"text": "a", "label": ["x"]}', "n.jsonl")
  expect_error(read_doccano(noid), class = "mlagreement_error_json_field")
  expect_error(read_doccano(tempdir()), class = "mlagreement_error_file")
})

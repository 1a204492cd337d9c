test_that("read_prodigy() reads choice tasks with options as the universe", {
  expect_message(pg <- read_prodigy(extdata("prodigy-choice.jsonl")),
                 "Excluded 2 tasks: 1 ignored and 1 rejected choice",
                 class = "mlagreement_message_excluded")
  expect_equal(names(pg), c("line", "item", "annotator", "label", "value", "answer"))
  # 9 tasks, 1 ignored and 1 rejected: 7 decisions x 4 options
  expect_equal(nrow(pg), 28L)
  expect_equal(levels(pg$label), c("POSITIVE", "NEGATIVE", "NEUTRAL", "IRONIC"))
  expect_equal(sum(pg$value), 8L)
  expect_equal(sum(pg$value[pg$label == "IRONIC"]), 0L)
  expect_equal(sort(unique(pg$item)), sort(c("-1874389120", "839202143", "1093847562")))
  expect_false(any(pg$line %in% c(5L, 9L)))
  x <- annotations_long(pg, item, annotator, label, value)
  expect_equal(dim(x), c(3L, 3L, 4L))
  tasks <- suppressMessages(read_prodigy(extdata("prodigy-choice.jsonl"), item = "_task_hash"))
  expect_equal(length(unique(tasks$item)), 3L)
})

test_that("read_prodigy() reads binary tasks and keeps hashes exact", {
  path <- local_text_file(c(
    '{"text": "a", "label": "SPORTS", "answer": "accept", "_input_hash": 123456789012345678901, "_task_hash": 1, "_session_id": "d-ann"}',
    '{"text": "b", "label": "SPORTS", "answer": "reject", "_input_hash": 123456789012345678902, "_task_hash": 2, "_session_id": "d-ann"}',
    '{"text": "a", "label": "POLITICS", "answer": "ignore", "_input_hash": 123456789012345678901, "_task_hash": 3, "_session_id": "d-bob", "_annotator_id": "d-bob"}',
    '{"text": "a", "label": "SPORTS", "answer": "accept", "_input_hash": 123456789012345678901, "_task_hash": 4, "_annotator_id": "d-bob"}'
  ), "binary.jsonl")
  expect_message(pg <- read_prodigy(path), "1 ignored")
  expect_equal(pg$item, c("123456789012345678901", "123456789012345678902", "123456789012345678901"))
  expect_equal(pg$value, c(1L, 0L, 1L))
  expect_equal(pg$annotator, c("d-ann", "d-ann", "d-bob"))
  expect_equal(levels(pg$label), c("POLITICS", "SPORTS"))
})

test_that("read_prodigy() errors name the line", {
  good <- '{"text": "a", "label": "X", "answer": "accept", "_input_hash": 1, "_session_id": "s"}'
  path <- local_text_file(c(good, '{"text": "a", "label": "X", "answer": "accept", "_input_hash": 2}'), "p.jsonl")
  expect_mla_snapshot(read_prodigy(path))
  expect_error(read_prodigy(path), class = "mlagreement_error_annotator")
  path <- local_text_file(c(good, sub("accept", "maybe", good)), "p.jsonl")
  expect_mla_snapshot(read_prodigy(path))
  path <- local_text_file(c(good, '{"text": "a", "options": [{"id": "A"}], "accept": ["B"], "answer": "accept", "_input_hash": 1, "_session_id": "s"}'), "p.jsonl")
  expect_mla_snapshot(read_prodigy(path))
  expect_error(read_prodigy(path), class = "mlagreement_error_unknown_label")
  path <- local_text_file(c(good, substr(good, 1, 30)), "p.jsonl")
  expect_mla_snapshot(read_prodigy(path))
  expect_error(read_prodigy(path), class = "mlagreement_error_json")
  path <- local_text_file(c(good, '{"text": "a", "spans": [], "answer": "accept", "_input_hash": 1, "_session_id": "s"}'), "p.jsonl")
  expect_error(read_prodigy(path), class = "mlagreement_error_json_field")
})

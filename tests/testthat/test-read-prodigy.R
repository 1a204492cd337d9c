test_that("read_prodigy() reads choice tasks with options as the universe", {
  expect_message(pg <- read_prodigy(extdata("prodigy-choice.jsonl")),
                 "Excluded 2 tasks: 1 ignored and 1 rejected choice",
                 class = "mlagreement_message_excluded")
  expect_equal(names(pg), c("line", "item", "annotator", "label", "option", "value", "answer"))
  # 9 tasks, 1 ignored and 1 rejected: 7 decisions x 4 options
  expect_equal(nrow(pg), 28L)
  # the options' text is the label, the id is kept
  expect_equal(levels(pg$label), c("positive", "negative", "neutral", "ironic"))
  expect_equal(unique(pg$option), c("POSITIVE", "NEGATIVE", "NEUTRAL", "IRONIC"))
  expect_equal(sum(pg$value), 8L)
  expect_equal(sum(pg$value[pg$label == "ironic"]), 0L)
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
  expect_equal(pg$option, rep(NA_character_, 3))
})

test_that("read_prodigy() errors name the line", {
  good <- '{"text": "a", "label": "X", "answer": "accept", "_input_hash": 1, "_session_id": "s"}'
  path <- local_text_file(c(good, '{"text": "a", "label": "X", "answer": "accept", "_input_hash": 2}'), "p.jsonl")
  expect_mla_snapshot(read_prodigy(path))
  expect_mla_error(read_prodigy(path), "annotator")
  path <- local_text_file(c(good, sub("accept", "maybe", good)), "p.jsonl")
  expect_mla_snapshot(read_prodigy(path))
  path <- local_text_file(c(good, '{"text": "a", "options": [{"id": "A"}], "accept": ["B"], "answer": "accept", "_input_hash": 1, "_session_id": "s"}'), "p.jsonl")
  expect_mla_snapshot(read_prodigy(path))
  expect_mla_error(read_prodigy(path), "unknown_label")
  path <- local_text_file(c(good, substr(good, 1, 30)), "p.jsonl")
  expect_mla_snapshot(read_prodigy(path))
  expect_mla_error(read_prodigy(path), "json")
  path <- local_text_file(c(good, '{"text": "a", "spans": [], "answer": "accept", "_input_hash": 1, "_session_id": "s"}'), "p.jsonl")
  expect_mla_error(read_prodigy(path), "json_field")
})

test_that("read_prodigy(annotator = ) reads files without annotator ids", {
  # Explosion's public textcat datasets have no _annotator_id / _session_id;
  # hand count: alex 5 tasks (1 ignored), blake 4; 4 + 4 decisions, 2 + 2 accepted
  files <- c(alex = fixture("prodigy-binary-alex.jsonl"), blake = fixture("prodigy-binary-blake.jsonl"))
  expect_mla_snapshot(read_prodigy(files), "annotator")
  expect_message(pg <- read_prodigy(files, annotator = names(files)), "1 ignored",
                 class = "mlagreement_message_excluded")
  expect_equal(nrow(pg), 8L)
  expect_equal(as.list(tapply(pg$value, pg$annotator, sum)), list(alex = 2L, blake = 2L))
  expect_equal(levels(pg$label), c("BUG", "DOCUMENTATION"))
  expect_equal(length(unique(pg$item)), 4L)
  x <- annotations_long(pg, item, annotator, label, value)
  expect_equal(dim(x), c(4L, 2L, 2L))
  one <- suppressMessages(read_prodigy(files[["alex"]], annotator = "alex"))
  expect_identical(one, pg[pg$file == "alex", names(one)])
  expect_mla_snapshot(read_prodigy(files, annotator = "alex"), "annotator")
  # a name replaces the ids of a file only when they name one annotator
  many <- local_text_file(c(
    '{"text": "a", "label": "X", "answer": "accept", "_input_hash": 1, "_session_id": "s1"}',
    '{"text": "a", "label": "X", "answer": "reject", "_input_hash": 1, "_annotator_id": "s2"}'
  ), "many.jsonl")
  expect_mla_snapshot(read_prodigy(many, annotator = "x"), "annotator")
  two <- local_text_file(c(
    '{"text": "a", "label": "X", "answer": "accept", "_input_hash": 1, "_session_id": "s1"}',
    '{"text": "b", "label": "X", "answer": "accept", "_input_hash": 2}'
  ), "mixed.jsonl")
  expect_equal(suppressMessages(read_prodigy(two, annotator = "sam"))$annotator, c("sam", "sam"))
})

test_that("read_prodigy() labels integer option ids by their text", {
  # hand count: 4 tasks x 3 options, accepted 1 + 2 + 1 + 0
  pg <- read_prodigy(fixture("prodigy-choice-int-ids.jsonl"))
  expect_equal(levels(pg$label), c("SPORTS", "POLITICS", "ECONOMY"))
  expect_equal(nrow(pg), 12L)
  expect_equal(sum(pg$value), 4L)
  expect_equal(pg$option[1:3], c("0", "1", "2"))
  expect_equal(as.character(pg$label[pg$value == 1L]), c("SPORTS", "SPORTS", "ECONOMY", "POLITICS"))
  dup <- local_text_file('{"text": "a", "options": [{"id": 0, "text": "A"}, {"id": 1, "text": "A"}], "accept": [0], "answer": "accept", "_input_hash": 1, "_session_id": "s"}', "dup.jsonl")
  expect_mla_snapshot(read_prodigy(dup), "duplicate_label")
  noid <- local_text_file('{"text": "a", "options": [{"text": "A"}], "accept": [], "answer": "accept", "_input_hash": 1, "_session_id": "s"}', "noid.jsonl")
  expect_mla_snapshot(read_prodigy(noid), "json_field")
})

test_that("read_prodigy() reads review tasks by version and session", {
  # hand count: 2 review tasks; versions by alex + blake, casey; blake +
  # casey, alex: 6 decisions x 3 options, 7 accepted; the reviewer is left out
  expect_message(pg <- read_prodigy(fixture("prodigy-review-choice.jsonl")),
                 "2 review tasks", class = "mlagreement_message_review")
  expect_equal(nrow(pg), 18L)
  expect_equal(sum(pg$value), 7L)
  expect_equal(sort(unique(pg$annotator)), c("news-alex", "news-blake", "news-casey"))
  sel <- pg[pg$value == 1L, ]
  expect_equal(paste(sel$item, sel$annotator, sel$label)[order(sel$annotator, sel$item)],
               c("-1874389120 news-alex POSITIVE", "839202143 news-alex NEGATIVE",
                 "839202143 news-alex NEUTRAL", "-1874389120 news-blake POSITIVE",
                 "839202143 news-blake NEUTRAL", "-1874389120 news-casey NEGATIVE",
                 "839202143 news-casey NEUTRAL"))
  expect_mla_snapshot(read_prodigy(fixture("prodigy-review-choice.jsonl"), annotator = "rita"),
                      "annotator")
  # binary review: one version per answer, with the sessions that gave it
  bin <- local_text_file(paste0(
    '{"text": "a", "label": "X", "_input_hash": 1, "_task_hash": 2, "answer": "reject", "_session_id": "rev",',
    ' "versions": [{"text": "a", "label": "X", "answer": "accept", "sessions": ["s1", "s2"]},',
    ' {"text": "a", "label": "X", "answer": "reject", "sessions": ["s3"]}]}'
  ), "review.jsonl")
  pg <- suppressMessages(read_prodigy(bin))
  expect_equal(paste(pg$annotator, pg$value), c("s1 1", "s2 1", "s3 0"))
})

test_that("read_prodigy() reports the first task without an answer, plain or review", {
  review <- readLines(fixture("prodigy-review-choice.jsonl"))[1]
  # the first version (sessions alex and blake) loses its answer
  no_answer <- sub('"answer":"accept","_annotator_id"', '"_annotator_id"', review, fixed = TRUE)
  expect_false(identical(no_answer, review))
  good <- '{"text": "a", "label": "X", "answer": "accept", "_input_hash": 1, "_session_id": "s"}'
  plain <- '{"text": "b", "label": "X", "_input_hash": 7, "_session_id": "s"}'
  path <- local_text_file(c(good, no_answer, plain), "p.jsonl")
  err <- expect_mla_error(read_prodigy(path), "json_field")
  expect_match(conditionMessage(err), "Line 2 of", fixed = TRUE)
  # two records of the review version (one per session) and the plain task
  expect_match(conditionMessage(err), "3 records affected", fixed = TRUE)
})

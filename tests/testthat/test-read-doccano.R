test_that("read_doccano() reads one file per user with the label file's universe", {
  files <- c(alice = extdata("doccano-alice.jsonl"), bob = extdata("doccano-bob.jsonl"))
  expect_message(dc <- read_doccano(files, labels = extdata("doccano-labels.json")),
                 "1 example with an empty label list", class = "mlagreement_message_unannotated")
  expect_equal(names(dc), c("file", "line", "item", "annotator", "label"))
  expect_equal(nrow(dc), 9L)
  expect_equal(levels(dc$label), c("sports", "politics", "economy", "culture"))
  expect_equal(sum(is.na(dc$label)), 0L) # bob's example 3: not annotated by him
  expect_false(any(dc$annotator == "bob" & dc$item == "3"))
  # empty = "none": bob went through example 3 and selected nothing
  none <- read_doccano(files, labels = extdata("doccano-labels.json"), empty = "none")
  expect_equal(nrow(none), 10L)
  expect_equal(sum(is.na(none$label)), 1L)
  x <- annotations_long(none, item, annotator, label)
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
  seen <- suppressMessages(read_doccano(unname(files)))
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
  # the legacy label ids through the label file
  lg <- read_doccano(legacy, labels = extdata("doccano-labels.json"))
  expect_equal(as.character(lg$label), c("politics", "economy", "politics"))
  expect_equal(levels(lg$label), c("sports", "politics", "economy", "culture"))
  unknown <- local_text_file('{"id": 5, "annotations": [{"label": 9, "user": 1}]}', "u.jsonl")
  expect_mla_error(read_doccano(unknown, labels = extdata("doccano-labels.json")), "unknown_label")
  # a mistyped label file is a missing file, not a one-label universe
  missing_file <- file.path(tempdir(), "doccano-labels.jsn")
  err <- expect_mla_error(read_doccano(unknown, labels = missing_file), "file")
  expect_match(conditionMessage(err), "labels.*doccano-labels.jsn.*does not exist")
  expect_mla_snapshot(read_doccano(unknown, labels = "labels.jsn"), "file")
})

# doccano's own export test (backend/data_export/tests/test_task.py,
# test_unconfirmed_and_non_collaborative): every example is written into
# every member's file, "label": [] where the member did nothing; the
# approver labelled nothing.
doccano_project <- function(dir = withr::local_tempdir(.local_envir = parent.frame())) {
  lines <- list(
    admin = c('{"id": 1, "text": "example1", "label": ["pos"], "Comments": []}',
              '{"id": 2, "text": "example2", "label": ["neg"], "Comments": []}',
              '{"id": 3, "text": "example3", "label": ["pos"], "Comments": []}',
              '{"id": 4, "text": "example4", "label": [], "Comments": []}'),
    approver = c('{"id": 1, "text": "example1", "label": [], "Comments": []}',
                 '{"id": 2, "text": "example2", "label": [], "Comments": []}',
                 '{"id": 3, "text": "example3", "label": [], "Comments": []}',
                 '{"id": 4, "text": "example4", "label": [], "Comments": []}'),
    annotator = c('{"id": 1, "text": "example1", "label": ["pos"], "Comments": []}',
                  '{"id": 2, "text": "example2", "label": ["pos"], "Comments": []}',
                  '{"id": 3, "text": "example3", "label": ["pos", "neg"], "Comments": []}',
                  '{"id": 4, "text": "example4", "label": [], "Comments": []}'))
  paths <- file.path(dir, paste0(names(lines), ".jsonl"))
  for (f in seq_along(lines)) writeLines(lines[[f]], paths[f])
  stats::setNames(paths, names(lines))
}

test_that("per-user doccano files: a member who annotated nothing does not change agreement", {
  files <- doccano_project()
  msg <- capture_messages(dc <- read_doccano(files, labels = c("pos", "neg")))
  expect_match(paste(msg, collapse = ""), "6 examples with an empty label list")
  expect_match(paste(msg, collapse = ""), "approver")
  expect_setequal(unique(dc$annotator), c("admin", "annotator"))
  expect_equal(nrow(dc), 7L)  # 3 + 4 selected labels; example 4 annotated by no one
  without <- suppressMessages(read_doccano(files[c("admin", "annotator")], labels = c("pos", "neg")))
  expect_identical(tidy(mla(annotations_long(dc, item, annotator, label))),
                   tidy(mla(annotations_long(without, item, annotator, label))))
  # by hand: items 1-3, two annotators, labels pos/neg; item 1 agrees on both,
  # item 2 disagrees on both, item 3 disagrees on neg: A_o = (1 + 0 + 0.5) / 3
  fit <- mla(annotations_long(dc, item, annotator, label))
  expect_equal(tidy(fit)$observed[1], 0.5)
  # a line the member confirmed keeps "nothing applies"
  writeLines(c('{"id": 1, "text": "example1", "label": ["pos"]}',
               '{"id": 4, "text": "example4", "label": [], "is_confirmed": true}'), files[["approver"]])
  dc <- suppressMessages(read_doccano(files, labels = c("pos", "neg")))
  expect_true(any(dc$annotator == "approver" & dc$item == "4" & is.na(dc$label)))
})

test_that("read_doccano() refuses collaborative exports and CSV; reads the JSON array export", {
  collab <- local_text_file(c('{"id": 1, "text": "a", "label": ["neg", "pos"]}',
                              '{"id": 2, "text": "b", "label": []}'), "all.jsonl")
  expect_mla_error(read_doccano(collab), "collaborative_export")
  expect_mla_snapshot(read_doccano(collab))
  csv <- local_text_file(c("id,text,label", "1,a,pos"), "alice.csv")
  expect_mla_error(read_doccano(c(csv, collab)), "format")
  arr <- local_text_file('[{"id": 1, "text": "a", "label": ["pos"]}, {"id": 2, "text": "b", "label": ["neg"]}]',
                         "bob.json")
  lines <- local_text_file(c('{"id": 1, "text": "a", "label": ["pos"]}',
                             '{"id": 2, "text": "b", "label": ["neg"]}'), "bob.jsonl")
  alice <- local_text_file('{"id": 1, "text": "a", "label": ["pos"]}', "alice.jsonl")
  a <- read_doccano(c(alice = alice, bob = arr))
  b <- read_doccano(c(alice = alice, bob = lines))
  expect_identical(a[c("item", "annotator", "label")], b[c("item", "annotator", "label")])
})

test_that("read_doccano() reports bad files", {
  spans <- local_text_file('{"id": 1, "text": "Tokyo", "label": [[0, 5, "LOC"]]}', "s.jsonl")
  expect_mla_snapshot(read_doccano(spans))
  expect_mla_error(read_doccano(spans), "json_field")
  anon <- local_text_file('{"id": 1, "text": "a", "label": ["x"]}', "a.jsonl")
  expect_mla_snapshot(read_doccano(anon, annotator = "user"))
  expect_mla_error(read_doccano(anon, annotator = "user"), "annotator")
  two <- c(anon, b = local_text_file('{"id": 1, "text": "a", "label": ["y"]}', "b.jsonl"))
  expect_mla_snapshot(read_doccano(two, labels = c("y", "z")))
  expect_mla_error(read_doccano(two, labels = c("y", "z")), "unknown_label")
  noid <- local_text_file('{"text": "a", "label": ["x"]}', "n.jsonl")
  expect_mla_error(read_doccano(noid), "json_field")
  expect_mla_error(read_doccano(tempdir()), "file")
})

test_that("read_doccano() names the label field of the failing line", {
  # line 1 uses `label`, line 2 `labels` with a string: the error is about `labels`
  u1 <- local_text_file(c('{"id": 1, "text": "a", "label": ["A"]}',
                          '{"id": 2, "text": "b", "labels": "B"}'), "u1.jsonl")
  u2 <- local_text_file(c('{"id": 1, "text": "a", "label": ["A"]}',
                          '{"id": 2, "text": "b", "label": ["B"]}'), "u2.jsonl")
  err <- expect_mla_error(read_doccano(c(al = u1, bo = u2)), "json_field")
  expect_match(conditionMessage(err), "The labels field", fixed = TRUE)
  expect_match(conditionMessage(err), "Line 2 of", fixed = TRUE)
})

test_that("read_doccano() refuses span exports that carry no label list", {
  # doccano 2.x relation export (data_export DictFormatter): entities and
  # relations, no label / labels / cats; before, every line read as "nothing
  # selected", so zeros and perfect agreement
  rel <- c(alice = local_text_file(
    '{"id":1,"text":"Google was founded","entities":[{"id":10,"label":"ORG","start_offset":0,"end_offset":6}],"relations":[],"Comments":[]}',
    "alice.jsonl"),
    bob = local_text_file('{"id":1,"text":"Google was founded","entities":[],"relations":[],"Comments":[]}',
                          "bob.jsonl"))
  expect_mla_snapshot(read_doccano(rel, labels = c("ORG", "PER"), empty = "none"), "json_field")
  # a line without any label field and without entities
  bare <- c(alice = local_text_file('{"id":1,"text":"a"}', "a2.jsonl"), bob = rel[["bob"]])
  err <- expect_mla_error(read_doccano(bare), "json_field")
  expect_match(conditionMessage(err), "Line 1 of 'a2.jsonl' has no label list", fixed = TRUE)
  # doccano < 1.6 sequence labelling (issue 1291): spans in `annotations`
  legacy <- local_text_file(
    '{"id": 1, "text": "EU rejects", "annotations": [{"id": 1, "label": 2, "start_offset": 0, "end_offset": 2, "user": 1}], "meta": {}}',
    "legacy.jsonl")
  expect_mla_snapshot(read_doccano(legacy), "json_field")
  # a null in a label list is not called spans
  null <- c(a = local_text_file('{"id": 1, "text": "a", "label": ["pos", null]}', "n1.jsonl"),
            b = local_text_file('{"id": 1, "text": "a", "label": ["pos"]}', "n2.jsonl"))
  expect_mla_snapshot(read_doccano(null), "json_field")
})

test_that("read_doccano() refuses a doccano 1.6 collaborative export and archives", {
  # collaborative mode writes the merged labels as all.jsonl and unlabelled
  # examples as unknown.jsonl
  all <- local_text_file(c('{"id": 1, "data": "a", "label": ["pos", "neg"]}',
                           '{"id": 2, "data": "b", "label": ["neg"]}'), "all.jsonl")
  unknown <- local_text_file('{"id": 3, "data": "c", "label": []}', "unknown.jsonl")
  expect_mla_snapshot(read_doccano(c(all, unknown)), "collaborative_export")
  # the downloaded zip (magic bytes of a zip entry) and a gzipped file
  writeBin(c(charToRaw("PK"), as.raw(c(3, 4)), charToRaw("rest of a zip")), "export.zip")
  expect_mla_snapshot(read_doccano("export.zip"), "file")
  con <- gzfile("bob.jsonl.gz", "w")
  writeLines('{"id": 1, "text": "a", "label": ["pos"]}', con)
  close(con)
  err <- expect_mla_error(read_prodigy("bob.jsonl.gz"), "file")
  expect_match(conditionMessage(err), "is a gzip file", fixed = TRUE)
  err <- expect_mla_error(read_doccano(c(a = all, b = all), labels = "export.zip"), "file")
  expect_match(conditionMessage(err), "`labels` must name text files", fixed = TRUE)
})

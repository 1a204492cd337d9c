# Issue 29 item 4: one shape check per field; a value of the wrong shape is
# a classed error naming the file, the line or task and the field, never
# coerced (a string is not a one-element array, [["A"]] is not ["A"]).

prodigy_task <- function(...) {
  fields <- c(list(text = '"a"', answer = '"accept"', `_input_hash` = "1", `_session_id` = '"s"'), list(...))
  paste0("{", paste0('"', names(fields), '": ', unlist(fields), collapse = ", "), "}")
}
opts <- '[{"id": "A", "text": "a"}, {"id": "B", "text": "b"}]'

test_that("read_prodigy() refuses accept, options and versions of the wrong shape", {
  ok <- local_text_file(prodigy_task(options = opts, accept = '["A"]'), "ok.jsonl")
  expect_equal(read_prodigy(ok)$value, c(1L, 0L))
  str <- local_text_file(c(prodigy_task(options = opts, accept = '["A"]'),
                           prodigy_task(options = opts, accept = '"A"')), "str.jsonl")
  err <- expect_mla_snapshot(read_prodigy(str), "json_shape")
  expect_match(conditionMessage(err), "Line 2 of 'str.jsonl' has a string")
  expect_match(conditionMessage(err), "accept")
  nested <- local_text_file(prodigy_task(options = opts, accept = '[["A"]]'), "nested.jsonl")
  expect_mla_snapshot(read_prodigy(nested), "json_shape")
  options_string <- local_text_file(prodigy_task(options = '"A"', accept = '[]'), "opt.jsonl")
  expect_mla_snapshot(read_prodigy(options_string), "json_shape")
  option_string <- local_text_file(prodigy_task(options = '["A", "B"]', accept = '[]'), "opt2.jsonl")
  expect_error(read_prodigy(option_string), "Line 1", class = "mlagreement_error_json_shape")
  id_array <- local_text_file(prodigy_task(options = '[{"id": ["A"]}]', accept = '[]'), "id.jsonl")
  expect_error(read_prodigy(id_array), "id", class = "mlagreement_error_json_shape")
  versions <- local_text_file(prodigy_task(label = '"X"', versions = '{"a": 1}'), "v.jsonl")
  expect_error(read_prodigy(versions), "versions", class = "mlagreement_error_json_shape")
  sessions <- local_text_file(prodigy_task(label = '"X"', versions = '[{"label": "X", "answer": "accept", "sessions": "s1"}]'), "s.jsonl")
  expect_error(read_prodigy(sessions), "sessions", class = "mlagreement_error_json_shape")
})

test_that("read_label_studio() refuses choices, taxonomy and results of the wrong shape", {
  task <- function(value, env = parent.frame()) {
    local_text_file(env = env, sprintf('[{"id": 7, "annotations": [{"id": 1, "completed_by": 1, "result": [{"from_name": "t", "type": "choices", "value": %s}]}]}]', value), "ls.json")
  }
  expect_equal(read_label_studio(task('{"choices": ["A"]}'))$label, factor("A"))
  err <- expect_mla_snapshot(read_label_studio(task('{"choices": "A"}')), "json_shape")
  expect_match(conditionMessage(err), "Annotation 1 of task \"7\"")
  expect_mla_snapshot(read_label_studio(task('{"choices": [["A"]]}')), "json_shape")
  expect_error(read_label_studio(task('{"taxonomy": ["A"]}')), "taxonomy", class = "mlagreement_error_json_shape")
  expect_error(read_label_studio(task('{"taxonomy": [[["A"]]]}')), "taxonomy", class = "mlagreement_error_json_shape")
  expect_error(read_label_studio(task('"A"')), "value", class = "mlagreement_error_json_shape")
  results <- local_text_file('[{"id": 7, "annotations": [{"id": 1, "completed_by": 1, "result": {"a": 1}}]}]', "r.json")
  expect_error(read_label_studio(results), "result", class = "mlagreement_error_json_shape")
  by <- local_text_file('[{"id": 7, "annotations": [{"id": 1, "completed_by": [1], "result": []}]}]', "by.json")
  expect_error(read_label_studio(by), "completed_by", class = "mlagreement_error_json_shape")
})

test_that("a duplicate <Choice> in a Label Studio config is a classed error", {
  dup <- '<View><Choices name="t" toName="x"><Choice value="A"/><Choice value="B"/><Choice value="A"/></Choices></View>'
  expect_mla_snapshot(label_studio_config(dup), "config")
  alias <- '<View><Choices name="t" toName="x"><Choice value="A"/><Choice value="B" alias="A"/></Choices></View>'
  expect_error(label_studio_config(alias), "\"A\" twice", class = "mlagreement_error_config")
})

test_that("read_doccano() refuses label lists of the wrong shape and repeated examples", {
  alice <- local_text_file('{"id": 1, "text": "a", "label": ["x"]}', "alice.jsonl")
  string <- local_text_file('{"id": 1, "text": "a", "label": "x"}', "bob.jsonl")
  expect_mla_snapshot(read_doccano(c(alice, string)), "json_shape")
  nested <- local_text_file('{"id": 1, "text": "a", "label": [["x"]]}', "bob.jsonl")
  expect_error(read_doccano(c(alice, nested)), "Line 1 of 'bob.jsonl'", class = "mlagreement_error_json_field")
  repeated <- local_text_file(c('{"id": 1, "text": "a", "label": ["x"]}', '{"id": 2, "text": "b", "label": []}',
                                '{"id": 1.0, "text": "a", "label": ["y"]}'), "bob.jsonl")
  err <- expect_mla_snapshot(read_doccano(c(alice, repeated)), "duplicate_item")
  expect_match(conditionMessage(err), "Line 3 of 'bob.jsonl'")
  # with a user field, one user's repeat is refused, two users' lines are not
  users <- local_text_file(c('{"id": 1, "label": ["x"], "user": "u1"}', '{"id": 1, "label": ["y"], "user": "u2"}'), "u.jsonl")
  expect_equal(nrow(read_doccano(users, annotator = "user")), 2L)
  twice <- local_text_file(c('{"id": 1, "label": ["x"], "user": "u1"}', '{"id": 1, "label": ["y"], "user": "u1"}'), "u.jsonl")
  expect_mla_error(read_doccano(twice, annotator = "user"), "duplicate_item")
  legacy <- local_text_file('{"id": 5, "annotations": [{"label": [2], "user": 1}]}', "l.jsonl")
  expect_error(read_doccano(legacy), "label", class = "mlagreement_error_json_shape")
})

test_that("read_lewidi() names an empty annotators string", {
  empty <- local_text_file('{"1": {"annotators": "", "annotations": ""}}', "empty.json")
  err <- expect_mla_snapshot(read_lewidi(empty), "annotator")
  expect_match(conditionMessage(err), "annotators of item \"1\" of 'empty.json' is empty")
  twice <- local_text_file('{"1": {"annotators": "A,A", "annotations": "1,0"}}', "twice.json")
  expect_error(read_lewidi(twice), "\"A\" twice", class = "mlagreement_error_annotator")
  item <- local_text_file('{"1": [1, 2]}', "item.json")
  expect_error(read_lewidi(item), "an array as item \"1\"", class = "mlagreement_error_version")
})

test_that("every reader refuses a NUL byte, naming the line", {
  nul <- function(name, before, after, env = parent.frame()) {
    path <- local_text_file("", name, env = env)
    writeBin(c(charToRaw(before), as.raw(0), charToRaw(after)), path)
    path
  }
  good <- '{"text": "a", "label": "X", "answer": "accept", "_input_hash": 1, "_session_id": "s", "id": 1}\n'
  expect_error(read_prodigy(nul("p.jsonl", paste0(good, '{"a": 1,'), ' "b": 2}\n')), "Line 2 .* NUL",
               class = "mlagreement_error_encoding")
  expect_error(read_doccano(nul("d.jsonl", good, '\n')), "Line 2 .* NUL", class = "mlagreement_error_encoding")
  expect_error(read_doccano(nul("d.json", '[{"id": 1, "label": ["x"]},\n', ' {"id": 2, "label": ["x"]}]')),
               "Line 2 .* NUL", class = "mlagreement_error_encoding")
  expect_error(read_label_studio(nul("l.json", '[{"id": 1,\n "annotations": []}', "]")), "Line 2 .* NUL",
               class = "mlagreement_error_encoding")
  expect_error(read_label_studio(nul("l.csv", 'annotation_id,annotator,id,topic\n1,"a",5,', '"x"\n'),
                                 control = "topic"), "Line 2 .* NUL", class = "mlagreement_error_encoding")
  expect_error(read_lewidi(nul("w.json", '{"1": {"annotators": "A,B",\n', '"annotations": "1,0"}}')),
               "Line 2 .* NUL", class = "mlagreement_error_encoding")
  expect_error(read_tid8(nul("t.jsonl", '{"uid": 1, "respondent_id": 2, "offensive": 1}\n', "\n")),
               "Line 2 .* NUL", class = "mlagreement_error_encoding")
})

test_that("JSON numbers as ids compare by value; large ids stay exact", {
  a <- local_text_file(c('{"id": 1, "label": ["x"]}', '{"id": 123456789012345678901, "label": ["x"]}'), "a.jsonl")
  b <- local_text_file(c('{"id": 1.0, "label": ["x"]}', '{"id": 1.23456789012345678901e20, "label": ["y"]}',
                         '{"id": 123456789012345678902, "label": ["y"]}'), "b.jsonl")
  dc <- read_doccano(c(a = a, b = b))
  expect_equal(sort(unique(dc$item)), c("1", "123456789012345678901", "123456789012345678902"))
  x <- annotations_long(dc, item, annotator, label)
  expect_equal(dim(x), c(3L, 2L, 2L))
  pg <- local_text_file(c(prodigy_task(label = '"X"'), sub('"_input_hash": 1', '"_input_hash": 1e0', prodigy_task(label = '"X"', `_session_id` = '"t"'))), "pg.jsonl")
  expect_equal(unique(read_prodigy(pg)$item), "1")
  res <- '[{"from_name": "t", "value": {"choices": ["A"]}}]'
  ls <- local_text_file(sprintf('[{"id": 7, "annotations": [{"id": 1, "completed_by": 2.0, "result": %s}, {"id": 2, "completed_by": 2, "result": %s}]}]', res, res), "ls.json")
  expect_equal(unique(read_label_studio(ls)$annotator), "2")
})

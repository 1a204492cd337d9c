# Ids, labels and paths are the user's text: cli must show them as they are,
# never read "{...}" in them as code (an id "coder{1+1}" printed as "coder2",
# "{n_items}" crashed print()).

brace_ids <- c("coder{1+1}", "{a}", "{n_items}")
brace_labels <- c("lab{1+1}", "{b}")

# Three annotators with brace ids on two brace labels, disagreeing enough
# for every print line (lowest agreement, kappa, Cochran's Q, deviations);
# `exclusive`: every record selects one of the two labels (a label group).
brace_annotations <- function(exclusive = FALSE) {
  withr::local_seed(3)
  n <- 30
  latent <- matrix(rbinom(n * 2, 1, 0.4), n, 2)
  rows <- expand.grid(item = seq_len(n), coder = seq_along(brace_ids), label = 1:2)
  flip <- rbinom(nrow(rows), 1, c(0.05, 0.2, 0.4)[rows$coder])
  value <- latent[cbind(rows$item, rows$label)]
  value[rows$coder == 3] <- 1L  # one annotator ticks everything: a bias to report
  value <- ifelse(flip == 1, 1L - value, value)
  if (exclusive) value[rows$label == 2] <- 1L - value[rows$label == 1]
  d <- data.frame(item = paste0("it{", rows$item, "}"), coder = brace_ids[rows$coder],
                  label = brace_labels[rows$label], value = value)
  annotations_long(d, item, coder, label, value)
}

expect_verbatim <- function(text, strings) {
  text <- paste(text, collapse = "\n")
  for (s in strings) expect_true(grepl(s, text, fixed = TRUE), label = paste0("'", s, "' shown in:\n", text))
  expect_false(grepl("coder2", text, fixed = TRUE), label = paste0("no evaluated id in:\n", text))
}

test_that("print() of annotator_agreement() shows brace ids as they are", {
  aa <- annotator_agreement(brace_annotations())
  out <- expect_no_error(capture.output(print(aa)))
  expect_verbatim(out, brace_ids)
  expect_true(any(grepl("Lowest agreement with the others: ", out, fixed = TRUE)))
  expect_true(any(grepl("Lowest kappa: ", out, fixed = TRUE)))
})

test_that("print() of annotator_bias() shows brace ids and labels as they are", {
  b <- annotator_bias(brace_annotations())
  out <- expect_no_error(capture.output(print(b)))
  expect_verbatim(out, c(brace_labels, "annotator {n_items} on"))
  expect_true(any(grepl("smallest p: ", out, fixed = TRUE)))
})

test_that("print() and summary() of mla() show brace labels and group names as they are", {
  a <- brace_annotations()
  fit <- mla(a)
  out <- expect_no_error(capture.output(print(fit), print(summary(fit))))
  expect_verbatim(out, brace_labels)
  grouped <- mla(brace_annotations(exclusive = TRUE), label_groups = list("g{1+1}" = brace_labels))
  out <- expect_no_error(capture.output(print(grouped)))
  expect_verbatim(out, "groups g{1+1}")
})

test_that("errors naming brace ids, labels and paths show them as they are", {
  d <- data.frame(item = c("{n_items}", "{n_items}", "x"), coder = c("coder{1+1}", "coder{1+1}", "{a}"),
                  label = "lab", value = 1L)
  err <- expect_mla_error(annotations_long(d, item, coder, label, value), "duplicates")
  expect_verbatim(conditionMessage(err), c("{n_items}", "coder{1+1}"))

  d <- data.frame(item = 1:2, coder = "c", label = c("lab", "{a}"), value = 1L)
  err <- expect_mla_error(annotations_long(d, item, coder, label, value, labels = "lab"), "unknown_label")
  expect_verbatim(conditionMessage(err), "{a}")
})

test_that("reader errors show brace paths and task ids as they are", {
  path <- local_text_file('{"text": "a", "answer": "accept", "_input_hash": 1, "label": "X"}', "x{n_items}.jsonl")
  err <- expect_mla_error(read_prodigy(path), "annotator")
  expect_verbatim(conditionMessage(err), "Line 1 of 'x{n_items}.jsonl' has none.")

  doccano <- local_text_file(c('{"id": 1, "text": "a", "label": ["x"]}', '{"id": 1, "text": "a", "label": ["y"]}'),
                             "coder{1+1}.jsonl")
  err <- expect_mla_error(read_doccano(doccano), "duplicate_item")
  expect_verbatim(conditionMessage(err), "Line 2 of 'coder{1+1}.jsonl' repeats")

  tasks <- local_text_file('[{"id": "{a}", "annotations": [{"id": 1, "result": []}]}]', "ls{1+1}.json")
  err <- expect_mla_error(read_label_studio(tasks), "annotator")
  expect_verbatim(conditionMessage(err), c("task \"{a}\"", "'ls{1+1}.json'"))
})

test_that("a brace in a distance function's own error message is shown as it is", {
  fn <- function(a, b, i) stop("bad {n_items} set")
  a <- as_annotations(array(c(1L, 0L, 1L, 1L, 0L, 1L, 0L, 0L), c(2, 2, 2)))
  err <- expect_mla_error(krippendorff_alpha(a, distance = list(custom = fn)), "distance")
  expect_verbatim(conditionMessage(err), "bad {n_items} set")
})

brexit_files <- function() extdata(c("lewidi-2023_train.json", "lewidi-2023_dev.json"))

# Independent reading of the same files: jsonlite + strsplit into an array.
brexit_array <- function() {
  layers <- c("hate speech detection", "aggressive language detection", "offensive language detection")
  items <- list()
  for (f in brexit_files()) {
    doc <- jsonlite::fromJSON(f, simplifyVector = FALSE)
    split <- sub(".*_(.*)\\.json$", "\\1", f)
    for (id in names(doc)) items[[paste0(split, ":", id)]] <- doc[[id]]
  }
  ann <- paste0("Ann", 1:6)
  arr <- array(NA_integer_, c(length(items), 6, 3), dimnames = list(names(items), ann, layers))
  for (i in names(items)) {
    rec <- items[[i]]
    who <- strsplit(rec$annotators, ",")[[1]]
    arr[i, who, 1] <- as.integer(strsplit(rec$annotations, ",")[[1]])
    for (l in layers[2:3]) arr[i, who, l] <- as.integer(strsplit(rec$other_info$`other annotations`[[l]], ",")[[1]])
  }
  arr
}

test_that("read_lewidi() reads 2023 files: splits, unique ids, every layer a label", {
  lw <- read_lewidi(brexit_files())
  expect_equal(names(lw), c("file", "split", "item", "id", "annotator", "layer", "label", "value", "answer"))
  expect_equal(nrow(lw), 6L * 6L * 3L)
  expect_equal(sort(unique(lw$item)), sort(c(paste0("train:", 1:4), paste0("dev:", 1:2))))
  expect_equal(sort(unique(lw$id)), as.character(1:4))
  expect_equal(levels(lw$label), c("hate speech detection", "aggressive language detection",
                                   "offensive language detection"))
  x <- annotations_long(lw, item, annotator, label, value)
  expect_equal(dim(x), c(6L, 6L, 3L))
  # same A_o, Fleiss kappa and prevalences as the plain-R reference on an
  # independently read array
  arr <- brexit_array()
  ref <- ref_mla(arr)
  fit <- mla(x)
  corpus <- tidy(fit, level = "corpus")
  expect_equal(corpus$observed[corpus$baseline == "fleiss"], ref$corpus_observed, tolerance = 1e-12)
  expect_equal(corpus$estimate[corpus$baseline == "fleiss"], ref$corpus_estimate[["fleiss"]],
               tolerance = 1e-12)
  label <- tidy(fit, level = "label")
  label <- label[label$baseline == "fleiss", ]
  expect_equal(label$prevalence, ref$label$p, tolerance = 1e-12)
  expect_identical_numbers(mla_results(x)$corpus, mla_results(as_annotations(arr))$corpus)
  # without unique ids the splits collide
  same <- read_lewidi(brexit_files(), unique_items = FALSE)
  expect_equal(sort(unique(same$item)), as.character(1:4))
  one <- read_lewidi(brexit_files(), layers = "hate speech detection")
  expect_equal(levels(one$label), "hate speech detection")
})

test_that("read_lewidi() reads 2025 files with the soft-label universe", {
  csc <- read_lewidi(extdata("lewidi-2025_dev.json"))
  expect_equal(levels(csc$label), as.character(0:6))
  x <- annotations_long(csc, item, annotator, label, value)
  expect_equal(dim(x), c(3L, 6L, 7L))
  expect_equal(x$n_records, 11)
  sel <- csc[csc$value == 1L, ]
  expect_equal(paste(sel$item, sel$annotator, sel$label)[1:4],
               c("1001 Ann288 2", "1001 Ann289 5", "1001 Ann290 3", "1001 Ann291 3"))
  # multi-label answers with nested soft labels (VariErrNLI)
  nli <- local_text_file(
    '{"7": {"annotation task": "natural language inference", "annotators": "Ann1,Ann3",
     "annotations": {"Ann1": "contradiction,entailment", "Ann3": "entailment"},
     "soft_label": {"contradiction": {"0": 0.5, "1": 0.5}, "entailment": {"0": 0, "1": 1}, "neutral": {"0": 1, "1": 0}},
     "split": "train", "lang": "en", "other_info": {}}}', "nli.json")
  v <- read_lewidi(nli)
  expect_equal(levels(v$label), c("contradiction", "entailment", "neutral"))
  expect_equal(v$value, c(1L, 1L, 0L, 0L, 1L, 0L))
})

test_that("read_lewidi() reports values that are not 0/1 and bad files", {
  no <- local_text_file(
    '{"1": {"annotation task": "hs", "annotators": "A,B", "annotations": "1,0", "soft_label": {"0": 0.5, "1": 0.5},
      "other_info": {"other annotations": {"agg": "No,1"}}},
      "2": {"annotation task": "hs", "annotators": "A,B", "annotations": "0,0", "soft_label": {"0": 1, "1": 0},
      "other_info": {"other annotations": {"agg": "0,1"}}}}', "no.json")
  expect_snapshot(lw <- read_lewidi(no))
  expect_mla_warning(read_lewidi(no), "lewidi_value")
  expect_equal(lw$value[lw$layer == "agg"], c(NA, 1L, 0L, 1L))
  expect_equal(lw$answer[lw$layer == "agg"], c("No", "1", "0", "1"))
  short <- local_text_file('{"1": {"annotators": "A,B,C", "annotations": "1,0"}}', "short.json")
  expect_mla_snapshot(read_lewidi(short))
  expect_mla_error(read_lewidi(short), "json_field")
  anon <- local_text_file('{"1": {"annotators": "A,,C", "annotations": "1,0,1"}}', "anon.json")
  expect_mla_error(read_lewidi(anon), "annotator")
  arr <- local_text_file('[{"annotators": "A", "annotations": "1"}]', "arr.json")
  expect_mla_snapshot(read_lewidi(arr))
  expect_mla_error(read_lewidi(arr), "version")
  none <- local_text_file('{"1": {"annotations": 5}}', "none.json")
  expect_mla_error(read_lewidi(none), "version")
  cut <- local_text_file('{"1": {"annotators": "A,B", "annotations": "1,0"', "cut.json")
  expect_mla_error(read_lewidi(cut), "json")
  expect_mla_error(read_lewidi(brexit_files(), layers = "nope"), "unknown_label")
})

test_that("read_lewidi() reads answers on another scale than a 0/1 soft label as categories", {
  # Le-Wi-Di 2023 ConvAbuse: the main layer's answers are severities from -3
  # (abusive) to 1, its soft label and hard label are 0/1 (abusive or not).
  # Before, severity "1" (not abusive) was read as the positive class.
  conv <- local_text_file('{
    "1": {"annotation task": "abusivness detection", "annotations": "1,1,0", "annotators": "Ann2,Ann3,Ann4",
          "hard_label": "0", "soft_label": {"0": 1.0, "1": 0.0}},
    "5": {"annotation task": "abusivness detection", "annotations": "-2,-3,1", "annotators": "Ann3,Ann4,Ann5",
          "hard_label": "1", "soft_label": {"0": 0.33, "1": 0.67},
          "other_info": {"other_annotations": {"sexist": "1,1,0"}}}}', "ConvAbuse_dev.json")
  expect_snapshot(x <- read_lewidi(conv))
  expect_mla_warning(read_lewidi(conv), "lewidi_value")
  sev <- paste0("abusivness detection: ", c("-3", "-2", "0", "1"))
  expect_identical(levels(x$label), c(sev, "sexist"))
  main <- x[x$layer == "abusivness detection" & x$value == 1L, ]
  expect_identical(paste(main$item, main$annotator, main$label),
                   paste(c("1", "1", "1", "5", "5", "5"), c("Ann2", "Ann3", "Ann4", "Ann3", "Ann4", "Ann5"),
                         sev[c(4, 4, 3, 2, 1, 4)]))
  expect_false(anyNA(x$value))
  # 0/1 answers under a 0/1 soft label stay one label
  hs <- local_text_file('{"1": {"annotation task": "hs", "annotations": "1,0", "annotators": "A,B",
                               "soft_label": {"0": 0.5, "1": 0.5}}}', "hs.json")
  expect_identical(levels(read_lewidi(hs)$label), "hs")
})

# The ingestion kernel (inst/include/mlagreement/ingest.h, ingest_decisions())
# against a plain-R reference written from the definition: the items x labels
# counts of a clean decision table, and for a bad one the error class and the
# first offending row it names; the messages themselves are snapshots.

# Value, error (class and message), messages and warnings of f().
ingest_outcome <- function(f) {
  msgs <- character()
  warns <- character()
  res <- withCallingHandlers(
    tryCatch(f(), error = function(e) e),
    message = function(m) {
      msgs <<- c(msgs, class(m)[1])
      invokeRestart("muffleMessage")
    },
    warning = function(w) {
      warns <<- c(warns, class(w)[1])
      invokeRestart("muffleWarning")
    }
  )
  list(result = res, messages = msgs, warnings = warns)
}

# What annotations_long(d, item, annotator, label, value, labels, duplicates)
# must give, from the definition: the first failing check (class and first
# row), else the sorted keys and the items x labels counts of ones (x) and of
# decisions (m), a repeated (item, annotator, label) keeping its first or last row.
ref_decisions <- function(d, labels = NULL, duplicates = "error") {
  keys_of <- function(v) if (is.factor(v)) levels(droplevels(v)) else sort(unique(v))
  code_of <- function(v, keys) match(if (is.factor(v)) as.character(v) else v, keys)
  fail <- function(class, row) list(class = paste0("mlagreement_error_", class), row = row)
  if (anyNA(d$item)) return(fail("na_id", which(is.na(d$item))[1]))
  if (anyNA(d$annotator)) return(fail("na_id", which(is.na(d$annotator))[1]))
  txt <- function(v) replace(if (is.numeric(v)) sprintf("%.15g", v) else as.character(v),
                             is.na(v), NA)
  if (!is.null(labels) && length(labels) == 0L) return(fail("labels", NA))
  universe <- if (!is.null(labels)) labels else if (is.factor(d$label)) levels(d$label) else
    txt(sort(unique(d$label)))
  lab <- match(txt(d$label), universe)
  if (any(!is.na(d$label) & is.na(lab))) {
    return(fail("unknown_label", which(!is.na(d$label) & is.na(lab))[1]))
  }
  if (anyNA(lab)) return(fail("na_label", which(is.na(lab))[1]))
  v <- if (is.factor(d$value) || is.character(d$value)) as.character(d$value) else d$value
  v <- as.double(v)
  bad <- which(is.nan(v) | (!is.na(v) & !v %in% c(0, 1)))
  if (length(bad) > 0) return(fail("value", bad[1]))
  items <- keys_of(d$item)
  anns <- keys_of(d$annotator)
  i <- code_of(d$item, items)
  cell <- paste(i, code_of(d$annotator, anns), lab)
  repeated <- anyDuplicated(cell) > 0
  if (repeated && duplicates == "error") return(fail("duplicates", NA))
  keep <- !duplicated(cell, fromLast = duplicates == "last")
  by <- list(factor(i[keep], seq_along(items)), factor(lab[keep], seq_along(universe)))
  count <- function(z) unname(as.matrix(tapply(z, by, sum, default = 0)))
  list(items = items, annotators = anns, labels = universe, repeated = repeated,
       x = count(v[keep] %in% 1), m = count(!is.na(v[keep])))
}

# annotations_long() on `d` against ref_decisions().
expect_ingest <- function(d, labels = NULL, duplicates = "error", threads = 1L, label = "") {
  got <- ingest_outcome(function() {
    annotations_long(d, item, annotator, label, value, labels = labels, duplicates = duplicates,
                     threads = threads)
  })
  ref <- ref_decisions(d, labels, duplicates)
  if (!is.null(ref$class)) {
    expect_s3_class(got$result, c(ref$class, "mlagreement_error"))
    if (!is.na(ref$row)) {
      expect_match(conditionMessage(got$result), paste0("row ", ref$row, "\\b|: ", ref$row, "\\b"),
                   label = label)
    }
    return(invisible(FALSE))
  }
  a <- got$result
  expect_s3_class(a, "annotations")
  # equal, not identical: ids near the integer limit are kept as doubles
  expect_equal(list(a$items, a$annotators, a$labels),
               list(ref$items, ref$annotators, ref$labels), label = label)
  expect_identical(unname(item_x(a)) + 0, ref$x, label = label)
  expect_identical(unname(item_m(a)) + 0, ref$m, label = label)
  said <- c(got$messages, got$warnings)
  expect_identical(length(said) > 0, ref$repeated, label = label)
  invisible(TRUE)
}

# Ids 1..n in one of the representations users give.
ingest_ids <- function(id, how) {
  switch(how,
    int = as.integer(id),
    int_sparse = as.integer(id) * 100003L - 7L,
    dbl = as.double(id),
    dbl_frac = id / 4 - 1,
    dbl_zero = { x <- as.double(id) - 1; x[x == 0 & stats::runif(length(x)) < 0.5] <- -0; x },
    chr = paste0("x", id),
    chr_num = as.character(id),
    chr_enc = {
      x <- paste0("\u00e9", id)
      latin <- stats::runif(length(x)) < 0.5
      x[latin] <- iconv(x[latin], "UTF-8", "latin1")
      x
    },
    fct = factor(paste0("f", id), levels = sample(paste0("f", c(unique(id), max(id) + 1:2)))),
    lgl = id > 1
  )
}

ingest_labels <- function(j, how, k) {
  switch(how,
    chr = paste0("L", j),
    fct = factor(paste0("L", j), levels = sample(paste0("L", seq_len(k + 1)))),
    int = as.integer(j) * 10L,
    dbl = j + 0.5
  )
}

# A random decision table and the arguments of the call.
random_decision_table <- function(seed) {
  set.seed(seed)
  n_items <- sample(1:25, 1)
  n_ann <- sample(1:7, 1)
  k <- sample(1:5, 1)
  rec <- do.call(rbind, lapply(seq_len(n_items), function(i) {
    m <- sample(0:n_ann, 1)
    data.frame(item = rep(i, m), annotator = sample(n_ann, m))
  }))
  if (is.null(rec) || nrow(rec) == 0L) rec <- data.frame(item = 1L, annotator = 1L)
  d <- rec[rep(seq_len(nrow(rec)), each = k), ]
  d$label <- rep(seq_len(k), nrow(rec))
  d <- d[stats::runif(nrow(d)) > 0.15 | seq_len(nrow(d)) == 1L, ]
  d$value <- sample(c(0, 1, NA), nrow(d), replace = TRUE, prob = c(0.5, 0.4, 0.1))
  # repeated decisions: exact copies, re-annotations, or a whole item again
  dup <- sample(c("none", "copy", "changed", "item"), 1, prob = c(0.55, 0.15, 0.15, 0.15))
  if (dup != "none") {
    extra <- if (dup == "item") {
      d[d$item == d$item[1], ]
    } else {
      d[sample(nrow(d), min(nrow(d), sample(1:3, 1))), ]
    }
    if (dup == "changed") extra$value <- 1 - extra$value
    d <- rbind(d, extra)
  }
  if (stats::runif(1) < 0.5) d <- d[sample(nrow(d)), ]
  # logical ids where there are at most two
  lgl_or_int <- function(id) if (max(id) <= 2) "lgl" else "int"
  item_how <- sample(c("int", "int_sparse", "dbl", "dbl_frac", "dbl_zero", "chr", "chr_num",
                       "chr_enc", "fct", lgl_or_int(d$item)), 1)
  ann_how <- sample(c("int", "int_sparse", "dbl", "chr", "chr_enc", "fct",
                      lgl_or_int(d$annotator)), 1)
  label_how <- sample(c("chr", "fct", "int", "dbl"), 1)
  out <- data.frame(row.names = seq_len(nrow(d)))
  out$item <- ingest_ids(d$item, item_how)
  out$annotator <- ingest_ids(d$annotator, ann_how)
  out$label <- ingest_labels(d$label, label_how, k)
  out$value <- switch(sample(c("int", "dbl", "lgl"), 1),
                      int = as.integer(d$value), dbl = d$value, lgl = as.logical(d$value))
  labels <- if (label_how == "chr" && stats::runif(1) < 0.3) sample(paste0("L", seq_len(k + 1)))
  # invalid cells, one kind per table
  bad <- sample(c("none", "value", "nan", "na_item", "na_label", "unknown_label"), 1,
                prob = c(0.6, 0.1, 0.05, 0.1, 0.1, 0.05))
  r <- sample(nrow(out), 1)
  if (bad == "value") out$value[r] <- if (is.logical(out$value)) NA else 2L
  if (bad == "nan") out$value <- replace(as.double(out$value), r, NaN)
  if (bad == "na_item") out$item[r] <- NA
  if (bad == "na_label") out$label[r] <- NA
  if (bad == "unknown_label") labels <- sort(unique(as.character(out$label)))[-1]
  list(data = out, labels = labels, duplicates = sample(c("error", "first", "last"), 1),
       threads = sample(1:2, 1))
}

test_that("the kernel gives the reference counts, errors and first rows", {
  n_built <- 0L
  for (seed in seq_len(test_size(300, 60))) {
    x <- random_decision_table(seed)
    built <- expect_ingest(x$data, x$labels, x$duplicates, x$threads, paste("seed", seed))
    n_built <- n_built + built
  }
  # the comparison covers built objects, not only errors
  expect_gt(n_built, test_size(150, 30))
})

test_that("edge ids, labels and values give the reference counts", {
  base <- data.frame(item = c(1, 1, 2, 2, 2, 3), annotator = c(1, 2, 1, 2, 2, 1),
                     label = c("x", "x", "x", "x", "y", "y"), value = c(1L, 0L, NA, 1L, 0L, 1L))
  variants <- list(
    transform(base, item = as.integer(item) - .Machine$integer.max - 1L),
    transform(base, item = as.integer(item) * 1000000L),
    transform(base, item = factor(item, levels = c(3, 9, 1, 2, NA), exclude = NULL)),
    transform(base, item = as.Date("2020-01-01") + item),
    transform(base, item = c(0, -0, 1, 1, 1, -0)),
    transform(base, item = c(2^53, 1, 2, 2, 2, 3)),
    transform(base, label = factor(label, levels = c("y", "x", "z"))),
    transform(base, label = c(1e5, 1e5, 100000L, 1e5, 2, 2)),
    transform(base, label = c(TRUE, TRUE, TRUE, TRUE, FALSE, FALSE)),
    transform(base, value = c(TRUE, FALSE, NA, TRUE, FALSE, TRUE)),
    transform(base, value = c(1, -0, NA, 1, 0, 1)),
    transform(base, value = factor(c(1, 0, NA, 1, 0, 1))),
    transform(base, value = c("1", "0", NA, "1", "0", "1")),
    transform(base, value = c(1, 0, NA, 1, 0.5, NaN)),
    transform(base, label = replace(label, 4, NA)),
    transform(base, item = replace(item, 5, NA))
  )
  for (i in seq_along(variants)) expect_ingest(variants[[i]], label = paste("variant", i))
  again <- rbind(base, transform(base[4, ], value = 0L))
  for (dup in c("error", "first", "last")) expect_ingest(again, duplicates = dup, label = dup)
})

test_that("the messages of bad decision tables", {
  d <- data.frame(item = c(1, 1, 2, 2, 2, 3), annotator = c(1, 2, 1, 2, 2, 1),
                  label = c("x", "x", "x", "x", "y", "y"), value = c(1L, 0L, NA, 1L, 0L, 1L))
  long <- function(d, ...) annotations_long(d, item, annotator, label, value, ...)
  expect_snapshot(error = TRUE, {
    long(transform(d, item = replace(item, c(2, 5), NA)))
    long(transform(d, annotator = replace(annotator, 6, NA)))
    long(d, labels = "x")
    long(transform(d, label = replace(label, 3, NA), value = replace(value, 1, 2L)))
    long(transform(d, value = c(1, 0, NA, 1, 0.25, 3)))
    long(transform(d, value = replace(value, 2, 7L)))
    long(rbind(d, d[4, ]))
    long(rbind(d, transform(d[c(1, 4), ], value = 1L - value)))
  })
  expect_snapshot(invisible(long(rbind(d, transform(d[4, ], value = 0L)), duplicates = "last")))
  expect_snapshot(invisible(long(rbind(d, transform(d[c(1, 4), ], value = 1L - value)),
                                 duplicates = "first")))
  # ids that collide: item 2 again, with other decisions from both annotators
  expect_snapshot(invisible(long(rbind(d, transform(d[d$item == 2, ], value = 1L - value)),
                                 duplicates = "first")))
})

test_that("distinct strings sort in the locale's order", {
  x <- c("b", "A", "a", "B", "_x", "x1", "X1", "x10", "x2", "\u00e9", "e", "f", "\u00e4",
         "a b", "ab")
  expect_identical(sort_distinct(x), sort(x))
  expect_identical(sort_distinct(rev(x)), sort(x))
  ids <- paste0("i", sample(1000))
  expect_identical(sort_distinct(ids), sort(ids))
  expect_identical(sort_distinct(c(3, 1, 2)), c(1, 2, 3))
})

test_that("thousands of distinct ids (the hash table grows) give the reference counts", {
  withr::local_seed(11)
  n <- 3000
  d <- data.frame(item = rep(sample(n * 7, n), each = 6), annotator = sample(1500, 6 * n, TRUE),
                  label = sample(c("a", "b", "c"), 6 * n, TRUE))
  d <- d[!duplicated(d), ]
  d$value <- sample(c(0L, 1L, NA), nrow(d), TRUE)
  d <- d[sample(nrow(d)), ]
  for (how in c("int_sparse", "dbl_frac", "chr", "chr_enc")) {
    x <- transform(d, item = ingest_ids(item, how), annotator = ingest_ids(annotator, how))
    expect_true(expect_ingest(x, label = how))
  }
  # distinct_codes_cpp(): first occurrences and codes agree with match(x, unique(x))
  v <- sample(paste0("s", 1:5000), 2e4, TRUE)
  dc <- distinct_codes_cpp(v)
  expect_identical(v[dc$first], unique(v))
  expect_identical(dc$codes, match(v, unique(v)))
})

# The selected-labels form (value = NULL) in plain R: records are the
# distinct (item, annotator) pairs; each decides every label, 1 where a row
# names it (an NA label: a record with nothing selected).
ref_selected <- function(d) {
  items <- sort(unique(d$item))
  anns <- sort(unique(d$annotator))
  universe <- sort(unique(d$label[!is.na(d$label)]))
  rec <- unique(data.frame(i = match(d$item, items), a = match(d$annotator, anns)))
  chosen <- unique(data.frame(i = match(d$item, items), a = match(d$annotator, anns),
                              j = match(d$label, universe))[!is.na(d$label), ])
  x <- m <- matrix(0, length(items), length(universe))
  for (r in seq_len(nrow(chosen))) x[chosen$i[r], chosen$j[r]] <- x[chosen$i[r], chosen$j[r]] + 1
  m[] <- tabulate(rec$i, length(items))
  list(items = items, annotators = anns, labels = universe, x = x, m = m,
       records = rec[order(rec$i, rec$a), ])
}

test_that("the selected-labels form gives the plain-R records and counts", {
  for (seed in seq_len(test_size(60, 15))) {
    withr::local_seed(seed)
    n <- sample(20:300, 1)
    d <- data.frame(item = sample(ingest_ids(sample.int(40, n, TRUE), sample(c("int", "dbl", "chr"), 1))),
                    annotator = paste0("a", sample.int(8, n, TRUE)),
                    label = sample(c(letters[1:5], NA), n, TRUE))
    d <- d[!duplicated(d), ]  # a repeated row is a duplicate decision
    # an NA label marks a record with nothing selected, so not one that selects
    selects <- paste(d$item, d$annotator) %in% paste(d$item, d$annotator)[!is.na(d$label)]
    d <- d[!(is.na(d$label) & selects), ]
    a <- annotations_long(d, item, annotator, label, duplicates = "first")
    ref <- ref_selected(d)
    expect_equal(list(a$items, a$annotators, a$labels), list(ref$items, ref$annotators, ref$labels))
    expect_identical(unname(item_x(a)) + 0, ref$x, label = paste("seed", seed))
    expect_identical(unname(item_m(a)) + 0, ref$m, label = paste("seed", seed))
    expect_identical(record_item(a), ref$records$i)
    expect_identical(record_annotator(a), ref$records$a)
  }
})

test_that("inputs whose vectors pass 1 MB (memory the glue prepares) count as small ones do", {
  withr::local_seed(27)
  n <- 3e5  # item vectors of 1.2 and 2.4 MB; 1.8e6 long rows, 7 MB of codes
  arr <- array(stats::rbinom(n * 3 * 2, 1, 0.3), c(n, 3, 2))
  arr[sample(length(arr), n)] <- NA
  dimnames(arr) <- list(sprintf("i%06d", seq_len(n)), paste0("a", 1:3), c("L1", "L2"))
  by_label <- aperm(arr, c(1, 3, 2))
  counts <- list(x = unname(rowSums(by_label, dims = 2, na.rm = TRUE)),
                 m = unname(rowSums(!is.na(by_label), dims = 2)))
  counts <- lapply(counts, function(t) array(as.integer(t), dim(t)))
  # each item's mean pair agreement over its labels with two decisions
  x <- counts$x
  m <- counts$m
  pair_agree <- ifelse(m >= 2, (x * (x - 1) + (m - x) * (m - x - 1)) / (m * (m - 1)), NA)
  item_observed <- rowMeans(pair_agree, na.rm = TRUE)
  item_observed[is.nan(item_observed)] <- NA

  dense <- as_annotations(arr)
  records <- annotations_long(ref_long(arr, keep_missing = TRUE), item, annotator, label, value)
  for (a in list(dense, records)) {
    expect_identical(item_label_counts(a), counts)
    items <- tidy(mla(a), level = "item")
    expect_equal(items$observed[items$baseline == "fleiss"], item_observed, tolerance = 1e-15)
  }
  expect_equal(tidy(mla(records)), tidy(mla(dense)), tolerance = 1e-14)
})

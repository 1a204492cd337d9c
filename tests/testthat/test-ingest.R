# The ingestion kernel (inst/include/mlagreement/ingest.h, ingest_decisions()) against
# the R-only implementation (helper-ingest-oracle.R): the same
# object, error, message and warning on random decision tables, clean or not.

# Value, error (classes, message, the call it names), messages and warnings of
# f(); the oracle's calls are named without their prefix.
ingest_outcome <- function(f) {
  msgs <- character()
  warns <- character()
  error_of <- function(e) {
    call <- sub("^oracle_", "", deparse(conditionCall(e))[1])
    list(class = class(e), message = conditionMessage(e), call = call)
  }
  res <- withCallingHandlers(
    tryCatch(f(), error = error_of),
    message = function(m) {
      msgs <<- c(msgs, conditionMessage(m))
      invokeRestart("muffleMessage")
    },
    warning = function(w) {
      warns <<- c(warns, conditionMessage(w))
      invokeRestart("muffleWarning")
    }
  )
  list(result = res, messages = msgs, warnings = warns)
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
  # invalid cells for the checking path
  bad <- sample(c("none", "value", "nan", "na_item", "na_label", "unknown_label"), 1,
                prob = c(0.6, 0.1, 0.05, 0.1, 0.1, 0.05))
  r <- sample(nrow(out), 1)
  if (bad == "value") out$value[r] <- if (is.logical(out$value)) NA else 2L
  if (bad == "nan") out$value <- replace(as.double(out$value), r, NaN)
  if (bad == "na_item") out$item[r] <- NA
  if (bad == "na_label") out$label[r] <- NA
  if (bad == "unknown_label") labels <- sort(unique(as.character(out$label)))[-1]
  list(data = out, labels = labels, duplicates = sample(c("error", "first", "last"), 1),
       single_label = stats::runif(1) < 0.05, threads = sample(1:2, 1))
}

test_that("the kernel builds the R implementation's object, errors and messages", {
  n_fast <- 0L
  for (seed in seq_len(test_size(300, 60))) {
    x <- random_decision_table(seed)
    call_with <- function(f) {
      function() f(x$data, item, annotator, label, value, labels = x$labels,
                   duplicates = x$duplicates, single_label = x$single_label, threads = x$threads)
    }
    new <- ingest_outcome(call_with(annotations_long))
    old <- ingest_outcome(call_with(oracle_annotations_long))
    expect_identical(new, old, label = paste("seed", seed))
    if (inherits(new$result, "annotations")) n_fast <- n_fast + 1L
  }
  # the comparison covers built objects, not only errors
  expect_gt(n_fast, test_size(150, 30))
})

test_that("edge ids and labels take the kernel or the checking path with the same result", {
  base <- data.frame(item = c(1, 1, 2, 2, 2, 3), annotator = c(1, 2, 1, 2, 2, 1),
                     label = c("x", "x", "x", "x", "y", "y"), value = c(1L, 0L, NA, 1L, 0L, 1L))
  variants <- list(
    # counting near the integer limit gives encode_ids() double keys
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
    transform(base, value = c("1", "0", NA, "1", "0", "1"))
  )
  for (i in seq_along(variants)) {
    d <- variants[[i]]
    new <- ingest_outcome(function() annotations_long(d, item, annotator, label, value))
    old <- ingest_outcome(function() oracle_annotations_long(d, item, annotator, label, value))
    expect_identical(new, old, label = paste("variant", i))
  }
  # the kernel, not the checking path, builds the clean tables
  expect_false(is.null(ingest_decisions(base$item, base$annotator, base$label, base$value,
                                        NULL, FALSE, 1L)))
  expect_null(ingest_decisions(base$item, base$annotator, replace(base$label, 2, NA),
                               base$value, NULL, FALSE, 1L))
  expect_null(ingest_decisions(base$item, base$annotator, base$label,
                               replace(base$value, 6, 2L), NULL, FALSE, 1L))
  again <- rbind(base, base[4, ])
  expect_null(ingest_decisions(again$item, again$annotator, again$label, again$value,
                               NULL, FALSE, 1L))
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

test_that("thousands of distinct ids (the hash table grows) give the same object", {
  withr::local_seed(11)
  n <- 3000
  d <- data.frame(item = rep(sample(n * 7, n), each = 6), annotator = sample(1500, 6 * n, TRUE),
                  label = sample(c("a", "b", "c"), 6 * n, TRUE))
  d <- d[!duplicated(d), ]
  d$value <- sample(c(0L, 1L, NA), nrow(d), TRUE)
  d <- d[sample(nrow(d)), ]
  for (how in c("int_sparse", "dbl_frac", "chr", "chr_enc")) {
    x <- transform(d, item = ingest_ids(item, how), annotator = ingest_ids(annotator, how))
    expect_identical(annotations_long(x, item, annotator, label, value),
                     oracle_annotations_long(x, item, annotator, label, value), label = how)
  }
  # distinct_codes_cpp(): first occurrences and codes agree with match(x, unique(x))
  v <- sample(paste0("s", 1:5000), 2e4, TRUE)
  dc <- distinct_codes_cpp(v)
  expect_identical(v[dc$first], unique(v))
  expect_identical(dc$codes, match(v, unique(v)))
})

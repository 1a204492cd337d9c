# The ingestion kernel (src/mlagreement/ingest.h, ingest_decisions()) against
# the R-only implementation it replaced (helper-ingest-oracle.R): the same
# object, error, message and warning on random decision tables, clean or not.

# Value, error (classes and message), messages and warnings of f().
ingest_outcome <- function(f) {
  msgs <- character()
  warns <- character()
  res <- withCallingHandlers(
    tryCatch(f(), error = function(e) list(class = class(e), message = conditionMessage(e))),
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
    extra <- if (dup == "item") d[d$item == d$item[1], ] else d[sample(nrow(d), min(nrow(d), sample(1:3, 1))), ]
    if (dup == "changed") extra$value <- 1 - extra$value
    d <- rbind(d, extra)
  }
  if (stats::runif(1) < 0.5) d <- d[sample(nrow(d)), ]
  n_ids_lgl <- function(id) if (max(id) <= 2) "lgl" else "int"
  item_how <- sample(c("int", "int_sparse", "dbl", "dbl_frac", "dbl_zero", "chr", "chr_num",
                       "chr_enc", "fct", n_ids_lgl(d$item)), 1)
  ann_how <- sample(c("int", "int_sparse", "dbl", "chr", "chr_enc", "fct", n_ids_lgl(d$annotator)), 1)
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
  for (seed in seq_len(400)) {
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
  expect_gt(n_fast, 150)
})

# Issue 14's checks on real engines: on SQLite and PostgreSQL tables built
# from real multi-label data (the bundled ConvAbuse types, 4,185 items x 7
# labels), in both table forms, the lazy table gives the in-memory results
# to 1e-12; and bad tables give the in-memory classed errors, naming the
# first offender (by its ids: a database table has no row order).

engines <- db_engines

convabuse_long <- function() {
  ex <- convabuse_types
  ex$label <- as.character(ex$label)
  ex
}

# The selected-labels form: one row per selected label, and one row with
# label NA for a record that selected nothing (so that it still counts).
convabuse_selected <- function() {
  ex <- convabuse_long()
  sel <- ex[ex$value == 1L, c("item", "annotator", "label")]
  key <- paste(ex$item, ex$annotator, sep = "\r")
  none <- !key %in% paste(sel$item, sel$annotator, sep = "\r")
  empty <- unique(ex[none, c("item", "annotator")])
  rbind(sel, data.frame(empty, label = NA_character_))
}

expect_same_real_results <- function(s, a) {
  expect_equal(tidy(mla(s), conf.int = FALSE), tidy(mla(a), conf.int = FALSE), tolerance = 1e-12)
  expect_equal(tidy(mla(s), level = "label", conf.int = FALSE),
               tidy(mla(a), level = "label", conf.int = FALSE), tolerance = 1e-12)
  expect_equal(krippendorff_alpha(s, c("hamming", "jaccard", "masi")),
               krippendorff_alpha(a, c("hamming", "jaccard", "masi")), tolerance = 1e-12)
  expect_message(got <- annotator_agreement(s), class = "mlagreement_message_no_cohen")
  want <- annotator_agreement(a)
  expect_equal(summary_pair_rows(got), tidy(want, "pairs")[names(summary_pair_rows(got))],
               tolerance = 1e-12)  # helper-database.R
  expect_equal(summary_annotator_rows(got), tidy(want, "annotators")[names(summary_annotator_rows(got))],
               tolerance = 1e-12)  # helper-database.R
}

for (engine in names(engines)) {
  test_that(paste0(engine, ": ConvAbuse tables give the in-memory results, both forms"), {
    skip_long()
    con <- engines[[engine]]()
    universe <- levels(convabuse_types$label)
    long <- convabuse_long()
    a <- annotations_long(long, item, annotator, label, value)
    s <- annotations_long(db_table(con, long), item, annotator, label, value)
    expect_same_real_results(s, a)
    sel <- convabuse_selected()
    s_sel <- annotations_long(db_table(con, sel), item, annotator, label, labels = universe)
    a_sel <- annotations_long(sel, item, annotator, label, labels = universe)
    expect_same_real_results(s_sel, a_sel)
    # the two forms hold the same annotations
    expect_equal(krippendorff_alpha(s_sel)$estimate, krippendorff_alpha(a)$estimate, tolerance = 1e-12)
    expect_equal(tidy(mla(s_sel), conf.int = FALSE)$estimate, tidy(mla(a), conf.int = FALSE)$estimate,
                 tolerance = 1e-12)
  })
}

# The error of a bad table: class, first line and the offender it names.
error_parts <- function(expr) {
  e <- tryCatch({
    expr
    NULL
  }, mlagreement_error = identity)
  if (is.null(e)) return(NULL)
  msg <- cli::ansi_strip(conditionMessage(e))
  list(class = class(e)[1], first_line = strsplit(msg, "\n")[[1]][1], message = msg)
}

# Every case: the same class and requirement in memory and in the database,
# the database names `offender`, and both engines give the same message.
expect_same_bad_table <- function(messages, case, in_memory, offender) {
  for (engine in names(messages)) {
    got <- messages[[engine]][[case]]
    expect_false(is.null(got), label = paste(engine, case, "fails"))
    expect_identical(got$class, in_memory$class, label = paste(engine, case, "class"))
    expect_identical(got$first_line, in_memory$first_line, label = paste(engine, case, "requirement"))
    expect_match(got$message, offender, fixed = TRUE, label = paste(engine, case, "offender"))
  }
  if (length(messages) == 2) {
    expect_identical(messages[[1]][[case]]$message, messages[[2]][[case]]$message,
                     label = paste(case, "same message on both engines"))
  }
}

test_that("bad decisions and selected-labels tables give the in-memory errors on both engines", {
  skip_long()
  ex <- bias_example
  ex$label <- as.character(ex$label)
  sel <- ex[ex$value == 1L, c("item", "annotator", "label")]
  rownames(sel) <- NULL
  universe <- levels(bias_example$label)
  dec_cases <- list(
    value = within(ex, value[c(40, 5)] <- c(0.5, 2)),
    na_item = within(ex, item[c(8, 7)] <- NA),
    na_annotator = within(ex, annotator[c(30, 9)] <- NA),
    repeated = rbind(ex, ex[c(30, 3), ])
  )
  sel_cases <- list(
    na_item = within(sel, item[c(8, 7)] <- NA),
    na_annotator = within(sel, annotator[c(12, 9)] <- NA),  # row 12 is (item 2, L03)
    repeated = rbind(sel, sel[c(20, 3), ])
  )
  # the first offender by (item, annotator, label), as the database orders it
  offender <- list(
    value = sprintf("item %s, annotator %s, label %s): \"2\"", ex$item[5], ex$annotator[5], ex$label[5]),
    na_item = sprintf("first (by annotator, label): annotator %s, label %s", ex$annotator[7], ex$label[7]),
    na_annotator = sprintf("first (by item, label): item %s, label %s", ex$item[9], ex$label[9]),
    repeated = sprintf("(%s, %s)", ex$item[3], ex$annotator[3])
  )
  sel_offender <- list(
    na_item = sprintf("first (by annotator, label): annotator %s, label %s", sel$annotator[7], sel$label[7]),
    na_annotator = sprintf("first (by item, label): item %s, label %s", sel$item[12], sel$label[12]),
    repeated = sprintf("(%s, %s), (%s, %s)", sel$item[3], sel$annotator[3], sel$item[20], sel$annotator[20])
  )
  messages <- sel_messages <- list()
  for (engine in names(engines)) {
    con <- tryCatch(engines[[engine]](), skip = function(e) NULL)
    if (is.null(con)) next
    messages[[engine]] <- lapply(dec_cases, function(d) {
      error_parts(annotations_long(db_table(con, d), item, annotator, label, value))
    })
    sel_messages[[engine]] <- lapply(sel_cases, function(d) {
      error_parts(annotations_long(db_table(con, d), item, annotator, label, labels = universe))
    })
  }
  skip_if(length(messages) == 0, "no database engine")
  for (case in names(dec_cases)) {
    in_memory <- error_parts(annotations_long(dec_cases[[case]], item, annotator, label, value))
    expect_same_bad_table(messages, case, in_memory, offender[[case]])
  }
  for (case in names(sel_cases)) {
    in_memory <- error_parts(annotations_long(sel_cases[[case]], item, annotator, label, labels = universe))
    expect_same_bad_table(sel_messages, case, in_memory, sel_offender[[case]])
  }
})

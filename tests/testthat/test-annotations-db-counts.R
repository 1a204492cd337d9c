# The summary of a database table (R/annotations-db-counts.R): the label and
# design tables its queries return give the in-memory estimates, for
# decisions, selected-label and wide tables. SQLite always; PostgreSQL as a
# real server (helper-postgres.R); DuckDB when installed.

# One random design of each shape on SQLite and on PostgreSQL, shared by its
# two drivers (engine_designs(); database_designs() cycles through the
# shapes). A design takes about 4 s on SQLite, a third of it dbplyr 2.3.0
# formatting an error message for every summarise() column, shown or not.
for (engine in names(db_engines)) {
  test_that(paste0(engine, ": decisions tables give the in-memory estimates"), {
    con <- db_engines[[engine]]()
    withr::local_seed(14)
    designs <- engine_designs(database_designs(test_size(length(property_shapes), 1)), engine)
    for (i in seq_along(designs)) {
      arr <- designs[[i]]$array
      # set alpha and annotator agreement (more queries) on the first designs
      long <- array_long(arr)
      universe <- paste0("L", seq_len(dim(arr)[3]))
      s <- annotations_long(db_table(con, long), item, annotator, label, value, labels = universe)
      a <- annotations_long(long, item, annotator, label, value, labels = universe)
      expect_same_estimates(s, a, optional = i <= 5)
      # only the decided cells stored: whole missing vectors disappear
      kept <- long[!is.na(long$value), ]
      s2 <- annotations_long(db_table(con, kept), item, annotator, label, value, labels = universe)
      expect_same_estimates(s2, annotations_long(kept, item, annotator, label, value, labels = universe),
                            optional = i <= 5)
    }
  })

  test_that(paste0(engine, ": selected-label and wide tables give the in-memory estimates"), {
    con <- db_engines[[engine]]()
    withr::local_seed(15)
    designs <- engine_designs(database_designs(test_size(length(property_shapes) - 1L, 1),
                                               selected = TRUE), engine)
    for (i in seq_along(designs)) {
      arr <- designs[[i]]$array
      universe <- paste0("L", seq_len(dim(arr)[3]))
      sel <- array_selected(arr)
      s <- suppressWarnings(annotations_long(db_table(con, sel), item, annotator, label,
                                             labels = universe))
      a <- suppressWarnings(annotations_long(sel, item, annotator, label, labels = universe))
      expect_same_estimates(s, a, optional = i <= 5)
      wide <- array_wide(arr)
      s <- annotations_wide(db_table(con, wide), item, annotator, starts_with("L"))
      a <- annotations_wide(wide, item, annotator, starts_with("L"))
      expect_same_estimates(s, a, optional = i <= 3)
    }
  })

  test_that(paste0(engine, ": the worked example and a label subset"), {
    con <- db_engines[[engine]]()
    ex <- bias_example
    ex$label <- as.character(ex$label)
    a <- annotations_long(bias_example, item, annotator, label, value)
    s <- annotations_long(db_table(con, ex), item, annotator, label, value)
    expect_same_estimates(s, a)
    used <- sprintf("L%02d", 1:11)
    expect_equal(tidy(mla(s, labels = used), level = "label", conf.int = FALSE),
                 tidy(mla(a, labels = used), level = "label", conf.int = FALSE), tolerance = 1e-12)
    sel <- ex[ex$value == 1, c("item", "annotator", "label")]
    s <- annotations_long(db_table(con, sel), item, annotator, label, labels = levels(bias_example$label))
    expect_same_estimates(s, a)
  })
}

test_that("duckdb: decisions and selected labels give the in-memory estimates", {
  con <- local_duckdb_connection()
  withr::local_seed(16)
  for (design in database_designs(8, selected = TRUE)) {
    arr <- design$array
    universe <- paste0("L", seq_len(dim(arr)[3]))
    long <- array_long(arr)
    expect_same_estimates(
      annotations_long(db_table(con, long), item, annotator, label, value, labels = universe),
      annotations_long(long, item, annotator, label, value, labels = universe))
    sel <- array_selected(arr)
    expect_same_estimates(
      suppressWarnings(annotations_long(db_table(con, sel), item, annotator, label, labels = universe)),
      suppressWarnings(annotations_long(sel, item, annotator, label, labels = universe)))
  }
})

# Labels and ids stored as doubles that R prints in scientific notation
# (1e+05): every table of the summary matches the records, through every driver.
for (engine in names(db_engines)) {
  test_that(paste0(engine, ": labels and ids 1e5 as doubles give the records' tables"), {
    con <- db_engines[[engine]]()
    withr::local_seed(21)
    grid <- expand.grid(item = c(1e5, 2e5, 3e5, 4e5, 5e5, 6e5), annotator = c(1e5, 2e5, 3e5),
                        label = c(2.5, 1e5, 1.2e5, 1e6))
    grid$value <- as.double(stats::rbinom(nrow(grid), 1, 0.4))
    sel <- grid[grid$value == 1, c("item", "annotator", "label")]
    # records that select nothing: one row with label NULL
    empty <- unique(grid[c("item", "annotator")])
    empty <- empty[!paste(empty$item, empty$annotator) %in% paste(sel$item, sel$annotator), ]
    if (nrow(empty) > 0) sel <- rbind(sel, transform(empty, label = NA_real_))
    for (form in c("decisions", "selected")) {
      df <- if (form == "decisions") grid else sel
      a <- if (form == "decisions") annotations_long(df, item, annotator, label, value) else
        annotations_long(df, item, annotator, label)
      s <- if (form == "decisions") annotations_long(db_table(con, df), item, annotator, label, value) else
        annotations_long(db_table(con, df), item, annotator, label)
      expect_identical(s$labels, c("2.5", "100000", "120000", "1000000"))
      expect_same_estimates(s, a)
      expect_equal(suppressWarnings(krippendorff_alpha(s, c("jaccard", "masi"))),
                   suppressWarnings(krippendorff_alpha(a, c("jaccard", "masi"))), tolerance = 1e-12)
      boot <- function(x) suppressWarnings(withr::with_seed(3, mla_boot(mla(x), R = 20)))
      expect_identical(boot(s)$t, boot(a)$t)
      expect_identical(tidy(s, "annotators")$annotator, c("100000", "200000", "300000"))
    }
  })
}

# The annotator-pair tables of a database summary (R/annotations-db-pairs.R):
# annotator_agreement() of the worked example's decisions and selected
# labels equals the in-memory one. (Random designs: test-annotations-db-counts.R,
# through expect_same_estimates().)

for (engine in names(db_engines)) {
  test_that(paste0(engine, ": annotator agreement of the worked example"), {
    con <- db_engines[[engine]]()
    w <- worked_example_db(con)
    for (s in w$sums) expect_same_annotator_agreement(s, w$a)
  })
}

# The records of the pair (and set) tables go to a temporary table, dropped
# once the tables are read; a connection that cannot create one runs the
# subquery.
# (SQLite keeps its ANALYZE statistics as sqlite_stat* tables: its own.)
temporary_tables <- function(con) {
  sql <- if (inherits(con, "SQLiteConnection")) {
    "SELECT name FROM sqlite_temp_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'"
  } else {
    "SELECT relname FROM pg_class WHERE relnamespace = pg_my_temp_schema() AND relkind = 'r'"
  }
  sort(as.character(DBI::dbGetQuery(con, sql)[[1]]))
}

for (engine in names(db_engines)) {
  test_that(paste0(engine, ": the records' temporary table is used and left behind by nobody"), {
    con <- db_engines[[engine]]()
    w <- worked_example_db(con)
    before <- temporary_tables(con)
    # annotations_long() dropped its table of per-record counts (dbplyr names them)
    expect_false(any(startsWith(before, "dbplyr_")))
    # the table exists while the pair tables are read, with the records
    recs <- db_distinct(dplyr::filter(w$sums[[1]]$db_source$query, !is.na(value)), item, annotator)
    temp <- db_temporary(recs)
    expect_true(temp$name %in% temporary_tables(con))
    expect_match(temp$name, "^dbplyr_")
    index_sql <- if (inherits(con, "SQLiteConnection")) {
      "SELECT name FROM sqlite_temp_master WHERE type = 'index' AND tbl_name = '%s'"
    } else {
      "SELECT indexname FROM pg_indexes WHERE tablename = '%s'"
    }
    expect_identical(DBI::dbGetQuery(con, sprintf(index_sql, temp$name))[[1]],
                     paste0(temp$name, "_item"))
    expect_equal(as.data.frame(dplyr::arrange(dplyr::collect(temp$table), item, annotator)),
                 as.data.frame(dplyr::arrange(dplyr::collect(recs), item, annotator)))
    temp$drop()
    expect_identical(temporary_tables(con), before)
    for (s in w$sums) {
      expect_same_annotator_agreement(s, w$a)
      expect_identical(temporary_tables(con), before)
      expect_equal(krippendorff_alpha(s, "jaccard"), krippendorff_alpha(w$a, "jaccard"),
                   tolerance = 1e-12)
      expect_identical(temporary_tables(con), before)
    }
  })
}

test_that("without a real connection the records stay a subquery", {
  skip_if_not_installed("dbplyr")
  d <- dbplyr::lazy_frame(item = 1L, annotator = "a", con = dbplyr::simulate_postgres())
  temp <- db_temporary(d)
  expect_identical(temp$table, d)
  expect_null(temp$name)
  expect_invisible(temp$drop())
})

# BIGINT annotator ids beyond 2^53 (platform worker ids): their exact digits
# name the annotators (64-bit integers), or, read as doubles (RPostgreSQL),
# the table is refused as doubles are in memory.
for (engine in names(db_engines)) {
  test_that(paste0(engine, ": BIGINT annotator ids beyond 2^53"), {
    con <- db_engines[[engine]]()
    withr::local_seed(9)
    anns <- sprintf("14567890123456%03d", 1:4)
    df <- expand.grid(item = 1:10, annotator = anns, label = c("x", "y"), stringsAsFactors = FALSE)
    df$value <- stats::rbinom(nrow(df), 1, 0.4)
    a <- annotations_long(df, item, annotator, label, value)
    make <- function() {
      annotations_long(db_table(con, df, field.types = c(item = "INTEGER", annotator = "BIGINT",
                                                         label = "TEXT", value = "INTEGER"),
                                row.names = FALSE),
                       item, annotator, label, value)
    }
    if (engine == "postgres") {  # RPostgreSQL: doubles
      err <- expect_mla_error(make(), "id_precision")
      expect_match(conditionMessage(err), "annotator")
      return()
    }
    s <- make()
    expect_identical(annotator_ids(s), anns)
    expect_same_annotator_agreement(s, a)
    expect_identical(tidy(suppressMessages(annotator_agreement(s, min_items = 1)), "annotators")$annotator,
                     anns)
  })
}

# Inside a PostgreSQL transaction a failed CREATE TABLE would abort the
# user's transaction: the attempt runs under a savepoint, so a read-only
# transaction falls back to subqueries and stays usable.
for (engine in c("postgres", "rpostgres")) {
  test_that(paste0(engine, ": a read-only transaction falls back to subqueries and stays usable"), {
    con <- db_engines[[engine]]()
    ex <- transform(bias_example, label = as.character(label))
    a <- annotations_long(bias_example, item, annotator, label, value)
    tab <- db_table(con, ex)
    DBI::dbBegin(con)
    DBI::dbExecute(con, "SET TRANSACTION READ ONLY")
    s <- annotations_long(tab, item, annotator, label, value)
    expect_same_estimates(s, a)
    expect_identical(DBI::dbGetQuery(con, "SHOW transaction_read_only")[[1]], "on")
    DBI::dbRollback(con)
    # a read-write transaction: the temporary tables are made and dropped in it
    before <- temporary_tables(con)
    DBI::dbBegin(con)
    s <- annotations_long(tab, item, annotator, label, value)
    expect_same_estimates(s, a)
    expect_identical(temporary_tables(con), before)
    DBI::dbCommit(con)
    # autocommit, as before
    expect_same_estimates(annotations_long(tab, item, annotator, label, value), a)
  })
}

# The per-item, set and pair tables are queried when first asked for: a table
# changed since the summary was made is refused, not mixed with the summary.
for (engine in names(db_engines)) {
  test_that(paste0(engine, ": tables of a changed table are refused"), {
    con <- db_engines[[engine]]()
    w <- worked_example_db(con)
    tab <- db_table(con, w$ex)
    s <- annotations_long(tab, item, annotator, label, value)
    name <- DBI::dbQuoteIdentifier(con, as.character(dbplyr::remote_name(tab)))
    DBI::dbExecute(con, paste("UPDATE", name, "SET value = 1 - value WHERE item <= 2"))
    expect_equal(glance(mla(s)), glance(mla(w$a)), tolerance = 1e-12)  # the summary's own counts
    expect_mla_error(augment(mla(s)), "db_table_changed")
    expect_mla_error(krippendorff_alpha(s, "jaccard"), "db_table_changed")
    expect_mla_error(suppressMessages(annotator_agreement(s)), "db_table_changed")
    # a fresh summary reads the table as it is now
    now <- transform(w$ex, value = ifelse(item <= 2, 1 - value, value))
    expect_same_estimates(annotations_long(tab, item, annotator, label, value),
                          annotations_long(now, item, annotator, label, value))
    # selected labels: a record selecting one more label
    sel <- w$ex[w$ex$value == 1, c("item", "annotator", "label")]
    tab <- db_table(con, sel)
    s <- annotations_long(tab, item, annotator, label, labels = levels(bias_example$label))
    name <- DBI::dbQuoteIdentifier(con, as.character(dbplyr::remote_name(tab)))
    extra <- setdiff(levels(bias_example$label), sel$label[sel$item == 1 & sel$annotator == sel$annotator[1]])[1]
    DBI::dbExecute(con, sprintf("INSERT INTO %s (item, annotator, label) VALUES (1, '%s', '%s')", name,
                                sel$annotator[1], extra))
    expect_mla_error(tidy(mla(s), level = "item"), "db_table_changed")
    err <- expect_mla_error(krippendorff_alpha(s, "masi"), "db_table_changed")
    expect_match(conditionMessage(err), "annotations_long()", fixed = TRUE)
    expect_mla_error(suppressMessages(annotator_agreement(s)), "db_table_changed")
  })
}

test_that("the message of a changed table", {
  con <- local_sqlite_connection()
  ex <- transform(bias_example, label = as.character(label))
  tab <- db_table(con, ex)
  s <- annotations_long(tab, item, annotator, label, value)
  DBI::dbExecute(con, paste("UPDATE", as.character(dbplyr::remote_name(tab)),
                            "SET value = 1 - value WHERE item = 1"))
  expect_mla_snapshot(augment(mla(s)), "db_table_changed")
})

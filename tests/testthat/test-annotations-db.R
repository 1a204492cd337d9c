# annotations_long()/annotations_wide() on database tables (R/annotations-db.R):
# the checks of the in-memory adapters run as queries and give the in-memory
# errors; the queries in warehouse dialects. SQLite always; PostgreSQL as a
# real server (helper-postgres.R).

for (engine in names(db_engines)) {
  test_that(paste0(engine, ": bad tables give the in-memory errors"), {
    con <- db_engines[[engine]]()
    ex <- bias_example
    ex$label <- as.character(ex$label)
    bad_value <- ex
    bad_value$value[5] <- 2
    bad_id <- ex
    bad_id$item[7] <- NA
    bad_ann <- ex
    bad_ann$annotator[9] <- NA
    repeated <- rbind(ex, ex[3, ])
    na_label <- ex
    na_label$label[4] <- NA
    cases <- list(value = bad_value, na_id = bad_id, na_id = bad_ann, duplicates = repeated,
                  na_label = na_label)
    for (i in seq_along(cases)) {
      cls <- paste0("mlagreement_error_", names(cases)[i])
      expect_error(annotations_long(cases[[i]], item, annotator, label, value), class = cls)
      expect_error(annotations_long(db_table(con, cases[[i]]), item, annotator, label, value),
                   class = cls)
    }
    expect_mla_error(annotations_long(db_table(con, ex), item, annotator, label, value,
                                      labels = c("L01", "L02")), "unknown_label")
    expect_mla_error(annotations_long(db_table(con, ex), item, annotator, label, value,
                                      duplicates = "first"), "db_unsupported")
    wide <- array_wide(array(c(0L, 1L, 1L, 1L, 0L, 3L), c(2, 3, 1)))
    expect_mla_error(annotations_wide(db_table(con, wide), item, annotator, L1), "value")
    wide$L1[wide$L1 == 3L] <- 1L
    expect_mla_error(annotations_wide(db_table(con, rbind(wide, wide[1, ])), item, annotator, L1),
                     "duplicates")
  })
}

test_that("database errors name the first offender", {
  con <- local_sqlite_connection()
  ex <- bias_example
  ex$label <- as.character(ex$label)
  bad <- ex
  bad$value[c(5, 40)] <- c(2, 0.5)
  expect_mla_snapshot(annotations_long(db_table(con, bad), item, annotator, label, value))
  bad <- ex
  bad$item[c(7, 8)] <- NA
  expect_mla_snapshot(annotations_long(db_table(con, bad), item, annotator, label, value))
  expect_snapshot(error = TRUE,
                  annotations_long(db_table(con, rbind(ex, ex[3:4, ])), item, annotator, label, value))
  expect_snapshot(annotations_long(db_table(con, ex), item, annotator, label, value))
})

test_that("logical and text values are read as in memory", {
  con <- local_sqlite_connection()
  df <- data.frame(item = c(1, 1, 2, 2), annotator = c("a", "b", "a", "b"),
                   label = "x", value = c(TRUE, FALSE, TRUE, NA))
  txt <- transform(df, value = ifelse(value, "1", "0"))
  a <- annotations_long(df, item, annotator, label, value)
  expect_same_estimates(annotations_long(db_table(con, df), item, annotator, label, value), a)
  expect_same_estimates(annotations_long(db_table(con, txt), item, annotator, label, value), a)
  txt$value[2] <- "yes"
  expect_mla_error(annotations_long(db_table(con, txt), item, annotator, label, value),
                   "value_type")
  # a typed text column (PostgreSQL): the same error, naming the value and its row
  pg <- local_pg_connection()
  err <- expect_mla_error(annotations_long(db_table(pg, txt), item, annotator, label, value),
                          "value_type")
  expect_match(conditionMessage(err), "\"yes\".*item 1, annotator b")
  expect_match(conditionMessage(err), "(1 row)", fixed = TRUE)
})

test_that("the summary's SQL in warehouse dialects (simulated connections)", {
  skip_if_not_installed("dbplyr")
  # Spark SQL shares Hive's dialect; Spark itself is not installed here
  dialects <- list(hive = dbplyr::simulate_hive, snowflake = dbplyr::simulate_snowflake,
                   redshift = dbplyr::simulate_redshift, mssql = dbplyr::simulate_mssql)
  for (nm in names(dialects)) {
    d <- dbplyr::lazy_frame(item = 1L, annotator = "a", label = "x", value = 1L,
                            con = dialects[[nm]]())
    q <- annotation_queries(d, item, annotator, label, value)
    expect_snapshot(dplyr::show_query(q$labels))
  }
  d <- dbplyr::lazy_frame(item = 1L, annotator = "a", label = "x", con = dbplyr::simulate_hive())
  q <- annotation_queries(d, item, annotator, label)
  expect_snapshot(dplyr::show_query(q$labels))
  expect_snapshot(dplyr::show_query(q$design))
})

test_that("single-label categories in a database table", {
  con <- local_sqlite_connection()
  withr::local_seed(18)
  df <- expand.grid(item = 1:30, annotator = paste0("a", 1:4), stringsAsFactors = FALSE)
  df$label <- sample(c("neg", "neu", "pos", NA), nrow(df), replace = TRUE, prob = c(.4, .3, .2, .1))
  a <- annotations_long(df, item, annotator, label, single_label = TRUE)
  s <- annotations_long(db_table(con, df), item, annotator, label, single_label = TRUE)
  expect_true(is_single_label(s))
  expect_same_estimates(s, a)
  dec <- do.call(rbind, lapply(c("neg", "neu", "pos"), function(l) {
    data.frame(df[c("item", "annotator")], label = l,
               value = ifelse(is.na(df$label), NA, as.integer(df$label == l)))
  }))
  s2 <- annotations_long(db_table(con, dec), item, annotator, label, value, single_label = TRUE)
  expect_same_estimates(s2, annotations_long(dec, item, annotator, label, value, single_label = TRUE))
  bad <- dec
  bad$value[bad$item == 3 & bad$annotator == "a2"] <- 1L
  in_memory <- expect_mla_error(annotations_long(bad, item, annotator, label, value, single_label = TRUE),
                                "single_label")
  in_db <- expect_mla_error(annotations_long(db_table(con, bad), item, annotator, label, value,
                                             single_label = TRUE), "single_label")
  expect_identical(conditionMessage(in_db), conditionMessage(in_memory))
  expect_mla_snapshot(annotations_long(db_table(con, bad), item, annotator, label, value,
                                       single_label = TRUE))
  # two categories for one record: a repeated (item, annotator) pair, as in memory
  two <- df
  two$label[1] <- "neg"  # item 1, annotator a1
  two <- rbind(two, data.frame(item = 1, annotator = "a1", label = "pos"))
  expect_mla_error(annotations_long(two, item, annotator, label, single_label = TRUE), "duplicates")
  expect_mla_error(annotations_long(db_table(con, two), item, annotator, label, single_label = TRUE),
                   "duplicates")
})

# Repeats are counted per record (rows against distinct keys, a NULL label
# being one key): the pairs, surplus rows and first pairs of the in-memory
# error, for keys repeated several times, NULL labels and wide rows.
for (engine in names(db_engines)) {
  test_that(paste0(engine, ": repeats are counted as in memory"), {
    con <- db_engines[[engine]]()
    ex <- bias_example
    ex$label <- as.character(ex$label)
    sel <- ex[ex$value == 1L, c("item", "annotator", "label")]
    empty <- data.frame(item = 99L, annotator = "zz", label = NA_character_)
    universe <- levels(bias_example$label)
    counted_line <- function(expr) {
      msg <- cli::ansi_strip(conditionMessage(tryCatch(expr, mlagreement_error_duplicates = identity)))
      line <- grep("surplus", strsplit(msg, "\n")[[1]], value = TRUE)
      if (length(line) != 1) stop("no count of the repeats in: ", msg)
      line
    }
    dec <- rbind(ex, ex[c(3, 3, 3, 8, 40), ])
    expect_identical(counted_line(annotations_long(db_table(con, dec), item, annotator, label, value)),
                     counted_line(annotations_long(dec, item, annotator, label, value)))
    for (s in list(rbind(sel, empty, empty), rbind(sel, sel[c(2, 2, 5), ], empty))) {
      expect_identical(
        counted_line(annotations_long(db_table(con, s), item, annotator, label, labels = universe)),
        counted_line(annotations_long(s, item, annotator, label, labels = universe))
      )
    }
    wide <- array_wide(array(c(0L, 1L, 1L, 1L, 0L, 1L), c(2, 3, 1)))
    wide <- rbind(wide, wide[c(1, 1, 2), ])
    expect_identical(counted_line(annotations_wide(db_table(con, wide), item, annotator, L1)),
                     counted_line(annotations_wide(wide, item, annotator, L1)))
    expect_match(counted_line(annotations_wide(wide, item, annotator, L1)), "3 surplus")
  })
}

# SQLite keeps a storage class per value: an untyped column says nothing
# (its zero-row prototype is logical), so values and ids are checked by
# typeof() in SQL, with the in-memory classes.
untyped_table <- function(con, rows) {
  name <- paste0("untyped_", getOption("mlagreement.test_tables", 0) + 1)
  options(mlagreement.test_tables = getOption("mlagreement.test_tables", 0) + 1)
  DBI::dbExecute(con, paste0("CREATE TEMP TABLE ", name, " (item, annotator, label, value)"))
  DBI::dbExecute(con, paste0("INSERT INTO ", name, " VALUES ", rows))
  dplyr::tbl(con, name)
}

test_that("sqlite: values and ids are typed by value, not by the column", {
  con <- local_sqlite_connection()
  ok <- "(1, 'a', 'x', 1), (1, 'b', 'x', 0), (2, 'a', 'x', 1), (2, 'b', 'x', 1), (3, 'a', 'x', 0), (3, 'b', 'x', 0)"
  mem <- data.frame(item = c(1, 1, 2, 2, 3, 3), annotator = rep(c("a", "b"), 3), label = "x",
                    value = c(1L, 0L, 1L, 1L, 0L, 0L))
  expect_same_estimates(annotations_long(untyped_table(con, ok), item, annotator, label, value),
                        annotations_long(mem, item, annotator, label, value), optional = FALSE)
  # text '0'/'1' beside numbers: the same decisions
  text01 <- "(1, 'a', 'x', '1'), (1, 'b', 'x', 0), (2, 'a', 'x', 1), (2, 'b', 'x', '1'), (3, 'a', 'x', '0'), (3, 'b', 'x', 0)"
  expect_same_estimates(annotations_long(untyped_table(con, text01), item, annotator, label, value),
                        annotations_long(mem, item, annotator, label, value), optional = FALSE)
  # 'yes' beside 1 and 0 is refused as in memory (not read as 0)
  yes <- "(1, 'a', 'x', 1), (1, 'b', 'x', 0), (2, 'a', 'x', 'yes'), (2, 'b', 'x', 1)"
  mem_yes <- data.frame(item = c(1, 1, 2, 2), annotator = c("a", "b", "a", "b"), label = "x",
                        value = c("1", "0", "yes", "1"))
  expect_mla_error(annotations_long(mem_yes, item, annotator, label, value), "value_type")
  err <- expect_mla_error(annotations_long(untyped_table(con, yes), item, annotator, label, value),
                          "value_type")
  expect_match(conditionMessage(err), "yes", fixed = TRUE)
  # 0.5 is refused, not read as true
  half <- "(1, 'a', 'x', 1), (1, 'b', 'x', 0.5), (2, 'a', 'x', 0), (2, 'b', 'x', 1)"
  expect_mla_error(annotations_long(untyped_table(con, half), item, annotator, label, value),
                   "value")
  # item 1 and item '1' in one column: refused (SQLite would count two items)
  mixed <- "(1, 'a', 'x', 1), ('1', 'b', 'x', 0), (2, 'a', 'x', 0), (2, 'b', 'x', 1)"
  err <- expect_mla_error(annotations_long(untyped_table(con, mixed), item, annotator, label, value),
                          "id_type")
  expect_match(conditionMessage(err), "3 numbers and 1 text value", fixed = TRUE)
  mixed_ann <- "(1, 'a', 'x', 1), (1, 2, 'x', 0), (2, 'a', 'x', 0), (2, 2, 'x', 1)"
  expect_mla_error(annotations_long(untyped_table(con, mixed_ann), item, annotator, label, value),
                   "id_type")
  mixed_label <- "(1, 'a', 'x', 1), (1, 'b', 2, 0), (2, 'a', 'x', 0), (2, 'b', 'x', 1)"
  expect_mla_error(annotations_long(untyped_table(con, mixed_label), item, annotator, label, value),
                   "label_type")
  # integer 1 and real 1.0 are one number: one item
  real <- "(1, 'a', 'x', 1), (1.0, 'b', 'x', 0), (2, 'a', 'x', 0), (2, 'b', 'x', 1)"
  s <- annotations_long(untyped_table(con, real), item, annotator, label, value)
  expect_identical(tidy(s, "design")$n_items, 2)
  # the wide form checks its ids the same way
  DBI::dbExecute(con, "CREATE TEMP TABLE wide_untyped (item, annotator, x)")
  DBI::dbExecute(con, "INSERT INTO wide_untyped VALUES (1, 'a', 1), ('1', 'b', 0), (2, 'a', 'yes')")
  expect_mla_error(annotations_wide(dplyr::tbl(con, "wide_untyped"), item, annotator, x), "id_type")
})

test_that("database errors are classed, with the engine's message as parent", {
  skip_if_not_installed("RSQLite")
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  closed <- db_table(con, bias_example)
  DBI::dbDisconnect(con)
  err <- expect_mla_error(annotations_long(closed, item, annotator, label, value), "db_query")
  expect_match(conditionMessage(err$parent), "collect", fixed = TRUE)
  expect_mla_error(annotations_wide(closed, item, annotator, c(value)), "db_query")
  con <- local_sqlite_connection()
  gone <- db_table(con, bias_example)
  DBI::dbRemoveTable(con, dbplyr::remote_name(gone), temporary = TRUE)
  err <- expect_mla_error(annotations_long(gone, item, annotator, label, value), "db_query")
  expect_false(is.null(err$parent))
})

test_that("sqlite: no statistics or temporary tables are left behind, after success or failure", {
  con <- local_sqlite_connection()
  temp_objects <- function() sort(DBI::dbGetQuery(con, "SELECT name FROM temp.sqlite_master")$name)
  ex <- db_table(con, bias_example)
  repeated <- db_table(con, rbind(bias_example, bias_example[3, ]))
  before <- temp_objects()
  s <- annotations_long(ex, item, annotator, label, value)
  expect_identical(temp_objects(), before)
  # the set and pair tables are computed on first use, through temporary tables
  krippendorff_alpha(s, "jaccard")
  annotator_agreement(s, min_items = 2)
  expect_identical(temp_objects(), before)
  expect_false(any(grepl("^sqlite_stat", temp_objects())))
  # the duplicate check fails after the per-record temporary table is made
  expect_mla_error(annotations_long(repeated, item, annotator, label, value), "duplicates")
  expect_identical(temp_objects(), before)
})

for (engine in names(db_engines)) {
  test_that(paste0(engine, ": empty tables and repeated ids read as in memory"), {
    con <- db_engines[[engine]]()
    d <- data.frame(item = c(1, 2), annotator = c("a", "b"), label = "x", value = c(1L, 0L))
    same_error <- function(db, mem) {
      expect_identical(conditionMessage(expect_mla_error(db, "empty")),
                       conditionMessage(expect_mla_error(mem, "empty")))
    }
    # a SUM over no rows is NULL: the empty table is reported, not a failed query
    same_error(annotations_long(db_table(con, d[0, ]), item, annotator, label, value),
               annotations_long(d[0, ], item, annotator, label, value))
    filtered <- dplyr::filter(db_table(con, d), item > 5)
    same_error(annotations_long(filtered, item, annotator, label, value),
               annotations_long(d[0, ], item, annotator, label, value))
    same_error(annotations_long(db_table(con, d[0, 1:3]), item, annotator, label),
               annotations_long(d[0, 1:3], item, annotator, label))
    same_error(annotations_long(db_table(con, d[0, 1:3]), item, annotator, label, single_label = TRUE),
               annotations_long(d[0, 1:3], item, annotator, label, single_label = TRUE))
    w <- data.frame(item = integer(), annotator = character(), x = integer())
    same_error(annotations_wide(db_table(con, w), item, annotator, x),
               annotations_wide(w, item, annotator, x))
    # ids of different widths are listed unpadded
    rep_ids <- data.frame(item = c("a", "a", "a", "longitem", "longitem"),
                          annotator = c("x", "x", "y", "longannotator", "longannotator"),
                          label = "L", value = c(1L, 1L, 0L, 1L, 0L))
    listed <- function(err) {
      flat <- gsub("\\s+", " ", cli::ansi_strip(conditionMessage(err)))
      regmatches(flat, regexpr("[0-9,]+ pairs? repeats?,.*?\\)\\.", flat, perl = TRUE))
    }
    in_db <- expect_mla_error(annotations_long(db_table(con, rep_ids), item, annotator, label, value),
                              "duplicates")
    in_memory <- expect_mla_error(annotations_long(rep_ids, item, annotator, label, value), "duplicates")
    expect_match(listed(in_db), "(a, x), (longitem, longannotator).", fixed = TRUE)
    expect_identical(listed(in_db), listed(in_memory))
  })
}

# A selected-label record with a label and a NULL-label row ("annotated,
# nothing selected") contradicts itself: the in-memory error, same message.
for (engine in names(db_engines)) {
  test_that(paste0(engine, ": a record both selecting labels and selecting nothing"), {
    con <- db_engines[[engine]]()
    sel <- data.frame(item = c(1, 1, 1, 2, 2, 3, 3, 3), annotator = c("a", "a", "b", "a", "b", "a", "b", "b"),
                      label = c("x", NA, "x", "y", NA, "x", "y", NA))
    msg <- function(d) {
      err <- expect_mla_error(annotations_long(d, item, annotator, label, labels = c("x", "y")), "na_label")
      conditionMessage(err)
    }
    expect_identical(msg(db_table(con, sel)), msg(sel))
    expect_match(msg(db_table(con, sel)), "Item \"1\", annotator \"a\"")
    # a record with only its NULL-label row is fine
    ok <- sel[-c(2, 8), ]
    expect_same_estimates(annotations_long(db_table(con, ok), item, annotator, label, labels = c("x", "y")),
                          annotations_long(ok, item, annotator, label, labels = c("x", "y")))
  })
}

# The per-item tables of a database summary for the item bootstrap
# (R/annotations-db-boot.R): the replicates equal those on the records for the
# same seed, with clusters within strata; resampling annotators needs the
# records.

for (engine in names(db_engines)) {
  test_that(paste0(engine, ": the item bootstrap of the worked example equals the records'"), {
    con <- db_engines[[engine]]()
    w <- worked_example_db(con)
    sums <- w$sums
    strata <- c(1, 1, 2, 2)
    for (s in sums) {
      boot <- function(x) {
        without_few_items_warning(withr::with_seed(7, mla_boot(mla(x), R = 30, cluster = c(1, 1, 2, 3),
                                                               strata = strata)))
      }
      b_a <- boot(w$a)
      b_s <- boot(s)
      expect_identical(b_s$t, b_a$t)
    }
    expect_mla_snapshot(mla_boot(mla(sums[[1]]), R = 5, resample = "both"))
  })
}

# BIGINT item ids beyond 2^53 (tweet ids): RPostgres and RSQLite return 64-bit
# integers, exact; RPostgreSQL returns doubles, which would merge items in
# the per-item tables, so they are refused as doubles are in memory.
for (engine in names(db_engines)) {
  test_that(paste0(engine, ": BIGINT item ids beyond 2^53"), {
    con <- db_engines[[engine]]()
    withr::local_seed(9)
    df <- expand.grid(item = sprintf("14567890123456%03d", 1:12), annotator = c("a", "b", "c"),
                      label = c("x", "y"), stringsAsFactors = FALSE)
    df$value <- stats::rbinom(nrow(df), 1, 0.4)
    a <- annotations_long(df, item, annotator, label, value)
    s <- annotations_long(db_table(con, df, field.types = c(item = "BIGINT", annotator = "TEXT",
                                                            label = "TEXT", value = "INTEGER"),
                                   row.names = FALSE),
                          item, annotator, label, value)
    expect_equal(glance(mla(s)), glance(mla(a)), tolerance = 1e-12)
    if (engine == "postgres") {  # RPostgreSQL: doubles
      expect_mla_error(augment(mla(s)), "id_precision")
      expect_mla_error(mla_boot(mla(s), R = 5), "id_precision")
      # the same class as doubles in memory
      big <- transform(df, item = 2^54 + 4 * match(item, unique(item)))
      expect_mla_error(annotations_long(big, item, annotator, label, value), "id_precision")
    } else {
      expect_same_estimates(s, a)
      boot <- function(x) withr::with_seed(1, suppressWarnings(mla_boot(mla(x), R = 20)))
      expect_identical(boot(s)$t, boot(a)$t)
    }
  })
}

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

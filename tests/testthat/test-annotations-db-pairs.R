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

# The set tables of a database summary (R/annotations-db-sets.R): Jaccard
# and MASI alpha of the worked example equal the in-memory values, and a
# partial record gives the in-memory error. (The set tables of random
# designs are compared in test-annotations-db-counts.R, through
# expect_same_estimates().)

for (engine in names(db_engines)) {
  test_that(paste0(engine, ": set alpha of the worked example and a partial record"), {
    con <- db_engines[[engine]]()
    w <- worked_example_db(con)
    for (s in w$sums) {
      expect_equal(krippendorff_alpha(s), krippendorff_alpha(w$a), tolerance = 1e-12)
    }
    # a partial record: the in-memory error, naming it
    part <- w$ex[-3, ]
    a_part <- annotations_long(part, item, annotator, label, value, labels = levels(bias_example$label))
    s_part <- annotations_long(db_table(con, part), item, annotator, label, value,
                               labels = levels(bias_example$label))
    expect_mla_error(krippendorff_alpha(a_part, "jaccard"), "partial_record")
    expect_mla_error(krippendorff_alpha(s_part, "jaccard"), "partial_record")
    expect_equal(conditionMessage(tryCatch(krippendorff_alpha(s_part, "jaccard"), error = identity)),
                 conditionMessage(tryCatch(krippendorff_alpha(a_part, "jaccard"), error = identity)))
  })
}

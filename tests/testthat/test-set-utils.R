test_that("a partial record is named by item, annotator and missing labels", {
  arr <- array(c(1L, 0L, 1L, 1L, 0L, 1L, 1L, 0L, 1L, 1L, 0L, 0L), c(2, 3, 2),
               dimnames = list(c("i1", "i2"), c("a", "b", "c"), c("x", "y")))
  arr[1, 2, 1] <- NA  # the first partial record in record order
  arr[2, 3, 2] <- NA
  for (call in list(quote(krippendorff_alpha(arr, "jaccard")), quote(agreement_measures(arr)))) {
    err <- expect_mla_error(eval(call), "partial_record")
    msg <- cli::ansi_strip(conditionMessage(err))
    expect_match(msg, 'Item "i1", annotator "b" has missing decisions on 1 label (x)', fixed = TRUE)
    expect_match(msg, "2 such records in all", fixed = TRUE)
  }
  # whole missing records are fine, and equal the records left out altogether
  arr[1, 2, ] <- NA
  arr[2, 3, ] <- NA
  long <- annotations_long(ref_long(arr), item, annotator, label, value)
  expect_equal(krippendorff_alpha(arr, "jaccard"), krippendorff_alpha(long, "jaccard"))
})

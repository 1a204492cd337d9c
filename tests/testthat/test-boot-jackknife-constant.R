# A fuzz finding (tools/fuzz/boot.cpp): leaving out the one annotator who
# marked a label made the label constant, yet the annotator jackknife gave it
# a coefficient (2pq of the residue of the subtracted dd sums) where the
# refit without the annotator has NA.

test_that("leaving out the only annotator with positives of a label gives NA, as the refit does", {
  # item, annotator, then labels a, b, c; only annotator 4 marks label c
  # (on items 2 and 3, which 5 and 6 annotators decided)
  records <- rbind(
    c(1, 1, 0, NA, 0), c(1, 2, 0, 0, NA), c(1, 3, 0, 0, NA), c(1, 4, 1, 0, 0),
    c(1, 5, 1, 0, 0), c(1, 6, 1, 0, 0), c(1, 7, 1, 0, NA),
    c(2, 1, 0, 0, 0), c(2, 2, 0, 0, 0), c(2, 3, NA, NA, NA), c(2, 4, 1, 0, 1),
    c(2, 5, 0, 0, 0), c(2, 6, 0, 0, 0), c(2, 7, 0, 0, NA),
    c(3, 1, NA, NA, 0), c(3, 2, 0, 1, 0), c(3, 3, 0, 0, 0), c(3, 4, 0, 0, 1),
    c(3, 5, 0, 1, 0), c(3, 6, 0, NA, NA), c(3, 7, 0, 0, 0)
  )
  arr <- array(NA_integer_, c(3, 7, 3),
               dimnames = list(paste0("i", 1:3), paste0("a", 1:7), c("a", "b", "c")))
  for (r in seq_len(nrow(records))) arr[records[r, 1], records[r, 2], ] <- records[r, 3:5]
  bs <- withr::with_seed(1, mla_boot(mla(arr), R = 5, resample = "annotators"))
  jack <- boot_jack_values(bs)
  drawn <- bs$engine$annotator_names
  expect_identical(length(drawn), 7L)
  for (a in seq_along(drawn)) {
    fit <- mla(arr[, dimnames(arr)[[2]] != drawn[a], , drop = FALSE])
    expect_equal(unname(jack[a, ]), unname(c(fit$corpus$estimate, fit$label$estimate)),
                 tolerance = 1e-12, label = paste("leaving out", drawn[a]))
  }
  # label c without annotator 4 is constant: its Fleiss kappa (column 3 + 3) is undefined
  expect_true(is.na(jack[4, 6]))
})

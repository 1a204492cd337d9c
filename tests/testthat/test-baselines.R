test_that("the registry's order is the order of the kernel's baseline columns", {
  fit <- mla(bias_annotations())
  expect_identical(tidy(fit)$baseline, baseline_names)
  lab <- tidy(fit, level = "label")
  expect_identical(lab$baseline, baseline_column(31L))
  # each baseline's column is the one mla() reports when asked for it
  for (b in baseline_names) {
    expect_identical(glance(mla(bias_annotations(), baseline = b))$estimate,
                     tidy(fit)$estimate[tidy(fit)$baseline == b])
  }
  expect_equal(tidy(fit)$estimate[tidy(fit)$baseline == "ac1"], 895 / 991, tolerance = 1e-14)
})


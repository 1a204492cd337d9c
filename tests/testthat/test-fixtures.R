# The frozen outside truths (fixtures/, made by data-raw/fixtures-*.R) are
# what irrCAC and irr compute today on the stored designs: recomputed live
# when the packages are installed, so a fixture cannot drift from its source.

# irrCAC's Fleiss, AC1/AC2 and Brennan-Prediger $est rows, as the script saves them.
live_three <- function(m, ...) {
  rbind(irrCAC::fleiss.kappa.raw(m, ...)$est, irrCAC::gwet.ac1.raw(m, ...)$est,
        irrCAC::bp.coeff.raw(m, ...)$est)
}

test_that("the irrCAC fixture is irrCAC's output on its designs", {
  skip_if_not_installed("irrCAC")
  fx <- read_fixture("irrcac.rds")
  expect_identical(fx$data$cac.raw4raters, irrCAC::cac.raw4raters)
  expect_identical(fx$data$cac.raw5obser, irrCAC::cac.raw5obser)
  expect_identical(fx$inference_sets$raw4raters, as.matrix(irrCAC::cac.raw4raters))
  for (case in fx$single_label) {
    expect_equal(case$est, rbind(live_three(case$ratings), irrCAC::krippen.alpha.raw(case$ratings)$est))
  }
  m <- fx$alpha_weights$ratings
  expect_equal(fx$alpha_weights$est$interval, irrCAC::krippen.alpha.raw(m, weights = "quadratic")$est)
  expect_equal(fx$alpha_weights$est$ratio, irrCAC::krippen.alpha.raw(m, weights = "ratio")$est)
  expect_equal(fx$alpha_weights$kd_interval,
               irrCAC::krippen.alpha.raw(krippendorff_nominal(), weights = "quadratic")$est)
  for (w in c("quadratic", "circular")) {
    expect_equal(fx$weighted$est[[w]], live_three(fx$weighted$ratings, weights = w), label = w)
  }
  for (case in fx$weight_matrices[c(1, 12, 23)]) {
    expect_equal(case$matrix, get(paste0(case$scheme, ".weights"), asNamespace("irrCAC"))(case$categ))
  }
  for (case in fx$weighted_inference[c("holes linear", "anxiety ratio", "video bipolar")]) {
    expect_equal(case$est, live_three(fx$inference_sets[[case$set]], weights = case$scheme))
  }
  case <- fx$label_se[[2]]
  expect_equal(case$est[[3]], live_three(case$array[, , 3], categ.labels = c(0, 1)))
  codes <- fx$single_se[[1]]$ratings
  expect_equal(fx$single_se[[1]]$est,
               live_three(codes, categ.labels = sort(unique(stats::na.omit(as.vector(codes))))))
  expect_equal(fx$raw4raters$est, live_three(irrCAC::cac.raw4raters)[1, ])
})

test_that("the irr fixture is irr's output on its designs", {
  skip_if_not_installed("irr")
  fx <- read_fixture("irr.rds")
  env <- new.env()
  utils::data(list = c("diagnoses", "anxiety", "video"), package = "irr", envir = env)
  expect_identical(fx$fleiss_diagnoses$ratings, env$diagnoses)
  expect_identical(read_fixture("irrcac.rds")$inference_sets$anxiety, as.matrix(env$anxiety))
  expect_identical(read_fixture("irrcac.rds")$inference_sets$video, as.matrix(env$video))
  expect_identical(fx$fleiss_diagnoses$value, irr::kappam.fleiss(env$diagnoses)$value)
  expect_identical(fx$nominal$kd$value, irr::kripp.alpha(t(fx$nominal$kd$ratings), "nominal")$value)
  codes <- matrix(match(fx$nominal$two_coders$ratings, letters), 30, 2)
  expect_identical(fx$nominal$two_coders$value, irr::kripp.alpha(t(codes), "nominal")$value)
  arr <- fx$alpha_labels$array
  expect_identical(fx$alpha_labels$value[2], irr::kripp.alpha(t(arr[, , 2]), "nominal")$value)
})

test_that("published values are read as printed", {
  tab <- read_fixture("published.csv")
  expect_named(tab, c("dataset", "quantity", "baseline", "position", "value", "digits", "source"))
  expect_false(anyNA(tab$source))
  # a rounded value has exactly the decimals it claims
  rounded <- !is.na(tab$digits) & grepl(".", tab$value, fixed = TRUE)
  decimals <- nchar(sub("^[^.]*[.]", "", tab$value[rounded]))
  expect_true(all(decimals <= as.integer(tab$digits[rounded])))
  expect_identical(published("worked_example", "corpus_expected"), c(991 / 1116, 125 / 1116, 0.5))
  expect_identical(published("krippendorff_2011", "alpha", "ordinal", digits = 3), 0.815)
  expect_error(published("worked_example", "no such quantity"))
})

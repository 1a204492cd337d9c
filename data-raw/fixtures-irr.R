# irr's results on the designs the tests compare with irr, saved with the
# designs so the tests need neither irr nor the random generators. Run from
# the package root:
#   Rscript data-raw/fixtures-irr.R
# Writes tests/testthat/fixtures/irr.rds. irr returns unrounded values; the
# tests compare them at 1e-12. Every seed and draw order below is the one the
# test used to draw its design live.

source("tests/testthat/helper-data.R")

irr_data <- function(name) {
  env <- new.env()
  utils::data(list = name, package = "irr", envir = env)
  env[[name]]
}

# test-mla.R: Fleiss' kappa of Fleiss (1971)'s psychiatric diagnoses.
diagnoses <- irr_data("diagnoses")
fleiss_diagnoses <- list(ratings = diagnoses, value = irr::kappam.fleiss(diagnoses)$value)

# test-krippendorff-alpha.R: nominal alpha (irr wants coders x units) of
# Krippendorff's reliability data, two coders on complete data, and three
# coders with one missing value (drawn in this order from one seed).
kd <- rbind(
  c(1, 2, 3, 3, 2, 1, 4, 1, 2, NA, NA, NA),
  c(1, 2, 3, 3, 2, 2, 4, 1, 2, 5, NA, 3),
  c(NA, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, NA),
  c(1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, NA)
)
nominal <- list(kd = list(ratings = t(kd), value = irr::kripp.alpha(kd, "nominal")$value))
withr::with_seed(11, {
  two <- matrix(sample(letters[1:4], 60, replace = TRUE), 30, 2)
  codes <- matrix(match(two, letters), 30, 2)
  nominal$two_coders <- list(ratings = two, value = irr::kripp.alpha(t(codes), "nominal")$value)
  x <- matrix(sample(1:3, 60, replace = TRUE), 20, 3)
  x[1, 1] <- NA
  nominal$one_missing <- list(ratings = x, value = irr::kripp.alpha(t(x), "nominal")$value)
})

# test-alpha-labels.R: nominal alpha of each 0/1 label column.
alpha_labels <- withr::with_seed(71, {
  arr <- random_design(40, 4, 5, missing = "cells")
  list(array = arr, value = vapply(seq_len(5), function(j) {
    irr::kripp.alpha(t(arr[, , j]), "nominal")$value
  }, numeric(1)))
})

fixture <- list(
  irr_version = as.character(packageVersion("irr")),
  fleiss_diagnoses = fleiss_diagnoses, nominal = nominal, alpha_labels = alpha_labels
)
saveRDS(fixture, "tests/testthat/fixtures/irr.rds", version = 2)

# irrCAC's results on the designs the tests compare with irrCAC, saved with
# the designs themselves so the tests need neither irrCAC nor the random
# generators to reproduce them. Run from the package root:
#   Rscript data-raw/fixtures-irrcac.R
# Writes tests/testthat/fixtures/irrcac.rds. irrCAC rounds coeff.val and
# coeff.se to 5 decimals and prints conf.int to 3; the tests compare at those
# digits. Every seed and loop below is the one the test used to draw its
# design live, so the fixture checks the same numbers.

stopifnot(packageVersion("irrCAC") >= "1.0")
source("tests/testthat/helper-data.R")

# irrCAC's $est rows of Fleiss' kappa, AC1/AC2 and Brennan-Prediger (one data
# frame, in that order: mla()'s fleiss, ac1, pabak).
three <- function(m, ...) {
  rbind(irrCAC::fleiss.kappa.raw(m, ...)$est, irrCAC::gwet.ac1.raw(m, ...)$est,
        irrCAC::bp.coeff.raw(m, ...)$est)
}
alpha_est <- function(m, ...) irrCAC::krippen.alpha.raw(m, ...)$est

schemes <- mlagreement:::weight_schemes
data_sets <- list(cac.raw4raters = irrCAC::cac.raw4raters, cac.raw5obser = irrCAC::cac.raw5obser)

# test-single-label.R: unequal-rater categorical designs, unweighted.
single_label <- withr::with_seed(5, lapply(1:5, function(rep) {
  m <- random_categorical(40, 5, c("neg", "neu", "pos", "mixed"))
  list(ratings = m, est = rbind(three(m), alpha_est(m)))
}))

# test-weights.R: weighted alpha (interval = quadratic, ratio weights) ...
alpha_weights <- withr::with_seed(7, {
  m <- matrix(sample(1:5, 60 * 5, replace = TRUE), 60, 5)
  m[sample(length(m), 70)] <- NA
  list(ratings = m, est = list(nominal = alpha_est(m, weights = "identity"),
                               interval = alpha_est(m, weights = "quadratic"),
                               ratio = alpha_est(m, weights = "ratio")))
})
# ... on Krippendorff's canonical reliability data (units x coders) ...
kd <- matrix(c(1, 2, 3, 3, 2, 1, 4, 1, 2, NA, NA, NA,  1, 2, 3, 3, 2, 2, 4, 1, 2, 5, NA, 3,
               NA, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, NA,  1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, NA), 12, 4)
alpha_weights$kd_interval <- alpha_est(kd, weights = "quadratic")

# ... and the weighted Fleiss, AC2 and Brennan-Prediger, one declared unused
# category (irrCAC needs categ.labels for it).
weighted <- withr::with_seed(11, {
  m <- matrix(sample(1:5, 80 * 6, replace = TRUE, prob = c(1, 2, 4, 2, 1)), 80, 6)
  m[sample(length(m), 120)] <- NA
  list(ratings = m, est = lapply(stats::setNames(nm = schemes), function(w) three(m, weights = w)),
       unused = irrCAC::fleiss.kappa.raw(m, weights = "quadratic", categ.labels = 1:6)$est)
})

# test-weights.R: irrCAC's weight matrices.
weight_matrices <- list()
for (categ in list(1:5, c(0, 1, 3, 7), c(-3, -1, 0, 2))) {
  for (w in schemes) {
    if (w == "ratio" && any(categ < 0)) next
    ref <- get(paste0(w, ".weights"), asNamespace("irrCAC"))(categ)
    weight_matrices[[length(weight_matrices) + 1]] <- list(categ = categ, scheme = w, matrix = ref)
  }
}

# test-weights-inference.R: standard errors, intervals and p-values of the
# weighted coefficients on irrCAC's and irr's data sets and one with holes.
irr_data <- function(name) {
  env <- new.env()
  utils::data(list = name, package = "irr", envir = env)
  env[[name]]
}
holes <- withr::with_seed(5, {
  h <- matrix(sample(1:5, 60 * 5, replace = TRUE, prob = c(1, 3, 4, 3, 1)), 60, 5)
  h[sample(length(h), 70)] <- NA
  h
})
inference_sets <- list(raw4raters = as.matrix(irrCAC::cac.raw4raters),
                       raw5obser = as.matrix(irrCAC::cac.raw5obser),
                       anxiety = as.matrix(irr_data("anxiety")),
                       video = as.matrix(irr_data("video")), holes = holes)
weighted_inference <- list()
for (set in names(inference_sets)) {
  m <- inference_sets[[set]]
  for (w in setdiff(schemes, "identity")) {
    # irrCAC's ratio weights are 0 / 0 on the diagonal at a category 0
    if (w == "ratio" && any(m == 0, na.rm = TRUE)) next
    weighted_inference[[paste(set, w)]] <- list(set = set, scheme = w, est = three(m, weights = w))
  }
}

# test-analytic-se.R: label standard errors (each label's 0/1 column as a
# two-category design), complete and unequal designs ...
label_se <- list()
withr::with_seed(101, for (rep in 1:3) {
  arr <- random_design(30, 4, 5)
  dimnames(arr) <- list(NULL, NULL, paste0("L", 1:5))
  label_se[[length(label_se) + 1]] <- arr
  arr <- unequal_design(35, 5, 4)
  dimnames(arr) <- list(NULL, NULL, paste0("L", 1:4))
  label_se[[length(label_se) + 1]] <- arr
})
label_se <- lapply(label_se, function(arr) {
  list(array = arr, est = lapply(seq_len(dim(arr)[3]), function(j) three(arr[, , j], categ.labels = c(0, 1))))
})
# ... a label unrated on some items (irrCAC on the rated rows) ...
label_subset <- withr::with_seed(102, {
  arr <- random_design(40, 4, 3)
  arr[1:8, , 2] <- NA
  dimnames(arr) <- list(NULL, NULL, c("a", "b", "c"))
  list(array = arr, est = three(arr[-(1:8), , 2], categ.labels = c(0, 1)))
})
# ... and single-label corpus standard errors.
single_se <- withr::with_seed(103, lapply(1:3, function(rep) {
  codes <- matrix(sample(c("x", "y", "z", "w"), 50 * 4, replace = TRUE,
                         prob = c(0.5, 0.2, 0.2, 0.1)), 50, 4)
  codes[sample(length(codes), 30)] <- NA
  codes[1, 1:2] <- "x"
  list(ratings = codes, est = three(codes, categ.labels = sort(unique(stats::na.omit(as.vector(codes))))))
}))

# test-alpha-intervals.R: binary alpha of a 600-item simulated design, with
# its analytic standard error.
alpha_jackknife <- withr::with_seed(65, {
  a <- mlagreement::simulate_annotations(600, 4, 1, prevalence = 0.3, scenario = "noisy",
                                         error = 0.15)
  arr <- as.array(a)
  list(array = arr, est = alpha_est(arr[, , 1], categ.labels = c(0, 1)))
})

# test-mla.R: Fleiss' kappa of cac.raw4raters.
raw4raters <- list(est = three(irrCAC::cac.raw4raters)[1, ])

fixture <- list(
  irrcac_version = as.character(packageVersion("irrCAC")),
  data = data_sets, single_label = single_label, alpha_weights = alpha_weights,
  weighted = weighted, weight_matrices = weight_matrices, inference_sets = inference_sets,
  weighted_inference = weighted_inference, label_se = label_se, label_subset = label_subset,
  single_se = single_se, alpha_jackknife = alpha_jackknife, raw4raters = raw4raters
)
saveRDS(fixture, "tests/testthat/fixtures/irrcac.rds", version = 2)

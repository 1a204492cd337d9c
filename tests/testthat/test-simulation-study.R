small_study <- function(...) {
  simulation_study(n_annotators = c(2, 3), n_items = c(5, 8), n_labels = c(1, 4),
                   prevalence = c(high = 0.8, low = 0.2), repeats = 2, ...)
}

test_that("tidy result keeps every dimension separate", {
  withr::local_seed(1)
  st <- small_study(measures = "mla")
  expect_s3_class(st, "mla_simulation")
  expect_s3_class(st, "tbl_df")
  expect_named(st, c("scenario", "prevalence_level", "prevalence", "n_annotators", "n_items",
                     "n_labels", "replicate", "seed", "measure", "estimate"))
  mla_measures <- c("observed", "mla_fleiss", "mla_ac1", "mla_pabak", "floor_observed")
  expect_identical(unique(st$measure), mla_measures)
  # 4 scenarios x 2 prevalences x 2 x 2 x 2 designs x 2 repeats, 5 measures each
  expect_identical(nrow(st), 4L * 2L * 8L * 2L * 5L)
  expect_identical(levels(st$prevalence_level), c("high", "low"))
  cells <- unique(st[c("scenario", "prevalence_level", "n_annotators", "n_items", "n_labels",
                       "replicate")])
  expect_identical(nrow(cells), 128L)
  expect_identical(length(unique(st$seed)), 128L)
  expect_equal(st[0, ], tibble::tibble(
    scenario = character(), prevalence_level = factor(character(), levels = c("high", "low")),
    prevalence = double(), n_annotators = integer(), n_items = integer(), n_labels = integer(),
    replicate = integer(), seed = integer(), measure = character(), estimate = double()
  ), ignore_attr = TRUE)
})

test_that("MLA columns agree with mla() on the regenerated data sets", {
  withr::local_seed(2)
  st <- small_study(measures = "mla", scenarios = c("noisy", "independent", "minimum"))
  cells <- unique(st[c("scenario", "prevalence", "n_annotators", "n_items", "n_labels", "seed")])
  for (r in seq_len(nrow(cells))) {
    d <- cells[r, ]
    set.seed(d$seed)
    x <- simulate_annotations(d$n_items, d$n_annotators, d$n_labels, d$prevalence,
                              scenario = d$scenario)
    fit <- mla(x)
    got <- st[st$seed == d$seed, ]
    expect_identical(got$estimate[match(paste0("mla_", fit$corpus$baseline), got$measure)],
                     fit$corpus$estimate)
    expect_identical(got$estimate[got$measure == "observed"], fit$corpus$observed[1])
    expect_identical(got$estimate[got$measure == "floor_observed"], fit$corpus$floor_observed[1])
    ref <- ref_mla_corpus(x$values)
    expect_equal(got$estimate[got$measure == "observed"], ref$observed, tolerance = 1e-12)
  }
})

test_that("reproducible under set.seed(); measures never change the data", {
  a <- withr::with_seed(3, small_study(measures = "mla"))
  b <- withr::with_seed(3, small_study(measures = "mla"))
  c <- withr::with_seed(4, small_study(measures = "mla"))
  expect_identical(a, b)
  expect_false(identical(a$estimate, c$estimate))
  # the caller's stream advances only by the seed draws
  withr::local_seed(5)
  invisible(small_study(measures = "mla"))
  after <- stats::runif(1)
  set.seed(5)
  invisible(sample.int(.Machine$integer.max, 128L))
  expect_identical(after, stats::runif(1))
})

test_that("expected behaviour per scenario", {
  withr::local_seed(6)
  st <- simulation_study(n_annotators = 5, n_items = 100, n_labels = 10, repeats = 3,
                         measures = "mla")
  s <- summary(st)
  get <- function(sc, lv, m) s$mean[s$scenario == sc & s$prevalence_level == lv & s$measure == m]
  for (lv in c("high", "moderate", "low")) {
    expect_equal(get("perfect", lv, "mla_fleiss"), 1)
    expect_lt(abs(get("independent", lv, "mla_fleiss")), 0.03)
    expect_equal(get("minimum", lv, "observed"), get("minimum", lv, "floor_observed"))
  }
  expect_equal(get("noisy", "moderate", "mla_pabak"), 0.64, tolerance = 0.05)
})

test_that("summary averages over the design like Table 4", {
  withr::local_seed(7)
  st <- small_study(measures = "mla", scenarios = "noisy")
  s <- summary(st)
  expect_named(s, c("scenario", "prevalence_level", "measure", "mean", "sd", "n", "n_missing"))
  expect_identical(nrow(s), 2L * 5L)
  sub <- st$estimate[st$prevalence_level == "low" & st$measure == "mla_ac1"]
  expect_equal(s$mean[s$prevalence_level == "low" & s$measure == "mla_ac1"],
               mean(sub, na.rm = TRUE))
  expect_identical(s$n[s$prevalence_level == "low" & s$measure == "mla_ac1"] +
                     s$n_missing[s$prevalence_level == "low" & s$measure == "mla_ac1"], 16L)
  by_n <- summary(st, by = c("n_annotators", "measure"))
  expect_identical(nrow(by_n), 2L * 5L)
})

test_that("alpha measures appear in the study", {
  skip_on_cran()
  withr::local_seed(8)
  st <- simulation_study(n_annotators = 3, n_items = 10, n_labels = 4, repeats = 1,
                         measures = c("mla", "alpha"), scenarios = "noisy")
  expect_true(all(c("alpha_hamming", "alpha_jaccard", "alpha_masi") %in% st$measure))
})

test_that("arguments are validated", {
  expect_mla_snapshot({
    simulation_study(n_annotators = c(3, 1))
    simulation_study(n_items = numeric())
    simulation_study(prevalence = c(a = 0.2, a = 0.4))
    simulation_study(prevalence = c(0.2, 1.4))
    simulation_study(scenarios = "noise")
    simulation_study(repeats = 0)
    simulation_study(error = c(0.1, 0.2))
    simulation_study(measures = "kappa")
    simulation_study(n_items = 5, foo = 1)
  })
  expect_mla_error(simulation_study(repeats = 0))
})

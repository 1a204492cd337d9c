# Ctrl-C without signals: the C++ test hook makes an interrupt check report
# Ctrl-C (interrupt_after_polls_cpp()), the R test hook raises one from a
# long loop. Each interrupted call must end in R's standard `interrupt`
# condition, and a rerun must equal an uninterrupted run. No timing here:
# tools/interrupt.sh measures latencies with real signals.

interrupted_or <- function(expr) {
  tryCatch(expr, interrupt = function(e) "interrupted")
}

# Runs expr with the C++ hook set to report Ctrl-C at the n-th check.
with_cpp_interrupt <- function(expr, n = 1L) {
  interrupt_after_polls_cpp(n)
  on.exit(interrupt_after_polls_cpp(0L), add = TRUE)
  interrupted_or(expr)
}

boot_interrupt_fixture <- function() {
  mla(withr::with_seed(2, random_design(80, 5, 3, prevalence = 0.3, error = 0.1, n_missing = 40,
                                        names = TRUE)))
}

test_that("an interrupted bootstrap raises `interrupt`, and a rerun equals an uninterrupted run", {
  fit <- boot_interrupt_fixture()
  for (resample in c("items", "annotators", "both")) {
    clean <- withr::with_seed(1, mla_boot(fit, R = 300, resample = resample, threads = 2))
    # inside the C++ chunk, from the workers' flag
    expect_identical(with_cpp_interrupt(withr::with_seed(1, mla_boot(fit, R = 300, resample = resample))),
                     "interrupted")
    # between chunks, with the progress bar shown (its exit handler must not raise)
    withr::with_options(
      list(cli.progress_show_after = 0,
           mlagreement.test_hook = function(where) if (where == "boot_chunk") rlang::interrupt()),
      expect_identical(interrupted_or(withr::with_seed(1, mla_boot(fit, R = 300, resample = resample))),
                       "interrupted")
    )
    again <- withr::with_seed(1, mla_boot(fit, R = 300, resample = resample, threads = 1))
    expect_identical(again$t, clean$t)
  }
})

test_that("chunks sized by time do not change the replicates", {
  fit <- boot_interrupt_fixture()
  one_go <- withr::with_seed(3, mla_boot(fit, R = 500))
  # a chunk target of 0 s: one replicate per stream per chunk, chunk after chunk
  chunked <- withr::with_options(list(mlagreement.boot_chunk_seconds = 0),
                                 withr::with_seed(3, mla_boot(fit, R = 500)))
  expect_identical(chunked$t, one_go$t)
  expect_identical(boot_next_chunk(4, 0.05), 16)
  expect_identical(boot_next_chunk(4, 0), 32)
  expect_identical(boot_next_chunk(100, 10), 2)
  expect_identical(boot_next_chunk(3, 100), 1)
})

test_that("the annotator jackknife is interruptible and then recomputed", {
  bs <- withr::with_seed(1, mla_boot(boot_interrupt_fixture(), R = 20, resample = "annotators"))
  expect_identical(with_cpp_interrupt(jackknife_se(bs)), "interrupted")
  expect_null(bs$cache$jack)  # nothing half-done was kept
  expect_identical(nrow(boot_jack_values(bs)), 5L)
})

test_that("set measures and pair passes are interruptible and leave the session usable", {
  x <- as_annotations(withr::with_seed(4, random_design(60, 6, 5, prevalence = 0.3, error = 0.2,
                                                        names = TRUE)))
  am <- withr::with_seed(1, agreement_measures(x, R = 50))
  expect_identical(with_cpp_interrupt(withr::with_seed(1, agreement_measures(x, R = 50))), "interrupted")
  expect_identical(withr::with_seed(1, agreement_measures(x, R = 50)), am)
  exact_size <- function(n_a, n_b, n_ab) as.numeric(n_ab < pmax(n_a, n_b))
  exact_pair <- function(a, b) as.numeric(!setequal(a, b))
  for (distance in list("jaccard", "masi", exact_size, exact_pair)) {
    ka <- krippendorff_alpha(x, distance = distance)
    expect_identical(with_cpp_interrupt(krippendorff_alpha(x, distance = distance)), "interrupted")
    expect_identical(krippendorff_alpha(x, distance = distance), ka)
  }
})

test_that("the pair pass is interruptible and leaves the session usable", {
  # the pass polls every 2^24 label comparisons: 2400 items x 60 annotators x 5
  # labels are 2.1e7 of them
  x <- as_annotations(withr::with_seed(4, random_design(2400, 60, 5, prevalence = 0.3, error = 0.2)))
  aa <- annotator_agreement(x)
  expect_identical(with_cpp_interrupt(annotator_agreement(x)), "interrupted")
  expect_identical(annotator_agreement(x), aa)
})

test_that("an interrupted simulation study raises `interrupt` and restores the generator", {
  args <- list(n_annotators = 3, n_items = 20, n_labels = 3, prevalence = c(moderate = 0.5),
               scenarios = "noisy", repeats = 3, measures = "mla")
  clean <- withr::with_seed(9, do.call(simulation_study, args))
  set.seed(5)
  do.call(simulation_study, args)
  state <- .Random.seed  # the generator after an uninterrupted study
  set.seed(5)
  withr::with_options(
    list(cli.progress_show_after = 0,
         mlagreement.test_hook = function(where) if (where == "simulation") rlang::interrupt()),
    expect_identical(interrupted_or(do.call(simulation_study, args)), "interrupted")
  )
  expect_identical(.Random.seed, state)
  expect_identical(withr::with_seed(9, do.call(simulation_study, args)), clean)
})

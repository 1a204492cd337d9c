# Ctrl-C without signals or timing, in two halves. R side: a mocked C++ entry
# point (or a step of an R loop) raises R's `interrupt` condition, as the
# glue does once its loops have seen Ctrl-C; each interrupted call must end
# in that condition, keep nothing half-done, and a rerun must equal an
# uninterrupted run. C++ side (cpp/interrupts.cpp): the flag, the loops that
# poll it, and the glue's InterruptScope turning a pending Ctrl-C into the
# condition. tools/interrupt.sh measures latencies with real signals.

boot_interrupt_fixture <- function() {
  mla(withr::with_seed(2, random_design(80, 5, 3, prevalence = 0.3, error = 0.1, n_missing = 40,
                                        names = TRUE)))
}

test_that("an interrupted bootstrap raises `interrupt`, and a rerun equals an uninterrupted run", {
  fit <- boot_interrupt_fixture()
  engine <- c(items = "boot_items_cpp", annotators = "boot_records_cpp", both = "boot_records_cpp")
  for (resample in names(engine)) {
    clean <- withr::with_seed(1, mla_boot(fit, R = 300, resample = resample, threads = 2))
    # inside a chunk: the engine returns, then the condition (after the first chunk)
    local({
      mocks <- list(interrupting(engine[[resample]]))
      names(mocks) <- engine[[resample]]
      do.call(local_mocked_bindings_compat, mocks)
      expect_identical(interrupted_or(withr::with_seed(1, mla_boot(fit, R = 300, resample = resample))),
                       "interrupted")
    })
    # between chunks, with the progress bar shown (its exit handler must not raise)
    local({
      withr::local_options(cli.progress_show_after = 0)
      local_mocked_bindings_compat(boot_next_chunk = function(...) rlang::interrupt())
      expect_identical(interrupted_or(withr::with_seed(1, mla_boot(fit, R = 300, resample = resample))),
                       "interrupted")
    })
    again <- withr::with_seed(1, mla_boot(fit, R = 300, resample = resample, threads = 1))
    expect_identical(again$t, clean$t)
  }
})

test_that("chunks sized by time do not change the replicates", {
  fit <- boot_interrupt_fixture()
  one_go <- withr::with_seed(3, mla_boot(fit, R = 500))
  # one replicate per stream per chunk, chunk after chunk
  chunks <- 0L
  local({
    local_mocked_bindings_compat(boot_next_chunk = function(per_stream, elapsed) {
      chunks <<- chunks + 1L
      1
    })
    chunked <- withr::with_seed(3, mla_boot(fit, R = 500))
    expect_identical(chunked$t, one_go$t)
  })
  expect_identical(chunks, as.integer(ceiling(500 / boot_streams_cpp())))
  # the chunk target: 0.2 s, growing at most 8-fold per chunk
  expect_identical(boot_next_chunk(4, 0.05), 16)
  expect_identical(boot_next_chunk(4, 0), 32)
  expect_identical(boot_next_chunk(100, 10), 2)
  expect_identical(boot_next_chunk(3, 100), 1)
  expect_identical(boot_next_chunk(4, 0.05, target = 0.1), 8)
})

test_that("the annotator jackknife is interruptible and then recomputed", {
  bs <- withr::with_seed(1, mla_boot(boot_interrupt_fixture(), R = 20, resample = "annotators"))
  local({
    local_mocked_bindings_compat(boot_jack_records_cpp = interrupting("boot_jack_records_cpp"))
    expect_identical(interrupted_or(jackknife_se(bs)), "interrupted")
  })
  expect_null(bs$cache$jack)  # nothing half-done was kept
  expect_identical(nrow(boot_jack_values(bs)), 5L)
})

test_that("set measures and pair passes are interruptible and leave the session usable", {
  x <- as_annotations(withr::with_seed(4, random_design(60, 6, 5, prevalence = 0.3, error = 0.2,
                                                        names = TRUE)))
  set_entries <- c("set_alpha_cpp", "pair_measures_cpp", "set_alpha_custom_cpp", "set_distinct_cpp")
  with_set_interrupts <- function(expr) {
    mocks <- lapply(set_entries, interrupting)
    names(mocks) <- set_entries
    do.call(local_mocked_bindings_compat, mocks)
    interrupted_or(expr)
  }
  am <- withr::with_seed(1, agreement_measures(x, R = 50))
  expect_identical(with_set_interrupts(withr::with_seed(1, agreement_measures(x, R = 50))), "interrupted")
  expect_identical(withr::with_seed(1, agreement_measures(x, R = 50)), am)
  exact_size <- function(n_a, n_b, n_ab) as.numeric(n_ab < pmax(n_a, n_b))
  exact_pair <- function(a, b) as.numeric(!setequal(a, b))
  for (distance in list("jaccard", "masi", exact_size, exact_pair)) {
    ka <- krippendorff_alpha(x, distance = distance)
    expect_identical(with_set_interrupts(krippendorff_alpha(x, distance = distance)), "interrupted")
    expect_identical(krippendorff_alpha(x, distance = distance), ka)
  }
  aa <- annotator_agreement(x)
  local({
    local_mocked_bindings_compat(pair_sums_cpp = interrupting("pair_sums_cpp"))
    expect_identical(interrupted_or(annotator_agreement(x)), "interrupted")
  })
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
  local({
    # the second simulation is interrupted, with the progress bar shown
    withr::local_options(cli.progress_show_after = 0)
    local_mocked_bindings_compat(study_measures = interrupting("study_measures", after = 2L))
    expect_identical(interrupted_or(do.call(simulation_study, args)), "interrupted")
  })
  expect_identical(.Random.seed, state)
  expect_identical(withr::with_seed(9, do.call(simulation_study, args)), clean)
})

test_that("an interrupted alpha bootstrap or R distance loop leaves only `interrupt`", {
  x <- as_annotations(withr::with_seed(4, random_design(60, 6, 5, prevalence = 0.3, error = 0.2,
                                                        names = TRUE)))
  # the progress bars are shown, so their exit handlers run
  withr::local_options(cli.progress_show_after = 0)
  clean <- withr::with_seed(1, krippendorff_alpha(x, "jaccard", R = 200))
  local({
    local_mocked_bindings_compat(alpha_boot_cpp = interrupting("alpha_boot_cpp"))
    expect_identical(interrupted_or(withr::with_seed(1, krippendorff_alpha(x, "jaccard", R = 200))),
                     "interrupted")
  })
  expect_identical(withr::with_seed(1, krippendorff_alpha(x, "jaccard", R = 200)), clean)
  # a distance written in R: Ctrl-C arrives inside the user's function
  calls <- 0L
  jaccard_r <- function(a, b) {
    calls <<- calls + 1L
    if (calls == 5L) rlang::interrupt()
    if (length(union(a, b)) == 0L) 0 else 1 - length(intersect(a, b)) / length(union(a, b))
  }
  expect_identical(interrupted_or(krippendorff_alpha(x, distance = jaccard_r)), "interrupted")
  expect_equal(krippendorff_alpha(x, distance = jaccard_r)$estimate,
               krippendorff_alpha(x, "jaccard")$estimate, tolerance = 1e-12)
})

# ---------------------------------------------------------------- C++ side ----

test_that("threads.h: the flag runs the check on the owner thread and is lowered by disarm", {
  h <- cpp_harness("interrupts.cpp")
  quiet <- h$flag_polls(0L, 5L)
  expect_identical(quiet$seen, rep(FALSE, 5))
  expect_identical(quiet$checks, 5L)            # interval 0: every poll checks
  expect_false(quiet$other_thread)              # other threads never run the check
  expect_identical(quiet$other_thread_checks, 0L)
  hit <- h$flag_polls(3L, 5L)
  expect_identical(hit$seen, c(FALSE, FALSE, TRUE, TRUE, TRUE))
  expect_identical(hit$checks, 3L)              # once raised, polls only read the flag
  expect_true(hit$other_thread)                 # ... and so do the workers
  expect_identical(hit$other_thread_checks, 0L)
  expect_false(hit$after_disarm)
  # tight loops check at every `every`-th iteration only
  expect_identical(h$polled_iterations(40L, 16L), c(0L, 16L, 32L))
})

test_that("boot_streams.h: a chunk stops at Ctrl-C with whole replicates only", {
  h <- cpp_harness("interrupts.cpp")
  fit <- boot_interrupt_fixture()
  x <- item_x(fit$annotations)
  m <- item_m(fit$annotations)
  storage.mode(x) <- storage.mode(m) <- "integer"
  seed <- c(12L, 34L)
  full <- h$streams_interrupted(x, m, seed, 300L, 1L, 0L)
  expect_false(full$raised)
  expect_identical(full$done, 300)
  expect_identical(full$t, cpp_harness()$boot_items(x, m, seed, 300L, 1L))  # the whole-window runner
  # one poll per replicate: Ctrl-C at the 10th poll leaves 9 replicates
  cut <- h$streams_interrupted(x, m, seed, 300L, 1L, 10L)
  expect_true(cut$raised)
  expect_identical(cut$done, 9)
  done <- !is.na(cut$t[, 1])
  expect_identical(sum(done), 9L)
  expect_identical(cut$t[done, ], full$t[done, ])
})

test_that("boot_jackknife.h: the annotator jackknife stops at Ctrl-C", {
  h <- cpp_harness("interrupts.cpp")
  bs <- withr::with_seed(1, mla_boot(boot_interrupt_fixture(), R = 20, resample = "annotators"))
  e <- bs$engine
  full <- h$jackknife_interrupted(e$view, e$slot, e$n_annotators, 1L, 0L)
  expect_true(full$complete)
  expect_identical(full$jack, unname(boot_jack_values(bs)))
  cut <- h$jackknife_interrupted(e$view, e$slot, e$n_annotators, 1L, 1L)
  expect_true(cut$raised)
  expect_false(cut$complete)
})

test_that("pairs.h and the set engines poll the flag and stop at Ctrl-C", {
  h <- cpp_harness("interrupts.cpp")
  # the pair pass polls every 2^24 label comparisons: 2400 items x 60
  # annotators x 5 labels are 2.1e7 of them
  big <- as_annotations(withr::with_seed(4, random_design(2400, 60, 5, prevalence = 0.3, error = 0.2)))
  view <- annotation_view(big)
  full <- h$pair_pass_interrupted(view, 0L)
  expect_true(full$complete)
  expect_gte(full$polls, 1L)
  expect_identical(full$n_pairs, 60 * 59 / 2)
  cut <- h$pair_pass_interrupted(view, 1L)
  expect_true(cut$raised)
  expect_false(cut$complete)
  x <- as_annotations(withr::with_seed(4, random_design(60, 6, 5, prevalence = 0.3, error = 0.2,
                                                        names = TRUE)))
  a <- set_core_args(x)
  run <- function(routine, at) {
    h$set_routine_interrupted(a, routine, at)
  }
  for (routine in c("alpha", "custom", "distinct", "pairs")) {
    clean <- run(routine, 0L)
    expect_gte(clean$polls, 1L)
    expect_true(run(routine, 1L)$raised, label = routine)
    # the flag is down again: the same result as before
    expect_identical(run(routine, 0L)$value, clean$value, label = routine)
  }
  # the glue computes the same alpha on the same records
  expect_equal(run("alpha", 0L)$value[c(1, 3)] / run("alpha", 0L)$value[c(2, 4)],
               1 - krippendorff_alpha(x, distance = c("jaccard", "masi"))$estimate, tolerance = 1e-12)
})

test_that("glue-interrupt.h: a pending Ctrl-C stops the loop and becomes R's `interrupt`", {
  skip_on_os("windows")  # R_interrupts_pending is not exported to packages there
  h <- cpp_harness("interrupts.cpp")
  fit <- boot_interrupt_fixture()
  x <- item_x(fit$annotations)
  m <- item_m(fit$annotations)
  storage.mode(x) <- storage.mode(m) <- "integer"
  expect_identical(h$glue_chunk(x, m, c(1L, 2L), 300L, 1L, FALSE), 300)
  # R prints a newline for an interrupt; the condition is what matters
  capture.output(got <- interrupted_or(h$glue_chunk(x, m, c(1L, 2L), 300L, 1L, TRUE)), type = "message")
  expect_identical(got, "interrupted")
  after <- h$glue_last_done()
  expect_lt(after$done, 300)   # the workers stopped at the first poll
  expect_identical(after$pending, 0L)
  expect_false(after$raised)   # disarmed: the next call runs to the end
  expect_identical(h$glue_chunk(x, m, c(1L, 2L), 300L, 1L, FALSE), 300)
})

test_that("glue-memory.h: Ctrl-C taken by a collection before a mapping unwinds the C++ frames", {
  h <- cpp_harness("interrupts.cpp")
  expect_identical(h$interrupt_in_collection(FALSE), 2^18)
  expect_identical(h$frames_unwound(), 1L)
  res <- tryCatch(h$interrupt_in_collection(TRUE), interrupt = function(e) "interrupted")
  expect_identical(res, "interrupted")
  # a longjmp over the frame would skip its destructor (and the memory and
  # the R vectors it holds)
  expect_identical(h$frames_unwound(), 1L)
  expect_identical(h$interrupt_in_collection(FALSE), 2^18)  # and the next call works
})

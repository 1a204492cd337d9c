# Analytic standard errors of fits with a label structure: identities with
# plain fits, irrCAC on a group that is a single-label design, and the plain-R
# linearisation of helper-label-structure.R on mixed structures.

se_of <- function(fit, level = "corpus") tidy(fit, level)$std.error

# The inference columns of tidy(), coefficients' and shares'.
inference_of <- function(fit, level = "corpus") {
  out <- tidy(fit, level)
  out[grep("std.error|conf|statistic|p.value", names(out))]
}

test_that("a taxonomy alone gives the plain fit's standard errors", {
  withr::local_seed(301)
  arr <- random_structured_array(40, 4, c("a", "b", "c", "d"))
  # a taxonomy is the plain fit of the closed array
  parent <- c(b = "a", c = "a")
  closed <- arr
  for (l in c("b", "c")) closed[, , "a"][closed[, , l] %in% 1] <- 1L
  for (level in c("corpus", "label")) {
    expect_equal(inference_of(mla(arr, label_tree = parent), level), inference_of(mla(closed), level),
                 tolerance = 1e-12)
  }
})

test_that("an integer weight is the plain fit with the label repeated", {
  withr::local_seed(302)
  arr <- random_structured_array(35, 3, c("a", "b", "c"))
  twice <- array(c(arr, arr[, , "b"]), c(dim(arr)[1:2], 4),
                 dimnames = list(dimnames(arr)[[1]], dimnames(arr)[[2]], c("a", "b", "c", "b2")))
  weighted <- tidy(mla(arr, label_weights = c(b = 2)))
  plain <- tidy(mla(twice))
  expect_equal(weighted$estimate, plain$estimate, tolerance = 1e-12)
  expect_equal(weighted$std.error, plain$std.error, tolerance = 1e-12)
})

test_that("a group is irrCAC's single-label design, with and without 'none'", {
  skip_if_not_installed("irrCAC")
  labels <- c("pos", "neg", "neu")
  for (seed in 303:305) {
    withr::local_seed(seed)
    arr <- random_structured_array(30, 4, labels, list(s = labels), absent = 0.1)
    if (seed == 303) {  # every record answers: the categories are the group's labels
      empty <- apply(arr, c(1, 2), function(v) isTRUE(all(v == 0)))
      for (l in labels) arr[, , l][empty] <- NA
    }
    ratings <- apply(arr, c(1, 2), function(v) {
      if (anyNA(v)) NA_character_ else if (all(v == 0)) "none" else labels[v == 1]
    })
    ratings <- ratings[rowSums(!is.na(ratings)) > 0, ]  # irrCAC: NaN with an unrated item
    fit <- mla(arr, label_groups = list(s = labels))
    refs <- list(irrCAC::fleiss.kappa.raw(ratings)$est, irrCAC::gwet.ac1.raw(ratings)$est,
                 irrCAC::bp.coeff.raw(ratings)$est, irrCAC::pa.coeff.raw(ratings)$est)
    corpus <- tidy(fit)
    group <- tidy(fit, "label")
    group <- group[group$label == "s", ]
    for (b in 1:3) {
      expect_irrcac_se(corpus$std.error[b], refs[[b]], nrow(ratings))
      expect_equal(group$std.error[b], corpus$std.error[b], tolerance = 1e-12)
    }
    expect_irrcac_se(corpus$observed.std.error[1], refs[[4]], nrow(ratings))
    expect_equal(group$observed.std.error, corpus$observed.std.error, tolerance = 1e-12)
  }
})

test_that("mixed structures match the plain-R linearisation, in both layouts", {
  withr::local_seed(306)
  labels <- c("toxic", "insult", "pos", "neg", "x")
  groups <- list(s = c("pos", "neg"))
  parent <- c(insult = "toxic")
  arr <- random_structured_array(30, 5, labels, groups)
  a <- as_annotations(arr)
  for (w in list(NULL, c(x = 2, s = 0.5, toxic = 3))) {
    fit <- mla(a, label_groups = groups, label_tree = parent, label_weights = w)
    expect_equal(se_of(fit), ref_structured_se(a, groups, parent, w), tolerance = 1e-12)
    long <- annotations_long(ref_long(arr), item, annotator, label, value)
    fit_long <- mla(long, label_groups = groups, label_tree = parent, label_weights = w)
    expect_equal(tidy(fit_long), tidy(fit), tolerance = 1e-12)
    by_term <- function(t) t[order(t$term), ]
    expect_equal(by_term(tidy(fit_long, "label")), by_term(tidy(fit, "label")), tolerance = 1e-12)
  }
  # one variable's rows: a group alone, a free label as its plain label row
  fit <- mla(a, label_groups = groups, label_tree = parent)
  rows <- tidy(fit, "label")
  expect_equal(rows$std.error[rows$label == "s"],
               ref_structured_se(as_annotations(arr[, , c("pos", "neg")]), groups), tolerance = 1e-12)
  plain <- tidy(mla(arr[, , c("x", "pos")]), "label")
  expect_equal(rows$std.error[rows$label == "x"], plain$std.error[plain$label == "x"],
               tolerance = 1e-12)
})

test_that("intervals follow the standard errors; weights apply to the labels analysed", {
  withr::local_seed(307)
  arr <- random_structured_array(25, 4, c("a", "b", "c", "d"), list(g = c("b", "c")))
  fit <- mla(arr, label_groups = list(g = c("b", "c")))
  out <- tidy(fit, conf.level = 0.9)
  half <- stats::qt(0.95, fit$design$n_items - 1) * out$std.error
  expect_equal(out$conf.low, out$estimate - half, tolerance = 1e-12)
  expect_equal(out$conf.high, pmin(1, out$estimate + half), tolerance = 1e-12)
  subset <- mla(arr, labels = c("a", "c"), label_weights = c(a = 3))
  expect_equal(se_of(subset), ref_structured_se(as_annotations(arr[, , c("a", "c")]), weights = c(a = 3)),
               tolerance = 1e-12)
})

# The fit's statistics in the order of mla_boot()'s replicates.
fit_stats <- function(fit) unname(c(fit$corpus$estimate, fit$label$estimate))

# The bootstrap tests' structure: a taxonomy, a group and weights.
toxic <- list(labels = c("toxic", "insult", "pos", "neg", "neu", "x"),
              groups = list(s = c("pos", "neg", "neu")), parent = c(insult = "toxic"),
              weights = c(x = 2, s = 3))
structured <- function(a) {
  mla(a, label_groups = toxic$groups, label_tree = toxic$parent, label_weights = toxic$weights)
}

test_that("item replicates and leave-one-out values of a structured fit are refits", {
  withr::local_seed(308)
  arr <- random_structured_array(25, 4, toxic$labels, toxic$groups)
  fit <- structured(arr)
  bs <- withr::with_seed(9, mla_boot(fit, R = 6))
  expect_equal(unname(bs$t0), fit_stats(fit))
  draws <- cpp_boot_draws(bs)$item
  for (b in seq_len(6)) {
    # a replicate is the fit of the items drawn, each as often as drawn
    drawn <- arr[rep(seq_len(25), draws[, b]), , , drop = FALSE]
    dimnames(drawn)[[1]] <- seq_len(dim(drawn)[1])
    replicate <- structured(drawn)
    expect_equal(unname(bs$t[b, ]), fit_stats(replicate), tolerance = 1e-12)
  }
  jack <- mlagreement:::boot_jack_values(bs)
  expect_equal(unname(jack[7, ]), fit_stats(structured(arr[-7, , ])), tolerance = 1e-12)
  # boot::boot()'s statistic gives the fit on the original indices
  statistic <- mlagreement:::boot_index_statistic(bs)
  expect_equal(unname(statistic(NULL, seq_len(25))), fit_stats(fit), tolerance = 1e-12)
  # intervals, with the closed labels' specific agreement and none for groups
  out <- tidy(withr::with_seed(10, mla_boot(fit, R = 500)), "label", type = "perc")
  expect_false(anyNA(out$conf.low))
  expect_identical(is.na(out$positive_agreement.std.error), out$label == "s")
  # clusters and strata go through the same engine
  clusters <- rep(1:21, length.out = 25)
  expect_s3_class(mla_boot(fit, R = 20, cluster = clusters, strata = clusters %% 2), "mla_boot")
})

test_that("annotator replicates of a structured fit weigh records by annotator copies", {
  withr::local_seed(312)
  arr <- random_structured_array(20, 6, toxic$labels, toxic$groups)
  fit <- structured(arr)
  for (resample in c("annotators", "both")) {
    bs <- withr::with_seed(5, mla_boot(fit, R = 5, resample = resample))
    expect_equal(unname(bs$t0), fit_stats(fit))
    draws <- cpp_boot_draws(bs)
    for (b in seq_len(5)) {
      iw <- if (resample == "both") draws$item[, b] else rep(1L, 20)
      expect_equal(unname(bs$t[b, ]),
                   ref_structured_annotator_stats(arr, toxic$groups, toxic$parent, toxic$weights,
                                                  draws$annotator[, b], iw),
                   tolerance = 1e-12)
    }
  }
  # the jackknife (BCa, annotators = "random") leaves out one annotator: refits
  bs <- withr::with_seed(5, mla_boot(fit, R = 5, resample = "annotators"))
  expect_equal(unname(mlagreement:::boot_jack_values(bs)), ref_structured_annotator_jack(fit, 1:6),
               tolerance = 1e-12)
  # BCa intervals from that jackknife
  many <- structured(random_structured_array(30, 15, toxic$labels, toxic$groups))
  bca <- tidy(withr::with_seed(6, mla_boot(many, R = 499, resample = "annotators")), type = "bca")
  expect_true(all(bca$conf.low < bca$estimate & bca$estimate < bca$conf.high))
})

test_that("structured annotator replicates keep partial records as the fit does", {
  withr::local_seed(313)
  labels <- c("toxic", "insult", "pos", "neg", "x")
  groups <- list(s = c("pos", "neg"))
  arr <- random_structured_array(15, 5, labels, groups)
  # single missing decisions: in a group (the record still answers it when
  # it selects one of its labels) and below a taxonomy's parent
  arr[1, 1, "pos"] <- NA
  arr[2, 2, c("pos", "neg")] <- c(NA, 1L)
  arr[3, 3, "toxic"] <- NA
  arr[4, 4, "insult"] <- NA
  long <- annotations_long(ref_long(arr), item, annotator, label, value)
  # dense array and records (long data); weights alone also on a label subset
  structures <- list(list(label_groups = groups, label_tree = c(insult = "toxic")),
                     list(labels = labels[-5], label_weights = c(toxic = 2)))
  for (x in list(arr, long)) for (structure in structures) {
    fit <- do.call(mla, c(list(x), structure))
    data <- mlagreement:::annotator_record_data(fit, threads = 1L)
    stats <- function(aw) drop(mlagreement:::boot_records_statistic(data, matrix(as.integer(aw))))
    # every annotator once is the fit; an annotator left out is the refit
    expect_equal(unname(stats(rep(1, 5))), fit_stats(fit), tolerance = 1e-12)
    expect_equal(unname(stats(c(1, 0, 1, 1, 1))), ref_structured_annotator_jack(fit, 2)[1, ],
                 tolerance = 1e-12)
    expect_equal(unname(mlagreement:::boot_jackknife(data, NULL, "annotators", 1L)),
                 ref_structured_annotator_jack(fit, 1:5), tolerance = 1e-12)
  }
})

test_that("what a structured comparison cannot do is a classed error", {
  withr::local_seed(309)
  arr <- random_structured_array(20, 4, c("a", "b", "c"), list(g = c("a", "b")))
  fit <- mla(arr, label_groups = list(g = c("a", "b")))
  err <- expect_mla_error(mla_compare(fit, mla(arr)), "compare_structure")
  expect_match(conditionMessage(err), "no label structure")
  # the per-item counts of the influence terms stay within the memory limit
  withr::local_options(mlagreement.max_memory = 1000)
  err <- expect_mla_error(tidy(fit), "memory")
  expect_match(conditionMessage(err), "20 items x 6 structure columns")
})

test_that("mla_compare() pairs structured fits on their common items", {
  withr::local_seed(310)
  labels <- c("toxic", "insult", "pos", "neg", "x")
  structure <- list(label_groups = list(s = c("pos", "neg")), label_tree = c(insult = "toxic"),
                    label_weights = c(x = 2, s = 0.5))
  structured <- function(a) do.call(mla, c(list(a), structure))
  arr <- random_structured_array(40, 6, labels, structure$label_groups)
  a <- structured(arr[1:35, 1:3, ])
  b <- structured(arr[40:6, 4:6, ])  # items 6-35 shared, in another order
  # the structure's arguments give the structure back
  expect_identical(do.call(mla, c(list(arr), mlagreement:::structure_arguments(a$structure)))$structure,
                   a$structure)
  cmp <- withr::with_seed(4, mla_compare(a, b, R = 99))
  common <- dimnames(arr)[[1]][6:35]
  expect_equal(cmp$estimate_a, structured(arr[common, 1:3, ])$corpus$estimate, tolerance = 1e-12)
  expect_equal(cmp$estimate_b, structured(arr[common, 4:6, ])$corpus$estimate, tolerance = 1e-12)
  # paired replicates: the refits' mla_boot() replicates with one seed
  seed_boot <- function(fit) withr::with_seed(4, mla_boot(fit, R = 99))
  ref <- seed_boot(structured(arr[common, 1:3, ]))$t[, 1:3] - seed_boot(structured(arr[common, 4:6, ]))$t[, 1:3]
  expect_equal(unname(attr(cmp, "replicates")), unname(ref), tolerance = 1e-12)
})

test_that("annotators as a sample: the annotator jackknife of structured refits", {
  withr::local_seed(311)
  arr <- random_structured_array(30, 9, c("a", "b", "c"))
  # a taxonomy is the plain fit of the closed array, whose annotator
  # jackknife runs in C++
  closed <- arr
  closed[, , "a"][closed[, , "b"] %in% 1] <- 1L
  random <- function(fit, level) {
    tidy(fit, level, annotators = "random")[c("std.error", "statistic", "p.value", "conf.low", "conf.high")]
  }
  for (level in c("corpus", "label")) {
    expect_equal(random(mla(arr, label_tree = c(b = "a")), level), random(mla(closed), level),
                 tolerance = 1e-12)
  }
  # a group every record answers is the single-label design of its labels
  labels <- c("pos", "neg", "neu")
  one <- random_structured_array(30, 9, labels, list(s = labels), absent = 0.1)
  empty <- apply(one, c(1, 2), function(v) isTRUE(all(v == 0)))
  for (l in labels) one[, , l][empty] <- NA
  single <- annotations_long(ref_long(one), item, annotator, label, value, single_label = TRUE)
  grouped <- tidy(mla(one, label_groups = list(s = labels)), annotators = "random")
  plain <- tidy(mla(single), annotators = "random")
  expect_equal(grouped$std.error, plain$std.error, tolerance = 1e-12)
  expect_true(all(grouped$std.error > tidy(mla(one, label_groups = list(s = labels)))$std.error))
})


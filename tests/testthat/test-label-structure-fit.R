# Estimation with a label structure (R/label-structure-fit.R): weighted,
# grouped and taxonomy-closed Hamming alpha and MLA against brute force over
# pairs of records (helper-label-structure.R), what the fit reports, and the
# classed errors of what a structured fit cannot do.

test_that("weighted Hamming alpha and MLA equal brute force on random designs", {
  withr::local_seed(161)
  labels <- letters[1:5]
  w <- c(a = 3, b = 0.5, c = 1, d = 0, e = 2)
  for (rep in 1:3) {
    arr <- random_structured_array(12, 4, labels)
    expect_alpha_matches(arr, label_weights = w,
                         ref_dist = ref_structured_distance(labels, weights = w))
    a <- as_annotations(arr)
    fit <- mla(a, label_weights = w)
    ref <- ref_structured_mla(a, weights = w)
    expect_mla_matches(fit, ref)
    lab <- tidy(fit, "label", conf.int = FALSE)
    expect_equal(lab$weight, as.vector(ref$weight), tolerance = 1e-12)
    # eq. 6 with the user weights: the corpus value is the weighted mean of the label rows
    for (b in baseline_names) {
      rows <- lab[lab$baseline == b & lab$weight > 0, ]
      expect_equal(sum(rows$weight * rows$estimate), fit$corpus$estimate[fit$corpus$baseline == b],
                   tolerance = 1e-12)
    }
  }
})

test_that("weights apply to the label tables: partial missing decisions", {
  withr::local_seed(162)
  arr <- random_structured_array(15, 4, letters[1:4], absent = 0)
  arr[sample(length(arr), 20)] <- NA
  w <- c(a = 2, b = 1, c = 0.25, d = 4)
  plain <- tidy(mla(arr), "label", conf.int = FALSE)
  fit <- mla(arr, label_weights = w)
  for (b in baseline_names) {
    rows <- plain[plain$baseline == b, ]
    u <- w[rows$label]
    expect_equal(fit$corpus$estimate[fit$corpus$baseline == b],
                 sum(u * (rows$observed - rows$expected)) / sum(u * (1 - rows$expected)),
                 tolerance = 1e-12)
  }
  # alpha: per-label binary alphas by brute force, pooled with the weights
  recs <- ref_records_by_item(as_annotations(arr))
  per <- vapply(seq_along(w), function(j) {
    vals <- lapply(recs, function(item) {
      x <- vapply(item, `[`, numeric(1), j)
      as.list(x[!is.na(x)])
    })
    ref_alpha(vals, function(u, v) as.numeric(u != v))[c("observed", "expected")]
  }, numeric(2))
  got <- krippendorff_alpha(arr, "hamming", label_weights = w)
  expect_equal(got$observed_disagreement, sum(w * per[1, ]) / sum(w), tolerance = 1e-12)
  expect_equal(got$estimate, 1 - sum(w * per[1, ]) / sum(w * per[2, ]), tolerance = 1e-12)
})

test_that("equal weights and a flat taxonomy are exactly Hamming", {
  withr::local_seed(163)
  arr <- random_structured_array(20, 5, letters[1:6])
  plain <- mla(arr)
  expect_identical(tidy(mla(arr, label_weights = c(a = 2, b = 2, c = 2, d = 2, e = 2, f = 2))),
                   tidy(plain))
  flat <- stats::setNames(rep(NA_character_, 6), letters[1:6])
  expect_identical(tidy(mla(arr, label_tree = flat)), tidy(plain))
  expect_identical(krippendorff_alpha(arr, "hamming", label_tree = flat),
                   krippendorff_alpha(arr, "hamming"))
  # the structured path itself at equal weights: every label its own group
  # (a nominal variable of two categories is a binary label)
  singletons <- stats::setNames(as.list(letters[1:6]), paste0("g_", letters[1:6]))
  fit <- mla(arr, label_groups = singletons)
  expect_equal(tidy(fit)$estimate, tidy(plain)$estimate, tolerance = 1e-12)
  expect_equal(tidy(fit, "item")$estimate, tidy(plain, "item")$estimate, tolerance = 1e-12)
  expect_equal(krippendorff_alpha(arr, "hamming", label_groups = singletons)$estimate,
               krippendorff_alpha(arr, "hamming")$estimate, tolerance = 1e-12)
})

test_that("groups equal brute force on random designs, with free labels and weights", {
  withr::local_seed(164)
  labels <- c("pos", "neg", "neu", "sports", "politics", "tech")
  groups <- list(sentiment = c("pos", "neg", "neu"), field = c("sports", "politics"))
  w <- c(sentiment = 2, tech = 0.5)
  for (rep in 1:3) {
    arr <- random_structured_array(14, 4, labels, groups)
    expect_alpha_matches(arr, label_groups = groups,
                         ref_dist = ref_structured_distance(labels, groups))
    expect_alpha_matches(arr, label_groups = groups, label_weights = w,
                         ref_dist = ref_structured_distance(labels, groups, weights = w))
    a <- as_annotations(arr)
    expect_mla_matches(mla(a, label_groups = groups, label_weights = w),
                       ref_structured_mla(a, groups, weights = w))
  }
})

test_that("one group over all labels of one-hot data is the single-label fit and nominal alpha", {
  kd <- krippendorff_nominal()
  single <- as_annotations(kd)
  onehot <- as_annotations(as.array(single))  # the same records, multi-label
  all <- list(category = onehot$labels)
  got <- krippendorff_alpha(onehot, "hamming", label_groups = all)
  expect_equal(got$estimate, published("krippendorff_2011", "alpha", digits = 10), tolerance = 1e-10)
  expect_equal(got$estimate, krippendorff_alpha(single, "nominal")$estimate, tolerance = 1e-12)
  fit <- mla(onehot, label_groups = all)
  ref <- mla(single)
  expect_equal(tidy(fit)$estimate, tidy(ref)$estimate, tolerance = 1e-12)
  expect_equal(tidy(fit)$expected, tidy(ref)$expected, tolerance = 1e-12)
  expect_equal(tidy(fit, "item")$observed, tidy(ref, "item")$observed, tolerance = 1e-12)
  expect_equal(tidy(fit, "item")$estimate, tidy(ref, "item")$estimate, tolerance = 1e-12)
})

test_that("a taxonomy closes each annotation and equals brute force", {
  withr::local_seed(165)
  labels <- c("animal", "mammal", "dog", "cat", "bird", "plant", "tree")
  parent <- c(mammal = "animal", dog = "mammal", cat = "mammal", bird = "animal", tree = "plant")
  w <- c(animal = 0.5, dog = 2)
  for (rep in 1:3) {
    arr <- random_structured_array(12, 4, labels, p = 0.25)
    expect_alpha_matches(arr, label_tree = parent,
                         ref_dist = ref_structured_distance(labels, parent = parent))
    expect_alpha_matches(arr, label_tree = parent, label_weights = w,
                         ref_dist = ref_structured_distance(labels, parent = parent, weights = w))
    a <- as_annotations(arr)
    expect_mla_matches(mla(a, label_tree = parent, label_weights = w),
                       ref_structured_mla(a, parent = parent, weights = w))
  }
  # the closure is what Label Studio stores: the closed array without a tree
  closed <- arr
  for (l in c("dog", "cat", "mammal", "bird", "tree")) {
    sel <- which(closed[, , l] == 1)
    p <- closed[, , parent[[l]]]
    p[sel] <- 1L
    closed[, , parent[[l]]] <- p
  }
  expect_equal(tidy(mla(arr, label_tree = parent), "label", conf.int = FALSE)[, 1:9],
               tidy(mla(closed), "label", conf.int = FALSE)[, 1:9])
  # Label Studio-style paths give the same tree
  paths <- list(c("animal", "mammal", "dog"), c("animal", "mammal", "cat"), c("animal", "bird"),
                c("plant", "tree"))
  expect_identical(krippendorff_alpha(arr, "hamming", label_tree = paths),
                   krippendorff_alpha(arr, "hamming", label_tree = parent))
})

test_that("groups and a taxonomy combine", {
  withr::local_seed(166)
  labels <- c("toxic", "insult", "threat", "pos", "neg")
  parent <- c(insult = "toxic", threat = "toxic")
  groups <- list(polarity = c("pos", "neg"))
  arr <- random_structured_array(12, 4, labels, groups)
  expect_alpha_matches(arr, label_tree = parent, label_groups = groups,
                       ref_dist = ref_structured_distance(labels, groups, parent))
  a <- as_annotations(arr)
  expect_mla_matches(mla(a, label_tree = parent, label_groups = groups),
                     ref_structured_mla(a, groups, parent))
})

test_that("the fit says which structure it used", {
  arr <- random_structured_array(8, 3, c("pos", "neg", "x"), list(s = c("pos", "neg")))
  fit <- mla(arr, label_groups = list(s = c("pos", "neg")), label_weights = c(x = 2))
  expect_match(glance(fit)$design, "structure.*label weights.*groups s")
  expect_match(paste(format(fit), collapse = "\n"), "groups s")
  lab <- tidy(fit, "label", conf.int = FALSE)
  expect_true("s" %in% lab$label)
  expect_true(all(is.na(lab$weight[lab$label %in% c("pos", "neg")])))
  withr::local_options(rlib_message_verbosity = "verbose")
  expect_no_message(out <- tidy(fit), class = "mlagreement_message_no_inference")
  expect_false(anyNA(out$std.error))
})

test_that("the records layout gives the dense layout's values", {
  withr::local_seed(167)
  labels <- c("toxic", "insult", "threat", "pos", "neg", "neu", "other")
  parent <- c(insult = "toxic", threat = "toxic")
  groups <- list(polarity = c("pos", "neg", "neu"))
  w <- c(polarity = 3, other = 0.5)
  arr <- random_structured_array(2500, 4, labels, groups)  # > 1 block of items and of records
  long <- annotations_long(ref_long(arr), item, annotator, label, value,
                           labels = labels)
  expect_false(mlagreement:::is_dense_layout(long))
  dense <- mla(arr, label_tree = parent, label_groups = groups, label_weights = w)
  sparse <- mla(long, label_tree = parent, label_groups = groups, label_weights = w)
  expect_equal(tidy(sparse, conf.int = FALSE), tidy(dense, conf.int = FALSE), tolerance = 1e-14)
  # items with no record are absent from the long data
  si <- tidy(sparse, "item")
  di <- tidy(dense, "item")
  di <- di[match(paste(si$item, si$baseline), paste(di$item, di$baseline)), ]
  expect_equal(si$observed, di$observed, tolerance = 1e-14)
  expect_equal(si$estimate, di$estimate, tolerance = 1e-14)
  expect_equal(krippendorff_alpha(long, "hamming", label_tree = parent, label_groups = groups),
               krippendorff_alpha(arr, "hamming", label_tree = parent, label_groups = groups),
               tolerance = 1e-14)
  bad <- ref_long(arr)
  bad$value[bad$item == "i7" & bad$annotator == "a2" & bad$label %in% c("pos", "neg")] <- 1
  bad_a <- annotations_long(bad, item, annotator, label, value, labels = labels)
  err <- expect_mla_error(mla(bad_a, label_groups = groups), "label_group_record")
  expect_match(conditionMessage(err), "i7")
})

test_that("weights apply to the labels analysed", {
  withr::local_seed(168)
  arr <- random_structured_array(15, 4, letters[1:4])
  fit <- mla(arr, labels = c("a", "c"), label_weights = c(a = 3))
  plain <- tidy(mla(arr, labels = c("a", "c")), "label", conf.int = FALSE)
  rows <- plain[plain$baseline == "fleiss", ]
  u <- c(a = 3, c = 1)[rows$label]
  expect_equal(fit$corpus$estimate[1],
               sum(u * (rows$observed - rows$expected)) / sum(u * (1 - rows$expected)),
               tolerance = 1e-12)
  err <- expect_mla_error(mla(arr, labels = c("a", "c"), label_weights = c(b = 3)), "label_weights")
  expect_match(conditionMessage(err), "Not among")
})

test_that("what a structured fit cannot do is a classed error naming the offender", {
  arr <- random_structured_array(6, 3, c("a", "b", "c"))
  arr[1, 1, ] <- c(1L, 1L, 0L)
  expect_mla_snapshot(mla(arr, label_groups = list(g = c("a", "b"))), "label_group_record")
  expect_mla_snapshot(krippendorff_alpha(arr, label_groups = list(g = c("a", "b"))),
                      "label_group_record")
  expect_mla_snapshot(krippendorff_alpha(arr, c("hamming", "jaccard"), label_weights = c(a = 2)),
                      "label_structure")
  expect_mla_error(krippendorff_alpha(arr, "hamming", R = 10, label_weights = c(a = 2)),
                   "label_structure")
  expect_mla_error(mla(as_annotation_counts(as_annotations(arr)), label_weights = c(a = 2)),
                   "needs_records")
})

test_that("the corpus floor of a structured fit: weighted label floors, none for a group", {
  withr::local_seed(168)
  arr <- random_structured_array(12, 4, c("a", "b", "c"))
  weighted <- mla(arr, label_weights = c(a = 3, b = 1, c = 0.5))
  # eq. 7 per closed label (the plain fit's label floors), weighted as the estimate
  plain <- ref_mla(arr)
  u <- c(3, 1, 0.5)
  expect_equal(weighted$corpus$floor_observed, rep(sum(u * plain$label$floor_ao) / sum(u), 3),
               tolerance = 1e-12)
  expect_false("corpus" %in% weighted$notes$level)
  expect_match(paste(capture.output(print(weighted)), collapse = "\n"), "A_o,min")
})

test_that("a group's eq. 7 floor is the nominal floor of its categories", {
  withr::local_seed(169)
  groups <- list(g = c("a", "b"))
  arr <- random_structured_array(12, 4, c("a", "b", "c"), groups)  # absent records: unequal m
  a <- as_annotations(arr)
  fit <- mla(a, label_groups = groups, label_weights = c(g = 2, c = 1))
  ref <- ref_structured_variables(a, groups)
  g <- tidy(fit, "label")
  g <- g[g$label == "g", ]
  expect_equal(g$floor, (ref$g$floor_ao - ref$g$ae) / (1 - ref$g$ae), tolerance = 1e-12)
  expect_equal(fit$corpus$floor_observed,
               rep((2 * ref$g$floor_ao + ref$c$floor_ao) / 3, 3), tolerance = 1e-12)
  expect_false("corpus" %in% fit$notes$level)
  # a group of one label is that label with "none": the binary floor
  one <- mla(a, label_groups = list(g1 = "c"))
  expect_equal(tidy(one, "label")$floor[tidy(one, "label")$label == "g1"],
               tidy(mla(a), "label")$floor[tidy(mla(a), "label")$label == "c"], tolerance = 1e-12)
})

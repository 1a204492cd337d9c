# Labels with structure: weights, mutually exclusive groups, taxonomies.
# References are plain R, straight from the definitions: the structured
# distance of two annotations, alpha by brute force over all pairs of values
# (ref_alpha(), helper-alpha.R), and MLA from explicit pairs of records.

# Closes an annotation (0/1 vector named by label) under the taxonomy and
# returns its variables: free labels (0/1) and groups (the selected label or
# "none").
ref_variables <- function(v, labels, groups = list(), parent = NULL) {
  names(v) <- labels
  if (!is.null(parent)) {
    for (l in labels[v == 1]) {
      p <- if (l %in% names(parent)) parent[[l]] else NA
      while (!is.null(p) && !is.na(p)) {
        v[[p]] <- 1
        p <- if (p %in% names(parent)) parent[[p]] else NA
      }
    }
  }
  free <- setdiff(labels, unlist(groups))
  out <- as.list(as.character(v[free]))
  names(out) <- free
  for (g in names(groups)) {
    sel <- groups[[g]][v[groups[[g]]] == 1]
    out[[g]] <- if (length(sel) == 0) "none" else sel
  }
  out
}

ref_weights <- function(vars, weights) {
  u <- stats::setNames(rep(1, length(vars)), vars)
  u[names(weights)] <- weights
  u
}

# d(r, s) = sum_v u_v [r_v != s_v] / sum_v u_v
ref_structured_distance <- function(labels, groups = list(), parent = NULL, weights = NULL) {
  function(r, s) {
    a <- ref_variables(r, labels, groups, parent)
    b <- ref_variables(s, labels, groups, parent)
    u <- ref_weights(names(a), weights)
    sum(u * (unlist(a) != unlist(b))) / sum(u)
  }
}

# MLA from explicit pairs of records: per variable, the share of agreeing
# ordered pairs within items and Gwet's category prevalences.
ref_structured_mla <- function(a, groups = list(), parent = NULL, weights = NULL) {
  by_item <- ref_records_by_item(a)
  vars <- lapply(by_item, function(recs) lapply(recs, ref_variables, a$labels, groups, parent))
  names_v <- c(setdiff(a$labels, unlist(groups)), names(groups))
  u <- ref_weights(names_v, weights)
  per_var <- lapply(names_v, function(v) {
    vals <- lapply(vars, function(recs) vapply(recs, function(r) r[[v]], ""))
    cats <- if (v %in% names(groups)) c(groups[[v]], "none") else c("0", "1")
    item_ao <- vapply(vals, function(x) {
      m <- length(x)
      if (m < 2) return(NA_real_)
      pairs <- outer(x, x, `==`)
      (sum(pairs) - m) / (m * (m - 1))
    }, numeric(1))
    pi <- rowMeans(vapply(vals[lengths(vals) > 0], function(x) table(factor(x, cats)) / length(x),
                          numeric(length(cats))))
    if (v %in% names(groups) && pi[["none"]] == 0) pi <- pi[names(pi) != "none"]
    q <- length(pi)
    ae <- if (v %in% names(groups)) {
      c(sum(pi^2), sum(pi * (1 - pi)) / (q - 1), 1 / q)
    } else {
      c(sum(pi^2), 2 * prod(pi), 1 / 2)
    }
    list(item = item_ao, ao = mean(item_ao, na.rm = TRUE), ae = ae)
  })
  ao <- vapply(per_var, `[[`, 0, "ao")
  ae <- vapply(per_var, `[[`, numeric(3), "ae")
  items <- vapply(per_var, `[[`, numeric(length(by_item)), "item")
  if (!is.matrix(items)) items <- matrix(items, nrow = length(by_item))
  item_obs <- apply(items, 1, function(x) sum((u * x)[!is.na(x)]) / sum(u[!is.na(x)]))
  expected <- colSums(u * t(ae)) / sum(u)
  list(
    estimate = colSums(u * (ao - t(ae))) / colSums(u * (1 - t(ae))),
    observed = sum(u * ao) / sum(u),
    expected = expected,
    weight = u * (1 - t(ae)) / rep(colSums(u * (1 - t(ae))), each = length(u)),
    item_observed = item_obs,
    item_estimate = 1 - outer(1 - item_obs, 1 - expected, `/`)
  )
}

# Random design: items x annotators x labels, some whole records absent;
# labels of each group exclude one another.
random_structured_array <- function(n_items, n_ann, labels, groups = list(), p = 0.35, absent = 0.2) {
  arr <- array(stats::rbinom(n_items * n_ann * length(labels), 1, p),
               c(n_items, n_ann, length(labels)),
               dimnames = list(paste0("i", seq_len(n_items)), paste0("a", seq_len(n_ann)), labels))
  for (g in groups) {
    for (i in seq_len(n_items)) for (c in seq_len(n_ann)) {
      arr[i, c, g] <- 0L
      pick <- sample(c(g, NA), 1)
      if (!is.na(pick)) arr[i, c, pick] <- 1L
    }
  }
  for (i in seq_len(n_items)) for (c in seq_len(n_ann)) if (stats::runif(1) < absent) arr[i, c, ] <- NA
  arr
}

expect_alpha_matches <- function(arr, ..., ref_dist) {
  a <- as_annotations(arr)
  got <- krippendorff_alpha(a, "hamming", ...)
  ref <- ref_alpha(ref_records_by_item(a), ref_dist)
  expect_equal(got$observed_disagreement, ref[["observed"]], tolerance = 1e-12)
  expect_equal(got$expected_disagreement, ref[["expected"]], tolerance = 1e-12)
  # absolute: alpha near 0 is a difference of nearly equal numbers
  expect_lt(abs(got$estimate - ref[["alpha"]]), 1e-12)
}

expect_mla_matches <- function(fit, ref) {
  cor <- tidy(fit, conf.int = FALSE)
  expect_equal(cor$estimate, unname(ref$estimate), tolerance = 1e-12)
  expect_equal(cor$observed, rep(ref$observed, 3), tolerance = 1e-12)
  expect_equal(cor$expected, unname(ref$expected), tolerance = 1e-12)
  items <- tidy(fit, "item")
  expect_equal(items$observed, rep(ref$item_observed, 3), tolerance = 1e-12)
  expect_equal(items$estimate, as.vector(ref$item_estimate), tolerance = 1e-12)
}

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
  expect_equal(got$estimate, 0.7434210526, tolerance = 1e-10)
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
  expect_message(tidy(fit), class = "mlagreement_message_no_inference")
})

test_that("invalid structures are classed errors naming the offender", {
  arr <- random_structured_array(6, 3, c("a", "b", "c"))
  arr[1, 1, ] <- c(1L, 1L, 0L)
  expect_mla_snapshot(mla(arr, label_groups = list(g = c("a", "b"))), "label_group_record")
  expect_mla_snapshot(krippendorff_alpha(arr, label_groups = list(g = c("a", "b"))),
                      "label_group_record")
  expect_mla_snapshot(mla(arr, label_groups = list(g = c("a", "z"))), "label_groups")
  expect_mla_snapshot(mla(arr, label_groups = list(g = "a", h = c("a", "b"))), "label_groups")
  expect_mla_error(mla(arr, label_groups = list(c("a", "b"))), "label_groups")
  expect_mla_error(mla(arr, label_groups = list(a = c("b", "c"))), "label_groups")
  expect_mla_snapshot(mla(arr, label_tree = c(b = "q")), "label_tree")
  expect_mla_snapshot(mla(arr, label_tree = c(a = "b", b = "c", c = "a")), "label_tree_cycle")
  expect_mla_error(mla(arr, label_tree = list(c("a", "b"), c("c", "b"))), "label_tree")
  expect_mla_snapshot(mla(arr, label_weights = c(a = -1)), "label_weights")
  expect_mla_error(mla(arr, label_weights = c(a = 0, b = 0, c = 0)), "label_weights")
  expect_mla_error(mla(arr, label_weights = c(z = 1)), "label_weights")
  expect_mla_error(mla(arr, label_weights = 1:3), "label_weights")
  expect_mla_error(mla(arr, label_weights = c(a = 1), label_groups = list(g = c("a", "b"))),
                   "label_weights")
  expect_mla_error(mla(arr, labels = c("a", "b"), label_tree = c(b = "a")), "label_structure")
  expect_mla_snapshot(krippendorff_alpha(arr, c("hamming", "jaccard"), label_weights = c(a = 2)),
                      "label_structure")
  expect_mla_error(krippendorff_alpha(arr, "hamming", R = 10, label_weights = c(a = 2)),
                   "label_structure")
  fit <- mla(arr, label_weights = c(a = 2))
  expect_mla_error(mla_boot(fit, R = 10), "label_structure")
  expect_mla_error(mla(as_annotation_counts(as_annotations(arr)), label_weights = c(a = 2)),
                   "needs_records")
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

# A taxonomy whose nodes are also the labels of a group (the group is
# exclusive after the closure), nested nodes, and free labels the structure
# does not touch: one choice per record among the group's subtrees.
random_touched_array <- function(n_items, n_ann, absent = 0.2) {
  labels <- c("free1", "animal", "mammal", "dog", "cat", "plant", "tree", "free2", "bird")
  choices <- c("animal", "mammal", "dog", "cat", "plant", "tree", "bird", NA)
  arr <- array(0L, c(n_items, n_ann, length(labels)),
               dimnames = list(paste0("i", seq_len(n_items)), paste0("a", seq_len(n_ann)), labels))
  pick <- sample(choices, n_items * n_ann, replace = TRUE)
  cells <- which(!is.na(pick))
  arr[cbind(rep(seq_len(n_items), n_ann)[cells], rep(seq_len(n_ann), each = n_items)[cells],
            match(pick[cells], labels))] <- 1L
  arr[, , "free1"] <- stats::rbinom(n_items * n_ann, 1, 0.3)
  arr[, , "free2"] <- stats::rbinom(n_items * n_ann, 1, 0.6)
  gone <- which(stats::runif(n_items * n_ann) < absent)
  for (r in gone) arr[(r - 1) %% n_items + 1, (r - 1) %/% n_items + 1, ] <- NA
  arr
}
touched_tree <- c(mammal = "animal", dog = "mammal", cat = "mammal", bird = "animal",
                  tree = "plant")
touched_groups <- list(kingdom = c("animal", "plant"))

test_that("a structure touching some labels (nodes in a group, nested nodes) equals brute force", {
  withr::local_seed(169)
  labels <- dimnames(random_touched_array(1, 1))[[3]]
  w <- c(kingdom = 2, free2 = 0.5, dog = 3)
  for (rep in 1:2) {
    arr <- random_touched_array(14, 4)
    expect_alpha_matches(arr, label_tree = touched_tree, label_groups = touched_groups,
                         ref_dist = ref_structured_distance(labels, touched_groups, touched_tree))
    expect_alpha_matches(arr, label_tree = touched_tree, label_groups = touched_groups,
                         label_weights = w,
                         ref_dist = ref_structured_distance(labels, touched_groups, touched_tree, w))
    expect_alpha_matches(arr, label_tree = touched_tree,
                         ref_dist = ref_structured_distance(labels, parent = touched_tree))
  }
})

test_that("the touched-label pass equals the full pass: chunks, missing decisions, threads", {
  withr::local_seed(170)
  arr <- random_touched_array(1500, 3)  # several chunks of items
  arr[sample(length(arr), 400)] <- NA   # single missing decisions
  arr[, , "cat"][arr[, , "dog"] %in% 1] <- NA
  dbl <- arr
  storage.mode(dbl) <- "double"
  for (x in list(arr, dbl, arr > 0)) {
    a <- as_annotations(x)
    for (s in list(list(touched_tree, touched_groups), list(touched_tree, NULL),
                   list(NULL, list(g = c("dog", "cat", "tree"))))) {
      st <- mlagreement:::resolve_label_structure(a, label_tree = s[[1]], label_groups = s[[2]])
      full <- mlagreement:::structure_pass(a, st)
      fast <- mlagreement:::structure_tables(a, st, threads = 1L, call = NULL)
      # the variables read identical tables (grouped labels' own columns are not used)
      used <- c(st$free, length(st$labels) + seq_len(ncol(full$cnt) - length(st$labels)))
      for (tab in c("cnt", "sx", "sdis")) {
        expect_identical(fast[[tab]][, used], unname(full[[tab]][, used]))
      }
      expect_identical(mlagreement:::structure_tables(a, st, threads = 2L, call = NULL), fast)
      args <- list(a, "hamming", label_tree = s[[1]], label_groups = s[[2]])
      expect_identical(do.call(krippendorff_alpha, c(args, threads = 2)),
                       do.call(krippendorff_alpha, c(args, threads = 1)))
    }
  }
})

test_that("the touched-label pass names a record breaking a group", {
  arr <- random_touched_array(1200, 3, absent = 0)
  arr[1100, 2, c("dog", "plant")] <- 1L  # dog implies animal: two labels of the group
  err <- expect_mla_error(
    krippendorff_alpha(arr, label_tree = touched_tree, label_groups = touched_groups),
    "label_group_record"
  )
  expect_match(conditionMessage(err), "i1100")
  expect_match(conditionMessage(err), "a2")
})

test_that("the touched-label pass equals the full pass: large groups, groups next to a tree", {
  withr::local_seed(171)
  labels <- letters[1:10]
  for (n_ann in c(5, 9)) {  # annotator blocks four at a time, and the rest
    arr <- random_structured_array(1100, n_ann, labels, groups = list(labels[1:5]))
    arr[sample(length(arr), 300)] <- NA
    a <- as_annotations(arr)
    tree <- c(g = "f", h = "f", i = "h", j = "i")
    for (s in list(list(tree, list(big = labels[1:5])), list(tree, list(small = labels[1:3])),
                   list(NULL, list(big = labels[1:5])))) {
      st <- mlagreement:::resolve_label_structure(a, label_tree = s[[1]], label_groups = s[[2]])
      full <- mlagreement:::structure_pass(a, st)
      fast <- mlagreement:::structure_tables(a, st, threads = 1L, call = NULL)
      used <- c(st$free, length(st$labels) + seq_len(ncol(full$cnt) - length(st$labels)))
      for (tab in c("cnt", "sx", "sdis")) {
        expect_identical(fast[[tab]][, used], unname(full[[tab]][, used]))
      }
      expect_identical(mlagreement:::structure_tables(a, st, threads = 2L, call = NULL), fast)
    }
  }
})

# Label structures as the user gives them (R/label-structure.R): weights,
# groups and taxonomies are checked, with classed errors naming the offender.
# Estimation with a structure: test-label-structure-fit.R.

test_that("invalid structures are classed errors naming the offender", {
  arr <- random_structured_array(6, 3, c("a", "b", "c"))
  arr[1, 1, ] <- c(1L, 1L, 0L)  # a record selecting two labels of group g
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
    # double and logical arrays: the same closing and grouping pass
    dbl <- arr
    storage.mode(dbl) <- "double"
    args <- list(label_tree = touched_tree, label_groups = touched_groups)
    for (x in list(dbl, arr > 0)) {
      expect_identical(do.call(krippendorff_alpha, c(list(x), args)),
                       do.call(krippendorff_alpha, c(list(arr), args)))
    }
  }
})

test_that("a record breaking a group after the closure is named", {
  arr <- random_touched_array(1200, 3, absent = 0)
  arr[1100, 2, c("dog", "plant")] <- 1L  # dog implies animal: two labels of the group
  err <- expect_mla_error(
    krippendorff_alpha(arr, label_tree = touched_tree, label_groups = touched_groups),
    "label_group_record"
  )
  expect_match(conditionMessage(err), "i1100")
  expect_match(conditionMessage(err), "a2")
})

test_that("a label repeated inside one group is refused, not merged", {
  arr <- random_structured_array(6, 3, c("a", "b", "c"))
  err <- expect_mla_error(mla(arr, label_groups = list(g = c("a", "b", "a"))), "label_groups")
  expect_match(conditionMessage(err), "listed 2 times", fixed = TRUE)
})

test_that("a repeated name in a structure argument names that argument", {
  arr <- random_structured_array(6, 3, c("p", "q"))
  err <- expect_mla_snapshot(mla(arr, label_weights = c(p = 1, p = 2)), "duplicate_name")
  expect_match(conditionMessage(err), "`label_weights`", fixed = TRUE)
  err <- expect_mla_snapshot(mla(arr, label_tree = c(q = "p", q = NA)), "duplicate_name")
  expect_match(conditionMessage(err), "`label_tree`", fixed = TRUE)
  err <- expect_mla_snapshot(mla(arr, label_groups = list(G = "p", G = "q")), "duplicate_name")
  expect_match(conditionMessage(err), "`label_groups`", fixed = TRUE)
})

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

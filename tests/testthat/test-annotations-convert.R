# Designs of every layout: records (long data), dense arrays with missing
# cells and whole missing records, and a sparse crowd design.
convert_designs <- function() {
  withr::local_seed(42)
  dense <- random_design(12, 5, 4, missing = "cells")
  dimnames(dense) <- list(paste0("i", 1:12), paste0("a", 1:5), paste0("L", 1:4))
  records <- random_design(15, 6, 3, missing = "records")
  sparse <- random_design(30, 12, 3, missing = "sparse")
  list(
    bias = bias_annotations(),
    dense = as_annotations(dense),
    long = annotations_long(as_long(records), item, annotator, label, value),
    sparse = annotations_long(as_long(sparse), item, annotator, label, value),
    selected = annotations_long(
      data.frame(doc = c(1, 1, 1, 2, 2, 3), coder = c("a", "a", "b", "a", "b", "b"),
                 tag = c("x", "y", "x", NA, "y", "x")),
      doc, coder, tag, labels = c("x", "y", "z"))
  )
}

test_that("as.data.frame() gives long decisions that rebuild the object", {
  for (x in convert_designs()) {
    df <- as.data.frame(x)
    expect_s3_class(df, "data.frame")
    expect_equal(names(df), c("item", "annotator", "label", "value"))
    expect_equal(levels(df$label), x$labels)
    expect_equal(nrow(df), length(x$values)) # one row per record x label
    y <- annotations_long(df, item, annotator, label, value)
    expect_identical(mla_results(y), mla_results(x))
    expect_identical(krippendorff_alpha(y, distance = "hamming"),
                     krippendorff_alpha(x, distance = "hamming"))
  }
  x <- convert_designs()$selected
  df <- as.data.frame(x)
  expect_equal(df$value[df$item == 2 & df$annotator == "a"], c(0L, 0L, 0L))
  expect_equal(as.character(df$label[df$item == 1 & df$annotator == "a" & df$value == 1]), c("x", "y"))
  # missing decisions are NA rows
  d <- convert_designs()$dense
  expect_equal(sum(is.na(as.data.frame(d)$value)), sum(is.na(d$values)))
})

test_that("as.array() gives items x annotators x labels that rebuild the object", {
  for (x in convert_designs()) {
    arr <- as.array(x)
    expect_equal(dim(arr), dim(x))
    expect_equal(dimnames(arr)$label, x$labels)
    expect_equal(dimnames(arr)$item, as.character(x$items))
    expect_identical(mla_results(as_annotations(arr)), mla_results(x))
  }
  b <- as.array(bias_annotations())
  expect_equal(unname(b), unname(bias_array()))
  # never-annotated pairs are NA
  s <- convert_designs()$selected
  expect_true(all(is.na(as.array(s)["3", "a", ])))
  expect_equal(unname(as.array(s)["1", "a", ]), c(1L, 1L, 0L))
})

test_that("[ subsets items, annotators and labels as building from the data does", {
  x <- bias_annotations()
  sub_items <- x[c(2, 4), , ]
  from_data <- annotations_long(bias_example[bias_example$item %in% c(2, 4), ],
                                item, annotator, label, value)
  expect_identical(mla_results(sub_items), mla_results(from_data))
  expect_equal(sub_items$labels, x$labels) # the universe is kept
  no_ann <- x[, -2, ]
  from_data <- annotations_long(bias_example[bias_example$annotator != 2, ],
                                item, annotator, label, value)
  expect_identical(mla_results(no_ann), mla_results(from_data))
  labs <- x[, , c("L03", "L01")]
  expect_equal(labs$labels, c("L03", "L01"))
  keep <- bias_example[bias_example$label %in% c("L01", "L03"), ]
  keep$label <- factor(as.character(keep$label), levels = c("L03", "L01"))
  expect_identical(mla_results(labs), mla_results(annotations_long(keep, item, annotator, label, value)))
  # names, logical and negative indices agree
  expect_identical(mla_results(x[c("2", "4"), , ]), mla_results(sub_items))
  expect_identical(mla_results(x[x$items %in% c(2, 4), , ]), mla_results(sub_items))
  expect_identical(mla_results(x[-c(1, 3), , ]), mla_results(sub_items))
  # dense arrays: the subset equals as_annotations() of the sub-array
  d <- convert_designs()$dense
  arr <- as.array(d)
  expect_identical(mla_results(d[3:9, c("a1", "a4", "a5"), ]),
                   mla_results(as_annotations(arr[3:9, c("a1", "a4", "a5"), ])))
  # one label: the same numbers; cells annotated only on other labels stay
  # records, without any decision on label 2 (the sub-array cannot say so)
  one_label <- mla_results(d[, , 2])
  from_array <- mla_results(as_annotations(arr[, , 2, drop = FALSE]))
  counts <- c("missing_share", "n_unassigned", "n_empty_records")
  expect_identical(one_label[c("corpus", "label", "item")], from_array[c("corpus", "label", "item")])
  expect_identical(one_label$glance[setdiff(names(one_label$glance), counts)],
                   from_array$glance[setdiff(names(from_array$glance), counts)])
  only_elsewhere <- sum(rowSums(!is.na(arr), dims = 2) > 0 & is.na(arr[, , 2]))
  expect_gt(only_elsewhere, 0)
  expect_equal(one_label$glance$n_empty_records, only_elsewhere)
  expect_equal(one_label$glance$n_unassigned, from_array$glance$n_unassigned - only_elsewhere)
  expect_identical(x[, , ], x[seq_len(4), seq_len(3), seq_along(x$labels)])
})

test_that("[ on labels gives the same object whatever the storage", {
  d <- convert_designs()$dense
  from_long <- annotations_long(as.data.frame(d), item, annotator, label, value)
  expect_false(identical(from_long$layout, d$layout))
  for (k in list(2, c(4, 1), c("L2", "L3"))) {
    by_array <- d[, , k]
    by_records <- from_long[, , k]
    expect_identical(mla_results(by_array), mla_results(by_records))
    expect_identical(format(by_array), format(by_records))
    # every record of the source stays one: decisions on the kept labels
    # that the source lacks are missing, not dropped
    g <- glance(mla(by_array))
    expect_equal(g$n_records + g$n_empty_records, glance(mla(d))$n_records)
  }
})

test_that("[ reports bad indices", {
  x <- bias_annotations()
  expect_mla_snapshot(x[1:2])
  expect_mla_snapshot(x[c("1", "9"), , ])
  expect_mla_snapshot(x[, 5, ])
  expect_mla_snapshot(x[c(1, 1), , ])
  expect_mla_snapshot(x[c(TRUE, FALSE), , ])
  expect_mla_error(x[integer(), , ], "empty")
  expect_mla_error(x[, , list(1)], "subscript")
  expect_match(conditionMessage(expect_mla_error(x[c(1, NA), , ], "subscript")), "1 is `NA`, at position 2\\.")
  expect_mla_snapshot(x[c(NA, 1, NA), , ], "subscript")
  s <- convert_designs()$selected
  expect_mla_error(s["3", "a", ], "empty")
  expect_mla_error(as.data.frame(x, foo = 1), "dots")
})

test_that("[ keeps labels that the kept items never selected", {
  x <- convert_designs()$selected
  sub <- x[c("2", "3"), , ]
  expect_equal(sub$labels, c("x", "y", "z"))
  data <- data.frame(doc = c(2, 2, 3), coder = c("a", "b", "b"), tag = c(NA, "y", "x"))
  from_data <- annotations_long(data, doc, coder, tag, labels = c("x", "y", "z"))
  expect_identical(mla_results(sub), mla_results(from_data))
  expect_identical(as.data.frame(sub), as.data.frame(from_data))
})

test_that("as.data.frame() of an array has rows for annotated cells only, and round-trips", {
  withr::local_seed(41)
  labs <- c("a", "b", "c")
  arr <- array(rbinom(5 * 4 * 3, 1, 0.4), c(5, 4, 3),
               dimnames = list(paste0("i", 1:5), paste0("c", 1:4), labs))
  arr[1, 2:3, ] <- NA          # never annotated
  arr[4, 1, ] <- NA
  arr[2, 4, ] <- 0L            # annotated, nothing selected
  arr[3, 2, "b"] <- NA         # one missing decision inside a record
  x <- as_annotations(arr)
  df <- as.data.frame(x)
  # plain R: one row per cell with any decision and label, in item, annotator, label order
  cells <- which(apply(!is.na(arr), c(1, 2), any), arr.ind = TRUE)
  cells <- cells[order(cells[, 1], cells[, 2]), , drop = FALSE]
  ref <- data.frame(item = rep(rownames(arr)[cells[, 1]], each = 3),
                    annotator = rep(colnames(arr)[cells[, 2]], each = 3),
                    label = rep(labs, nrow(cells)),
                    value = as.vector(t(arr[cbind(rep(cells[, 1], each = 3), rep(cells[, 2], each = 3),
                                                    rep(1:3, nrow(cells)))])))
  expect_equal(nrow(df), 3 * (5 * 4 - 3))
  expect_identical(as.character(df$item), ref$item)
  expect_identical(as.character(df$annotator), ref$annotator)
  expect_identical(as.character(df$label), ref$label)
  expect_equal(df$value, ref$value)
  y <- annotations_long(df, item, annotator, label, value)
  expect_identical(as.data.frame(glance(mla(y))), as.data.frame(glance(mla(x))))
  expect_identical(as.array(y), as.array(x))
  expect_identical(as.data.frame(y), df)
})

test_that("wide duplicates keep the first or last row", {
  wide <- data.frame(item = c(1, 1, 1, 2, 2), coder = c("a", "b", "a", "a", "b"),
                     x = c(1, 1, 0, 0, 0), y = c(0, 1, 1, 0, 1))
  expect_mla_error(annotations_wide(wide, item, coder, c(x, y)), "duplicates")
  expect_message(first <- annotations_wide(wide, item, coder, c(x, y), duplicates = "first"),
                 "dropped 1 surplus row", class = "mlagreement_message_duplicates")
  last <- suppressMessages(annotations_wide(wide, item, coder, c(x, y), duplicates = "last"))
  expect_equal(item_x(first)[1, ], c(2L, 1L))
  expect_equal(item_x(last)[1, ], c(1L, 2L))
})

test_that("wide repeats are told apart: exact copies and re-annotations", {
  wide <- data.frame(item = rep(1:4, each = 2), coder = rep(c("a", "b"), 4),
                     x = c(1, 0, 1, 1, 0, 0, 1, 0), y = c(0, 1, 1, 0, 0, 1, 1, 1))
  copy <- rbind(wide, wide[3, ])
  err <- expect_mla_error(annotations_wide(copy, item, coder, c(x, y)), "duplicates")
  expect_match(conditionMessage(err), "exact copies")
  redo <- rbind(wide, transform(wide[3, ], y = 1 - y))
  err <- expect_mla_error(annotations_wide(redo, item, coder, c(x, y)), "duplicates")
  expect_match(conditionMessage(err), "conflict, as re-annotations do: the repeated pair differs (1 repeated decision changed)",
               fixed = TRUE)
})

test_that("label columns left out are asked for, and all-but selection works", {
  wide <- data.frame(item = c(1, 1, 2, 2), annotator = c("a", "b", "a", "b"),
                     x = c(1, 0, 1, 1), y = c(0, 0, 1, NA))
  expect_mla_snapshot(annotations_wide(wide, item, annotator), "column")
  expect_identical(annotations_wide(wide, item, annotator, -c(item, annotator)),
                   annotations_wide(wide, item, annotator, c(x, y)))
})

# Random designs of every shape the property tests cover, and a comparison of
# mla() with the plain-R reference (helper-reference.R). Shared with
# tools/property.R, which runs 10,000 of them.

property_shapes <- c("complete", "records", "cells", "sparse", "constant", "one_label",
                     "two_annotators", "unequal")

random_property_design <- function(shape = sample(property_shapes, 1)) {
  n_items <- sample(3:9, 1)
  n_ann <- sample(2:5, 1)
  k <- sample(1:4, 1)
  arr <- switch(shape,
    complete = random_design(n_items, n_ann, k),
    records = random_design(n_items, n_ann, k, missing = "records"),
    cells = random_design(n_items, n_ann, k, missing = "cells", miss_rate = 0.25),
    sparse = random_design(n_items + 6, 8, k, missing = "sparse"),
    constant = {
      a <- random_design(n_items, n_ann, k + 1)
      a[, , 1] <- sample(0:1, 1)
      a
    },
    one_label = random_design(n_items, n_ann, 1, missing = "records"),
    two_annotators = random_design(n_items, 2, k),
    unequal = {
      a <- random_design(n_items, 5, k)
      for (i in seq_len(n_items)) {
        drop <- sample(0:3, 1)
        if (i > 1 && drop > 0) a[i, seq_len(drop), ] <- NA
      }
      a
    }
  )
  list(shape = shape, array = arr)
}

# The one comparison driver: every quantity mla() reports, paired with the
# plain-R reference (helper-reference.R), as a named list of
# list(package, reference). Floors are skipped where brute force is too slow.
reference_comparisons <- function(arr, floors = TRUE) {
  fit <- mla(as_annotations(arr))
  ref <- ref_mla(arr, floors = floors)
  cor <- tidy(fit)
  lab <- tidy(fit, level = "label")
  items <- tidy(fit, level = "item")
  k <- dim(arr)[3]
  ae <- ref$label_expected
  ae[ref$label$n_pairable == 0, ] <- NA
  out <- list(
    corpus_observed = list(cor$observed, rep(ref$corpus_observed, 3)),
    corpus_expected = list(cor$expected, unname(ref$corpus_expected)),
    corpus_estimate = list(cor$estimate, unname(ref$corpus_estimate)),
    label_prevalence = list(lab$prevalence[1:k], ref$label$p),
    label_observed = list(lab$observed[1:k], ref$label$ao),
    label_expected = list(lab$expected, as.vector(ae)),
    label_estimate = list(lab$estimate, as.vector(ref$label_estimate)),
    positive_agreement = list(lab$positive_agreement[1:k], ref$label$pos),
    negative_agreement = list(lab$negative_agreement[1:k], ref$label$neg),
    item_observed = list(items$observed[items$baseline == "fleiss"], ref$item_observed),
    glance_prevalence = list(glance(fit)$prevalence, ref$prevalence)
  )
  if (floors) {
    out <- c(out, list(
      corpus_floor_observed = list(cor$floor_observed, rep(ref$corpus_floor_observed, 3)),
      corpus_floor = list(cor$floor, unname(ref$corpus_floor)),
      label_floor = list(lab$floor, as.vector(ref$label_floor))
    ))
  }
  out
}

# Every reported quantity equals the reference to 1e-12.
expect_matches_reference <- function(arr, floors = TRUE) {
  pairs <- reference_comparisons(arr, floors)
  for (quantity in names(pairs)) {
    testthat::expect_equal(pairs[[quantity]][[1]], pairs[[quantity]][[2]], tolerance = 1e-12,
                           label = quantity)
  }
}

# Largest absolute difference between mla() and the reference over every
# reported quantity (NA must match NA); tools/property.R counts these.
property_mismatch <- function(arr) {
  worst <- 0
  for (p in reference_comparisons(arr)) {
    a <- p[[1]]
    b <- p[[2]]
    if (!identical(is.na(a), is.na(b))) return(Inf)
    ok <- !is.na(a)
    if (any(ok)) worst <- max(worst, abs(a[ok] - b[ok]))
  }
  worst
}

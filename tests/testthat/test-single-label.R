# Single-label (categorical) designs against a plain-R reference written from
# Gwet's unequal-raters formulas, and against irrCAC.

test_that("single-label coefficients equal the reference on random unequal-rater designs", {
  withr::local_seed(11)
  for (rep in 1:20) {
    cats <- letters[seq_len(sample(2:7, 1))]
    m <- random_categorical(sample(5:60, 1), sample(2:6, 1), cats)
    used <- sort(unique(as.vector(m[!is.na(m)])))
    ref <- ref_single_label(m, used)
    fit <- mla(m)
    cor <- tidy(fit)
    expect_equal(cor$observed, rep(ref$pa, 3), tolerance = 1e-12)
    expect_equal(cor$expected, unname(ref$pe), tolerance = 1e-12)
    expect_equal(cor$estimate, unname(ref$estimate), tolerance = 1e-12)
    expect_equal(fit$single_label$alpha, ref$alpha, tolerance = 1e-12)
    # a declared universe with an unused category changes AC1 and BP, not kappa
    ref_u <- ref_single_label(m, c(used, "zz"))
    cor_u <- tidy(mla(as_annotations(m, labels = c(used, "zz"))))
    expect_equal(cor_u$estimate, unname(ref_u$estimate), tolerance = 1e-12)
    expect_equal(cor_u$estimate[1], cor$estimate[1], tolerance = 1e-12)
  }
})

test_that("single-label coefficients equal irrCAC on designs with unequal raters", {
  for (case in irrcac_fixture("single_label")) {
    m <- case$ratings
    cor <- tidy(mla(m))
    # irrCAC rounds its estimates to 5 decimals (rows: Fleiss, AC1, BP, alpha)
    expect_identical(round(cor$estimate, 5), case$est$coeff.val[1:3])
    expect_identical(round(mla(m)$single_label$alpha, 5), case$est$coeff.val[4])
  }
})

test_that("Krippendorff's reliability data: nominal alpha 0.743, Fleiss 0.761", {
  fit <- mla(krippendorff_nominal())
  expect_equal(fit$single_label$alpha, published("krippendorff_2011", "alpha", digits = 10),
               tolerance = 1e-9)
  # irrCAC's cac.raw4raters is the same table
  expect_equal(tidy(fit)$estimate[1], irrcac_fixture("raw4raters")$est$coeff.val, tolerance = 1e-5)
})

test_that("the eq. 7 floor of a single-label design is the nominal floor, exact on unequal raters", {
  withr::local_seed(12)
  for (rep in 1:8) {
    cats <- letters[seq_len(sample(2:4, 1))]
    m <- random_categorical(sample(4:9, 1), sample(2:4, 1), cats)
    counts <- t(apply(m, 1, function(row) table(factor(row, cats))))
    floor_ao <- ref_floor_nominal(rowSums(counts), colSums(counts))
    pe <- ref_single_label(m, cats)$pe
    cor <- tidy(mla(as_annotations(m, labels = cats)))
    expect_equal(cor$floor_observed, rep(floor_ao, 3), tolerance = 1e-12)
    expect_equal(cor$floor, unname((floor_ao - pe) / (1 - pe)), tolerance = 1e-12)
  }
  # complete designs: every category spread as evenly as possible over the items
  m <- random_categorical(200, 5, letters[1:6], missing = 0)
  m[1, ] <- m[1, 1]
  n_c <- table(factor(m, letters[1:6]))
  j <- n_c %/% 200
  r <- n_c %% 200
  floor_ao <- sum((200 - r) * j * (j - 1) + r * (j + 1) * j) / (5 * 4) / 200
  expect_equal(tidy(mla(m))$floor_observed, rep(floor_ao, 3), tolerance = 1e-12)
  # category weights: no floor (the nominal floor is of identity agreement)
  weighted <- mla(m, weights = "quadratic")
  expect_true(all(is.na(weighted$corpus$floor)))
  expect_match(paste(capture.output(print(weighted)), collapse = "\n"), "undefined for this design")
  # ... and it is not solved to be dropped
  real <- single_label_estimates_cpp
  floor_asked <- logical()
  local_mocked_bindings_compat(single_label_estimates_cpp = function(..., with_floor = TRUE) {
    floor_asked <<- c(floor_asked, with_floor)
    real(..., with_floor = with_floor)
  })
  expect_equal(tidy(mla(m, weights = "quadratic")), tidy(weighted))
  expect_true(all(is.na(mla(m, weights = diag(6))$corpus$floor)))
  expect_false(any(floor_asked))
  expect_equal(tidy(mla(m))$floor_observed, rep(floor_ao, 3), tolerance = 1e-12)
  expect_true(floor_asked[length(floor_asked)])
  # Conger's row: the same floor against its own chance agreement
  conger <- tidy(mla(m, baseline = "conger"))
  cg <- conger[conger$baseline == "conger", ]
  expect_equal(cg$floor, (floor_ao - cg$expected) / (1 - cg$expected), tolerance = 1e-12)
})

test_that("binary single-label data give the same values as the one-hot multi-label fit", {
  withr::local_seed(2)
  m <- random_categorical(30, 4, c(0, 1))
  single <- tidy(mla(m))
  arr <- array(NA_integer_, c(dim(m), 2))
  arr[, , 1] <- ifelse(is.na(m), NA, as.integer(m == 0))
  arr[, , 2] <- ifelse(is.na(m), NA, as.integer(m == 1))
  multi <- tidy(mla(arr))
  expect_equal(single$estimate, multi$estimate, tolerance = 1e-12)
  expect_equal(single$floor, multi$floor, tolerance = 1e-12)  # nominal floor = binary floor
  expect_false(is_single_label(as_annotations(arr)))
})

test_that("a long frame of one category per record is a single-label design", {
  withr::local_seed(4)
  m <- random_categorical(25, 4, c("lo", "mid", "hi"))
  long <- data.frame(item = rep(seq_len(nrow(m)), ncol(m)),
                     coder = rep(seq_len(ncol(m)), each = nrow(m)),
                     category = as.vector(m))
  rated <- long[!is.na(long$category), ]
  x <- annotations_long(rated, item, coder, category, single_label = TRUE)
  expect_true(is_single_label(x))
  expect_equal(tidy(mla(x))$estimate, tidy(mla(m))$estimate, tolerance = 1e-12)
  # NA category rows are records without a category, not "nothing selected"
  x_na <- annotations_long(long, item, coder, category, single_label = TRUE)
  expect_equal(tidy(mla(x_na))$estimate, tidy(mla(m))$estimate, tolerance = 1e-12)
  # two categories for one record
  two <- rbind(rated, data.frame(item = rated$item[1], coder = rated$coder[1],
                                 category = setdiff(c("lo", "mid"), rated$category[1])[1]))
  expect_mla_error(annotations_long(two, item, coder, category, single_label = TRUE), "duplicates")
  expect_mla_error(annotations_long(rated, item, coder, category, single_label = NA))
  # decisions with two positives in one record are refused
  dec <- data.frame(item = 1, coder = c("a", "b"), label = "x", value = 1)
  dec <- rbind(dec, transform(dec, label = "y"))
  expect_mla_error(annotations_long(dec, item, coder, label, value, single_label = TRUE),
                   "single_label")
})

test_that("a single-label record on several rows: conflicting categories are not called copies", {
  d <- data.frame(item = c(1, 1, 1, 2, 2), coder = c("x", "x", "y", "x", "y"),
                  category = c("a", "b", "a", "a", "a"))
  long <- function(d, ...) {
    annotations_long(d, item, coder, category, labels = c("a", "b"), single_label = TRUE, ...)
  }
  said <- function(expr) conditionMessage(tryCatch(expr, message = identity))
  err <- expect_mla_error(long(d), "duplicates")
  expect_match(conditionMessage(err), "conflict, as re-annotations do: the repeated pair differs (1 repeated decision changed)",
               fixed = TRUE)
  expect_no_match(conditionMessage(err), "exact copies|collide")
  # "first" and "last" keep one category and say that the other is lost
  expect_match(said(long(d, duplicates = "first")), "The repeats conflict")
  expect_identical(suppressMessages(long(d, duplicates = "first")), long(d[-2, ]))
  expect_identical(suppressMessages(long(d, duplicates = "last")), long(d[-1, ]))
  # no category and a category are a conflict too
  none <- transform(d, category = replace(category, 1, NA))
  expect_match(conditionMessage(expect_mla_error(long(none), "duplicates")), "conflict")
  # the same category twice is an exact copy, and "first" drops it quietly
  copy <- transform(d, category = replace(category, 2, "a"))
  expect_match(conditionMessage(expect_mla_error(long(copy), "duplicates")), "exact copies")
  expect_no_match(said(long(copy, duplicates = "first")), "conflict")
  expect_identical(suppressMessages(long(copy, duplicates = "first")), long(d[-2, ]))
  # the decision form gives the same diagnosis
  dec <- data.frame(item = 1, coder = "x", label = "a", value = c(1L, 0L))
  err <- expect_mla_error(annotations_long(dec, item, coder, label, value), "duplicates")
  expect_match(conditionMessage(err), "conflict")
  expect_no_match(conditionMessage(err), "collide")
})

test_that("the bootstrap of a single-label fit resamples the categorical coefficients", {
  withr::local_seed(9)
  m <- random_categorical(30, 4, c("a", "b", "c"), missing = 0.1)
  fit <- mla(m)
  bs <- mla_boot(fit, R = 50)
  corpus <- bs$stats$level == "corpus"
  expect_equal(unname(bs$t0[corpus]), tidy(fit)$estimate, tolerance = 1e-14)
  # leave-one-item-out values are the refits without that item (categorical
  # coefficients, not the one-hot MLA ones)
  jack <- mlagreement:::boot_jack_values(bs)
  x <- as_annotations(m)
  for (i in c(2, 7, 19)) {
    refit <- tidy(mla(x[-i, , ]))$estimate
    expect_equal(unname(jack[i, corpus]), refit, tolerance = 1e-12)
  }
  # annotator resampling reports them too: every annotator once is the fit
  ba <- mla_boot(fit, R = 20, resample = "annotators")
  expect_equal(unname(ba$t0[corpus]), tidy(fit)$estimate, tolerance = 1e-14)
  expect_equal(unname(as_boot(ba)$statistic(NULL, seq_len(4))[1:3]),
               tidy(fit)$estimate, tolerance = 1e-12)
})

test_that("a nominal floor beyond the exact solver's budget is NA with a note", {
  withr::local_seed(13)
  m <- random_categorical(40, 4, letters[1:3])
  real <- single_label_estimates_cpp
  local_mocked_bindings_compat(single_label_estimates_cpp = function(...) {
    est <- real(...)
    est$floor_observed <- NA_real_  # as nominal_floor.h beyond its budget
    est$floor[] <- NA_real_
    est
  })
  fit <- mla(m)
  expect_false(is.na(fit$corpus$estimate[1]))
  expect_true(all(is.na(fit$corpus$floor_observed)))
  expect_match(fit$notes$reason[fit$notes$level == "corpus"], "floor not computed", all = FALSE)
})

test_that("a subset of a single-label design's categories is the category-versus-rest fit, with a note", {
  m <- matrix(c("a", "a", "b", "b", "a", "c", "b", NA, "c", "a", "a", "b"), nrow = 4)
  keep <- c("a", "b")
  fit <- mla(as_annotations(m), labels = keep)
  # plain R: each kept category as a 0/1 label, Gwet's unequal-raters means,
  # corpus A_o and A_e the means over the labels
  m_i <- rowSums(!is.na(m))
  per_label <- sapply(keep, function(k) {
    x <- rowSums(m == k, na.rm = TRUE)
    two <- m_i >= 2
    ao <- mean((x * (x - 1) + (m_i - x) * (m_i - x - 1))[two] / (m_i * (m_i - 1))[two])
    p <- mean((x / m_i)[m_i >= 1])
    c(ao = ao, fleiss = p^2 + (1 - p)^2, ac1 = 2 * p * (1 - p), pabak = 1 / 2)
  })
  ao <- mean(per_label["ao", ])
  ae <- rowMeans(per_label[c("fleiss", "ac1", "pabak"), ])
  cor <- tidy(fit, conf.int = FALSE)
  expect_equal(cor$observed, rep(ao, 3), tolerance = 1e-12)
  expect_equal(cor$estimate, unname((ao - ae) / (1 - ae)), tolerance = 1e-12)
  expect_equal(cor$estimate[1], 11 / 35, tolerance = 1e-12)
  expect_match(cor$note, "single-label design on 2 of its 3 categories", fixed = TRUE)
  expect_match(cor$note, "category-versus-rest", fixed = TRUE)
  expect_match(paste(capture.output(print(summary(fit))), collapse = "\n"),
               "Notes:\n* corpus: single-label design on 2 of its 3 categories", fixed = TRUE)
  printed <- paste(capture.output(print(fit)), collapse = " ")
  expect_match(printed, "Single-label data on 2 of its 3 categories", fixed = TRUE)
  expect_no_match(printed, "Single-label agreement", fixed = TRUE)
  expect_identical(glance(fit)$design, "multi-label")
  # every category: the single-label fit, without the note
  full <- mla(as_annotations(m), labels = c("a", "b", "c"))
  expect_false(any(grepl("of its 3 categories", full$notes$reason, fixed = TRUE)))
  expect_null(full$design$categories_of)
  # a summary of the same records gives the same fit and note
  counts <- as_annotation_counts(as_annotations(m))
  fit_counts <- mla(counts, labels = keep)
  expect_equal(tidy(fit_counts, conf.int = FALSE)$estimate, cor$estimate, tolerance = 1e-12)
  expect_identical(fit_counts$notes, fit$notes)
})

test_that("one group of every category on a single-label design is the categorical fit", {
  withr::local_seed(8)
  m <- random_categorical(50, 4, c("a", "b", "c"))
  grouped <- mla(m, label_groups = list(all = c("a", "b", "c")), baseline = "ac1")
  plain <- mla(m, baseline = "ac1")
  for (level in c("corpus", "label", "item")) {
    expect_identical(tidy(grouped, level, conf.int = TRUE), tidy(plain, level, conf.int = TRUE))
  }
  expect_identical(glance(grouped), glance(plain))
  expect_identical(glance(grouped)$design, "single-label")
  expect_identical(grouped$notes, plain$notes)
  expect_false(any(grepl("with a label structure", grouped$notes$reason, fixed = TRUE)))
  expect_no_match(paste(capture.output(print(grouped)), collapse = " "), "label structure", fixed = TRUE)
  # plain R: Fleiss' kappa of the categories (items with >= 2 ratings)
  n <- sapply(c("a", "b", "c"), function(k) rowSums(m == k, na.rm = TRUE))
  m_i <- rowSums(n)
  two <- m_i >= 2
  ao <- mean(rowSums(n * (n - 1))[two] / (m_i * (m_i - 1))[two])
  p <- colMeans((n / m_i)[m_i >= 1, , drop = FALSE])
  fleiss <- tidy(grouped)[tidy(grouped)$term == "fleiss", ]
  expect_equal(fleiss$observed, ao, tolerance = 1e-12)
  expect_equal(fleiss$estimate, (ao - sum(p^2)) / (1 - sum(p^2)), tolerance = 1e-12)
  # a weight on the one group changes nothing; two groups keep the
  # indicator analysis
  expect_identical(tidy(mla(m, label_groups = list(all = c("a", "b", "c")), label_weights = c(all = 3))),
                   tidy(mla(m)))
  two_groups <- mla(m, label_groups = list(ab = c("a", "b"), only_c = "c"))
  expect_match(tidy(two_groups)$note, "single-label design with a label structure", fixed = TRUE)
  # a summary needs no records for it (nor for equal weights of multi-label
  # data); any other structure does
  s <- as_annotation_counts(as_annotations(m))
  on_summary <- tidy(mla(s, label_groups = list(all = c("a", "b", "c"))), conf.int = TRUE)
  expect_identical(on_summary, tidy(mla(s), conf.int = TRUE))
  expect_equal(on_summary, tidy(mla(m), conf.int = TRUE), tolerance = 1e-12)
  expect_mla_error(mla(s, label_groups = list(ab = c("a", "b"))), "needs_records")
  expect_mla_error(mla(s, label_weights = c(a = 2)), "needs_records")
  multi <- as_annotation_counts(as_annotations(as.array(as_annotations(m))))
  expect_identical(tidy(mla(multi, label_weights = c(a = 1, b = 1))), tidy(mla(multi)))
  expect_mla_error(krippendorff_alpha(s, label_groups = list(all = c("a", "b", "c"))), "needs_records")
})

test_that("a label structure on a single-label design is the indicator analysis, at equal weights too", {
  withr::local_seed(5)
  m <- random_categorical(40, 4, c("a", "b", "c", "d"))
  onehot <- array(NA_integer_, c(nrow(m), ncol(m), 4), dimnames = list(NULL, NULL, c("a", "b", "c", "d")))
  for (k in c("a", "b", "c", "d")) onehot[, , k] <- ifelse(is.na(m), NA, as.integer(m == k))
  # plain R: u-weighted eq. 6 over the category-versus-rest indicators
  reference <- function(u) {
    m_i <- rowSums(!is.na(m))
    per <- sapply(c("a", "b", "c", "d"), function(k) {
      x <- rowSums(m == k, na.rm = TRUE)
      two <- m_i >= 2
      ao <- mean((x * (x - 1) + (m_i - x) * (m_i - x - 1))[two] / (m_i * (m_i - 1))[two])
      p <- mean((x / m_i)[m_i >= 1])
      c(ao = ao, fleiss = p^2 + (1 - p)^2, ac1 = 2 * p * (1 - p), pabak = 1 / 2)
    })
    w <- c(a = u, b = 1, c = 1, d = 1)
    vapply(c("fleiss", "ac1", "pabak"), function(b) {
      sum(w * (per["ao", ] - per[b, ])) / sum(w * (1 - per[b, ]))
    }, numeric(1))
  }
  equal <- mla(m, label_weights = c(a = 1))
  near <- mla(m, label_weights = c(a = 1 + 1e-9))
  expect_lt(max(abs(tidy(equal)$estimate - tidy(near)$estimate)), 1e-6)
  expect_lt(max(abs(tidy(equal)$std.error - tidy(near)$std.error)), 1e-6)
  expect_equal(tidy(equal)$estimate, unname(reference(1)), tolerance = 1e-12)
  expect_equal(tidy(near)$estimate, unname(reference(1 + 1e-9)), tolerance = 1e-12)
  # the same analysis entered as multi-label one-hot data
  for (u in c(1, 1 + 1e-9, 3)) {
    fit <- mla(m, label_weights = c(a = u))
    ref <- mla(onehot, label_weights = c(a = u))
    expect_equal(tidy(fit)$estimate, tidy(ref)$estimate, tolerance = 1e-12)
    expect_equal(tidy(fit)$std.error, tidy(ref)$std.error, tolerance = 1e-12)
  }
  # every structure carries the note, the design and the print() line
  fits <- list(equal, near, mla(m, label_groups = list(g = c("a", "b"))),
               mla(m, label_tree = c(b = "a")))
  for (fit in fits) {
    expect_match(tidy(fit)$note, "single-label design with a label structure", fixed = TRUE)
    expect_match(tidy(fit)$note, "category-versus-rest", fixed = TRUE)
    expect_false(fit$design$single_label)
    expect_match(glance(fit)$design, "labels with structure", fixed = TRUE)
    expect_match(paste(capture.output(print(summary(fit))), collapse = "\n"),
                 "* corpus: single-label design with a label structure", fixed = TRUE)
    printed <- paste(capture.output(print(fit)), collapse = " ")
    expect_match(printed, "Single-label data with a label structure", fixed = TRUE)
  }
  expect_identical(glance(equal)$design, "labels with structure: equal label weights")
  # Krippendorff's alpha: the structured Hamming row at and near equal weights
  k_equal <- krippendorff_alpha(m, label_weights = c(a = 1))
  k_near <- krippendorff_alpha(m, label_weights = c(a = 1 + 1e-9))
  expect_identical(k_equal$distance, "hamming")
  expect_identical(k_near$distance, "hamming")
  expect_lt(abs(k_equal$estimate - k_near$estimate), 1e-6)
  expect_equal(k_equal$estimate, krippendorff_alpha(onehot, "hamming")$estimate, tolerance = 1e-12)
})

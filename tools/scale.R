# Scale limits. Run from the package root:
#
#   Rscript tools/scale.R            # all three parts (needs ~12 GB of RAM)
#   Rscript tools/scale.R dense      # > 2^31 cells, 10 labels (2.2e9 cells, 8.8 GB)
#   Rscript tools/scale.R records    # > 2^31 records: 1 label, 2.2e9 (item, annotator) records
#   Rscript tools/scale.R sparse     # 1e7 records, 1e5 annotators via annotations_long()
#
# The package is loaded from the library in MLA_LIB when set (an installed
# build; use it for timings), else with pkgload::load_all() from this checkout
# (which compiles with -O0). Two threads
# (options(mlagreement.threads = 2)). Every part checks its results against
# values known independently of the package's C++ (closed forms / tabulate())
# and prints time and peak memory; it stops with an error on any mismatch.
args <- commandArgs(trailingOnly = TRUE)
parts <- if (length(args)) args else c("dense", "records", "sparse")
lib <- Sys.getenv("MLA_LIB")
if (nzchar(lib)) {
  library(mlagreement, lib.loc = lib)
} else {
  pkgload::load_all(".", quiet = TRUE)
}
options(mlagreement.threads = 2, warn = 1)
# MLA_SCALE_SMALL=1: the same checks on designs 100 times smaller (smoke test).
small <- nzchar(Sys.getenv("MLA_SCALE_SMALL"))
cat("mlagreement", as.character(utils::packageVersion("mlagreement")),
    "| threads:", mla_threads(), "|", format(Sys.time(), tz = "UTC", usetz = TRUE), "\n")

# ---- utilities -------------------------------------------------------------

gb <- function(bytes) sprintf("%.2f GB", bytes / 1024^3)

# Peak R heap since the last gc(reset = TRUE), in bytes (Ncells 56 bytes each
# on 64-bit, Vcells 8 bytes).
peak_bytes <- function() {
  g <- gc()
  g["Ncells", "max used"] * 56 + g["Vcells", "max used"] * 8
}
used_bytes <- function() {
  g <- gc()
  g["Ncells", "used"] * 56 + g["Vcells", "used"] * 8
}
# Peak resident set size of the process (includes C++ allocations).
vm_hwm <- function() {
  s <- readLines("/proc/self/status")
  as.numeric(sub("\\D*(\\d+).*", "\\1", grep("^VmHWM", s, value = TRUE))) * 1024
}

timed <- function(label, expr) {
  t <- system.time(val <- force(expr))[["elapsed"]]
  cat(sprintf("  %-34s %8.1f s\n", label, t))
  val
}

check <- function(ok, what) {
  if (!isTRUE(ok)) stop("MISMATCH: ", what, call. = FALSE)
  cat("  ok:", what, "\n")
}

# Plain-R estimates from x/m tables (the formulas of ?mla, vectorised):
# label prevalence = mean of x/m over items with m >= 1; label observed
# agreement = mean over items with m >= 2 of [x(x-1) + (m-x)(m-x-1)] / [m(m-1)];
# corpus values are means over labels with a pairable item.
reference_from_counts <- function(x, m) {
  x <- x + 0
  m <- m + 0
  rated <- m >= 1
  pair <- m >= 2
  share <- ifelse(rated, x / pmax(m, 1), NA)
  ao_ij <- ifelse(pair, (x * (x - 1) + (m - x) * (m - x - 1)) / pmax(m * (m - 1), 1), NA)
  p <- colMeans(share, na.rm = TRUE)
  ao <- colMeans(ao_ij, na.rm = TRUE)
  used <- colSums(pair) > 0
  ae <- cbind(fleiss = p^2 + (1 - p)^2, ac1 = 2 * p * (1 - p), pabak = 0.5)
  Ao <- mean(ao[used])
  Ae <- colMeans(ae[used, , drop = FALSE])
  list(p = p, ao = ao, Ao = Ao, Ae = Ae, estimate = (Ao - Ae) / (1 - Ae),
       item_observed = rowMeans(ao_ij, na.rm = TRUE))
}

rel_err <- function(a, b) max(abs(a - b) / pmax(abs(b), 1e-300))

compare_fit <- function(fit, ref) {
  cor <- tidy(fit)
  check(rel_err(cor$observed, rep(ref$Ao, 3)) < 1e-12, "corpus observed agreement (1e-12 rel.)")
  check(rel_err(cor$expected, unname(ref$Ae)) < 1e-12, "corpus expected agreement (1e-12 rel.)")
  check(rel_err(cor$estimate, unname(ref$estimate)) < 1e-12, "corpus coefficients (1e-12 rel.)")
  lab <- tidy(fit, level = "label")
  fl <- lab[lab$baseline == "fleiss", ]
  check(rel_err(fl$prevalence, unname(ref$p)) < 1e-12, "label prevalences (1e-12 rel.)")
  check(rel_err(fl$observed, unname(ref$ao)) < 1e-12, "label observed agreement (1e-12 rel.)")
  item <- timed("tidy(fit, level = \"item\")", tidy(fit, level = "item"))
  io <- item$observed[item$baseline == "fleiss"]
  check(isTRUE(all.equal(io, ref$item_observed, tolerance = 1e-12)),
        "item observed agreement (1e-12)")
  cat("  corpus estimates:", paste(sprintf("%s %.15f", cor$baseline, cor$estimate),
                                    collapse = ", "), "\n")
}

# ---- (a) a dense array with more than 2^31 cells ---------------------------
# A periodic pattern: cell t (0-based, column-major) holds g[t %% P + 1]. With
# N = 1 (mod P), t = i + N a + N A j = i + a + A j (mod P), so item i and label
# j see the window g[(s + 0:(A - 1)) %% P + 1], s = (i + A j) %% P, over their
# A annotators: x and m are window sums of g, known without the package.
dense_part <- function(n_labels, n_annotators, title) {
  cat("\n==", title, "\n")
  P <- 13L
  g <- c(TRUE, FALSE, NA, TRUE, TRUE, FALSE, FALSE, TRUE, NA, FALSE, TRUE, FALSE, FALSE)
  N <- P * (if (small) 769L else 76924L) + 1L  # 1,000,013 items, = 1 (mod 13)
  A <- as.integer(n_annotators)
  K <- as.integer(n_labels)
  n_cells <- as.double(N) * A * K
  cat(sprintf("  %d items x %d annotators x %d labels = %.0f cells (2^31 = %.0f); %.0f records\n",
              N, A, K, n_cells, 2^31, as.double(N) * A))
  stopifnot(small || n_cells > 2^31)
  invisible(gc(reset = TRUE))
  arr <- timed("build the logical array", {
    v <- rep_len(g, n_cells)
    dim(v) <- c(N, A, K)
    v
  })
  base <- used_bytes()
  cat("  array size:", gb(as.numeric(utils::object.size(arr))), "\n")
  invisible(gc(reset = TRUE))
  a <- timed("as_annotations() (counting pass)", as_annotations(arr))
  fit <- timed("mla()", mla(a))
  cat("  peak R heap above the array:", gb(peak_bytes() - base),
      "| process peak RSS:", gb(vm_hwm()), "\n")

  # expected x and m from the closed form
  win <- function(h) vapply(0:(P - 1), function(s) sum(h[(s + 0:(A - 1)) %% P + 1]), numeric(1))
  wx <- win(g %in% TRUE)
  wm <- win(!is.na(g))
  s <- outer(0:(N - 1), A * (0:(K - 1)), "+") %% P + 1
  x_exp <- matrix(as.integer(wx[s]), N, K)
  m_exp <- matrix(as.integer(wm[s]), N, K)
  # dense arrays keep per-label tables only; the bootstrap recounts the tables
  counts <- timed("items x labels tables (recount)", mlagreement:::item_label_counts(a))
  check(identical(counts$x, x_exp), "x (positives per item x label) equals the closed form")
  check(identical(counts$m, m_exp), "m (decisions per item x label) equals the closed form")
  rm(counts)
  check(a$n_decisions == sum(as.double(m_exp)), "number of decisions")
  # records with a decision: record (i, a) sees g at r + A j, r = (i + a) %% P
  ci <- tabulate((0:(N - 1)) %% P + 1, P)
  ca <- tabulate((0:(A - 1)) %% P + 1, P)
  n_res <- vapply(0:(P - 1), function(r) sum(ci * ca[(r - 0:(P - 1)) %% P + 1]), numeric(1))
  nonempty <- vapply(0:(P - 1), function(r) any(!is.na(g[(r + A * (0:(K - 1))) %% P + 1])), logical(1))
  check(a$n_records == sum(n_res[nonempty]), "number of records with decisions")
  gl <- glance(fit)
  check(!anyNA(gl), "glance() has no NA")
  check(isTRUE(all.equal(gl$missing_share, sum(is.na(g)) / P, tolerance = 1e-6)),
        sprintf("missing share %.6f = %d/%d up to the incomplete last period",
                gl$missing_share, sum(is.na(g)), P))
  compare_fit(fit, reference_from_counts(x_exp, m_exp))
  fmt <- format(a)
  check(!any(grepl("NA", fmt, fixed = TRUE)), "print(annotations) has no NA")
  print(a)
  rm(arr, a, fit)
  invisible(gc())
}

# ---- (b) sparse records: 1e7 records, 1e5 annotators -----------------------
# 1e6 items, each annotated by 10 of the 1e5 annotators (annotator
# (item + 10000 c) mod 1e5 for c = 0..9), 3 labels, one row per decision
# (3e7 rows), about 5% missing decisions. The dense items x annotators grid
# would have 1e11 cells.
sparse_part <- function() {
  cat("\n== sparse records design via annotations_long()\n")
  n_items <- if (small) 1e4 else 1e6
  per_item <- 10L
  n_ann <- 1e5
  K <- 3L
  n_rec <- n_items * per_item
  rec <- 0:(n_rec - 1)
  item <- rec %/% per_item
  ann <- (item + (rec %% per_item) * 10000L) %% n_ann
  long <- data.frame(
    item = rep(as.integer(item + 1), times = K),
    annotator = rep(as.integer(ann + 1), times = K),
    label = factor(rep(c("a", "b", "c"), each = n_rec)),
    value = NA_integer_
  )
  lab0 <- rep(0:(K - 1), each = n_rec)
  # a deterministic scramble of (item, annotator, label), exact in doubles
  h <- (long$item * 7919 + long$annotator * 104729 + lab0 * 1299709) %% 1000003
  long$value <- ifelse(h %% 20 == 0, NA_integer_, as.integer(h %% (3 + lab0) == 0))
  rm(rec, item, ann, lab0, h)
  cat(sprintf("  %.0f records, %.0f annotators, %.0f items, %d labels: %d rows (%s)\n",
              n_rec, n_ann, n_items, K, nrow(long), gb(as.numeric(utils::object.size(long)))))
  cat(sprintf("  a dense items x annotators x labels array would have %.1e cells\n",
              n_items * n_ann * K))
  invisible(gc(reset = TRUE))
  base <- used_bytes()
  a <- timed("annotations_long()", annotations_long(long, item, annotator, label, value))
  peak_long <- peak_bytes() - base
  obj <- used_bytes() - base
  invisible(gc(reset = TRUE))
  base2 <- used_bytes()
  fit <- timed("mla()", mla(a))
  peak_mla <- peak_bytes() - base2
  cat(sprintf("  annotations_long(): peak %s above the input = %.0f bytes/record (%.0f bytes/input row)\n",
              gb(peak_long), peak_long / n_rec, peak_long / nrow(long)))
  cat(sprintf("  the annotations object keeps %s = %.0f bytes/record\n", gb(obj), obj / n_rec))
  cat(sprintf("  mla(): peak %s = %.0f bytes/record\n", gb(peak_mla), peak_mla / n_rec))
  cat("  process peak RSS:", gb(vm_hwm()), "\n")
  check(identical(a$layout, "records"), "records layout")
  dense_bytes <- n_items * n_ann * K * 4
  check(peak_long < 0.01 * dense_bytes,
        sprintf("no dense items x annotators array (peak < 1%% of its %s)", gb(dense_bytes)))
  print(glance(fit), width = Inf)
  check(!anyNA(glance(fit)), "glance() has no NA")
  check(!any(grepl("NA", format(a), fixed = TRUE)), "print(annotations) has no NA")
  print(a)
  x_exp <- sapply(c("a", "b", "c"), function(l) {
    tabulate(long$item[long$label == l & long$value %in% 1L], n_items)
  })
  m_exp <- sapply(c("a", "b", "c"), function(l) {
    tabulate(long$item[long$label == l & !is.na(long$value)], n_items)
  })
  dimnames(x_exp) <- dimnames(m_exp) <- NULL
  counts <- mlagreement:::item_label_counts(a)
  check(identical(counts$x, x_exp), "x equals tabulate() of the input")
  check(identical(counts$m, m_exp), "m equals tabulate() of the input")
  check(a$n_decisions == sum(!is.na(long$value)), "number of decisions")
  check(identical(tabulate(a$annotator, n_ann), rep(as.integer(n_rec / n_ann), n_ann)),
        "every annotator has its records")
  compare_fit(fit, reference_from_counts(x_exp, m_exp))
  invisible(gc())
}

if ("dense" %in% parts) dense_part(10L, 220L, "dense array, > 2^31 cells (10 labels)")
if ("records" %in% parts) dense_part(1L, 2200L, "dense array, > 2^31 records (1 label)")
if ("sparse" %in% parts) sparse_part()
cat("\nscale: all checks passed\n")

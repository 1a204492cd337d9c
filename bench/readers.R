# The JSON readers on large synthetic exports (issue 28, item 5: every JSON
# reader reads a 60 MB export in <= 1.5 s CPU and <= 3x the file size in
# memory), before and after, with jsonlite on the same file as a peer.
#
#   R CMD INSTALL -l /tmp/lib-json .
#   MLA_LIB=/tmp/lib-json [MLA_LIB_BEFORE=/path] Rscript bench/readers.R [size_mb] [formats]
#
# Generates in tempdir() exports of about `size_mb` MB (default 60):
# Prodigy JSON lines (choice tasks with four options, `_input_hash` ids, five
# annotators), doccano per-user JSON lines (five members' files of size_mb / 5
# MB each, every example in every file, some with `"label": []`), Label
# Studio JSON (an array of tasks with three annotations of a Choices
# control) and Le-Wi-Di 2023 (an object of items with three layers of six
# annotators). `formats` (comma-separated) selects some of them. Each read
# runs in a fresh Rscript: CPU time (user + system) of the call, R's peak
# memory during it (`gc(reset = TRUE)` before, the "max used" of `gc()` after,
# minus the memory in use before) and the peak resident memory of the
# process (/usr/bin/time -v; it includes R itself, about 70 MB with the
# package loaded). "before" is the build in MLA_LIB_BEFORE (default: the
# library R finds without MLA_LIB), "after" the one in MLA_LIB; their
# results are compared with identical(). Peer: jsonlite::stream_in() of the
# JSON-lines files, jsonlite::fromJSON(simplifyVector = FALSE) of the JSON
# documents.
args <- commandArgs(trailingOnly = TRUE)
size_mb <- if (length(args) > 0) as.numeric(args[1]) else 60
formats <- if (length(args) > 1) strsplit(args[2], ",")[[1]] else
  c("prodigy", "doccano", "label_studio", "lewidi")
lib_after <- Sys.getenv("MLA_LIB", "/tmp/lib-json")
lib_before <- Sys.getenv("MLA_LIB_BEFORE", "")
# formats whose "before" is not run (main's read_lewidi() is quadratic in
# the items: 98 s CPU on 6 MB)
skip_before <- strsplit(Sys.getenv("MLA_SKIP_BEFORE", ""), ",")[[1]]

set.seed(1)
words <- c("the", "match", "was", "great", "last", "night", "but", "this", "report", "has",
           "some", "words", "in", "it", "and", "more", "news", "about", "politics", "economy")
sentences <- vapply(seq_len(20000), function(i) paste(sample(words, 30, TRUE), collapse = " "), "")
options <- paste0('[{"id": "POSITIVE", "text": "positive"}, {"id": "NEGATIVE", "text": "negative"}, ',
                  '{"id": "NEUTRAL", "text": "neutral"}, {"id": "IRONIC", "text": "ironic"}]')
prodigy_lines <- function(n, start) {
  item <- sample.int(20000, n, TRUE)
  ann <- sample(paste0("news-", c("alex", "blake", "casey", "dana", "eli")), n, TRUE)
  sprintf(paste0('{"text": "%s", "options": %s, "_input_hash": %d, "_task_hash": %d, ',
                 '"_view_id": "choice", "config": {"choice_style": "multiple"}, "accept": ["%s"], ',
                 '"answer": "%s", "_timestamp": %d, "_annotator_id": "%s", "_session_id": "%s"}'),
          sentences[item], options, item * 104729L - 1e9, sample.int(2e9, n),
          sample(c("POSITIVE", "NEGATIVE", "NEUTRAL", "IRONIC"), n, TRUE),
          sample(c("accept", "accept", "accept", "reject", "ignore"), n, TRUE),
          1714640000L + seq_len(n), ann, ann)
}
doccano_lines <- function(n, start) {
  labels <- c('"sports"', '"politics"', '"economy"', '"culture"')
  lab <- vapply(sample(0:2, n, TRUE, prob = c(0.2, 0.6, 0.2)), function(k) {
    paste(sample(labels, k), collapse = ", ")
  }, "")
  sprintf('{"id": %d, "text": "%s", "label": [%s], "Comments": []}',
          start + seq_len(n), sentences[sample.int(20000, n, TRUE)], lab)
}
label_studio_tasks <- function(n, start) {
  topics <- c("Politics", "Sports", "econ", "Culture")
  ann <- function(id, user) {
    sprintf(paste0('{"id": %d, "completed_by": %d, "was_cancelled": %s, "ground_truth": false, ',
                   '"created_at": "2024-05-01T10:00:00.000000Z", "lead_time": 12.5, ',
                   '"result": [{"id": "r%d", "type": "choices", "from_name": "topic", "to_name": "text", ',
                   '"origin": "manual", "value": {"choices": ["%s"]}}]}'),
            id, user, sample(c("false", "false", "false", "true"), length(id), TRUE), id,
            sample(topics, length(id), TRUE))
  }
  id <- start + seq_len(n)
  sprintf('{"id": %d, "data": {"text": "%s"}, "annotations": [%s, %s, %s], "predictions": []}',
          id, sentences[sample.int(20000, n, TRUE)], ann(id * 3L, 1L), ann(id * 3L + 1L, 2L),
          ann(id * 3L + 2L, 3L))
}
lewidi_items <- function(n, start) {
  bits <- function() vapply(seq_len(n), function(i) paste(sample(0:1, 6, TRUE), collapse = ","), "")
  sprintf(paste0('"%d": {"lang": "en", "text": "%s", "annotation task": "hate speech detection", ',
                 '"number of annotations": 6, "annotations": "%s", ',
                 '"annotators": "Ann1,Ann2,Ann3,Ann4,Ann5,Ann6", ',
                 '"soft_label": {"0": 0.5, "1": 0.5}, "split": "train", "other_info": ',
                 '{"other annotations": {"aggressive language detection": "%s", ',
                 '"offensive language detection": "%s"}}}'),
          start + seq_len(n), sentences[sample.int(20000, n, TRUE)], bits(), bits(), bits())
}

# Writes records of `make(n, start)` until the file holds `mb` MB: one per
# line, or joined into a JSON array or object.
write_export <- function(path, make, mb, open = "", close = "") {
  con <- file(path, "w")
  cat(open, file = con)
  n <- 0L
  while (!file.exists(path) || file.size(path) < mb * 1e6) {
    recs <- make(2000L, n)
    sep <- if (nzchar(open)) "," else ""
    cat(paste0(if (n > 0L) sep, paste(recs, collapse = paste0(sep, "\n")), "\n"), file = con)
    n <- n + 2000L
    flush(con)
  }
  cat(close, file = con)
  close(con)
  path
}
dir <- Sys.getenv("MLA_BENCH_DIR", tempfile("readers-bench"))  # kept when given
dir.create(dir, showWarnings = FALSE)
files <- list()
if ("prodigy" %in% formats) {
  files$prodigy <- write_export(file.path(dir, "prodigy.jsonl"), prodigy_lines, size_mb)
}
if ("doccano" %in% formats) {
  members <- c("alice", "bob", "carol", "dave", "erin")
  files$doccano <- vapply(members, function(m) {
    set.seed(match(m, members))
    write_export(file.path(dir, paste0(m, ".jsonl")), doccano_lines, size_mb / 5)
  }, "")
}
if ("label_studio" %in% formats) {
  files$label_studio <- write_export(file.path(dir, "label-studio.json"), label_studio_tasks,
                                     size_mb, "[", "]")
}
if ("lewidi" %in% formats) {
  files$lewidi <- write_export(file.path(dir, "lewidi_train.json"), lewidi_items, size_mb, "{", "}")
}

# Runs `expr` in a fresh Rscript with the package from `lib`; returns CPU
# seconds, R's peak MB over the memory in use before, and the peak RSS MB.
run_measured <- function(what, lib, expr, setup = "", rds = "") {
  script <- tempfile(fileext = ".R")
  load <- if (nzchar(lib)) sprintf('library(mlagreement, lib.loc = "%s")', lib) else "library(mlagreement)"
  writeLines(c(sprintf("suppressPackageStartupMessages(%s)", load), setup,
               "g0 <- gc(reset = TRUE)",
               sprintf("t <- system.time(x <- suppressMessages(%s))", expr),
               "g1 <- gc()",
               "mb <- sum(g1[, 6]) - sum(g0[, 2])",
               'cat(sprintf("measured: %.2f %.0f\\n", t[["user.self"]] + t[["sys.self"]], mb))',
               if (nzchar(rds)) sprintf('saveRDS(x, "%s")', rds)), script)
  out <- system2("/usr/bin/time", c("-v", file.path(R.home("bin"), "Rscript"), script),
                 stdout = TRUE, stderr = TRUE)
  rss <- as.numeric(sub(".*: ", "", grep("Maximum resident", out, value = TRUE))) / 1024
  got <- grep("^measured:", out, value = TRUE)
  if (length(got) == 0L) {
    cat(sprintf("  %-34s failed: %s\n", what, paste(grep("Error", out, value = TRUE), collapse = " ")))
    return(c(cpu = NA, r_mb = NA, rss = rss))
  }
  v <- as.numeric(strsplit(sub("measured: ", "", got), " ")[[1]])
  cat(sprintf("  %-34s %6.2f s CPU  R peak %5.0f MB  RSS %5.0f MB\n", what, v[1], v[2], rss))
  c(cpu = v[1], r_mb = v[2], rss = rss)
}

calls <- list(
  prodigy = function(p) sprintf('read_prodigy("%s")', p),
  doccano = function(p) sprintf("read_doccano(c(%s))", paste(sprintf('%s = "%s"', names(p), p), collapse = ", ")),
  label_studio = function(p) sprintf('read_label_studio("%s")', p),
  lewidi = function(p) sprintf('read_lewidi("%s")', p)
)
peers <- list(
  prodigy = function(p) sprintf('jsonlite::stream_in(file("%s"), simplifyVector = FALSE, verbose = FALSE)', p),
  doccano = function(p) sprintf('lapply(c(%s), function(f) jsonlite::stream_in(file(f), simplifyVector = FALSE, verbose = FALSE))',
                                paste(sprintf('"%s"', p), collapse = ", ")),
  label_studio = function(p) sprintf('jsonlite::fromJSON("%s", simplifyVector = FALSE)', p),
  lewidi = function(p) sprintf('jsonlite::fromJSON("%s", simplifyVector = FALSE)', p)
)
summary <- list()
for (f in names(files)) {
  path <- files[[f]]
  mb <- sum(file.size(path)) / 1e6
  cat(sprintf("\n%s (%.1f MB in %d file%s):\n", f, mb, length(path), if (length(path) > 1) "s" else ""))
  rds <- file.path(dir, paste0(f, c("-before.rds", "-after.rds")))
  before <- if (f %in% skip_before) c(cpu = NA, r_mb = NA, rss = NA) else {
    run_measured("before", lib_before, calls[[f]](path), rds = rds[1])
  }
  after <- run_measured("after", lib_after, calls[[f]](path), rds = rds[2])
  same <- all(file.exists(rds)) && identical(readRDS(rds[1]), readRDS(rds[2]))
  if (!f %in% skip_before) cat("  identical results:", same, "\n")
  peer <- run_measured("jsonlite (peer)", lib_after, peers[[f]](path))
  summary[[f]] <- data.frame(format = f, mb = round(mb, 1), before_cpu = before[["cpu"]],
                             after_cpu = after[["cpu"]], peer_cpu = peer[["cpu"]],
                             after_vs_peer = round(after[["cpu"]] / peer[["cpu"]], 2),
                             after_r_mb = after[["r_mb"]], after_rss = round(after[["rss"]]),
                             rss_per_file_mb = round(after[["rss"]] / mb, 2),
                             identical = if (f %in% skip_before) NA else same)
}
cat("\n")
print(do.call(rbind, summary), row.names = FALSE)

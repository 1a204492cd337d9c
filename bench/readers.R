# The JSON readers on large synthetic exports (issue 28, item 5: every JSON
# reader reads a 60 MB export in <= 1.5 s CPU and <= 3x the file size in
# memory), before and after, with single-pass references in the same run.
#
#   R CMD INSTALL -l /tmp/lib-json .
#   MLA_LIB=/tmp/lib-json [MLA_LIB_BEFORE=/path] Rscript bench/readers.R [size_mb]
#
# Generates in tempdir() a Prodigy JSON-lines export (choice tasks with four
# options, `_input_hash` ids, five annotators) and a doccano JSON-lines
# export (`user` ids) of about `size_mb` MB each (default 60). Each read runs
# in a fresh Rscript: CPU time (user + system) of the call, R's peak memory
# during it (`gc(reset = TRUE)` before, the "max used" of `gc()` after, minus
# the memory in use before) and the peak resident memory of the process
# (/usr/bin/time -v). "before" is the build in MLA_LIB_BEFORE (default: the
# library R finds without MLA_LIB, main's installed build), "after" the one
# in MLA_LIB. References: readLines() + nchar() of the file (one pass in
# R), jsonlite::parse_json() of the same records as one array (its text
# made beforehand), and the package's JSON engine alone
# (stream_json_lines() with a handler that only counts).
args <- commandArgs(trailingOnly = TRUE)
size_mb <- if (length(args) > 0) as.numeric(args[1]) else 60
lib_after <- Sys.getenv("MLA_LIB", "/tmp/lib-json")
lib_before <- Sys.getenv("MLA_LIB_BEFORE", "")

set.seed(1)
words <- c("the", "match", "was", "great", "last", "night", "but", "this", "report", "has",
           "some", "words", "in", "it", "and", "more", "news", "about", "politics", "economy")
sentences <- vapply(seq_len(20000), function(i) paste(sample(words, 30, TRUE), collapse = " "), "")
options <- paste0('[{"id": "POSITIVE", "text": "positive"}, {"id": "NEGATIVE", "text": "negative"}, ',
                  '{"id": "NEUTRAL", "text": "neutral"}, {"id": "IRONIC", "text": "ironic"}]')
prodigy_lines <- function(n) {
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
doccano_lines <- function(n) {
  sprintf('{"id": %d, "text": "%s", "label": ["%s"], "user": %d, "is_confirmed": true}',
          sample.int(20000, n, TRUE), sentences[sample.int(20000, n, TRUE)],
          sample(c("sports", "politics", "economy"), n, TRUE), sample.int(5, n, TRUE))
}
write_export <- function(path, make) {
  con <- file(path, "w")
  while (!file.exists(path) || file.size(path) < size_mb * 1e6) {
    writeLines(make(2000), con)
    flush(con)
  }
  close(con)
  cat(sprintf("%s: %.1f MB, %d lines\n", basename(path), file.size(path) / 1e6,
              length(readLines(path))))
  path
}
files <- c(prodigy = write_export(file.path(tempdir(), "prodigy-bench.jsonl"), prodigy_lines),
           doccano = write_export(file.path(tempdir(), "doccano-bench.jsonl"), doccano_lines))

# Runs `expr` in a fresh Rscript with the package from `lib`; prints CPU,
# R's peak memory over the memory in use before, and the process' peak RSS.
run_measured <- function(what, lib, expr, setup = "", rds = "") {
  script <- tempfile(fileext = ".R")
  load <- if (nzchar(lib)) sprintf('library(mlagreement, lib.loc = "%s")', lib) else "library(mlagreement)"
  writeLines(c(sprintf("suppressPackageStartupMessages(%s)", load), setup,
               "g0 <- gc(reset = TRUE)",
               sprintf("t <- system.time(x <- suppressMessages(%s))", expr),
               "g1 <- gc()",
               "mb <- sum(g1[, 6]) - sum(g0[, 2])",
               sprintf('cat(sprintf("time: %%-38s %%6.2f s CPU %%6.2f s elapsed  R peak %%6.0f MB\\n", "%s", t[["user.self"]] + t[["sys.self"]], t[["elapsed"]], mb))', what),
               if (nzchar(rds)) sprintf('saveRDS(x, "%s")', rds)), script)
  out <- system2("/usr/bin/time", c("-v", file.path(R.home("bin"), "Rscript"), script),
                 stdout = TRUE, stderr = TRUE)
  rss <- as.numeric(sub(".*: ", "", grep("Maximum resident", out, value = TRUE))) / 1024
  line <- grep("^time:|Error", out, value = TRUE)
  cat(paste(line, collapse = "\n"), sprintf(" RSS %5.0f MB\n", rss))
}

for (f in names(files)) {
  path <- files[[f]]
  cat(sprintf("\n%s (%.1f MB):\n", f, file.size(path) / 1e6))
  call <- switch(f, prodigy = sprintf('read_prodigy("%s")', path),
                 doccano = sprintf('read_doccano("%s", annotator = "user")', path))
  rds <- file.path(tempdir(), paste0(f, c("-before.rds", "-after.rds")))
  run_measured(paste(f, "before"), lib_before, call, rds = rds[1])
  run_measured(paste(f, "after"), lib_after, call, rds = rds[2])
  cat("identical results:", identical(readRDS(rds[1]), readRDS(rds[2])), "\n")
  run_measured("readLines() + nchar()", lib_after, sprintf('sum(nchar(readLines("%s")))', path))
  run_measured("jsonlite::parse_json() of the array", lib_after, "jsonlite::parse_json(txt)",
               setup = sprintf('txt <- paste0("[", paste(readLines("%s"), collapse = ",\\n"), "]")', path))
  run_measured("engine alone (stream_json_lines())", lib_after,
               sprintf('mlagreement:::stream_json_lines("%s", function(r, l) length(r), "_input_hash")', path))
}

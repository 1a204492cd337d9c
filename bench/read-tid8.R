# read_tid8() on a large TID-8-like JSON-lines file (issue 15: a 243 MB file
# in <= 3 s and <= 0.5 GB peak memory), against jsonlite's streaming reader.
#
#   R CMD INSTALL --library=/tmp/mla-lib .
#   R_LIBS=/tmp/mla-lib Rscript bench/read-tid8.R [size_mb] [reference.R]
#
# Generates the file in tempdir() (one line per annotation, the fields of the
# TID-8 files: sentence, task, respondent_id, uid, original_id, id, the label
# under the task name, anns_except_current_one), then reads it in fresh
# Rscript processes under /usr/bin/time -v, so the peak resident memory of the
# whole process is measured: read_tid8(), jsonlite::stream_in() on the same
# file, and R with the package loaded and nothing read (the baseline).
# `reference.R`, an R file defining an earlier read_tid8() (for instance
# `git show <commit>:R/read-tid8.R > old.R`), is evaluated in the package
# namespace, timed the same way, and its result compared with identical().
# Without the installed package the script falls back to pkgload::load_all()
# (compiled with -O0: many times slower).
args <- commandArgs(trailingOnly = TRUE)
target_mb <- if (length(args) > 0) as.numeric(args[1]) else 243
reference <- if (length(args) > 1) normalizePath(args[2]) else NULL

path <- file.path(tempdir(), "tid8-bench.jsonl")
set.seed(1)
words <- c("the", "cat", "is", "not", "offensive", "at", "all", "but", "this", "sentence",
           "has", "some", "words", "in", "it", "you", "are", "what", "annotate")
sentences <- vapply(seq_len(5000), function(i) paste(sample(words, 25, TRUE), collapse = " "), "")
labels <- c("offensive_speech", "not_offensive_speech", "hate_speech")
make_lines <- function(n, first_id) {
  uid <- sample.int(100000, n, TRUE) - 1L
  sprintf(paste0('{"sentence": "%s", "task": "offensive", "respondent_id": "%d", "uid": %d, ',
                 '"original_id": "orig_%d", "id": %d, "offensive": "%s", ',
                 '"anns_except_current_one": ["%s", "%s", "%s"]}'),
          sentences[uid %% 5000 + 1], sample.int(5000, n, TRUE), uid, uid,
          first_id + seq_len(n) - 1L, sample(labels, n, TRUE), sample(labels, n, TRUE),
          sample(labels, n, TRUE), sample(labels, n, TRUE))
}
con <- file(path, "w")
n_lines <- 0L
while (file.size(path) < target_mb * 1e6 || n_lines == 0L) {
  writeLines(make_lines(1e5, n_lines), con)
  flush(con)
  n_lines <- n_lines + 1e5
}
close(con)
cat(sprintf("file: %.1f MB, %d lines\n", file.size(path) / 1e6, n_lines))

installed <- nzchar(system.file(package = "mlagreement"))
load_pkg <- if (installed) {
  "suppressPackageStartupMessages(library(mlagreement))"
} else {
  sprintf('pkgload::load_all("%s", quiet = TRUE)', normalizePath("."))
}
result_rds <- c(new = file.path(tempdir(), "tid8-new.rds"), reference = file.path(tempdir(), "tid8-reference.rds"))

# Runs `lines` in a fresh Rscript, under /usr/bin/time -v when available.
run_measured <- function(lines) {
  script <- tempfile(fileext = ".R")
  writeLines(c(load_pkg, "invisible(gc())", lines), script)
  rscript <- file.path(R.home("bin"), "Rscript")
  has_time <- file.exists("/usr/bin/time")
  out <- if (has_time) {
    system2("/usr/bin/time", c("-v", rscript, script), stdout = TRUE, stderr = TRUE)
  } else {
    system2(rscript, script, stdout = TRUE, stderr = TRUE)
  }
  cat(grep("^time:|Maximum resident|Elapsed|Error", out, value = TRUE), sep = "\n")
}
timed <- function(what, expr, rds = NULL) {
  c(sprintf("t <- system.time(x <- %s)", expr),
    sprintf('cat(sprintf("time: %s %%.2f s elapsed, %%.2f s CPU, %%d rows\\n", t[["elapsed"]], t[["user.self"]] + t[["sys.self"]], NROW(x)))', what),
    if (!is.null(rds)) sprintf('saveRDS(x, "%s")', rds))
}

cat("read_tid8():\n")
run_measured(timed("read_tid8()", sprintf('read_tid8("%s")', path), result_rds[["new"]]))
cat("jsonlite::stream_in() (all fields, numbers as doubles):\n")
run_measured(timed("jsonlite::stream_in()", sprintf('jsonlite::stream_in(file("%s"), verbose = FALSE)', path)))
if (!is.null(reference)) {
  cat("reference read_tid8() from", reference, ":\n")
  run_measured(c(
    'ref <- new.env(parent = asNamespace("mlagreement"))',
    sprintf('sys.source("%s", envir = ref)', reference),
    timed("reference", sprintf('ref$read_tid8("%s")', path), result_rds[["reference"]])
  ))
  cat("identical() to the reference:",
      identical(readRDS(result_rds[["new"]]), readRDS(result_rds[["reference"]])), "\n")
}
cat("baseline (package loaded, nothing read):\n")
run_measured(character())
unlink(c(path, result_rds))

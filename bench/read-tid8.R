# read_tid8() on a large TID-8-like JSON-lines file (issue 15: a 243 MB file
# in <= 3 s and <= 0.5 GB peak memory).
#
#   Rscript bench/read-tid8.R [size_mb]
#
# Generates the file in tempdir() (one line per annotation, the fields of the
# TID-8 files: sentence, task, respondent_id, uid, original_id, id, the label
# under the task name, anns_except_current_one), then reads it in a fresh
# Rscript under /usr/bin/time -v, so the peak resident memory of the whole
# process is measured, and reports time and memory.
args <- commandArgs(trailingOnly = TRUE)
target_mb <- if (length(args) > 0) as.numeric(args[1]) else 243

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

script <- tempfile(fileext = ".R")
root <- normalizePath(".")
writeLines(c(
  sprintf('pkgload::load_all("%s", quiet = TRUE)', root),
  "invisible(gc())",
  sprintf('t <- system.time(x <- read_tid8("%s"))', path),
  'cat(sprintf("read_tid8: %.2f s elapsed, %.2f s CPU, %d rows\\n", t[["elapsed"]], t[["user.self"]] + t[["sys.self"]], nrow(x)))'
), script)
has_time <- file.exists("/usr/bin/time")
cmd <- if (has_time) "/usr/bin/time" else file.path(R.home("bin"), "Rscript")
cmd_args <- if (has_time) c("-v", file.path(R.home("bin"), "Rscript"), script) else script
out <- system2(cmd, cmd_args, stdout = TRUE, stderr = TRUE)
cat(grep("read_tid8:|Maximum resident|Elapsed", out, value = TRUE), sep = "\n")
# baseline: the memory of R with the package loaded and nothing read
writeLines(c(sprintf('pkgload::load_all("%s", quiet = TRUE)', root)), script)
if (has_time) {
  base <- system2(cmd, c("-v", file.path(R.home("bin"), "Rscript"), script), stdout = TRUE, stderr = TRUE)
  cat("baseline (package loaded):", grep("Maximum resident", base, value = TRUE), "\n")
}
unlink(path)

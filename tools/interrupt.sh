#!/usr/bin/env bash
# Ctrl-C during long work. Run from the package root:
#
#   tools/interrupt.sh            # every case
#   tools/interrupt.sh boot sets  # some cases
#
# Each case starts R, builds its data, prints READY, starts a long call,
# receives SIGINT (what Ctrl-C sends) two seconds into it, and must end in
# R's standard `interrupt` condition (tryCatch(interrupt = )); a follow-up
# computation in the same process must then work. Prints, per case, the
# seconds from the signal to the condition; a case fails above
# MLA_INTERRUPT_LIMIT seconds (default 1). About a minute; run by
# tools/check.sh after the check (make check, CI) and by `make interrupts`. The package
# is loaded from MLA_LIB when set (an optimised build, as users run it),
# else with pkgload::load_all() (a debug build: slower work, same latency).
set -uo pipefail
cd "$(dirname "$0")/.."

declare -A SETUP CALL FOLLOW
SETUP[boot]='fit <- mla(array(stats::runif(300 * 8 * 6) < 0.3, c(300, 8, 6)))'
CALL[boot]='mla_boot(fit, R = 2e6, resample = "annotators")'
FOLLOW[boot]='format(nrow(mla_boot(fit, R = 200)$t))'
SETUP[boot_items]="${SETUP[boot]}"
CALL[boot_items]='mla_boot(fit, R = 2e6)'
FOLLOW[boot_items]="${FOLLOW[boot]}"
SETUP[measures]='x <- as_annotations(array(stats::runif(100 * 10 * 5) < 0.3, c(100, 10, 5)))'
CALL[measures]='agreement_measures(x, R = 1e6)'
FOLLOW[measures]='format(agreement_measures(x, R = 20)$estimate[1])'
SETUP[sets]='x <- as_annotations(array(stats::runif(20000 * 5 * 100) < 0.1, c(20000, 5, 100)))'
CALL[sets]='krippendorff_alpha(x, distance = "jaccard")'
FOLLOW[sets]='format(glance(mla(x))$estimate[1])'
SETUP[simulation]='invisible(NULL)'
CALL[simulation]='simulation_study()'
FOLLOW[simulation]='format(nrow(simulation_study(n_annotators = 3, n_items = 20, n_labels = 3, prevalence = c(mid = 0.5), scenarios = "noisy", repeats = 1, measures = "mla")))'
SETUP[pairs]='x <- as_annotations(array(stats::runif(20000 * 200 * 20) < 0.3, c(20000, 200, 20)))'
CALL[pairs]='annotator_agreement(x)'
FOLLOW[pairs]='format(glance(mla(x))$estimate[1])'
SETUP[annotator_model]='x <- as_annotations(array(stats::runif(2e5 * 5 * 10) < 0.3, c(2e5, 5, 10)))'
CALL[annotator_model]='annotator_model(x, max_iter = 1e6, tol = 0)'
FOLLOW[annotator_model]='format(glance(annotator_model(x[1:200, , ]))$iterations)'

# set-alpha bootstrap: C++ chunks under an R progress bar (issue 29)
SETUP[alpha_boot]='x <- as_annotations(array(stats::runif(3000 * 5 * 12) < 0.3, c(3000, 5, 12)))'
CALL[alpha_boot]='krippendorff_alpha(x, "jaccard", R = 1e5)'
FOLLOW[alpha_boot]='format(krippendorff_alpha(x, "jaccard")$estimate)'
# a distance written in R: an R loop under a progress bar
SETUP[custom]='x <- as_annotations(array(stats::runif(400 * 4 * 14) < 0.5, c(400, 4, 14)))'
CALL[custom]='krippendorff_alpha(x, distance = function(a, b) { Sys.sleep(0.001); length(setdiff(union(a, b), intersect(a, b))) })'
FOLLOW[custom]='format(krippendorff_alpha(x, "masi")$estimate)'
# the JSON-lines scanner on a 4e6-line file (written once, about 300 MB of temp space)
SETUP[tid8]='p <- tempfile(fileext = ".jsonl"); n <- 4e6; writeLines(sprintf("{\"uid\": %d, \"respondent_id\": \"r%d\", \"task\": \"offensive\", \"offensive\": \"%s\", \"sentence\": \"some words\"}", seq_len(n) %/% 5L, seq_len(n) %% 5L, c("yes", "no")[seq_len(n) %% 2L + 1L]), p)'
CALL[tid8]='read_tid8(p)'
FOLLOW[tid8]='format(nrow(read_tid8(system.file("extdata", "tid8-train.jsonl", package = "mlagreement"))))'
# a database query (SQLite in memory): the engine runs, R waits on the driver
SETUP[database]='con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:"); n <- 3e6; DBI::dbWriteTable(con, "d", data.frame(item = seq_len(n) %/% 3L, annotator = seq_len(n) %% 3L, label = sample(c("a", "b", "c"), n, TRUE), value = sample(0:1, n, TRUE))); d <- dplyr::tbl(con, "d")'
CALL[database]='annotations_long(d, item, annotator, label, value)'
FOLLOW[database]='format(nrow(DBI::dbGetQuery(con, "SELECT count(*) AS n FROM d")))'

cases=("$@")
[ ${#cases[@]} -eq 0 ] && cases=(boot boot_items measures sets simulation pairs alpha_boot custom tid8 database annotator_model)
failed=0
for case in "${cases[@]}"; do
  out=$(mktemp)
  Rscript --vanilla -e "
    lib <- Sys.getenv('MLA_LIB')
    if (nzchar(lib)) library(mlagreement, lib.loc = lib) else pkgload::load_all('.', quiet = TRUE)
    set.seed(1)
    options(cli.progress_show_after = 0, cli.dynamic = TRUE)
    ${SETUP[$case]}
    cat('READY\n')
    res <- tryCatch(${CALL[$case]}, interrupt = function(e) 'interrupted')
    cat(sprintf('CAUGHT %.3f\n', as.numeric(Sys.time())))
    cat('RESULT', if (identical(res, 'interrupted')) 'interrupted' else 'finished', '\n')
    cat('USABLE', ${FOLLOW[$case]}, '\n')
  " >"$out" 2>&1 &
  pid=$!
  while ! grep -q READY "$out"; do
    if ! kill -0 "$pid" 2>/dev/null; then cat "$out"; echo "interrupt: $case: R exited early"; break; fi
    sleep 0.1
  done
  sleep 2
  sent=$(date +%s.%N)
  kill -INT "$pid" 2>/dev/null
  wait "$pid"
  status=$?
  # a progress bar's last \r-redraw may share the line: match anywhere
  caught=$(grep -ao 'CAUGHT [0-9.]*' "$out" | tail -n 1 | cut -d' ' -f2)
  latency=999
  [ -n "$caught" ] && latency=$(echo "$caught - $sent" | bc -l 2>/dev/null || echo 999)
  if grep -aq "RESULT interrupted" "$out" && grep -aq "USABLE " "$out" &&
     [ "$(echo "$latency <= ${MLA_INTERRUPT_LIMIT:-1}" | bc -l)" = 1 ]; then
    printf 'interrupt: %-10s caught %.2f s after SIGINT; follow-up: %s (exit status %d)\n' \
      "$case" "$latency" "$(grep -ao 'USABLE .*' "$out" | tail -n 1 | cut -d' ' -f2-)" "$status"
  else
    cat "$out"
    echo "interrupt: $case: FAILED (exit status $status; ${latency} s after SIGINT)"
    failed=1
  fi
  rm -f "$out"
done
exit $failed

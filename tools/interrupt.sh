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
# seconds from the signal to the condition (target: <= 1.5 s). The package
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

cases=("$@")
[ ${#cases[@]} -eq 0 ] && cases=(boot boot_items measures sets simulation pairs annotator_model)
failed=0
for case in "${cases[@]}"; do
  out=$(mktemp)
  Rscript --vanilla -e "
    lib <- Sys.getenv('MLA_LIB')
    if (nzchar(lib)) library(mlagreement, lib.loc = lib) else pkgload::load_all('.', quiet = TRUE)
    set.seed(1)
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
  caught=$(sed -n 's/^CAUGHT //p' "$out")
  if grep -q "RESULT interrupted" "$out" && grep -q "^USABLE" "$out"; then
    printf 'interrupt: %-10s caught %.2f s after SIGINT; follow-up: %s (exit status %d)\n' \
      "$case" "$(echo "$caught - $sent" | bc -l)" "$(sed -n 's/^USABLE //p' "$out")" "$status"
  else
    cat "$out"
    echo "interrupt: $case: FAILED (exit status $status)"
    failed=1
  fi
  rm -f "$out"
done
exit $failed

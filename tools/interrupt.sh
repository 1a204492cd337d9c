#!/usr/bin/env bash
# Ctrl-C during long C++ work. Run from the package root:
#
#   tools/interrupt.sh
#
# Starts R on a dense design whose pairwise pass (annotator_agreement(): 20,000
# items x 200 annotators x 20 labels, 8e9 label comparisons) runs for a long
# time, sends SIGINT (what Ctrl-C sends) two seconds into the pass, and checks
# that R catches the interrupt promptly and is still usable afterwards (mla()
# on the same data). Prints the latency between the signal and R regaining
# control. The package is loaded from MLA_LIB when set, else with
# pkgload::load_all().
set -uo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp)
trap 'rm -f "$out"' EXIT
Rscript --vanilla -e '
  lib <- Sys.getenv("MLA_LIB")
  if (nzchar(lib)) library(mlagreement, lib.loc = lib) else pkgload::load_all(".", quiet = TRUE)
  set.seed(1)
  arr <- array(stats::runif(20000 * 200 * 20) < 0.3, c(20000, 200, 20))
  a <- as_annotations(arr)
  cat("READY\n")
  res <- tryCatch(annotator_agreement(a), interrupt = function(e) "interrupted")
  caught <- as.numeric(Sys.time())
  cat("RESULT", if (identical(res, "interrupted")) "interrupted" else "finished", "\n")
  cat(sprintf("CAUGHT %.3f\n", caught))
  fit <- mla(a)
  cat("USABLE mla() after the interrupt:", format(glance(fit)$estimate), "\n")
' >"$out" 2>&1 &
pid=$!
while ! grep -q READY "$out"; do
  if ! kill -0 "$pid" 2>/dev/null; then cat "$out"; echo "interrupt: R exited early"; exit 2; fi
  sleep 0.2
done
sleep 2
sent=$(date +%s.%N)
kill -INT "$pid"
wait "$pid"
status=$?
cat "$out"
caught=$(sed -n 's/^CAUGHT //p' "$out")
if grep -q "RESULT interrupted" "$out" && grep -q "^USABLE" "$out"; then
  printf 'interrupt: caught %.2f s after SIGINT; R usable afterwards (exit status %d)\n' \
    "$(echo "$caught - $sent" | bc -l)" "$status"
else
  echo "interrupt: FAILED (exit status $status)"
  exit 1
fi

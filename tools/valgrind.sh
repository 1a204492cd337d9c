#!/usr/bin/env bash
# Run the test suite of the installed package under valgrind memcheck.
#
#   tools/valgrind.sh [LOG]              # LOG defaults to ./valgrind.log
#   MLA_VALGRIND_FILTER=mla tools/valgrind.sh   # only test files matching a regex
#
# The package is built from this checkout (R CMD build, honouring
# .Rbuildignore) and installed into a temporary library, so the source tree is
# left untouched. R then runs tests/testthat against the installed package under
#   valgrind --tool=memcheck --leak-check=full --track-origins=yes
# The last line printed is the summary:
#   valgrind: ERROR SUMMARY <n> errors; memory errors <e>; definitely lost <b> bytes; tests <p> passed, <f> failed
# and the script exits non-zero when valgrind counted any error or a test failed.
#
# Leaks: R never frees its heap at exit, so "still reachable" and "possibly
# lost" blocks are R's own; only definitely-lost blocks are counted as errors
# (--errors-for-leak-kinds=definite), so that ERROR SUMMARY counts invalid
# reads/writes, uses of uninitialised values, bad frees and definite leaks.
# tools/valgrind.supp suppresses one third-party leak (jsonlite's parser on
# malformed JSON); suppressed counts are printed in the log's ERROR SUMMARY.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
log=$(realpath -m "${1:-valgrind.log}")
filter="${MLA_VALGRIND_FILTER:-}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export MAKEFLAGS="${MAKEFLAGS:--j1}"

echo "== building and installing $root into $tmp/lib"
mkdir -p "$tmp/lib" "$tmp/build"
(cd "$tmp/build" && R CMD build --no-build-vignettes --no-manual --no-resave-data "$root" >"$tmp/build.log" 2>&1) || {
  cat "$tmp/build.log"; echo "valgrind: build failed"; exit 2; }
R CMD INSTALL --no-multiarch --library="$tmp/lib" "$tmp"/build/mlagreement_*.tar.gz >"$tmp/install.log" 2>&1 || {
  cat "$tmp/install.log"; echo "valgrind: install failed"; exit 2; }


echo "== running tests${filter:+ (filter: $filter)} under valgrind; log: $log"
start=$(date +%s)
R_LIBS="$tmp/lib" MLA_TEST_DIR="$root/tests/testthat" MLA_TEST_FILTER="$filter" \
  NOT_CRAN=true OMP_NUM_THREADS=2 MLA_VALGRIND=1 \
  R --vanilla --no-echo \
  -d "valgrind --tool=memcheck --leak-check=full --error-exitcode=1 --track-origins=yes --errors-for-leak-kinds=definite --suppressions=$root/tools/valgrind.supp --log-file=$log" \
  -f "$root/tools/run-installed-tests.R" 2>&1 | tee "$tmp/tests.out"
status=${PIPESTATUS[0]}
secs=$(( $(date +%s) - start ))

errors=$(sed -n 's/.*ERROR SUMMARY: \([0-9][0-9]*\) errors.*/\1/p' "$log" | tail -1)
errors=${errors:-unknown}
memerr=$(grep -cE '^==[0-9]+== (Invalid (read|write|free)|Conditional jump|Use of uninitialised|Syscall param|Mismatched free|Source and destination overlap|Argument .* of function)' "$log" || true)
deflost=$(sed -n 's/.*definitely lost: \([0-9,]*\) bytes.*/\1/p' "$log" | tail -1 | tr -d ,)
tests=$(sed -n 's/^TESTS \([0-9]*\) passed, \([0-9]*\) failed.*/\1 passed, \2 failed/p' "$tmp/tests.out" | tail -1)
echo "valgrind: ERROR SUMMARY $errors errors; memory errors $memerr; definitely lost ${deflost:-0} bytes; tests ${tests:-unknown}; ${secs}s; log $log"
if [ "$errors" != "0" ] || [ "$status" -ne 0 ] || [ -z "$tests" ] || ! echo "$tests" | grep -q ' 0 failed'; then
  exit 1
fi

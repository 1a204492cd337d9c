#!/usr/bin/env bash
# Build the package with AddressSanitizer + UndefinedBehaviorSanitizer and run
# the test suite against it.
#
#   tools/sanitizers.sh [LOG]             # LOG defaults to ./sanitizers.log
#   MLA_SANITIZER_FILTER=mla tools/sanitizers.sh   # only test files matching a regex
#
# Compiler flags go through a temporary R_MAKEVARS_USER file; the package is
# built from this checkout (R CMD build) and installed into a temporary
# library (without the load test, which would need the ASan runtime). R
# itself is not instrumented, so the ASan runtime is preloaded for the tests.
# Leak detection is off (R never frees its heap at exit); any ASan report or
# UBSan report aborts the run (halt_on_error / -fno-sanitize-recover).
# The last line printed is the summary:
#   sanitizers: <n> ASan reports, <m> UBSan reports; tests <p> passed, <f> failed
# and the script exits non-zero when there is any report or failed test.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
log=$(realpath -m "${1:-sanitizers.log}")
filter="${MLA_SANITIZER_FILTER:-}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export MAKEFLAGS="${MAKEFLAGS:--j1}"

san="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
cat >"$tmp/Makevars" <<EOF
CFLAGS = -g -O1 $san
CXXFLAGS = -g -O1 $san
CXX11FLAGS = -g -O1 $san
CXX14FLAGS = -g -O1 $san
CXX17FLAGS = -g -O1 $san
CXX20FLAGS = -g -O1 $san
LDFLAGS = $san
EOF

echo "== building and installing $root with sanitizers into $tmp/lib"
mkdir -p "$tmp/lib" "$tmp/build"
(cd "$tmp/build" && R CMD build --no-build-vignettes --no-manual --no-resave-data "$root" >"$tmp/build.log" 2>&1) || {
  cat "$tmp/build.log"; echo "sanitizers: build failed"; exit 2; }
R_MAKEVARS_USER="$tmp/Makevars" R CMD INSTALL --no-multiarch --no-test-load --preclean --library="$tmp/lib" \
  "$tmp"/build/mlagreement_*.tar.gz >"$tmp/install.log" 2>&1 || {
  cat "$tmp/install.log"; echo "sanitizers: install failed"; exit 2; }
if ! grep -q -- '-fsanitize=address,undefined' "$tmp/install.log"; then
  cat "$tmp/install.log"; echo "sanitizers: the sanitizer flags did not reach the compiler"; exit 2
fi

n_asan=$(nm -D "$tmp/lib/mlagreement/libs/mlagreement.so" | grep -c '__asan_report' || true)
if [ "${n_asan:-0}" -eq 0 ]; then
  echo "sanitizers: the installed library is not instrumented"; exit 2
fi


echo "== running tests${filter:+ (filter: $filter)} with ASan/UBSan; log: $log"
: >"$log"
start=$(date +%s)
# Reports go to stderr, which is kept in the log together with the test output.
LD_PRELOAD="$(gcc -print-file-name=libasan.so)" \
  ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:abort_on_error=0:detect_odr_violation=0:strict_string_checks=0:print_summary=1" \
  UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:print_summary=1" \
  R_LIBS="$tmp/lib" MLA_TEST_DIR="$root/tests/testthat" MLA_TEST_FILTER="$filter" \
  NOT_CRAN=true \
  R --vanilla --no-echo -f "$root/tools/run-installed-tests.R" >"$log" 2>&1
status=$?
secs=$(( $(date +%s) - start ))
tail -n 25 "$log"

asan=$(grep -c 'ERROR: AddressSanitizer' "$log" || true)
ubsan=$(grep -c 'runtime error:' "$log" || true)
tests=$(sed -n 's/^TESTS \([0-9]*\) passed, \([0-9]*\) failed.*/\1 passed, \2 failed/p' "$log" | tail -1)
echo "sanitizers: $asan ASan reports, $ubsan UBSan reports; tests ${tests:-unknown (R exited with status $status)}; ${secs}s; log $log"
if [ "$asan" -ne 0 ] || [ "$ubsan" -ne 0 ] || [ "$status" -ne 0 ] || [ -z "$tests" ] || ! echo "$tests" | grep -q ' 0 failed'; then
  exit 1
fi

#!/usr/bin/env bash
# Coverage-guided fuzzing (libFuzzer) of the pure C++ headers in
# inst/include/mlagreement/, with ASan and UBSan, each harness checking the headers
# against plain reference loops (tools/fuzz/*.cpp; tools/README.md says what
# each target checks).
#
#   tools/fuzz.sh [SECONDS]        # SECONDS per target, default 60
#   MLA_FUZZ_TARGETS="counts boot" tools/fuzz.sh 600
#
# Needs clang++ with libFuzzer (Debian: apt-get install clang libclang-rt-14-dev)
# and dqrng's headers (rng.h includes xoshiro.h): found through Rscript, or
# given as MLA_DQRNG_INCLUDE. Not part of CI (.ci/run does not need clang).
# Targets run one after the other (one process: the CPU is shared). The
# corpus of each target is tools/fuzz/corpus/<target>/: read at the start,
# grown while fuzzing, and minimised at the end (-merge=1), so the committed
# corpus stays small. Findings (crash-*, timeout-*, oom-*, leak-* inputs) go
# to tools/fuzz/build/; reproduce one with tools/fuzz/build/<target> FILE.
# One line per target, then the last line:
#   fuzz: <n> findings in <t> s
# The exit status is non-zero when there is a finding or a build failed.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
seconds="${1:-60}"
targets="${MLA_FUZZ_TARGETS:-counts set_build set_alpha boot estimators set_boot json json_fields ingest annotator_model}"
cxx="${CXX_FUZZ:-clang++}"
fuzz="$root/tools/fuzz"
build="$fuzz/build"
mkdir -p "$build"

dqrng="${MLA_DQRNG_INCLUDE:-$(Rscript -e 'cat(system.file("include", package = "dqrng"))' 2>/dev/null)}"
if [ -z "$dqrng" ] || [ ! -f "$dqrng/xoshiro.h" ]; then
  echo "fuzz: dqrng's headers not found (install dqrng or set MLA_DQRNG_INCLUDE)"; exit 2
fi
# dqrng and std::array (dqrng's state) are left out of the instrumentation
# (tools/fuzz/*-ignore.txt): third-party code, and it made the bootstrap
# target ten times slower.
flags=(-std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
       -fsanitize-coverage-ignorelist="$fuzz/coverage-ignore.txt"
       -fsanitize-ignorelist="$fuzz/sanitizer-ignore.txt"
       -I "$root/src" -I "$root/inst/include" -I "$dqrng")
# OpenMP when clang has it (Debian: libomp-14-dev): the harnesses then run
# the engines on 1 or 2 threads (a byte of the input), so the references
# also check that results do not depend on threads. MLA_FUZZ_OPENMP=0: off.
if [ "${MLA_FUZZ_OPENMP:-1}" != 0 ] &&
   printf '#include <omp.h>\nint main() { return omp_get_max_threads() > 0 ? 0 : 1; }\n' |
     "$cxx" -fopenmp -x c++ - -o "$build/omp-check" 2>/dev/null; then
  flags+=(-fopenmp)
  echo "fuzz: OpenMP on (engines run on 1 or 2 threads)"
else
  echo "fuzz: OpenMP off (every engine on one thread)"
fi
# idle OpenMP workers sleep at once rather than spin for 200 ms (shared CPU)
export KMP_BLOCKTIME="${KMP_BLOCKTIME:-0}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

findings=0
failed_builds=0
start=$(date +%s)
for t in $targets; do
  if ! "$cxx" "${flags[@]}" "$fuzz/$t.cpp" -o "$build/$t" 2>"$build/$t.build.log"; then
    cat "$build/$t.build.log"
    echo "fuzz: $t: build failed"
    failed_builds=$((failed_builds + 1))
    continue
  fi
  corpus="$fuzz/corpus/$t"
  mkdir -p "$corpus"
  before=$(ls "$build" | grep -cE "^$t-(crash|timeout|oom|leak)-" || true)
  t0=$(date +%s)
  # -max_len keeps corpus files small; -timeout: an input taking 20 s is a finding
  "$build/$t" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -max_len=1024 \
    -print_final_stats=1 -artifact_prefix="$build/$t-" "$corpus" >"$build/$t.log" 2>&1
  status=$?
  t1=$(date +%s)
  after=$(ls "$build" | grep -cE "^$t-(crash|timeout|oom|leak)-" || true)
  found=$((after - before))
  if [ "$status" -ne 0 ] && [ "$found" -eq 0 ]; then found=1; fi
  findings=$((findings + found))
  # minimise the corpus into a fresh directory: the inputs that keep every
  # covered edge (-use_counters=0: edges, not hit counts, so a few dozen
  # files per target rather than hundreds)
  min="$build/$t.min"
  rm -rf "$min" && mkdir -p "$min"
  "$build/$t" -merge=1 -use_counters=0 -timeout=20 -rss_limit_mb=2048 "$min" "$corpus" >"$build/$t.merge.log" 2>&1 &&
    rm -rf "$corpus" && mv "$min" "$corpus"
  execs=$(grep -oE 'stat::number_of_executed_units: [0-9]+' "$build/$t.log" | grep -oE '[0-9]+$' | tail -1)
  cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$build/$t.log" | tail -1)
  echo "fuzz: $t: ${execs:-?} executions in $((t1 - t0)) s, ${cov:-cov: ?}, corpus $(ls "$corpus" | wc -l) files, $found findings (log $build/$t.log)"
  if [ "$found" -gt 0 ]; then grep -E "fuzz mismatch|ERROR|SUMMARY|runtime error" "$build/$t.log" | head -5; fi
done
echo "fuzz: $findings findings in $(( $(date +%s) - start )) s"
[ "$findings" -eq 0 ] && [ "$failed_builds" -eq 0 ]

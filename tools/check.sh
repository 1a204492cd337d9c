#!/usr/bin/env bash
# R CMD check --as-cran on a built tarball, then a summary line that CI reads:
# "N passed, N failed" from testthat's own results, and a non-zero exit when
# the check reported any ERROR, WARNING or NOTE or any test failed.
set -uo pipefail
tarball="$1"
pkg="${tarball%%_*}"
# Two notes come from the sandbox, not the package: no CRAN incoming
# feasibility (a new package always gets "New submission") and no time server.
export _R_CHECK_CRAN_INCOMING_=false
export _R_CHECK_CRAN_INCOMING_REMOTE_=false
export _R_CHECK_SYSTEM_CLOCK_=false
export _R_CHECK_TESTS_NLINES_=0
# Let R CMD INSTALL strip debug information from the shared library (its own
# _R_SHLIB_STRIP_ option): with gcc's default -g the Rcpp headers alone put
# 5 MB of it into libs/ (0.4 MB without). --strip-debug keeps the symbol table,
# which the check of native-routine registration reads.
export _R_SHLIB_STRIP_=true
export R_STRIP_SHARED_LIB="strip --strip-debug"
# This is our CI, not CRAN: run the snapshot tests and heavy checks as well.
export NOT_CRAN=true
# The PDF manual's default typewriter font (inconsolata) is only in Debian's
# 1.4 GB texlive-fonts-extra; the manual is still built and checked in full,
# with the standard fonts.
export R_RD4PDF="${R_RD4PDF:-times,hyper}"
# Record testthat's results (outside the check directory) for the summary line.
results_dir=$(mktemp -d)
export MLA_TEST_RESULTS="$results_dir/test-results.rds"
R CMD check --as-cran "$tarball"
status=$?
log="$pkg.Rcheck/00check.log"
problems=0
if [ -f "$log" ]; then
  problems=$(grep -cE '\.\.\. *(ERROR|WARNING|NOTE)|^(\* )?checking.*(ERROR|WARNING|NOTE)$' "$log" || true)
  grep -E '^Status:' "$log" || true
  if ! grep -q '^Status: OK' "$log"; then problems=$((problems + 1)); fi
fi
# Ctrl-C with real signals, one case per long-call family, on the package
# the check installed (about 1 minute).
if [ -d "$pkg.Rcheck/$pkg" ]; then
  if ! MLA_LIB="$PWD/$pkg.Rcheck" bash tools/interrupt.sh; then
    echo "tools/interrupt.sh: a long call did not stop within 1 s of Ctrl-C"
    problems=$((problems + 1))
  fi
fi
# The site's reference index must list every exported topic (make site).
if Rscript --vanilla -e 'quit(status = !requireNamespace("pkgdown", quietly = TRUE))'; then
  if ! Rscript --vanilla -e 'pkgdown::check_pkgdown()'; then
    echo "pkgdown::check_pkgdown() failed"
    problems=$((problems + 1))
  fi
else
  echo "pkgdown is not installed: the site's index was not checked"
  problems=$((problems + 1))
fi
# Where the test time goes (CI must stay within its time limit).
Rscript --vanilla -e '
  f <- Sys.getenv("MLA_TEST_RESULTS")
  if (!file.exists(f)) quit(status = 0)
  r <- readRDS(f)
  if (is.null(r$real)) quit(status = 0)
  t <- sort(tapply(r$real, r$file, sum), decreasing = TRUE)
  cat(sprintf("tests: %.0f s in all; slowest files:\n", sum(t)))
  cat(sprintf("  %6.1f s  %s\n", head(t, 8), names(head(t, 8))), sep = "")'
counts=$(Rscript --vanilla -e '
  f <- Sys.getenv("MLA_TEST_RESULTS")
  if (!file.exists(f)) { cat("0 0\n"); quit(status = 0) }
  r <- readRDS(f)
  cat(sum(r$passed), sum(r$failed) + sum(r$error), "\n")')
set -- $counts
passed=${1:-0}; failed=${2:-0}
echo "check problems: $problems"
echo "$passed passed, $failed failed"
if [ "$status" -ne 0 ] || [ "$problems" -ne 0 ] || [ "$failed" -ne 0 ] || [ "$passed" -eq 0 ]; then
  exit 1
fi

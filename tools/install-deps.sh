#!/usr/bin/env bash
# Install everything mlagreement needs to build, check and test.
# Order of preference: already installed -> Debian's prebuilt r-cran-* -> CRAN.
# Idempotent: when nothing is missing it only asks R which packages exist.
set -euo pipefail

# MLA_PROFILE=demo: only what installing the package and building its
# vignettes need (make demo, make install); the default profile adds the
# test, check and cross-check dependencies (make check).
profile="${MLA_PROFILE:-check}"
r_pkgs="Rcpp RcppArmadillo dqrng cli rlang tibble generics tidyselect vctrs jsonlite xml2
knitr rmarkdown ggplot2 boot withr DBI dbplyr dplyr RSQLite"
sys_tools="pandoc:pandoc"
if [ "$profile" != "demo" ]; then
  # RPostgres: no Debian package in bookworm, so a CRAN build against libpq-dev
  r_pkgs="$r_pkgs testthat irr irrCAC ICC psych rsample RPostgreSQL RPostgres callr pkgload pkgdown"
  sys_tools="$sys_tools qpdf:qpdf tidy:tidy pdflatex:texlive-latex-base
pdflatex:texlive-latex-recommended pdflatex:texlive-fonts-recommended
chromium:chromium pg_ctlcluster:postgresql pg_config:libpq-dev"
fi
# DuckDB is a 15-25 minute source build on two cores: opt in with MLA_DUCKDB=1
[ "${MLA_DUCKDB:-0}" = "1" ] && r_pkgs="$r_pkgs duckdb"
dev_pkgs="roxygen2 pkgdown"
[ "${MLA_DEV:-0}" = "1" ] && r_pkgs="$r_pkgs $dev_pkgs"
# the site's local MathJax (tools/site-mathjax.sh); pandoc stands in for a command
[ "${MLA_DEV:-0}" = "1" ] && sys_tools="$sys_tools pandoc:libjs-mathjax"

missing_r() {
  Rscript --vanilla -e 'args <- commandArgs(TRUE);
    have <- rownames(installed.packages());
    cat(setdiff(args, have), sep = "\n")' $r_pkgs
}

can_apt=0
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = "0" ]; then can_apt=1; fi
apt_updated=0
apt_update_once() {
  if [ "$apt_updated" = "0" ]; then
    apt-get update -qq >/dev/null 2>&1 || true
    apt_updated=1
  fi
}
# The given Debian packages that have an installation candidate, in one
# apt-cache call (one call per package took about 1.5 s each).
apt_available() {
  apt-cache policy "$@" 2>/dev/null |
    awk '/^[^ ].*:$/ { pkg = substr($0, 1, length($0) - 1) }
         /^ +Candidate: [0-9]/ { print pkg }'
}
# The demo profile skips Recommends: ggplot2's alone pull in sf, GDAL and
# about 380 r-cran packages the package never uses.
apt_recommends=""
[ "$profile" = "demo" ] && apt_recommends="--no-install-recommends"

# System tools used by R CMD check --as-cran (vignettes, HTML/PDF manual),
# and Debian's chromium for the test that opens the rendered report.
if [ "$can_apt" = "1" ]; then
  want=""
  for pair in $sys_tools; do
    cmd="${pair%%:*}"; pkg="${pair#*:}"
    if ! command -v "$cmd" >/dev/null 2>&1 || ! dpkg -s "$pkg" >/dev/null 2>&1; then
      want="$want $pkg"
    fi
  done
  if [ -n "$want" ]; then
    apt_update_once
    echo "install-deps: apt-get install$want"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $want >/dev/null
  fi
fi

need=$(missing_r)
if [ -n "$need" ] && [ "$can_apt" = "1" ]; then
  apt_update_once
  wanted=$(for p in $need; do echo "r-cran-$p" | tr '[:upper:]' '[:lower:]'; done)
  debs=$(apt_available $wanted | tr '\n' ' ')
  if [ -n "${debs// /}" ]; then
    echo "install-deps: apt-get install $debs"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $apt_recommends $debs >/dev/null
  fi
  need=$(missing_r)
fi

if [ -n "$need" ]; then
  echo "install-deps: from CRAN:" $need
  Rscript --vanilla -e 'args <- commandArgs(TRUE);
    install.packages(args, repos = "https://cloud.r-project.org", Ncpus = 2L, quiet = TRUE)' $need
  need=$(missing_r)
  if [ -n "$need" ]; then
    echo "install-deps: could not install:" $need >&2
    exit 1
  fi
fi
echo "install-deps: all dependencies present"

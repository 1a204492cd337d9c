#!/usr/bin/env bash
# Install mlagreement with its vignettes, compiling its C++ once.
# `R CMD build` compiles the package into a temporary library to build the
# vignettes and `R CMD INSTALL` of the tarball compiles it again (about
# 100 s each on two cores). Here the package is installed from a staging
# copy, the vignettes are built against that installation, and the same copy
# is installed again with its vignettes: its objects are up to date, so the
# second installation only copies files.
# Usage: bash tools/install.sh [LIBRARY]   (default: R's first library)
set -euo pipefail
src=$(pwd)
lib_args=()
if [ -n "${1:-}" ]; then
  mkdir -p "$1"
  lib=$(cd "$1" && pwd)
  lib_args=(-l "$lib")
  export R_LIBS="$lib${R_LIBS:+:$R_LIBS}"
fi
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

# the files a tarball holds (.Rbuildignore applied), without its vignettes
(cd "$stage" && R CMD build --no-build-vignettes --no-manual "$src" >/dev/null)
tar -xzf "$stage"/mlagreement_*.tar.gz -C "$stage"
pkg="$stage/mlagreement"

# Both installations strip the debug information, so compile without it
# (-g costs about 17% of the compile): R's own flags less -g, in a private
# Makevars. A user's own Makevars (R_MAKEVARS_USER or ~/.R/Makevars) wins.
if [ -z "${R_MAKEVARS_USER:-}" ] && [ ! -f "$HOME/.R/Makevars" ]; then
  makevars="$stage/Makevars"
  for v in CXXFLAGS CXX11FLAGS CXX14FLAGS CXX17FLAGS; do
    echo "$v = $(R CMD config "$v" | sed -E 's/(^| )-g( |$)/ /g')"
  done > "$makevars"
  export R_MAKEVARS_USER="$makevars"
fi

install() {
  R_STRIP_SHARED_LIB="strip --strip-debug" \
    R CMD INSTALL --no-multiarch --strip "${lib_args[@]}" "$pkg"
}
install

# what R CMD build does with the vignettes: outputs and sources to inst/doc,
# their index to build/vignette.rds (read by INSTALL)
(cd "$pkg" && Rscript --vanilla -e '
  tools::buildVignettes(dir = ".", tangle = TRUE, quiet = TRUE)
  vigns <- tools::pkgVignettes(dir = ".", output = TRUE, source = TRUE)
  dir.create("inst/doc", recursive = TRUE, showWarnings = FALSE)
  files <- unique(c(vigns$docs, vigns$outputs, unlist(vigns$sources)))
  stopifnot(all(file.copy(files, "inst/doc", overwrite = TRUE, copy.date = TRUE)))
  dir.create("build", showWarnings = FALSE)
  saveRDS(tools:::.build_vignette_index(vigns), "build/vignette.rds", version = 2L)')
install

#!/usr/bin/env bash
# Copies the part of MathJax 2 that the site's pages load (TeX input,
# CommonHTML output, its web fonts) into docs/mathjax, so that formulas in
# the reference pages and articles render without network access.
# pkgdown/templates/head.html loads docs/mathjax/MathJax.js.
set -euo pipefail
src="${MLA_MATHJAX:-/usr/share/javascript/mathjax}"   # Debian: apt-get install libjs-mathjax
dest="${1:-docs}/mathjax"
if [ ! -f "$src/MathJax.js" ]; then
  echo "site-mathjax: no MathJax at $src (apt-get install libjs-mathjax, or set MLA_MATHJAX)" >&2
  exit 1
fi
rm -rf "$dest"
for part in MathJax.js config/TeX-AMS_CHTML.js extensions jax/input/TeX jax/output/CommonHTML \
            jax/element fonts/HTML-CSS/TeX/woff; do
  mkdir -p "$dest/$(dirname "$part")"
  cp -rL "$src/$part" "$dest/$part"
done
echo "site-mathjax: $(du -sh "$dest" | cut -f1) of MathJax in $dest"

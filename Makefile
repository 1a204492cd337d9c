# Two entry points used by the README and CI:
#   make demo   install dependencies and the package, print the agreement report
#               of the paper's worked example
#   make check  install dependencies, start PostgreSQL, then R CMD check --as-cran
#               (tests, vignettes)
#   make site   the pkgdown site in docs/, built without network access
# make install (and demo) installs the package with its vignettes
# (vignette("mlagreement")) compiling the C++ once (tools/install.sh).
PKG := mlagreement
VERSION := $(shell sed -n 's/^Version: //p' DESCRIPTION)
TARBALL := $(PKG)_$(VERSION).tar.gz
RSCRIPT := Rscript --vanilla
# the package's C++ compiles in parallel, on every core (R CMD build and
# INSTALL run make with the MAKEFLAGS of their environment)
JOBS := $(shell nproc 2>/dev/null || echo 2)
MAKEFLAGS_R := -j$(JOBS)
R_CMD := MAKEFLAGS="$(MAKEFLAGS_R)" R CMD

.PHONY: deps demo-deps install demo build check test document site bench clean interrupts

deps:
	bash tools/install-deps.sh

demo-deps:
	MLA_PROFILE=demo bash tools/install-deps.sh

# from the demo's dependencies only; LIB=<dir> installs into that library
install: demo-deps
	MAKEFLAGS="$(MAKEFLAGS_R)" bash tools/install.sh $(LIB)

demo: install
	$(RSCRIPT) -e 'library(mlagreement)' \
	  -e 'fit <- mla(annotations_long(bias_example, item, annotator, label, value))' \
	  -e 'print(fit)' -e 'print(tidy(fit))' -e 'print(glance(fit), width = Inf)' \
	  -e 'stopifnot(nrow(vignette(package = "mlagreement")$$results) > 0)' \
	  -e 'cat("Vignettes: vignette(\"mlagreement\")\n")'

build: deps
	$(R_CMD) build .

# PostgreSQL (installed by deps) runs for the database tests, and is stopped
# after only if this started it; the last line stays check.sh's summary.
check: build
	bash tools/postgres.sh start
	status=0; MAKEFLAGS="$(MAKEFLAGS_R)" bash tools/check.sh $(TARBALL) || status=$$?; \
	  bash tools/postgres.sh stop >/dev/null 2>&1; exit $$status

test: build
	R_STRIP_SHARED_LIB="strip --strip-debug" $(R_CMD) INSTALL --preclean --no-multiarch --strip $(TARBALL)
	$(RSCRIPT) -e 'testthat::test_local(reporter = "summary")'

site: install
	MLA_DEV=1 bash tools/install-deps.sh
	$(RSCRIPT) -e 'options(pkgdown.internet = FALSE)' \
	  -e 'pkgdown::build_site(install = FALSE, new_process = FALSE, preview = FALSE)'
	bash tools/site-mathjax.sh docs

# Ctrl-C with real signals, one case per long-call family (tools/interrupt.sh)
interrupts: build
	lib=$$(mktemp -d) && R CMD INSTALL --no-multiarch -l $$lib $(TARBALL) >/dev/null && \
	  MLA_LIB=$$lib bash tools/interrupt.sh

document:
	MLA_DEV=1 bash tools/install-deps.sh
	$(RSCRIPT) -e 'Rcpp::compileAttributes(); roxygen2::roxygenise()'

bench: install
	for f in bench/*.R; do echo "== $$f"; $(RSCRIPT) $$f; done

clean:
	rm -rf $(PKG).Rcheck $(PKG)_*.tar.gz src/*.o src/*.so docs

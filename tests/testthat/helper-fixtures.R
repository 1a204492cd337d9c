# Outside truths frozen under fixtures/, each file made by its script in
# data-raw/ (fixtures-irrcac.R, fixtures-irr.R, fixtures-published.R), so the
# tests check irrCAC's, irr's and the published numbers without those
# packages. test-fixtures.R recomputes the package fixtures live when the
# packages are installed.

fixture_cache <- new.env(parent = emptyenv())

read_fixture <- function(name) {
  if (is.null(fixture_cache[[name]])) {
    path <- testthat::test_path("fixtures", name)
    fixture_cache[[name]] <- if (grepl("[.]csv$", name)) {
      utils::read.csv(path, colClasses = "character", na.strings = "")
    } else {
      readRDS(path)
    }
  }
  fixture_cache[[name]]
}

irrcac_fixture <- function(case) read_fixture("irrcac.rds")[[case]]
irr_fixture <- function(case) read_fixture("irr.rds")[[case]]

# Published values of `quantity` in `dataset`, in the order they are printed:
# exact values (digits = NA) or those rounded to `digits` decimals, of the
# given baselines (all when NULL). Fractions "a/b" become a / b.
published <- function(dataset, quantity, baseline = NULL, digits = NA) {
  tab <- read_fixture("published.csv")
  keep <- tab$dataset == dataset & tab$quantity == quantity &
    (if (is.na(digits)) is.na(tab$digits) else tab$digits %in% as.character(digits))
  if (!is.null(baseline)) keep <- keep & tab$baseline %in% baseline
  rows <- tab[keep, ]
  if (nrow(rows) == 0) stop("no published value ", dataset, " / ", quantity)
  vapply(strsplit(rows$value, "/", fixed = TRUE), function(x) {
    if (length(x) == 2) as.numeric(x[1]) / as.numeric(x[2]) else as.numeric(x)
  }, numeric(1))
}

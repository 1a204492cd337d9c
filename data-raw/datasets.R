# Builds data/bias_example.rda and data/convabuse_*.rda from the inputs in
# data-raw/ (sources and licences: data-raw/README.md).
# Run from the package root: Rscript data-raw/datasets.R
raw <- "data-raw"

we <- utils::read.csv(file.path(raw, "worked_example.csv"),
                      colClasses = c("integer", "integer", "character", "integer"))
bias_example <- data.frame(
  item = we$item,
  annotator = we$annotator,
  label = factor(we$label, levels = sprintf("L%02d", 1:31)),
  value = we$value
)
stopifnot(nrow(bias_example) == 372, !anyNA(bias_example$label))
save(bias_example, file = "data/bias_example.rda", compress = "xz")

read_convabuse <- function(path) {
  d <- utils::read.csv(path, colClasses = "character")
  d$value <- as.integer(d$value)
  d
}
type_levels <- c("type.ableism", "type.homophobic", "type.intellectual", "type.racist",
                 "type.sexist", "type.sex_harassment", "type.transphobic")
main <- read_convabuse(file.path(raw, "convabuse_type.csv.gz"))
convabuse_types <- data.frame(
  item = main$item,
  annotator = main$annotator,
  label = factor(sub("^type\\.", "", main$label), levels = sub("^type\\.", "", type_levels)),
  value = main$value
)
dups <- read_convabuse(file.path(raw, "convabuse_type_duplicates.csv"))
convabuse_repeats <- data.frame(
  item = dups$item,
  annotator = dups$annotator,
  label = factor(sub("^type\\.", "", dups$label), levels = levels(convabuse_types$label)),
  value = dups$value,
  occurrence = as.integer(dups$occurrence)
)
stopifnot(!anyNA(convabuse_types$label), !anyNA(convabuse_repeats$label))
save(convabuse_types, file = "data/convabuse_types.rda", compress = "xz")
save(convabuse_repeats, file = "data/convabuse_repeats.rda", compress = "xz")

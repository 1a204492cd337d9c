pkgname <- "mlagreement"
source(file.path(R.home("share"), "R", "examples-header.R"))
options(warn = 1)
base::assign(".ExTimings", "mlagreement-Ex.timings", pos = 'CheckExEnv')
base::cat("name\tuser\tsystem\telapsed\n", file=base::get(".ExTimings", pos = 'CheckExEnv'))
base::assign(".format_ptime",
function(x) {
  if(!is.na(x[4L])) x[1L] <- x[1L] + x[4L]
  if(!is.na(x[5L])) x[2L] <- x[2L] + x[5L]
  options(OutDec = '.')
  format(x[1L:3L], digits = 7L)
},
pos = 'CheckExEnv')

### * </HEADER>
library('mlagreement')

base::assign(".oldSearch", base::search(), pos = 'CheckExEnv')
base::assign(".old_wd", base::getwd(), pos = 'CheckExEnv')
cleanEx()
nameEx("annotations_long")
### * annotations_long

flush(stderr()); flush(stdout())

base::assign(".ptime", proc.time(), pos = "CheckExEnv")
### Name: annotations_long
### Title: Annotations from a long data frame
### Aliases: annotations_long

### ** Examples

fit <- annotations_long(bias_example, item, annotator, label, value)
fit

selected <- data.frame(
  doc = c(1, 1, 1, 2, 2),
  coder = c("a", "a", "b", "a", "b"),
  tag = c("x", "y", "x", NA, "y")
)
annotations_long(selected, doc, coder, tag, labels = c("x", "y", "z"))



base::assign(".dptime", (proc.time() - get(".ptime", pos = "CheckExEnv")), pos = "CheckExEnv")
base::cat("annotations_long", base::get(".format_ptime", pos = 'CheckExEnv')(get(".dptime", pos = "CheckExEnv")), "\n", file=base::get(".ExTimings", pos = 'CheckExEnv'), append=TRUE, sep="\t")
cleanEx()
nameEx("annotations_wide")
### * annotations_wide

flush(stderr()); flush(stdout())

base::assign(".ptime", proc.time(), pos = "CheckExEnv")
### Name: annotations_wide
### Title: Annotations from a wide data frame
### Aliases: annotations_wide

### ** Examples

wide <- data.frame(
  item = c(1, 1, 2, 2),
  coder = c("a", "b", "a", "b"),
  joy = c(1, 1, 0, NA),
  anger = c(0, 1, 0, 0)
)
annotations_wide(wide, item, coder, c(joy, anger))



base::assign(".dptime", (proc.time() - get(".ptime", pos = "CheckExEnv")), pos = "CheckExEnv")
base::cat("annotations_wide", base::get(".format_ptime", pos = 'CheckExEnv')(get(".dptime", pos = "CheckExEnv")), "\n", file=base::get(".ExTimings", pos = 'CheckExEnv'), append=TRUE, sep="\t")
cleanEx()
nameEx("as_annotations")
### * as_annotations

flush(stderr()); flush(stdout())

base::assign(".ptime", proc.time(), pos = "CheckExEnv")
### Name: as_annotations
### Title: Convert annotations to the canonical 'annotations' object
### Aliases: as_annotations as_annotations.array as_annotations.matrix

### ** Examples

# 2 items x 3 annotators x 2 labels
arr <- array(c(1, 1, 0, 1, 1, 0,  0, 0, 1, 0, 0, 1), dim = c(2, 3, 2),
             dimnames = list(c("s1", "s2"), c("ann", "bob", "cy"), c("pos", "neg")))
as_annotations(arr)

# categorical single-label codes
codes <- matrix(c("a", "a", "b", "b", NA, "c"), nrow = 2)
as_annotations(codes, labels = c("a", "b", "c", "d"))



base::assign(".dptime", (proc.time() - get(".ptime", pos = "CheckExEnv")), pos = "CheckExEnv")
base::cat("as_annotations", base::get(".format_ptime", pos = 'CheckExEnv')(get(".dptime", pos = "CheckExEnv")), "\n", file=base::get(".ExTimings", pos = 'CheckExEnv'), append=TRUE, sep="\t")
cleanEx()
nameEx("is_annotations")
### * is_annotations

flush(stderr()); flush(stdout())

base::assign(".ptime", proc.time(), pos = "CheckExEnv")
### Name: is_annotations
### Title: Is an object an 'annotations' object?
### Aliases: is_annotations

### ** Examples

is_annotations(as_annotations(array(0L, c(2, 2, 2))))



base::assign(".dptime", (proc.time() - get(".ptime", pos = "CheckExEnv")), pos = "CheckExEnv")
base::cat("is_annotations", base::get(".format_ptime", pos = 'CheckExEnv')(get(".dptime", pos = "CheckExEnv")), "\n", file=base::get(".ExTimings", pos = 'CheckExEnv'), append=TRUE, sep="\t")
cleanEx()
nameEx("mla")
### * mla

flush(stderr()); flush(stdout())

base::assign(".ptime", proc.time(), pos = "CheckExEnv")
### Name: mla
### Title: Multi-Label Agreement
### Aliases: mla

### ** Examples

fit <- mla(annotations_long(bias_example, item, annotator, label, value))
fit
tidy(fit)
tidy(fit, level = "label")
glance(fit)

# Table 2 of the paper: drop the never-selected labels
used <- paste0("L", sprintf("%02d", 1:11))
tidy(mla(annotations_long(bias_example, item, annotator, label, value), labels = used))



base::assign(".dptime", (proc.time() - get(".ptime", pos = "CheckExEnv")), pos = "CheckExEnv")
base::cat("mla", base::get(".format_ptime", pos = 'CheckExEnv')(get(".dptime", pos = "CheckExEnv")), "\n", file=base::get(".ExTimings", pos = 'CheckExEnv'), append=TRUE, sep="\t")
cleanEx()
nameEx("mla_threads")
### * mla_threads

flush(stderr()); flush(stdout())

base::assign(".ptime", proc.time(), pos = "CheckExEnv")
### Name: mla_threads
### Title: Number of threads used by default
### Aliases: mla_threads

### ** Examples

mla_threads()
old <- options(mlagreement.threads = 2)
mla_threads()
options(old)



base::assign(".dptime", (proc.time() - get(".ptime", pos = "CheckExEnv")), pos = "CheckExEnv")
base::cat("mla_threads", base::get(".format_ptime", pos = 'CheckExEnv')(get(".dptime", pos = "CheckExEnv")), "\n", file=base::get(".ExTimings", pos = 'CheckExEnv'), append=TRUE, sep="\t")
cleanEx()
nameEx("tidy.mla")
### * tidy.mla

flush(stderr()); flush(stdout())

base::assign(".ptime", proc.time(), pos = "CheckExEnv")
### Name: tidy.mla
### Title: Tidy and glance at a Multi-Label Agreement fit
### Aliases: tidy.mla glance.mla

### ** Examples

fit <- mla(annotations_long(bias_example, item, annotator, label, value))
tidy(fit)
tidy(fit, level = "item")
glance(fit)



base::assign(".dptime", (proc.time() - get(".ptime", pos = "CheckExEnv")), pos = "CheckExEnv")
base::cat("tidy.mla", base::get(".format_ptime", pos = 'CheckExEnv')(get(".dptime", pos = "CheckExEnv")), "\n", file=base::get(".ExTimings", pos = 'CheckExEnv'), append=TRUE, sep="\t")
### * <FOOTER>
###
cleanEx()
options(digits = 7L)
base::cat("Time elapsed: ", proc.time() - base::get("ptime", pos = 'CheckExEnv'),"\n")
grDevices::dev.off()
###
### Local variables: ***
### mode: outline-minor ***
### outline-regexp: "\\(> \\)?### [*]+" ***
### End: ***
quit('no')

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
nameEx("annotation_split")
### * annotation_split

flush(stderr()); flush(stdout())

base::assign(".ptime", proc.time(), pos = "CheckExEnv")
### Name: annotation_split
### Title: Split annotations into training and test sets
### Aliases: annotation_split annotator_split check_split

### ** Examples

set.seed(1)
split <- annotation_split(bias_example, item, annotator, prop = 0.5)
nrow(split$train) + nrow(split$test) == nrow(bias_example)
check_split(split$train, split$test, annotator)

by_annotator <- annotator_split(bias_example, annotator, prop = 0.5)
unique(by_annotator$test$annotator)



base::assign(".dptime", (proc.time() - get(".ptime", pos = "CheckExEnv")), pos = "CheckExEnv")
base::cat("annotation_split", base::get(".format_ptime", pos = 'CheckExEnv')(get(".dptime", pos = "CheckExEnv")), "\n", file=base::get(".ExTimings", pos = 'CheckExEnv'), append=TRUE, sep="\t")
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
nameEx("annotator_agreement")
### * annotator_agreement

flush(stderr()); flush(stdout())

base::assign(".ptime", proc.time(), pos = "CheckExEnv")
### Name: annotator_agreement
### Title: Pairwise agreement between annotators
### Aliases: annotator_agreement

### ** Examples

agr <- annotator_agreement(annotations_long(bias_example, item, annotator, label, value))
agr
tidy(agr)
tidy(agr, level = "annotators")



base::assign(".dptime", (proc.time() - get(".ptime", pos = "CheckExEnv")), pos = "CheckExEnv")
base::cat("annotator_agreement", base::get(".format_ptime", pos = 'CheckExEnv')(get(".dptime", pos = "CheckExEnv")), "\n", file=base::get(".ExTimings", pos = 'CheckExEnv'), append=TRUE, sep="\t")
cleanEx()
nameEx("annotator_metrics")
### * annotator_metrics

flush(stderr()); flush(stdout())

base::assign(".ptime", proc.time(), pos = "CheckExEnv")
### Name: annotator_metrics
### Title: Exact-match accuracy and macro F1 per annotator
### Aliases: annotator_metrics

### ** Examples

preds <- data.frame(
  annotator = c("a", "a", "a", "b", "b", "b"),
  label = c("pos", "neg", "pos", "neg", "neg", "pos"),
  .pred = c("pos", "pos", "pos", "neg", "pos", "pos")
)
annotator_metrics(preds, label, .pred)
annotator_metrics(preds, label, .pred, annotator)



base::assign(".dptime", (proc.time() - get(".ptime", pos = "CheckExEnv")), pos = "CheckExEnv")
base::cat("annotator_metrics", base::get(".format_ptime", pos = 'CheckExEnv')(get(".dptime", pos = "CheckExEnv")), "\n", file=base::get(".ExTimings", pos = 'CheckExEnv'), append=TRUE, sep="\t")
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
nameEx("autoplot.mla_annotator_agreement")
### * autoplot.mla_annotator_agreement

flush(stderr()); flush(stdout())

base::assign(".ptime", proc.time(), pos = "CheckExEnv")
### Name: autoplot.mla_annotator_agreement
### Title: Heat map of pairwise annotator agreement
### Aliases: autoplot.mla_annotator_agreement

### ** Examples

## Don't show: 
if (rlang::is_installed("ggplot2")) (if (getRversion() >= "3.4") withAutoprint else force)({ # examplesIf
## End(Don't show)
agr <- annotator_agreement(annotations_long(bias_example, item, annotator, label, value))
ggplot2::autoplot(agr)
## Don't show: 
}) # examplesIf
## End(Don't show)



base::assign(".dptime", (proc.time() - get(".ptime", pos = "CheckExEnv")), pos = "CheckExEnv")
base::cat("autoplot.mla_annotator_agreement", base::get(".format_ptime", pos = 'CheckExEnv')(get(".dptime", pos = "CheckExEnv")), "\n", file=base::get(".ExTimings", pos = 'CheckExEnv'), append=TRUE, sep="\t")
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
nameEx("majority_baseline")
### * majority_baseline

flush(stderr()); flush(stdout())

base::assign(".ptime", proc.time(), pos = "CheckExEnv")
### Name: majority_baseline
### Title: Majority-vote baselines
### Aliases: majority_baseline

### ** Examples

train <- data.frame(annotator = c("a", "a", "a", "b", "b"),
                    label = c("x", "y", "y", "x", "x"))
test <- data.frame(annotator = c("a", "b", "c"), label = c("y", "x", "y"))
majority_baseline(train, test, label, annotator, type = "overall")
pred <- majority_baseline(train, test, label, annotator, type = "individual")
pred
annotator_metrics(pred, label, .pred, annotator)



base::assign(".dptime", (proc.time() - get(".ptime", pos = "CheckExEnv")), pos = "CheckExEnv")
base::cat("majority_baseline", base::get(".format_ptime", pos = 'CheckExEnv')(get(".dptime", pos = "CheckExEnv")), "\n", file=base::get(".ExTimings", pos = 'CheckExEnv'), append=TRUE, sep="\t")
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
nameEx("model_agreement")
### * model_agreement

flush(stderr()); flush(stdout())

base::assign(".ptime", proc.time(), pos = "CheckExEnv")
### Name: model_agreement
### Title: A model's agreement with annotators, next to theirs with each
###   other
### Aliases: model_agreement

### ** Examples

ann <- annotations_long(bias_example, item, annotator, label, value)
# a "model" that predicts L01 and L03 for every sentence
preds <- data.frame(item = rep(1:4, each = 2), label = rep(c("L01", "L03"), 4))
wide <- as.data.frame.matrix(table(preds$item, factor(preds$label, levels = ann$labels)))
wide$item <- 1:4
model_agreement(ann, wide, item, labels = -item)



base::assign(".dptime", (proc.time() - get(".ptime", pos = "CheckExEnv")), pos = "CheckExEnv")
base::cat("model_agreement", base::get(".format_ptime", pos = 'CheckExEnv')(get(".dptime", pos = "CheckExEnv")), "\n", file=base::get(".ExTimings", pos = 'CheckExEnv'), append=TRUE, sep="\t")
cleanEx()
nameEx("read_tid8")
### * read_tid8

flush(stderr()); flush(stdout())

base::assign(".ptime", proc.time(), pos = "CheckExEnv")
### Name: read_tid8
### Title: Read TID-8-style JSON-lines annotations
### Aliases: read_tid8

### ** Examples

## Don't show: 
if (rlang::is_installed("jsonlite")) (if (getRversion() >= "3.4") withAutoprint else force)({ # examplesIf
## End(Don't show)
path <- tempfile(fileext = ".jsonl")
writeLines(c(
  '{"uid": 0, "respondent_id": "r1", "offensive": "offensive_speech", "sentence": "..."}',
  '{"uid": 0, "respondent_id": "r2", "offensive": "not_offensive_speech", "sentence": "..."}',
  '{"uid": 1, "respondent_id": "r1", "offensive": "not_offensive_speech", "sentence": "..."}'
), path)
tid <- read_tid8(path)
tid
annotations_long(tid, item, annotator, label)
unlink(path)
## Don't show: 
}) # examplesIf
## End(Don't show)



base::assign(".dptime", (proc.time() - get(".ptime", pos = "CheckExEnv")), pos = "CheckExEnv")
base::cat("read_tid8", base::get(".format_ptime", pos = 'CheckExEnv')(get(".dptime", pos = "CheckExEnv")), "\n", file=base::get(".ExTimings", pos = 'CheckExEnv'), append=TRUE, sep="\t")
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
cleanEx()
nameEx("tidy.mla_annotator_agreement")
### * tidy.mla_annotator_agreement

flush(stderr()); flush(stdout())

base::assign(".ptime", proc.time(), pos = "CheckExEnv")
### Name: tidy.mla_annotator_agreement
### Title: Tidy annotator agreement diagnostics
### Aliases: tidy.mla_annotator_agreement

### ** Examples

agr <- annotator_agreement(annotations_long(bias_example, item, annotator, label, value))
tidy(agr, level = "annotators")



base::assign(".dptime", (proc.time() - get(".ptime", pos = "CheckExEnv")), pos = "CheckExEnv")
base::cat("tidy.mla_annotator_agreement", base::get(".format_ptime", pos = 'CheckExEnv')(get(".dptime", pos = "CheckExEnv")), "\n", file=base::get(".ExTimings", pos = 'CheckExEnv'), append=TRUE, sep="\t")
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

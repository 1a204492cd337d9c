## ---- include = FALSE---------------------------------------------------------
knitr::opts_chunk$set(collapse = TRUE, comment = "#>", fig.width = 6, fig.height = 4.5)
has_ggplot2 <- requireNamespace("ggplot2", quietly = TRUE)
has_jsonlite <- requireNamespace("jsonlite", quietly = TRUE)

## ----setup--------------------------------------------------------------------
library(mlagreement)

## ----agreement----------------------------------------------------------------
ann <- annotations_long(convabuse_types, item, annotator, label, value)
agr <- annotator_agreement(ann)
agr
tidy(agr, level = "annotators")

## ----heatmap, eval = has_ggplot2----------------------------------------------
ggplot2::autoplot(agr)

## ----single-------------------------------------------------------------------
sel <- convabuse_types[convabuse_types$value == 1, ]
key <- paste(convabuse_types$item, convabuse_types$annotator)
sel_key <- paste(sel$item, sel$annotator)
n_types <- as.vector(table(factor(sel_key, levels = unique(key))))
names(n_types) <- unique(key)
first_type <- as.character(sel$label)[match(names(n_types), sel_key)]
records <- unique(convabuse_types[c("item", "annotator")])
records$label <- ifelse(n_types == 0, "none", ifelse(n_types > 1, "multiple", first_type))
records <- records[order(records$item, records$annotator), ]
table(records$label)

## ----split--------------------------------------------------------------------
set.seed(2023)
split <- annotation_split(records, item, annotator, prop = 0.7)
sapply(split, nrow)
check_split(split$train, split$test, annotator)   # silent: nothing to report

## ----annotator-split----------------------------------------------------------
held_out <- annotator_split(records, annotator, prop = 0.7)
try_warning <- tryCatch(
  check_split(held_out$train, held_out$test, annotator),
  warning = function(w) conditionMessage(w)
)
cat(try_warning)

## ----baselines----------------------------------------------------------------
overall <- majority_baseline(split$train, split$test, label, type = "overall")
individual <- majority_baseline(split$train, split$test, label, annotator,
                                type = "individual")
annotator_metrics(overall, label, .pred)
annotator_metrics(individual, label, .pred, annotator)

## ----consensus----------------------------------------------------------------
consensus_of_others <- function(records) {
  by_item <- split(seq_len(nrow(records)), records$item)
  pred <- character(nrow(records))
  for (rows in by_item) {
    for (r in rows) {
      others <- records$label[setdiff(rows, r)]
      if (length(others) == 0) {
        pred[r] <- "none"
        next
      }
      counts <- table(others)
      best <- names(counts)[counts == max(counts)]
      pred[r] <- if ("none" %in% best) "none" else sort(best)[1]
    }
  }
  pred
}
records$.pred <- consensus_of_others(records)
test_pred <- records[match(paste(split$test$item, split$test$annotator),
                           paste(records$item, records$annotator)), ]
annotator_metrics(test_pred, label, .pred, annotator)

## ----model-agreement----------------------------------------------------------
cv <- convabuse_types
pos <- tapply(cv$value, list(cv$item, as.character(cv$label)), sum)
n_ann <- tapply(cv$annotator, cv$item, function(a) length(unique(a)))
own <- cv$value
others_pos <- pos[cbind(cv$item, as.character(cv$label))] - own
others_n <- n_ann[cv$item] - 1
cv$pred <- as.integer(others_n > 0 & others_pos > others_n / 2)
wide <- reshape(cv[c("item", "annotator", "label", "pred")],
                idvar = c("item", "annotator"), timevar = "label", direction = "wide")
names(wide) <- sub("^pred\\.", "", names(wide))

vs <- model_agreement(ann, wide, item, annotator, labels = -c(item, annotator))
vs

## ----model-plot, eval = has_ggplot2-------------------------------------------
library(ggplot2)
ggplot(vs, aes(x = estimate, y = annotator, colour = comparison)) +
  geom_point(size = 2.5) +
  labs(x = "Pooled-marginal agreement coefficient", y = NULL,
       colour = "Agreement with") +
  theme_minimal()

## ----model-summary, include = FALSE-------------------------------------------
wide_vs <- reshape(as.data.frame(vs[c("annotator", "comparison", "estimate")]),
                   idvar = "annotator", timevar = "comparison", direction = "wide")
above <- wide_vs$annotator[wide_vs$annotator != "(all)" &
                             wide_vs$estimate.model > wide_vs$estimate.annotators]
below <- setdiff(wide_vs$annotator[wide_vs$annotator != "(all)"], above)
fmt <- function(x) formatC(x, format = "f", digits = 3)

## ----read, eval = has_jsonlite------------------------------------------------
path <- tempfile(fileext = ".jsonl")
writeLines(c(
  '{"uid": 0, "respondent_id": "r1", "offensive": "offensive_speech", "sentence": "..."}',
  '{"uid": 0, "respondent_id": "r2", "offensive": "not_offensive_speech", "sentence": "..."}',
  '{"uid": 1, "respondent_id": "r1", "offensive": "not_offensive_speech", "sentence": "..."}'
), path)
read_tid8(path)
unlink(path)


# The error contract: every exported function (and registered S3 method)
# refuses a bad enumerated or numeric argument with an "mlagreement_error".
# Choice arguments are found from the formals (a character default of length
# > 1), numeric ones from numeric defaults plus the required numeric
# arguments listed below; a new export with such an argument fails here until
# it has an entry in `valid_calls`.

ns <- asNamespace("mlagreement")

contract_fixtures <- function() {
  long <- annotations_long(bias_example, item, annotator, label, value)
  fit <- mla(long)
  # 4 items: mla_boot() warns that they are too few, which is not under test here
  bs <- suppressWarnings(withr::with_seed(1, mla_boot(fit, R = 20)))
  sim <- withr::with_seed(1, simulation_study(
    n_annotators = 3, n_items = 10, n_labels = 3, prevalence = c(a = 0.5),
    scenarios = "noisy", repeats = 1, measures = "mla"
  ))
  split <- data.frame(annotator = c("a", "a", "b", "b"), label = c("x", "y", "x", "x"))
  list(long = long, fit = fit, bs = bs, sim = sim, split = split,
       agr = annotator_agreement(long), am = annotator_model(long))
}
fx <- contract_fixtures()

# A call that succeeds, for each function with arguments under contract.
valid_calls <- list(
  read_doccano = list(path = c(alice = extdata("doccano-alice.jsonl"),
                               bob = extdata("doccano-bob.jsonl"))),
  agreement_measures = list(x = fx$long, R = 5),
  analytic_agreement = list(prevalence = 0.5),
  annotation_split = list(data = bias_example, item = quote(item), annotator = quote(annotator)),
  annotator_split = list(data = bias_example, annotator = quote(annotator)),
  annotations_long = list(data = bias_example, item = quote(item), annotator = quote(annotator),
                          label = quote(label), value = quote(value)),
  annotations_wide = list(data = data.frame(i = 1:2, a = 1, x = c(0, 1)), item = quote(i),
                          annotator = quote(a), labels = quote(x)),
  annotator_agreement = list(x = fx$long),
  annotator_model = list(x = fx$long),
  tidy.mla_annotator_model = list(x = fx$am),
  augment.mla_annotator_model = list(x = fx$am),
  predict.mla_annotator_model = list(object = fx$am,
                                     newdata = data.frame(item = fx$am$items[1],
                                                          annotator = fx$am$annotators[1])),
  autoplot.mla_annotator_model = list(object = fx$am),
  as_annotations.array = list(x = array(c(0L, 1L, 1L, 1L), c(2, 2, 1))),
  as_annotations.matrix = list(x = matrix(c("a", "b", "a", "a"), 2)),
  annotator_metrics = list(data = data.frame(t = c("a", "b"), e = c("a", "a")),
                           truth = quote(t), estimate = quote(e)),
  jackknife_se = list(x = fx$bs),
  krippendorff_alpha = list(x = fx$long),
  majority_baseline = list(train = fx$split, test = fx$split, truth = quote(label),
                           annotator = quote(annotator)),
  mla = list(x = fx$long),
  mla_boot = list(fit = fx$fit, R = 5),
  mla_compare = list(a = fx$fit, b = fx$fit, R = 5),
  mla_sample_size = list(half_width = 0.1, prevalence = 0.3, n_annotators = 3, n_labels = 2,
                         agreement = 0.6, pilot = 200),
  simulate_annotations = list(n_items = 5, n_annotators = 3, n_labels = 2, prevalence = 0.5,
                              scenario = "noisy"),
  simulation_study = list(n_annotators = 3, n_items = 10, n_labels = 2, prevalence = c(a = 0.5),
                          scenarios = "noisy", repeats = 1, measures = "mla", R = 2),
  confint.mla = list(object = fx$fit),
  confint.mla_boot = list(object = fx$bs),
  tidy.mla = list(x = fx$fit),
  print.mla = list(x = fx$fit),
  format.mla = list(x = fx$fit),
  print.summary.mla = list(x = summary(fx$fit)),
  report_table = list(fit = fx$fit),
  tidy.mla_boot = list(x = fx$bs),
  tidy.mla_annotator_agreement = list(x = fx$agr),
  tidy.annotation_counts = list(x = as_annotation_counts(fx$long)),
  summary.mla_simulation = list(object = fx$sim),
  autoplot.mla = list(object = fx$fit),
  autoplot.mla_boot = list(object = fx$bs),
  autoplot.mla_annotator_agreement = list(object = fx$agr),
  autoplot.mla_simulation = list(object = fx$sim),
  autoplot.mla_analytic = list(object = analytic_agreement(0.5)),
  autoplot.mla_substitution = list(object = label_substitution(fx$long)),
  # issue 26: annotator bias, ICC, concordance, benchmarks
  annotator_bias = list(x = fx$long),
  tidy.mla_annotator_bias = list(x = annotator_bias(fx$long)),
  autoplot.mla_annotator_bias = list(object = annotator_bias(fx$long)),
  icc = list(x = cbind(c(1, 2, 4, 3), c(2, 2, 5, 3), c(1, 3, 4, 4))),
  lin_ccc = list(x = cbind(c(1, 2, 4, 3), c(2, 2, 5, 3))),
  mla_benchmark = list(fit = fx$fit)
)

# Numeric arguments without a default, and choice arguments whose allowed
# values are not their default (data-dependent, or NULL meaning "all").
required_numeric <- list(simulate_annotations = c("n_items", "n_annotators", "n_labels", "prevalence"))
data_choices <- list(summary.mla_simulation = "by", autoplot.mla_boot = c("baseline", "labels"),
                     autoplot.mla_annotator_agreement = "annotators",
                     autoplot.mla = c("labels", "items"),
                     autoplot.mla_simulation = c("measures", "by"), simulation_study = "measures")
# Numeric arguments for which -1, or a vector of probabilities, is valid.
negative_ok <- list(simulate_annotations = "bias")
vector_ok <- list(analytic_agreement = "prevalence", simulation_study = "prevalence")
# Whole-number arguments: 3e9 is above the integer range.
whole_numbers <- list(
  agreement_measures = c("R", "threads"), krippendorff_alpha = "threads", report_table = "digits",
  print.mla = "digits", format.mla = "digits", print.summary.mla = "digits",
  mla_boot = c("R", "threads"), autoplot.mla_boot = "bins", autoplot.mla = "extremes",
  autoplot.mla_annotator_agreement = "min_overlap", annotator_model = c("max_iter", "threads"),
  simulate_annotations = c("n_items", "n_annotators", "n_labels"),
  simulation_study = c("n_annotators", "n_items", "n_labels", "repeats", "R")
)

contract_functions <- function() {
  exported <- intersect(getNamespaceExports(ns), ls(ns))
  s3 <- getNamespaceInfo(ns, "S3methods")
  methods <- paste(s3[, 1], s3[, 2], sep = ".")
  names <- sort(unique(c(exported, methods)))
  fns <- lapply(names, get, envir = ns)
  names(fns) <- names
  fns[vapply(fns, is.function, logical(1))]
}

default_value <- function(f, arg) {
  d <- formals(f)[arg]
  if (identical(d[[1]], quote(expr = ))) return(NULL)
  tryCatch(eval(d[[1]], ns), error = function(e) NULL)
}

choice_args <- function(f) {
  Filter(function(a) {
    v <- default_value(f, a)
    is.character(v) && length(v) > 1L
  }, names(formals(f)))
}

numeric_args <- function(f) {
  Filter(function(a) is.numeric(default_value(f, a)), names(formals(f)))
}

call_with <- function(name, arg, value) {
  args <- valid_calls[[name]]
  args[arg] <- list(value)
  utils::capture.output(out <- do.call(get(name, envir = ns), args))  # print methods print
  out
}

test_that("every function with a choice or numeric argument is under contract", {
  for (name in names(contract_functions())) {
    f <- contract_functions()[[name]]
    under <- c(choice_args(f), numeric_args(f), required_numeric[[name]], data_choices[[name]])
    if (length(under) > 0L) {
      expect_true(name %in% names(valid_calls),
                  label = paste0("`", name, "` (arguments ", toString(under), ") in valid_calls"))
    }
  }
})

test_that("the valid calls succeed", {
  skip_if_not_installed("ggplot2")
  for (name in names(valid_calls)) {
    utils::capture.output(res <- tryCatch(
      suppressWarnings(do.call(get(name, envir = ns), valid_calls[[name]])), error = identity))
    expect_false(inherits(res, "error"), label = paste0("the valid call of `", name, "` fails"))
  }
})

test_that("bad choices are classed errors that list the formal's values", {
  skip_if_not_installed("ggplot2")
  fns <- contract_functions()
  for (name in names(valid_calls)) {
    for (arg in setdiff(choice_args(fns[[name]]), data_choices[[name]])) {
      info <- paste0(name, "(", arg, " = \"not-a-choice\")")
      err <- expect_error(call_with(name, arg, "not-a-choice"), class = "mlagreement_error",
                          info = info)
      # the matcher's allowed values are exactly the documented default
      expect_identical(err$values, default_value(fns[[name]], arg), info = info)
      expect_error(call_with(name, arg, 1), class = "mlagreement_error", info = info)
    }
    for (arg in data_choices[[name]]) {
      expect_error(call_with(name, arg, "not-a-choice"), class = "mlagreement_error",
                   info = paste0(name, "(", arg, ")"))
    }
  }
})

test_that("bad numbers are classed errors", {
  skip_if_not_installed("ggplot2")
  fns <- contract_functions()
  for (name in names(valid_calls)) {
    args <- c(numeric_args(fns[[name]]), required_numeric[[name]])
    for (arg in args) {
      bad <- list("a", NA_real_)
      if (!arg %in% vector_ok[[name]]) bad <- c(bad, list(rep(0.5, 7)))
      if (!arg %in% negative_ok[[name]]) bad <- c(bad, list(-1))
      if (arg %in% whole_numbers[[name]]) bad <- c(bad, list(3e9, 2.5))
      for (value in bad) {
        expect_error(call_with(name, arg, value), class = "mlagreement_error",
                     info = paste0(name, "(", arg, " = ", deparse(value), ")"))
      }
    }
  }
})

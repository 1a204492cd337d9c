# Labels with structure (defined in ?mla): one resolver turns the three
# arguments into the taxonomy's closure, the variables and their weights; NULL
# when that is plain Hamming.

#' @rdname mla
#' @param label_weights,label_groups,label_tree Labels with structure (see
#'   the section *Labels with structure*; `NULL`, the default, for none).
#'   `label_weights`: a named numeric vector, the weight of each label (a
#'   group's weight by the group's name); labels not named weigh 1.
#'   `label_groups`: a named list of disjoint label vectors, each a group of
#'   mutually exclusive labels. `label_tree`: a named character vector, the
#'   parent of each label (`NA` or absent for roots), or a list of paths
#'   from a root (Label Studio's taxonomy results, e.g.
#'   `list(c("animal", "mammal", "dog"))`). On a single-label design any
#'   of them, equal weights included, gives the structured multi-label
#'   agreement of the categories' category-versus-rest indicators, not
#'   Fleiss' kappa, AC1 or Brennan-Prediger of the categories; the fit's
#'   notes (`summary()`, the `note` column of `tidy()`) say so. The
#'   exception is one group of every category (without a tree): that
#'   variable is the category itself, and `mla()` gives the categorical fit.
#' @section Labels with structure:
#' Hamming agreement treats the labels as independent and equally costly.
#' Three arguments describe a scheme that is not, and together define one
#' distance between two annotations \eqn{r} and \eqn{s}:
#' \deqn{d(r, s) = \sum_v u_v [r_v \ne s_v] / \sum_v u_v}
#' over the *variables* \eqn{v} of the scheme.
#' * `label_groups`: each group is one nominal variable, whose value is the
#'   label a record selects, or "none" when it selects none of them (then
#'   every label of the group must be decided, else the group is missing in
#'   that record). "none" is a category only when some record uses it, so a
#'   group every record answers is a single-label design of its labels. A
#'   record selecting two labels of one group is an error naming it. Every
#'   other label is a binary variable, as in plain Hamming.
#' * `label_tree`: every record is first closed under the taxonomy: a
#'   selected label selects its ancestors, as Label Studio stores a taxonomy
#'   choice (the path to it). The distance is then the weighted Hamming
#'   distance on the closed records, one variable per node: two annotators
#'   who choose siblings disagree on the two leaves but agree on every
#'   common ancestor, two who choose different branches disagree on both
#'   paths. Agreement on broad categories is rewarded; a flat tree (no
#'   parents) is exactly Hamming.
#' * `label_weights`: the weight \eqn{u_v} of each variable (default 1). The
#'   weights are the relative cost of a disagreement on each label, fixed by
#'   the question of the study (a missed finding that changes treatment
#'   costs more than one that does not) before seeing the data: they choose
#'   which reliability is estimated, the estimand, and are not a knob to
#'   tune the estimate. Equal weights give the plain Hamming values.
#'
#' `mla()` computes each variable's observed agreement \eqn{A_{o,v}} and
#' chance agreement \eqn{A_{e,v}} under each baseline (a binary label as
#' always; a group as Fleiss' kappa, Gwet's AC1 and Brennan-Prediger for its
#' categories, as on single-label designs), and
#' \deqn{A_{ml} = \frac{\sum_v u_v (A_{o,v} - A_{e,v})}{\sum_v u_v (1 - A_{e,v})}
#'   = \sum_v \omega_v A_v, \quad \omega_v \propto u_v (1 - A_{e,v}),}
#' eq. 6 with the user's weights: the `weight` column of
#' `tidy(fit, level = "label")` is \eqn{\omega_v}. Corpus \eqn{A_o} and
#' \eqn{A_e} are the \eqn{u}-weighted means; an item's observed agreement is
#' the \eqn{u}-weighted mean over its pairable variables. The label rows
#' hold every (closed) label and one row per group (label = the group's
#' name); labels inside a group have `weight = NA`, as they enter through
#' their group. `tidy(fit)` gives analytic standard errors and intervals:
#' each variable linearised as irrCAC's formulas (a group as a single-label
#' design, a label as a binary one), \eqn{u}-weighted over the variables
#' for the corpus row, and for percent agreement (corpus and group rows) and
#' the closed labels' specific agreement (see [tidy.mla()]); [mla_boot()]
#' resamples items (clusters, strata), annotators or both with every row's
#' replicates, and [mla_compare()] compares two fits of the same structure;
#' `tidy(fit, annotators = "random")` adds the annotator jackknife (the fit
#' without each annotator). The corpus eq. 7 floor is the weighted mean of
#' the variables' floors (a group's over its categories, see [mla()]).
#' `print()` and `glance()` (`design`) name the structure used.
#' @name mla
NULL

#' @rdname krippendorff_alpha
#' @inheritParams mla
#' @section Labels with structure:
#' With `label_weights`, `label_groups` or `label_tree` the Hamming row
#' uses the structured distance of [mla()] (section *Labels with
#' structure*): per variable, binary coincidences for a label and nominal
#' coincidences for a group, and
#' \deqn{\alpha = 1 - \sum_v u_v D_{o,v} / \sum_v u_v D_{e,v};}
#' `observed_disagreement` and `expected_disagreement` are the
#' \eqn{u}-weighted means of \eqn{D_{o,v}} and \eqn{D_{e,v}}. On records
#' without single missing decisions this is exactly alpha with the distance
#' \eqn{d(r, s)} above; one group over all labels of one-hot data is
#' nominal alpha. The structure applies to `distance = "hamming"` (the
#' default then, on single-label designs too, equal weights included);
#' other distances and `R > 0` are errors.
#' @name krippendorff_alpha
NULL

# NULL when the structure is plain Hamming of multi-label data, else a list:
# labels, parent (0-based, -1 for roots), closure_order, groups (1-based label
# indices), free (1-based), weights (per variable, free labels then groups),
# tree.
resolve_label_structure <- function(a, label_weights = NULL, label_groups = NULL,
                                    label_tree = NULL, cols = NULL,
                                    call = rlang::caller_env()) {
  given <- !c(is.null(label_weights), is.null(label_groups), is.null(label_tree))
  if (!any(given)) return(NULL)
  labels <- if (is.null(cols)) label_names(a) else label_names(a)[cols]
  if ((given[2] || given[3]) && length(labels) != length(label_names(a))) {
    mla_abort(
      c("{.arg label_groups} and {.arg label_tree} need the full label universe.",
        "x" = "{.arg labels} selects {length(labels)} of {length(label_names(a))} labels.",
        "i" = "Subset the annotations instead, e.g. {.code x[, , labels]}."),
      class = "label_structure", call = call
    )
  }
  groups <- check_label_groups(label_groups, labels, call)
  parent <- check_label_tree(label_tree, labels, call)
  in_group <- unlist(groups, use.names = FALSE)
  free <- setdiff(seq_along(labels), in_group)
  weights <- check_label_weights(label_weights, labels, free, groups, call, declared = label_names(a))
  tree <- any(parent >= 0L)
  # equal weights on multi-label data are plain Hamming; on a single-label
  # design every structure is the analysis of the category indicators, so that
  # the result does not jump to the categorical one at equal weights
  plain <- length(groups) == 0L && !tree && length(unique(weights)) == 1L
  if (plain && !is_single_label(a)) return(NULL)
  list(labels = labels, parent = parent, closure_order = closure_order(parent),
       groups = groups, free = free, weights = weights, tree = tree,
       weighted = length(unique(weights)) > 1L)
}

# On a single-label design one group of every category, without a tree, is
# the category itself: mla() fits it as the categorical design.
is_group_of_every_category <- function(x, st) {
  !is.null(st) && is_single_label(x) && !st$tree && length(st$groups) == 1L &&
    length(st$free) == 0L
}

check_label_weights <- function(w, labels, free, groups, call, declared = labels) {
  vars <- c(labels[free], names(groups))
  out <- stats::setNames(rep(1, length(vars)), vars)
  if (is.null(w)) return(out)
  if (!is.numeric(w) || is.null(names(w)) || anyNA(names(w)) || any(names(w) == "")) {
    mla_abort(
      c("{.arg label_weights} must be a named numeric vector: one weight per label.",
        "x" = "It is {.obj_type_friendly {w}}{if (is.numeric(w)) ' without names on every element' else ''}."),
      class = "label_weights", call = call
    )
  }
  check_unique_names(names(w), "label weight", arg = "label_weights", call = call)
  grouped <- intersect(names(w), setdiff(labels, vars))
  if (length(grouped) > 0L) {
    mla_abort(
      c("{.arg label_weights} must give a group's weight by the group's name.",
        "x" = "Label{?s} {.val {grouped}} {?is/are} in a group of {.arg label_groups}."),
      class = "label_weights", call = call
    )
  }
  unknown <- setdiff(names(w), vars)
  if (length(unknown) > 0L) {
    mla_abort(
      c("{.arg label_weights} must name the labels analysed (or groups).",
        "x" = if (all(unknown %in% declared)) "Not among {.arg labels}: {.val {unknown}}." else "Unknown: {.val {unknown}}."),
      class = "label_weights", call = call
    )
  }
  bad <- names(w)[!is.finite(w) | w < 0]
  if (length(bad) > 0L) {
    mla_abort(
      c("{.arg label_weights} must be finite and non-negative.",
        "x" = "The weight of {.val {bad[1]}} is {.val {w[[bad[1]]]}}."),
      class = "label_weights", call = call
    )
  }
  out[names(w)] <- as.double(w)
  if (all(out == 0)) {
    mla_abort("{.arg label_weights} must not all be 0.", class = "label_weights", call = call)
  }
  out
}

# Named list of disjoint label vectors -> list of 1-based label indices.
check_label_groups <- function(groups, labels, call) {
  if (is.null(groups)) return(list())
  nm <- names(groups)
  if (!is.list(groups) || length(groups) == 0L || is.null(nm) || anyNA(nm) || any(nm == "")) {
    mla_abort(
      c("{.arg label_groups} must be a named list of label vectors, e.g. {.code list(sentiment = c(\"pos\", \"neg\"))}.",
        "x" = "It is {.obj_type_friendly {groups}}{if (is.list(groups)) ' without a name on every group' else ''}."),
      class = "label_groups", call = call
    )
  }
  check_unique_names(nm, "group", arg = "label_groups", call = call)
  clash <- intersect(nm, labels)
  if (length(clash) > 0L) {
    mla_abort(c("{.arg label_groups} names must differ from the labels.",
                "x" = "{.val {clash}} is both."), class = "label_groups", call = call)
  }
  idx <- lapply(nm, function(g) {
    members <- groups[[g]]
    if (!(is.character(members) || is.factor(members)) || length(members) == 0L) {
      mla_abort(c("Group {.val {g}} of {.arg label_groups} must be a non-empty character vector of labels.",
                  "x" = "It is {.obj_type_friendly {members}}."), class = "label_groups", call = call)
    }
    j <- match(as.character(members), labels)
    if (anyNA(j)) {
      mla_abort(c("Group {.val {g}} of {.arg label_groups} must list labels of {.arg x}.",
                  "x" = "Unknown: {.val {as.character(members)[is.na(j)]}}."),
                class = "label_groups", call = call)
    }
    if (anyDuplicated(j) > 0L) {
      mla_abort(c("Group {.val {g}} of {.arg label_groups} must list each label once.",
                  "x" = "{.val {labels[j[duplicated(j)][1]]}} is listed {sum(j == j[duplicated(j)][1])} times."),
                class = "label_groups", call = call)
    }
    j
  })
  names(idx) <- nm
  all_idx <- unlist(idx, use.names = FALSE)
  twice <- unique(all_idx[duplicated(all_idx)])
  if (length(twice) > 0L) {
    owners <- nm[vapply(idx, function(j) twice[1] %in% j, logical(1))]
    mla_abort(c("The groups of {.arg label_groups} must be disjoint.",
                "x" = "Label {.val {labels[twice[1]]}} is in groups {.val {owners}}."),
              class = "label_groups", call = call)
  }
  idx
}

# A named vector (label = parent, NA for roots) or a list of root-down paths
# -> the 0-based parent of every label, -1 for roots.
check_label_tree <- function(tree, labels, call) {
  parent <- rep(-1L, length(labels))
  if (is.null(tree)) return(parent)
  if (is.list(tree)) tree <- tree_from_paths(tree, call)
  if (!(is.character(tree) || is.factor(tree) || all(is.na(tree))) || is.null(names(tree)) ||
      anyNA(names(tree)) || any(names(tree) == "")) {
    mla_abort(
      c("{.arg label_tree} must be a named character vector (label = its parent, {.code NA} for roots) or a list of paths.",
        "x" = "It is {.obj_type_friendly {tree}}."),
      class = "label_tree", call = call
    )
  }
  check_unique_names(names(tree), "taxonomy", arg = "label_tree", call = call)
  child <- match(names(tree), labels)
  par <- match(as.character(tree), labels)
  unknown <- c(names(tree)[is.na(child)], as.character(tree)[!is.na(tree) & is.na(par)])
  if (length(unknown) > 0L) {
    mla_abort(c("{.arg label_tree} must use labels of {.arg x}.",
                "x" = "Unknown label{?s}: {.val {unique(unknown)}}."),
              class = "label_tree", call = call)
  }
  parent[child] <- ifelse(is.na(par), -1L, par - 1L)
  check_acyclic(parent, labels, call)
  parent
}

tree_from_paths <- function(paths, call) {
  child <- character()
  parent <- character()
  for (p in paths) {
    p <- as.character(unlist(p))
    if (length(p) == 0L || anyNA(p)) {
      mla_abort("Every path of {.arg label_tree} must be a non-empty character vector.",
                class = "label_tree", call = call)
    }
    child <- c(child, p)
    parent <- c(parent, c(NA_character_, p[-length(p)]))
  }
  keep <- !duplicated(paste(child, parent, sep = "\r"))
  child <- child[keep]
  parent <- parent[keep]
  twice <- child[duplicated(child)]
  if (length(twice) > 0L) {
    mla_abort(c("The paths of {.arg label_tree} must give each label one parent.",
                "x" = "Label {.val {twice[1]}} has parents {.val {parent[child == twice[1]]}}."),
              class = "label_tree", call = call)
  }
  stats::setNames(parent, child)
}

check_acyclic <- function(parent, labels, call) {
  for (j in seq_along(parent)) {
    seen <- j
    p <- parent[j] + 1L
    while (p > 0L) {
      if (p %in% seen) {
        mla_abort(c("{.arg label_tree} must be a tree: no label may be its own ancestor.",
                    "x" = "Label {.val {labels[p]}} is on a cycle."),
                  class = "label_tree_cycle", call = call)
      }
      seen <- c(seen, p)
      p <- parent[p] + 1L
    }
  }
}

# Labels with a parent, deepest first: one sweep in this order closes a
# record under the taxonomy.
closure_order <- function(parent) {
  depth <- label_depth(parent)
  has_parent <- which(parent >= 0L)
  as.integer(has_parent[order(-depth[has_parent])] - 1L)
}

# The depth of each label in the taxonomy (0 for roots), all labels at once.
label_depth <- function(parent) {
  depth <- integer(length(parent))
  up <- parent
  while (any(climb <- up >= 0L)) {
    depth[climb] <- depth[climb] + 1L
    up[climb] <- parent[up[climb] + 1L]
  }
  depth
}

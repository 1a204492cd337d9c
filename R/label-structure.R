# Labels with structure (issue 16, parts 1-3): weights per label, mutually
# exclusive groups of labels and a taxonomy. One resolver turns the three
# arguments into a "label structure" (the taxonomy's closure, the variables
# and their weights) that mla() and krippendorff_alpha() both use; the
# counting is C++ (src/mlagreement/label_groups.h, src/glue-structure.cpp).
#
# The variables are the free labels (in no group, binary) and the groups
# (nominal: one of the group's labels, or "none"). The distance between two
# annotations is the weighted mean of the variables' mismatches,
#   d(r, s) = sum_v u_v [r_v != s_v] / sum_v u_v,
# on the annotations closed under the taxonomy (a child implies its
# ancestors). Weights default to 1 per variable; all equal, no group and a
# flat taxonomy are exactly Hamming, and the resolver returns NULL then.

# NULL when the structure is plain Hamming, else a list: labels, parent
# (0-based, -1 for roots), closure_order, groups (1-based label indices),
# free (1-based), weights (per variable, free labels then groups), tree.
resolve_label_structure <- function(a, label_weights = NULL, label_groups = NULL,
                                    label_tree = NULL, cols = NULL,
                                    call = rlang::caller_env()) {
  given <- !c(is.null(label_weights), is.null(label_groups), is.null(label_tree))
  if (!any(given)) return(NULL)
  if (is_annotation_counts(a)) abort_needs_records("labels with structure", call = call)
  labels <- if (is.null(cols)) a$labels else a$labels[cols]
  if ((given[2] || given[3]) && length(labels) != length(a$labels)) {
    mla_abort(
      c("{.arg label_groups} and {.arg label_tree} need the full label universe.",
        "x" = "{.arg labels} selects {length(labels)} of {length(a$labels)} labels.",
        "i" = "Subset the annotations instead, e.g. {.code x[, , labels]}."),
      class = "label_structure", call = call
    )
  }
  groups <- check_label_groups(label_groups, labels, call)
  parent <- check_label_tree(label_tree, labels, call)
  in_group <- unlist(groups, use.names = FALSE)
  free <- setdiff(seq_along(labels), in_group)
  weights <- check_label_weights(label_weights, labels, free, groups, call)
  tree <- any(parent >= 0L)
  if (length(groups) == 0L && !tree && length(unique(weights)) == 1L) return(NULL)
  list(labels = labels, parent = parent, closure_order = closure_order(parent),
       groups = groups, free = free, weights = weights, tree = tree,
       weighted = length(unique(weights)) > 1L)
}

check_label_weights <- function(w, labels, free, groups, call) {
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
  check_unique_names(names(w), "label weight", call = call)
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
      c("{.arg label_weights} must name labels of {.arg x} (or groups).",
        "x" = "Unknown: {.val {unknown}}."),
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
  check_unique_names(nm, "group", call = call)
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
    unique(j)
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

# A named character vector (label = parent, NA for roots; labels not named
# are roots) or a list of Label Studio-style paths (character vectors from
# the root down) -> the 0-based parent of every label, -1 for roots.
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
  check_unique_names(names(tree), "taxonomy", call = call)
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
  depth <- vapply(seq_along(parent), function(j) {
    d <- 0L
    p <- parent[j]
    while (p >= 0L) {
      d <- d + 1L
      p <- parent[p + 1L]
    }
    d
  }, integer(1))
  has_parent <- which(parent >= 0L)
  as.integer(has_parent[order(-depth[has_parent])] - 1L)
}

# ---------------------------------------------------------------------------
# Estimation. The C++ pass closes the records, checks the groups and counts
# per item; the tables it returns hold the k closed labels, then each group's
# categories (its labels, then "none").

structure_pass <- function(a, st, cols = NULL, call = rlang::caller_env()) {
  res <- structure_pass_cpp(annotation_view(a, cols), st$parent, st$closure_order,
                            as.integer(st$free - 1L), lapply(st$groups, function(j) as.integer(j - 1L)),
                            unname(st$weights), nrow(label_tally(a)$cnt))
  if (res$bad_record >= 0) abort_group_record(a, st, res, call)
  res
}

abort_group_record <- function(a, st, res, call) {
  r <- res$bad_record + 1
  g <- res$bad_group + 1L
  selected <- st$labels[st$groups[[g]]][record_values(a)[r, st$groups[[g]]] %in% 1]
  mla_abort(
    c("A record must select at most one label of each group of {.arg label_groups}.",
      "x" = "Item {.val {as.character(a$items[record_item(a)[r]])}}, annotator {.val {as.character(a$annotators[record_annotator(a)[r]])}} selects {.val {selected}} of group {.val {names(st$groups)[g]}}{if (st$tree) ' (after adding the ancestors of label_tree)' else ''}.",
      "i" = "A group is one nominal variable: its labels exclude one another."),
    class = "label_group_record", call = call
  )
}

# The variables' estimates (structured_estimates_cpp()) from a table of k
# labels followed by the groups' categories.
structure_estimates <- function(tab, st) {
  size <- lengths(st$groups)
  first <- length(st$labels) + c(0L, cumsum(size + 1L))[seq_along(size)]
  structured_estimates_cpp(tab$cnt, tab$sx, tab$sdis, as.integer(st$free - 1L),
                           as.integer(first), as.integer(size), unname(st$weights))
}

# mla() with a label structure: the label rows of the closed labels (exactly
# today's without a taxonomy), corpus and item rows from the variables.
structured_mla <- function(x, cols, st, baseline, weights, call = rlang::caller_env()) {
  if (!identical(weights, "identity")) {
    mla_abort(c("{.arg weights} and a label structure cannot be combined.",
                "i" = "Category weights are for single-label designs; give {.arg label_groups} or {.arg weights}."),
              class = "label_structure", call = call)
  }
  pass <- structure_pass(x, st, cols, call = call)
  k <- seq_along(st$labels)
  closed <- list(cnt = pass$cnt[, k, drop = FALSE], sx = pass$sx[, k, drop = FALSE],
                 sdis = pass$sdis[, k, drop = FALSE], d_sum = numeric(n_items(x)),
                 n_pairable = integer(n_items(x)))
  fit <- new_mla(x, cols, mla_estimates(closed), closed, baseline)
  structure_fit(fit, st, structure_estimates(pass, st), pass$item_disagreement)
}

structure_fit <- function(fit, st, est, item_disagreement) {
  var <- est$variable
  cor <- est$corpus
  k <- length(st$labels)
  n_free <- length(st$free)
  w <- matrix(NA_real_, k, n_baselines)  # grouped labels enter through their group
  w[st$free, ] <- var$weight[seq_len(n_free), , drop = FALSE]
  fit$label$weight <- as.vector(w)
  if (length(st$groups) > 0L) fit$label <- add_group_rows(fit$label, st, var, n_free)
  fit$corpus$observed <- rep(cor$observed, n_baselines)
  fit$corpus$expected <- cor$expected
  fit$corpus$estimate <- cor$estimate
  fit$corpus$floor_observed <- NA_real_
  fit$corpus$floor <- NA_real_
  fit$corpus_w <- cor$w
  fit$item_disagreement <- item_disagreement
  fit$structure <- st
  fit$design$single_label <- FALSE
  fit$notes <- fast_tibble(
    level = c("corpus", fit$notes$level),
    label = c(NA_character_, fit$notes$label),
    baseline = c(NA_character_, fit$notes$baseline),
    reason = c("labels with structure: the eq. 7 floor is defined for plain Hamming agreement",
               fit$notes$reason)
  )
  fit
}

# One row per group and baseline (the group as a nominal variable), merged
# into the label rows baseline by baseline.
add_group_rows <- function(label_tbl, st, var, n_free) {
  g <- n_free + seq_along(st$groups)
  members <- vapply(st$groups, function(j) paste(st$labels[j], collapse = ", "), "")
  rows <- list(
    label = rep_baselines(names(st$groups)),
    baseline = baseline_column(length(g)),
    prevalence = NA_real_,
    observed = rep_baselines(var$observed[g]),
    expected = as.vector(var$expected[g, , drop = FALSE]),
    estimate = as.vector(var$estimate[g, , drop = FALSE]),
    weight = as.vector(var$weight[g, , drop = FALSE]),
    floor = NA_real_, positive_agreement = NA_real_, negative_agreement = NA_real_,
    note = rep_baselines(paste0("group (one nominal variable): ", members))
  )
  n <- length(rows$label)
  cols <- lapply(names(label_tbl), function(nm) {
    v <- rows[[nm]]
    c(label_tbl[[nm]], if (length(v) == 1L) rep(v, n) else v)
  })
  names(cols) <- names(label_tbl)
  ord <- order(match(cols$baseline, baseline_names), seq_along(cols$baseline))
  do.call(fast_tibble, lapply(cols, `[`, ord))
}

# Krippendorff's alpha with the structured distance. Weights alone need no
# pass: they apply to the label tables of the counting pass.
alpha_structured <- function(a, st, call = rlang::caller_env()) {
  t <- label_tally(a)
  tab <- if (length(st$groups) == 0L && !st$tree) t else structure_pass(a, st, call = call)
  est <- structure_estimates(tab, st)
  if (!(est$alpha$n_used > 0)) check_pairable(0, call = call)
  pairable <- t$n_pairable > 0L
  list(observed = est$alpha$observed, expected = est$alpha$expected,
       n_items = sum(pairable), n_values = sum(a$item_annotators[pairable]))
}

# The distances krippendorff_alpha() computes with a structure: Hamming only.
attach_label_structure <- function(specs, st, R, call = rlang::caller_env()) {
  if (is.null(st)) return(specs)
  kinds <- vapply(specs, `[[`, "", "kind")
  if (any(kinds != "hamming")) {
    mla_abort(
      c("A label structure defines a Hamming-type distance: use {.code distance = \"hamming\"}.",
        "x" = "{.arg distance} also asks for {.val {names(specs)[kinds != 'hamming']}}."),
      class = "label_structure", call = call
    )
  }
  if (!identical(R, 0) && !identical(R, 0L)) {
    mla_abort(
      c("Bootstrap intervals of alpha are not available with a label structure yet.",
        "i" = "Use {.code R = 0}."),
      class = "label_structure", call = call
    )
  }
  lapply(specs, function(s) c(s, list(structure = st)))
}

# What print() and glance() say about the structure.
structure_text <- function(st) {
  parts <- c(
    if (st$weighted) "label weights",
    if (length(st$groups) > 0L) paste0("groups ", paste(names(st$groups), collapse = ", ")),
    if (st$tree) "taxonomy (ancestor closure)"
  )
  paste0("labels with structure: ", paste(parts, collapse = "; "))
}

abort_structure_boot <- function(fit, call = rlang::caller_env()) {
  if (is.null(fit$structure)) return(invisible())
  mla_abort(
    c("The bootstrap of a fit with a label structure is not available yet.",
      "x" = "{.arg fit} uses {structure_text(fit$structure)}."),
    class = "label_structure", call = call
  )
}

# tidy(conf.int = TRUE) on a structured fit: the analytic linearisation is
# that of the plain coefficients, so the columns are NA (with a message).
structure_no_inference <- function(fit, level, conf.level, N) {
  est <- if (level == "corpus") fit$corpus$estimate else fit$label$estimate
  cli::cli_inform(
    c("i" = "Analytic standard errors are not available for labels with structure yet; they are {.code NA}."),
    class = "mlagreement_message_no_inference", .frequency = "regularly",
    .frequency_id = "mlagreement_structure_inference"
  )
  inference_columns(est, rep(NA_real_, length(est)), rep(0, length(est)), conf.level, N)
}

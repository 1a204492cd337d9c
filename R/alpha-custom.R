# The `distance` argument of krippendorff_alpha(), resolved to a spec
# list(name, kind, fn): kind "hamming", "jaccard", "masi", "category"
# (single-label metrics), "size" (a function of |A|, |B|, |A n B|) or "pair"
# (a function of two label sets). Label structure is attached to the specs.

set_distances <- c("hamming", "jaccard", "masi")
category_metrics <- c("nominal", "ordinal", "interval", "ratio")

resolve_distances <- function(distance, a, use_default, call = rlang::caller_env()) {
  single <- is_single_label(a)
  if (use_default) distance <- if (single) "nominal" else set_distances
  if (is.function(distance)) distance <- list(custom = distance)
  if (is.character(distance)) {
    distance <- check_choice(distance, c(set_distances, category_metrics), multiple = TRUE,
                             arg_name = "distance", call = call, class = "distance")
    distance <- as.list(stats::setNames(distance, distance))
  }
  if (!is.list(distance) || length(distance) == 0L) {
    mla_abort(
      c("{.arg distance} must be distance names, a function or a list of them.",
        "x" = "It is {.obj_type_friendly {distance}}."),
      class = "distance", call = call
    )
  }
  nms <- if (is.null(names(distance))) rep("", length(distance)) else names(distance)
  specs <- lapply(seq_along(distance), function(i) {
    distance_spec(distance[[i]], nms[i], i, single, call = call)
  })
  names(specs) <- vapply(specs, `[[`, "", "name")
  check_unique_names(names(specs), "distance", call = call)
  specs
}

distance_spec <- function(d, name, i, single, call) {
  if (is.character(d) && length(d) == 1L && !is.na(d)) {
    d <- check_choice(d, c(set_distances, category_metrics), arg_name = "distance",
                      call = call, class = "distance")
    if (d %in% category_metrics && !single) {
      mla_abort(
        c("{.arg distance} {.val {d}} needs a single-label design.",
          "x" = "{.arg x} is multi-label: a record may select several labels.",
          "i" = "For exact-match agreement on label sets use {.code distance = function(n_a, n_b, n_ab) as.numeric(n_ab < pmax(n_a, n_b))}; for single-label data use {.code annotations_long(..., single_label = TRUE)} or a matrix of codes."),
        class = "distance", call = call
      )
    }
    kind <- if (d %in% category_metrics) "category" else d
    return(list(name = if (nzchar(name)) name else d, kind = kind, metric = d))
  }
  if (is.function(d)) {
    arity <- length(formals(d))
    if (!arity %in% 2:3) {
      mla_abort(
        c("A distance function must take 3 arguments {.code (n_a, n_b, n_ab)} or 2 {.code (a, b)}.",
          "x" = "Element {i} of {.arg distance} takes {arity}."),
        class = "distance", call = call
      )
    }
    if (!nzchar(name)) name <- if (i == 1L) "custom" else paste0("custom", i)
    return(list(name = name, kind = if (arity == 3L) "size" else "pair", fn = d))
  }
  mla_abort(
    c("Every element of {.arg distance} must be a distance name or a function.",
      "x" = "Element {i} is {.obj_type_friendly {d}}."),
    class = "distance", call = call
  )
}

# --- Set-size distances d(n_a, n_b, n_ab): tabulated once over the size
# triples, then computed by the set engine next to Jaccard and MASI.

# Size triples (a, b, i) in the engine's layout (i fastest); impossible cells
# are flagged and stay 0.
size_triples <- function(max_size, k) {
  s <- 0:max_size
  g <- expand.grid(i = s, b = s, a = s)
  g$possible <- g$i <= pmin(g$a, g$b) & g$a + g$b - g$i <= k
  g
}

# Evaluates fn on the possible triples, vectorised when fn is, else one
# triple at a time.
evaluate_size_distance <- function(fn, name, grid, call) {
  a <- grid$a[grid$possible]
  b <- grid$b[grid$possible]
  i <- grid$i[grid$possible]
  out <- tryCatch(fn(a, b, i), error = function(e) NULL)
  if (!is.numeric(out) || length(out) != length(a)) {
    out <- vapply(seq_along(a), function(r) {
      v <- tryCatch(fn(a[r], b[r], i[r]), error = function(e) {
        mla_abort(
          c("Distance {.val {name}} failed on sets of sizes |A| = {a[r]}, |B| = {b[r]}, |A n B| = {i[r]}.",
            # the user's message may hold braces: substituted, not read as markup
            "x" = "{conditionMessage(e)}"),
          class = "distance", call = call
        )
      })
      if (!is.numeric(v) || length(v) != 1L) {
        mla_abort(
          c("Distance {.val {name}} must return one number per pair of sets.",
            "x" = "On |A| = {a[r]}, |B| = {b[r]}, |A n B| = {i[r]} it returned {.obj_type_friendly {v}}."),
          class = "distance", call = call
        )
      }
      as.double(v)
    }, numeric(1))
  }
  table <- numeric(nrow(grid))
  table[grid$possible] <- as.double(out)
  table
}

# Finite, non-negative, zero on identical sets and symmetric, on the triples
# of the set sizes that occur.
check_size_distance <- function(table, name, grid, sizes, call) {
  seen <- grid$possible & grid$a %in% sizes & grid$b %in% sizes
  where <- function(r) sprintf("|A| = %d, |B| = %d, |A n B| = %d", grid$a[r], grid$b[r], grid$i[r])
  r <- which(seen & !(is.finite(table) & table >= 0))[1]
  if (!is.na(r)) abort_distance_rule(name, "be finite and non-negative", where(r), table[r], call = call)
  r <- which(seen & grid$a == grid$b & grid$i == grid$a & table != 0)[1]
  if (!is.na(r)) {
    sets <- sprintf("two identical sets of %d label%s", grid$a[r], if (grid$a[r] == 1) "" else "s")
    abort_distance_rule(name, "be 0 between identical sets", sets, table[r], call = call)
  }
  K1 <- max(grid$a) + 1
  mirror <- grid$i + K1 * grid$a + K1^2 * grid$b + 1  # cell (b, a, i)
  gap <- abs(table - table[mirror])
  r <- which(seen & gap > sqrt(.Machine$double.eps) * pmax(1, abs(table)))[1]
  if (!is.na(r)) abort_distance_rule(name, symmetric_rule, where(r), table[r], table[mirror[r]], call)
  invisible()
}

symmetric_rule <- "be symmetric: d(A, B) = d(B, A)"

# The one error of a distance that breaks a rule, on the first offending sets.
abort_distance_rule <- function(name, rule, where, found, swapped = NULL, call) {
  x <- if (is.null(swapped)) {
    "On {where} it is {.val {found}}."
  } else {
    "On {where} it is {.val {found}}, with the sets swapped {.val {swapped}}."
  }
  mla_abort(c("Distance {.val {name}} must {rule}.", "x" = x), class = "distance", call = call)
}

alpha_set_rows <- function(a, specs, threads, call) {
  size_specs <- Filter(function(s) s$kind == "size", specs)
  args <- set_core_args(a)
  # every size up to k when the table is small (one build of the sets),
  # else up to 40 and again if a set is larger
  max_size <- min(length(label_names(a)), 40L)
  repeat {
    grid <- size_triples(max_size, length(label_names(a)))
    tables <- lapply(size_specs, function(s) evaluate_size_distance(s$fn, s$name, grid, call))
    res <- set_alpha_custom_cpp(args, custom = unlist(tables, use.names = FALSE), max_size = max_size,
                                n_custom = length(tables), threads = threads)
    if (is.null(res$need_max_size)) break
    max_size <- res$need_max_size
  }
  check_set_memory(res, args, call = call)
  check_set_record(a, res, call = call)
  check_pairable(res$n_items, call = call)
  for (s in seq_along(size_specs)) {
    check_size_distance(tables[[s]], size_specs[[s]]$name, grid, res$sizes, call)
  }
  rows <- list()
  for (s in specs) {
    if (s$kind %in% c("jaccard", "masi")) {
      rows[[s$name]] <- list(observed = res[[paste0("observed_", s$kind)]],
                             expected = res[[paste0("expected_", s$kind)]])
    }
  }
  for (s in seq_along(size_specs)) {
    rows[[size_specs[[s]]$name]] <- list(observed = res$observed_custom[s],
                                         expected = res$expected_custom[s])
  }
  lapply(rows, function(r) c(r, n_items = res$n_items, n_values = res$n_values))
}

check_set_record <- function(a, res, what = "Set distances", call) {
  if (res$bad_record >= 0) abort_partial_record(a, res$bad_record, what, hamming_handles_partial, call = call)
}

# --- General distances d(A, B) of two label sets: evaluated once per pair of
# distinct sets, S (S - 1) / 2 calls.

alpha_pair_row <- function(a, spec, call) {
  args <- set_core_args(a)
  res <- set_distinct_cpp(args)
  check_set_memory(res, args, call = call)
  check_set_record(a, res, call = call)
  check_pairable(res$n_items, call = call)
  sets <- lapply(res$sets, function(j) label_names(a)[j])
  check_pair_distance(spec$fn, sets, spec$name, call)
  expected_sum <- pair_expected_sum(spec$fn, sets, res$count, spec$name, call)
  # observed: the within-item pairs of distinct sets
  d <- pair_values(spec$fn, sets, res$pair_s, res$pair_t, spec$name, call)
  n <- res$n_values
  list(observed = sum(res$pair_weight * d) / n, expected = expected_sum / (n * (n - 1)),
       n_items = res$n_items, n_values = n)
}

# d(sets[[s[q]]], sets[[t[q]]]) for all q, with one handler for the whole
# loop (a tryCatch() per call would cost more than most distances).
pair_values <- function(fn, sets, s, t, name, call) {
  d <- numeric(length(t))
  q <- 0L
  right <- sets[t]
  fixed <- length(s) == 1L
  if (fixed) s <- rep.int(s, length(t))
  withCallingHandlers(
    if (fixed) {
      A <- sets[[s[1L]]]
      for (q in seq_along(right)) d[[q]] <- fn(A, right[[q]])
    } else {
      left <- sets[s]
      for (q in seq_along(right)) d[[q]] <- fn(left[[q]], right[[q]])
    },
    error = function(e) abort_pair_failure(e, name, sets[[s[q]]], sets[[t[q]]], call)
  )
  check_pair_row(d, name, sets, s, t, call)
  d
}

# 2 sum_{s < t} c_s c_t d(s, t), with a progress bar.
pair_expected_sum <- function(fn, sets, count, name, call) {
  S <- length(sets)
  total <- S * (S - 1) / 2
  if (total > 0) {
    bar <- progress_start(
      sprintf("Distance %s on %s pairs of label sets", name, format(total, big.mark = ",")),
      total = total
    )
    on.exit(progress_close(bar), add = TRUE)
  }
  sum <- 0
  done <- 0
  for (s in seq_len(S - 1L)) {
    t <- (s + 1L):S
    d <- pair_values(fn, sets, s, t, name, call)
    sum <- sum + 2 * count[s] * sum(count[t] * d)
    done <- done + length(t)
    if (total > 0) cli::cli_progress_update(id = bar, set = done)
  }
  sum
}

abort_pair_failure <- function(e, name, A, B, call) {
  if (inherits(e, "mlagreement_error")) return()
  mla_abort(
    "Distance {.val {name}} must return one number for sets {format_set(A)} and {format_set(B)}.",
    class = "distance", call = call, parent = e
  )
}

check_pair_row <- function(d, name, sets, s, t, call) {
  if (!is.numeric(d)) {
    mla_abort(c("Distance {.val {name}} must return numbers.",
                "x" = "It returned {.obj_type_friendly {d}}."),
              class = "distance", call = call)
  }
  q <- which(!(is.finite(d) & d >= 0))[1]
  if (!is.na(q)) {
    where <- paste(format_set(sets[[s[q]]]), "and", format_set(sets[[t[q]]]))
    abort_distance_rule(name, "be finite and non-negative", where, d[q], call = call)
  }
}

# Zero on identical sets (every distinct set) and symmetric (on the pairs of
# the first 30 distinct sets; the other pairs are evaluated one way only).
check_pair_distance <- function(fn, sets, name, call) {
  S <- length(sets)
  same <- pair_values(fn, sets, seq_len(S), seq_len(S), name, call)
  q <- which(same != 0)[1]
  if (!is.na(q)) {
    where <- paste(format_set(sets[[q]]), "and itself")
    abort_distance_rule(name, "be 0 between identical sets", where, same[q], call = call)
  }
  first <- seq_len(min(S, 30L))
  g <- expand.grid(s = first, t = first)
  g <- g[g$s < g$t, ]
  d1 <- pair_values(fn, sets, g$s, g$t, name, call)
  d2 <- pair_values(fn, sets, g$t, g$s, name, call)
  q <- which(abs(d1 - d2) > sqrt(.Machine$double.eps) * pmax(1, abs(d1)))[1]
  if (!is.na(q)) {
    where <- paste(format_set(sets[[g$s[q]]]), "and", format_set(sets[[g$t[q]]]))
    abort_distance_rule(name, symmetric_rule, where, d1[q], d2[q], call)
  }
}

format_set <- function(s) {
  paste0("{", paste(s, collapse = ", "), "}")
}

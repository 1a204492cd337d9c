# annotations_long() on a database table against collect() + in-memory, on
# SQLite (in memory) and PostgreSQL (when a server answers; settings as in
# tests/testthat/helper-postgres.R). The decisions are generated in the
# database (no transfer): n_items x 5 annotators (of 1,000) x 10 labels,
# 1e6 and 1e7 decisions. Reported: time, rows brought back (summed over
# every query the summary runs), and R's peak memory beyond the start
# (gc() "max used" after a reset), which must not grow with N.
#
#   Rscript bench/db.R            # load_all() of the sources
#   MLA_LIB=/tmp/mla-lib Rscript bench/db.R   # an installed (-O2) build
lib <- Sys.getenv("MLA_LIB")
if (nzchar(lib)) library(mlagreement, lib.loc = lib) else pkgload::load_all(quiet = TRUE)

sizes <- as.numeric(strsplit(Sys.getenv("MLA_BENCH_N", "1e6,1e7"), ",")[[1]])

# SQL generating the decisions table: item i, its r-th annotator
# (5 i + r) mod 1000, label j, value 1 with probability about 0.3.
generate_sql <- function(n_items, postgres) {
  series <- if (postgres) {
    sprintf("SELECT generate_series(0, %d) AS item", n_items - 1)
  } else {
    sprintf("WITH RECURSIVE s(item) AS (SELECT 0 UNION ALL SELECT item + 1 FROM s WHERE item < %d) SELECT item FROM s",
            n_items - 1)
  }
  small <- function(n, name) {
    if (postgres) sprintf("SELECT generate_series(0, %d) AS %s", n - 1, name)
    else sprintf("WITH RECURSIVE t(%s) AS (SELECT 0 UNION ALL SELECT %s + 1 FROM t WHERE %s < %d) SELECT %s FROM t",
                 name, name, name, n - 1, name)
  }
  paste0(
    "SELECT i.item AS item, (5 * i.item + r.r) % 1000 AS annotator, 'L' || l.l AS label, ",
    "CASE WHEN ((i.item * 7919 + r.r * 104729 + l.l * 613) % 97) < 30 THEN 1 ELSE 0 END AS value ",
    "FROM (", series, ") i CROSS JOIN (", small(5, "r"), ") r CROSS JOIN (", small(10, "l"), ") l"
  )
}

# Rows of every query result, counted by tracing dplyr::collect().
count_rows <- function() {
  env <- new.env()
  env$rows <- 0
  on <- function() {
    suppressMessages(trace("collect", exit = bquote(assign("rows", get("rows", envir = .(env)) +
                                                            NROW(returnValue()), envir = .(env))),
                           where = asNamespace("dplyr"), print = FALSE))
  }
  off <- function() suppressMessages(untrace("collect", where = asNamespace("dplyr")))
  list(env = env, on = on, off = off)
}

peak_mb <- function(expr) {
  gc(reset = TRUE)
  start <- sum(gc()[, 2])
  t <- system.time(value <- force(expr))[["elapsed"]]
  peak <- sum(gc()[, 6])
  list(value = value, time = t, peak_mb = peak - start)
}

run_engine <- function(con, name, postgres) {
  out <- list()
  for (n in sizes) {
    n_items <- n / 50
    DBI::dbExecute(con, "DROP TABLE IF EXISTS mla_bench")
    DBI::dbExecute(con, paste("CREATE TABLE mla_bench AS", generate_sql(n_items, postgres)))
    tab <- dplyr::tbl(con, "mla_bench")
    rc <- count_rows()
    rc$on()
    db <- peak_mb({
      s <- annotations_long(tab, item, annotator, label, value)
      list(fit = mla(s), alpha = krippendorff_alpha(s, "hamming"))
    })
    rows_mla <- rc$env$rows
    sets <- peak_mb(krippendorff_alpha(s, c("jaccard", "masi")))
    rows_sets <- rc$env$rows - rows_mla
    rc$off()
    mem <- peak_mb({
      local <- dplyr::collect(tab)
      a <- annotations_long(local, item, annotator, label, value)
      list(fit = mla(a), alpha = krippendorff_alpha(a))
    })
    stopifnot(isTRUE(all.equal(tidy(db$value$fit, conf.int = FALSE)$estimate,
                               tidy(mem$value$fit, conf.int = FALSE)$estimate, tolerance = 1e-12)),
              isTRUE(all.equal(sets$value$estimate, mem$value$alpha$estimate[-1], tolerance = 1e-12)))
    out[[length(out) + 1]] <- data.frame(
      engine = name, decisions = n, db_mla_s = db$time, db_rows = rows_mla,
      db_peak_mb = round(db$peak_mb, 1), db_sets_s = sets$time, sets_rows = rows_sets,
      sets_peak_mb = round(sets$peak_mb, 1), collect_in_memory_s = mem$time,
      collect_peak_mb = round(mem$peak_mb, 1))
    print(out[[length(out)]], row.names = FALSE)  # as each size finishes
    rm(local, a, mem)
    DBI::dbExecute(con, "DROP TABLE mla_bench")
  }
  do.call(rbind, out)
}

res <- list()
sqlite <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
res$sqlite <- run_engine(sqlite, "SQLite", FALSE)
DBI::dbDisconnect(sqlite)
pg <- tryCatch(DBI::dbConnect(RPostgreSQL::PostgreSQL(), host = Sys.getenv("MLA_PG_HOST", "localhost"),
                              user = "mlagreement", password = "mlagreement", dbname = "mlagreement"),
               error = function(e) NULL)
if (!is.null(pg)) {
  res$pg <- run_engine(pg, "PostgreSQL", TRUE)
  DBI::dbDisconnect(pg)
} else {
  message("PostgreSQL: no server answered (bash tools/postgres.sh start)")
}
print(do.call(rbind, res), row.names = FALSE)

# The summary from a database table against collect() + in memory, on
# SQLite (a file, so that fresh processes share it) and PostgreSQL (when a
# server answers; settings as in tests/testthat/helper-postgres.R). The
# decisions are generated in the database with SQL (a recursive CTE in
# SQLite, generate_series() in PostgreSQL), so R never holds them:
# N / 50 items x 5 annotators (of 1,000) x 10 labels, N = 1e6 and 1e7.
# For mla(), krippendorff_alpha(distance = "jaccard") and
# annotator_agreement(): time, rows brought back (every query result, by a
# trace on dplyr::collect()) and R's peak memory (VmHWM of
# /proc/self/status), each (engine, N, path) in a fresh Rscript so the peak
# is that path's alone. The results of both paths must agree to 1e-12.
#
#   MLA_LIB=/tmp/mla-lib Rscript bench/db.R     # an installed (-O2) build
#   MLA_BENCH_N=1e6 Rscript bench/db.R           # load_all() of the sources
# MLA_BENCH_ENGINES (sqlite,postgres), MLA_BENCH_STEPS
# (mla,jaccard,annotators) and MLA_BENCH_FORMS (decisions: 0/1 values, the
# default; selected: the selected labels, a NULL label for a record that
# selects none) choose what runs.
# Tables: SQLite files in tempdir(); PostgreSQL tables <MLA_BENCH_PREFIX>_<N>
# (default mla_bench), dropped at the end.

args <- commandArgs(trailingOnly = TRUE)
sizes <- as.numeric(strsplit(Sys.getenv("MLA_BENCH_N", "1e6,1e7"), ",")[[1]])
forms <- strsplit(Sys.getenv("MLA_BENCH_FORMS", "decisions"), ",")[[1]]
prefix <- Sys.getenv("MLA_BENCH_PREFIX", "mla_bench")

load_package <- function() {
  lib <- Sys.getenv("MLA_LIB")
  if (nzchar(lib)) library(mlagreement, lib.loc = lib) else pkgload::load_all(quiet = TRUE)
}

pg_connect <- function() {
  tryCatch(DBI::dbConnect(RPostgreSQL::PostgreSQL(), host = Sys.getenv("MLA_PG_HOST", "localhost"),
                          port = as.integer(Sys.getenv("MLA_PG_PORT", "5432")),
                          user = Sys.getenv("MLA_PG_USER", "mlagreement"),
                          password = Sys.getenv("MLA_PG_PASSWORD", "mlagreement"),
                          dbname = Sys.getenv("MLA_PG_DB", "mlagreement")),
           error = function(e) NULL)
}

connect <- function(engine, n) {
  if (engine == "sqlite") DBI::dbConnect(RSQLite::SQLite(), sqlite_file(n)) else pg_connect()
}
sqlite_file <- function(n) file.path(Sys.getenv("MLA_BENCH_DIR", tempdir()), sprintf("%s_%g.sqlite", prefix, n))
table_name <- function(n) sprintf("%s_%.0f", prefix, n)

# SQL of the decisions: item i, its r-th annotator (5 i + r) mod 1000,
# label j, value 1 with probability about 0.3.
generate_sql <- function(n_items, postgres) {
  series <- function(n, name) {
    if (postgres) sprintf("SELECT generate_series(0, %d) AS %s", n - 1, name)
    else sprintf("WITH RECURSIVE t(%s) AS (SELECT 0 UNION ALL SELECT %s + 1 FROM t WHERE %s < %d) SELECT %s FROM t",
                 name, name, name, n - 1, name)
  }
  paste0(
    "SELECT i.item AS item, (5 * i.item + r.r) % 1000 AS annotator, 'L' || l.l AS label, ",
    "CASE WHEN ((i.item * 7919 + r.r * 104729 + l.l * 613) % 97) < 30 THEN 1 ELSE 0 END AS value ",
    "FROM (", series(n_items, "item"), ") i CROSS JOIN (", series(5, "r"), ") r CROSS JOIN (",
    series(10, "l"), ") l"
  )
}

vm_kb <- function(field) {
  line <- grep(paste0("^", field, ":"), readLines("/proc/self/status"), value = TRUE)
  as.numeric(gsub("[^0-9]", "", line))
}

# Rows of every query result, counted by tracing dplyr::collect().
rows_env <- new.env()
trace_rows <- function() {
  rows_env$rows <- 0
  suppressMessages(trace("collect", exit = quote(assign("rows", get("rows", envir = rows_env) +
                                                          NROW(returnValue()), envir = rows_env)),
                         where = asNamespace("dplyr"), print = FALSE))
}

step <- function(expr) {
  before <- rows_env$rows %||% 0
  t <- system.time(value <- force(expr))[["elapsed"]]
  list(value = value, time = t, rows = (rows_env$rows %||% 0) - before)
}
`%||%` <- function(a, b) if (is.null(a)) b else a

# The selected labels of the decisions (item, annotator, label; label NULL
# for a record without any), as a second table.
selected_sql <- function(n) {
  tab <- table_name(n)
  paste0("SELECT item, annotator, label FROM ", tab, " WHERE value = 1 UNION ALL ",
         "SELECT item, annotator, NULL AS label FROM ", tab,
         " GROUP BY item, annotator HAVING SUM(value) = 0")
}

read_table <- function(tab, form) {
  if (form == "selected") {
    annotations_long(tab, item, annotator, label, labels = paste0("L", 0:9))
  } else {
    annotations_long(tab, item, annotator, label, value)
  }
}

# One path in this process: "db" (the lazy table) or "collect" (collect()
# + in memory). Saves times, rows, VmHWM and the results to `out`.
run_child <- function(engine, n, path, out, form) {
  load_package()
  con <- connect(engine, n)
  if (engine == "postgres") {
    registerS3method("dbplyr_edition", "PostgreSQLConnection", function(con) 2L,
                     envir = asNamespace("dbplyr"))
  }
  name <- if (form == "selected") paste0(table_name(n), "_selected") else table_name(n)
  tab <- suppressWarnings(dplyr::tbl(con, name))
  base_kb <- vm_kb("VmHWM")
  trace_rows()
  steps <- list()
  if (path == "db") {
    steps$read <- step(read_table(tab, form))
  } else {
    steps$read <- step(read_table(dplyr::collect(tab), form))
  }
  x <- steps$read$value
  wanted <- strsplit(Sys.getenv("MLA_BENCH_STEPS", "mla,jaccard,annotators"), ",")[[1]]
  calls <- list(mla = quote(mla(x)), jaccard = quote(krippendorff_alpha(x, "jaccard")),
                annotators = quote(annotator_agreement(x)))
  for (nm in names(calls)) {
    steps[[nm]] <- if (nm %in% wanted) step(eval(calls[[nm]])) else list(time = NA, rows = NA)
  }
  DBI::dbDisconnect(con)
  saveRDS(list(
    time = vapply(steps, `[[`, 0, "time"), rows = vapply(steps, `[[`, 0, "rows"),
    base_mb = base_kb / 1024, peak_mb = vm_kb("VmHWM") / 1024,
    mla = if (!is.null(steps$mla$value)) tidy(steps$mla$value, conf.int = FALSE),
    jaccard = steps$jaccard$value,
    pairs = if (!is.null(steps$annotators$value)) tidy(steps$annotators$value, "pairs")
  ), out)
}

run_path <- function(engine, n, path, form) {
  out <- tempfile(fileext = ".rds")
  script <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)[1])
  status <- system2("Rscript", c(script, "child", engine, format(n, scientific = FALSE), path, out,
                                 form))
  if (status != 0) stop(sprintf("%s %g %s failed", engine, n, path))
  readRDS(out)
}

create_table <- function(engine, n) {
  con <- connect(engine, n)
  on.exit(DBI::dbDisconnect(con))
  DBI::dbExecute(con, paste("DROP TABLE IF EXISTS", table_name(n)))
  t <- system.time(DBI::dbExecute(con, paste("CREATE TABLE", table_name(n), "AS",
                                             generate_sql(n / 50, engine == "postgres"))))
  if (engine == "postgres") DBI::dbExecute(con, paste("ANALYZE", table_name(n)))
  if ("selected" %in% forms) {
    sel <- paste0(table_name(n), "_selected")
    DBI::dbExecute(con, paste("DROP TABLE IF EXISTS", sel))
    DBI::dbExecute(con, paste("CREATE TABLE", sel, "AS", selected_sql(n)))
    if (engine == "postgres") DBI::dbExecute(con, paste("ANALYZE", sel))
  }
  t[["elapsed"]]
}

drop_table <- function(engine, n) {
  if (engine == "sqlite") return(unlink(sqlite_file(n)))
  con <- connect(engine, n)
  DBI::dbExecute(con, paste("DROP TABLE IF EXISTS", table_name(n)))
  DBI::dbExecute(con, paste0("DROP TABLE IF EXISTS ", table_name(n), "_selected"))
  DBI::dbDisconnect(con)
}

same <- function(x, y) isTRUE(all.equal(x, y, tolerance = 1e-12))

run_engine <- function(engine) {
  out <- list()
  for (n in sizes) {
    t_create <- create_table(engine, n)
    for (form in forms) out[[length(out) + 1]] <- run_form(engine, n, form, t_create)
    drop_table(engine, n)
  }
  do.call(rbind, out)
}

run_form <- function(engine, n, form, t_create) {
  db <- run_path(engine, n, "db", form)
  mem <- run_path(engine, n, "collect", form)
  stopifnot(same(db$mla, mem$mla), same(db$jaccard, mem$jaccard), same(db$pairs, mem$pairs))
  row <- data.frame(
    engine = engine, form = form, decisions = n, create_s = round(t_create, 1),
    db_read_s = db$time[["read"]], db_mla_s = db$time[["mla"]], db_jaccard_s = db$time[["jaccard"]],
    db_annotators_s = db$time[["annotators"]],
    rows_read = db$rows[["read"]], rows_mla = db$rows[["mla"]], rows_jaccard = db$rows[["jaccard"]],
    rows_annotators = db$rows[["annotators"]],
    db_base_mb = round(db$base_mb), db_peak_mb = round(db$peak_mb),
    collect_read_s = mem$time[["read"]], mem_mla_s = mem$time[["mla"]],
    mem_jaccard_s = mem$time[["jaccard"]], mem_annotators_s = mem$time[["annotators"]],
    collect_rows = mem$rows[["read"]], collect_peak_mb = round(mem$peak_mb))
  print(row, row.names = FALSE)  # as each size finishes
  row
}

if (length(args) > 0 && args[1] == "child") {
  run_child(args[2], as.numeric(args[3]), args[4], args[5], args[6])
} else {
  # the children open the parent's SQLite files, not their own tempdir()'s
  if (!nzchar(Sys.getenv("MLA_BENCH_DIR"))) Sys.setenv(MLA_BENCH_DIR = tempdir())
  engines <- Sys.getenv("MLA_BENCH_ENGINES", "sqlite,postgres")
  engines <- strsplit(engines, ",")[[1]]
  res <- list()
  for (engine in engines) {
    if (engine == "postgres") {
      con <- pg_connect()
      if (is.null(con)) {
        message("PostgreSQL: no server answered (bash tools/postgres.sh start)")
        next
      }
      DBI::dbDisconnect(con)
    }
    res[[engine]] <- run_engine(engine)
  }
  print(do.call(rbind, res), row.names = FALSE)
}

# Database engines for the test-annotations-db*.R files: SQLite in memory
# always; a real PostgreSQL server when one can be reached or started, through
# both DBI drivers (RPostgreSQL and RPostgres, DBI's reference driver); DuckDB
# when it is installed. A server this helper starts (Debian's pg_ctlcluster,
# as root) is stopped when the test run ends; one already running (.ci/run or
# tools/postgres.sh starts it) is left alone. Connection settings: MLA_PG_HOST, MLA_PG_PORT, MLA_PG_USER,
# MLA_PG_PASSWORD, MLA_PG_DB (defaults: localhost, 5432, mlagreement x3).

pg_state <- new.env(parent = emptyenv())

pg_settings <- function() {
  list(host = Sys.getenv("MLA_PG_HOST", "localhost"),
       port = as.integer(Sys.getenv("MLA_PG_PORT", "5432")),
       user = Sys.getenv("MLA_PG_USER", "mlagreement"),
       password = Sys.getenv("MLA_PG_PASSWORD", "mlagreement"),
       dbname = Sys.getenv("MLA_PG_DB", "mlagreement"))
}

pg_connect <- function(driver = "RPostgreSQL") {
  s <- pg_settings()
  drv <- switch(driver, RPostgreSQL = RPostgreSQL::PostgreSQL(),
                RPostgres = getExportedValue("RPostgres", "Postgres")())
  tryCatch(
    DBI::dbConnect(drv, host = s$host, port = s$port, user = s$user,
                   password = s$password, dbname = s$dbname),
    error = function(e) NULL
  )
}

pg_run <- function(cmd, args) {
  out <- suppressWarnings(system2(cmd, args, stdout = TRUE, stderr = TRUE))
  status <- attr(out, "status")
  list(ok = is.null(status) || status == 0, out = out)
}

# Starts Debian's first cluster and creates the role and database; returns
# NULL on success or the reason it could not.
pg_start <- function() {
  if (!nzchar(Sys.which("pg_ctlcluster"))) return("pg_ctlcluster not found (apt-get install postgresql)")
  if (Sys.info()[["effective_user"]] != "root") return("not root, so the cluster cannot be started")
  cl <- pg_run("pg_lsclusters", "--no-header")
  if (!cl$ok || length(cl$out) == 0) return("no PostgreSQL cluster")
  f <- strsplit(trimws(cl$out[1]), "[[:space:]]+")[[1]]
  if (f[4] != "online") {
    res <- pg_run("pg_ctlcluster", c(f[1], f[2], "start"))
    if (!res$ok) return(paste("pg_ctlcluster start failed:", paste(res$out, collapse = " ")))
    pg_state$started <- f[1:2]
  }
  s <- pg_settings()
  sql <- sprintf(paste0("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '%s') ",
                        "THEN CREATE ROLE %s LOGIN PASSWORD '%s'; END IF; END $$;"),
                 s$user, s$user, s$password)
  pg_run("runuser", c("-u", "postgres", "--", "psql", "-qtAc", shQuote(sql)))
  pg_run("runuser", c("-u", "postgres", "--", "createdb", "-O", s$user, s$dbname))
  NULL
}

pg_stop <- function() {
  if (!is.null(pg_state$started)) {
    pg_run("pg_ctlcluster", c(pg_state$started, "stop"))
    pg_state$started <- NULL
  }
}

# A PostgreSQL connection through `driver` for the current test, or a visible
# skip saying why there is none. The server is started once per test run.
local_pg_connection <- function(env = parent.frame(), driver = "RPostgreSQL") {
  testthat::skip_on_cran()  # a database server is no part of a CRAN check
  testthat::skip_if_not_installed("DBI")
  testthat::skip_if_not_installed("dbplyr")
  testthat::skip_if_not_installed(driver)
  con <- pg_connect(driver)
  if (is.null(con) && is.null(pg_state$tried)) {
    pg_state$tried <- TRUE
    pg_state$reason <- pg_start()
    if (!is.null(pg_state$started)) withr::defer(pg_stop(), envir = testthat::teardown_env())
    for (i in 1:20) {
      con <- pg_connect(driver)
      if (!is.null(con)) break
      Sys.sleep(0.25)
    }
  }
  if (is.null(con)) {
    why <- paste("no PostgreSQL server:", pg_state$reason %||% "connection refused")
    # CI (.ci/run) starts a server: there a missing one is a failure, not a skip
    if (nzchar(Sys.getenv("MLA_REQUIRE_POSTGRES"))) testthat::fail(why)
    testthat::skip(why)
  }
  withr::defer(DBI::dbDisconnect(con), envir = env)
  # RPostgreSQL connections work with dbplyr's second-edition backend;
  # without this dbplyr warns about an "old interface" once every 8 hours
  if (driver == "RPostgreSQL") {
    registerS3method("dbplyr_edition", "PostgreSQLConnection", function(con) 2L,
                     envir = asNamespace("dbplyr"))
  }
  con
}

# The same server through RPostgres (DBI's reference driver; from CRAN, it
# needs libpq-dev to build).
local_rpostgres_connection <- function(env = parent.frame()) {
  local_pg_connection(env, driver = "RPostgres")
}

# Database tests are left out of CRAN-sized runs (each summary is a dozen
# dbplyr queries, about 1.5 s); CI and `make check` run them.
local_sqlite_connection <- function(env = parent.frame()) {
  skip_long()
  testthat::skip_if_not_installed("DBI")
  testthat::skip_if_not_installed("dbplyr")
  testthat::skip_if_not_installed("RSQLite")
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  withr::defer(DBI::dbDisconnect(con), envir = env)
  con
}

local_duckdb_connection <- function(env = parent.frame()) {
  testthat::skip_if_not_installed("DBI")
  testthat::skip_if_not_installed("dbplyr")
  testthat::skip_if_not_installed("duckdb")  # opt-in build: MLA_DUCKDB=1 tools/install-deps.sh
  con <- DBI::dbConnect(getExportedValue("duckdb", "duckdb")())
  withr::defer(DBI::dbDisconnect(con, shutdown = TRUE), envir = env)
  con
}

# Writes a data frame as a (temporary, uniquely named) table and returns the
# lazy table; `...` goes to DBI::dbWriteTable() (e.g. field.types).
db_table <- function(con, df, ...) {
  # the count lives in an option, so names stay unique in a session that
  # sources the helpers again (one test_file() per file)
  n <- getOption("mlagreement.test_tables", 0) + 1
  options(mlagreement.test_tables = n)
  name <- paste0("mla_", Sys.getpid(), "_", n)
  DBI::dbWriteTable(con, name, as.data.frame(df), temporary = TRUE, ...)
  # RPostgreSQL lacks dbplyr's newer field query: dbplyr warns once per 8 hours
  suppressWarnings(dplyr::tbl(con, name))
}

`%||%` <- function(a, b) if (is.null(a)) b else a

# The engines every database test file runs on: SQLite in memory always, a
# PostgreSQL server through each driver (skipped when none can be reached or
# the driver is not installed, a failure with MLA_REQUIRE_POSTGRES set).
db_engines <- list(sqlite = local_sqlite_connection, postgres = local_pg_connection,
                   rpostgres = local_rpostgres_connection)

# The random designs an engine runs: SQLite all of them; the two PostgreSQL
# drivers send the same SQL to the same server and differ only in the types
# they return, so they share the designs (every other one each), which keeps
# every shape on PostgreSQL and the database tests within CI's time.
engine_designs <- function(designs, engine) {
  first <- match(engine, c("postgres", "rpostgres"))
  if (is.na(first)) return(designs)
  designs[seq(first, length(designs), by = 2L)]
}

# Temporary tables of a database summary, and statements that may fail
# without harming the user's open transaction.

# A per-record query as a temporary table, ANALYZEd and indexed on item, so
# that engines plan the joins of the pair and set tables with its real size;
# without the right to create tables (a read-only connection or transaction)
# it stays a subquery.
db_temporary <- function(q) {
  con <- dbplyr::remote_con(q)
  in_transaction <- db_in_transaction(con)
  made <- db_attempt(con, in_transaction, {
    # no ANALYZE on SQLite: it would leave sqlite_stat1/sqlite_stat4 in the
    # user's temporary schema
    tab <- dplyr::compute(q, temporary = TRUE, analyze = !db_is_sqlite(q))
    name <- as.character(dbplyr::remote_name(tab))
    list(table = tab, name = name, quoted = DBI::dbQuoteIdentifier(con, name))
  })
  if (is.null(made)) return(list(table = q, drop = function() invisible()))
  db_attempt(con, in_transaction, DBI::dbExecute(con, paste0(
    "CREATE INDEX ", DBI::dbQuoteIdentifier(con, paste0(made$name, "_item")), " ON ", made$quoted,
    " (", DBI::dbQuoteIdentifier(con, "item"), ")"
  )))
  drop <- function() {
    db_attempt(con, in_transaction, DBI::dbExecute(con, paste("DROP TABLE", made$quoted)))
    invisible()
  }
  list(table = made$table, drop = drop, name = made$name)
}

# The value of `expr` (statements on `con`), or NULL when it fails. In a
# PostgreSQL transaction a failed statement aborts the whole transaction
# (every later query fails), so there the attempt runs under a savepoint and
# a failure rolls back to it, leaving the user's transaction usable.
db_attempt <- function(con, in_transaction, expr) {
  if (in_transaction) DBI::dbExecute(con, "SAVEPOINT mla_attempt")
  tryCatch({
    out <- expr
    if (in_transaction) DBI::dbExecute(con, "RELEASE SAVEPOINT mla_attempt")
    out
  }, error = function(e) {
    if (in_transaction) {
      DBI::dbExecute(con, "ROLLBACK TO SAVEPOINT mla_attempt")
      DBI::dbExecute(con, "RELEASE SAVEPOINT mla_attempt")
    }
    NULL
  })
}

# Whether a PostgreSQL connection is inside a transaction block: two queries
# then see one transaction start time; in autocommit mode each query is its
# own transaction, started after the other. Other engines, and connections
# that run no query (dbplyr's simulated ones): FALSE.
db_in_transaction <- function(con) {
  if (!inherits(con, c("PqConnection", "PostgreSQLConnection"))) return(FALSE)
  started <- function() {
    DBI::dbGetQuery(con, "SELECT CAST(transaction_timestamp() AS TEXT) AS started")$started[1]
  }
  tryCatch(identical(started(), started()), error = function(e) FALSE)
}

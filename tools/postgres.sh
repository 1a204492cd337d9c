#!/usr/bin/env bash
# Start or stop the local PostgreSQL server the database tests use
# (tests/testthat/helper-postgres.R does the same from R when the tests run
# on their own). Debian's cluster layout: pg_ctlcluster <version> main.
# `start` creates the role and database mlagreement (password mlagreement)
# and records in .pg-started that it started the server, so `stop` stops
# only a server this script started.
set -uo pipefail
cd "$(dirname "$0")/.."
marker=".pg-started"
cluster() { pg_lsclusters --no-header 2>/dev/null | awk 'NR == 1 {print $1, $2, $4}'; }

case "${1:-}" in
  start)
    command -v pg_ctlcluster >/dev/null 2>&1 || { echo "postgres: pg_ctlcluster not found"; exit 0; }
    read -r ver name status <<< "$(cluster)"
    [ -n "${ver:-}" ] || { echo "postgres: no cluster"; exit 0; }
    if [ "$status" != "online" ]; then
      pg_ctlcluster "$ver" "$name" start && echo "$ver $name" > "$marker"
    fi
    runuser -u postgres -- psql -qtAc \
      "DO \$\$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'mlagreement') THEN
         CREATE ROLE mlagreement LOGIN PASSWORD 'mlagreement'; END IF; END \$\$;" >/dev/null
    runuser -u postgres -- psql -qtAc "SELECT 1 FROM pg_database WHERE datname = 'mlagreement'" |
      grep 1 >/dev/null || runuser -u postgres -- createdb -O mlagreement mlagreement
    echo "postgres: cluster $ver $name online"
    ;;
  stop)
    if [ -f "$marker" ]; then
      read -r ver name < "$marker"
      pg_ctlcluster "$ver" "$name" stop
      rm -f "$marker"
    fi
    ;;
  *) echo "usage: tools/postgres.sh start|stop" >&2; exit 2 ;;
esac

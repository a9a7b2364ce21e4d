#!/bin/bash
# The entrypoint of docker/postgres/Dockerfile (the stand-in for postgres:15): as root it owns
# PGDATA to postgres and starts itself again as postgres; as postgres it makes the cluster on
# the first start (PGDATA without PG_VERSION) and then runs the command (postgres).
set -euo pipefail

[ "${1:0:1}" = - ] && set -- postgres "$@"
if [ "$1" != postgres ]; then
  exec "$@"
fi

if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA"
  chown postgres:postgres "$PGDATA"
  chmod 700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  if [ -z "${POSTGRES_PASSWORD:-}" ]; then
    echo "postgres: the database is not initialised and POSTGRES_PASSWORD is not set" >&2
    exit 1
  fi
  user=${POSTGRES_USER:-postgres}
  db=${POSTGRES_DB:-$user}
  initdb --username="$user" --pwfile=<(printf '%s\n' "$POSTGRES_PASSWORD") \
    --encoding=UTF8 --locale=C.UTF-8 --auth-local=trust --auth-host=scram-sha-256 \
    -D "$PGDATA" > /dev/null
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  echo "listen_addresses = '*'" >> "$PGDATA/postgresql.conf"
  if [ "$db" != postgres ]; then
    # Single-user mode: no server, no socket; the name quoted as an SQL identifier.
    echo "CREATE DATABASE \"${db//\"/\"\"}\"" | postgres --single -D "$PGDATA" postgres > /dev/null
  fi
  echo "postgres: initialised $PGDATA (user $user, database $db)"
fi

exec "$@"

#!/usr/bin/env bash
# A throwaway PostgreSQL server for the store's tests, from Debian's packages.
#
#   eval "$(.ci/postgres.sh start)"   # installs if needed, starts on 127.0.0.1, prints exports
#   .ci/postgres.sh stop              # stops it and removes its folder
#
# `start` prints only `export ...` lines on stdout (everything else goes to stderr):
# ARBITER_TEST_POSTGRES_URL for the tests and ARBITER_CI_POSTGRES_DIR for `stop`.
set -euo pipefail

state_file="${TMPDIR:-/tmp}/arbiter-ci-postgres.dir"

log() { echo "postgres.sh: $*" >&2; }

as_postgres() {
  if command -v runuser >/dev/null 2>&1; then
    runuser -u postgres -- "$@"
  else
    su postgres -s /bin/sh -c "$(printf '%q ' "$@")"
  fi
}

bin_dir() {
  local d
  d="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
  if [[ -n "$d" && -x "$d/initdb" && -x "$d/pg_ctl" ]]; then
    echo "$d"
  fi
}

port_in_use() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

start() {
  local bin
  bin="$(bin_dir)"
  if [[ -z "$bin" ]]; then
    log "installing PostgreSQL from Debian's packages"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update >&2
    apt-get install -y --no-install-recommends postgresql >&2
    bin="$(bin_dir)"
    if [[ -z "$bin" ]]; then
      log "postgresql is installed but no /usr/lib/postgresql/*/bin/initdb was found"
      exit 1
    fi
  fi
  id postgres >/dev/null 2>&1 || { log "the postgres user is missing; reinstall the postgresql package"; exit 1; }

  local port=55432
  while port_in_use "$port"; do
    port=$((port + 1))
    if ((port > 55532)); then
      log "no free port in 55432..55532"
      exit 1
    fi
  done

  local dir
  dir="$(mktemp -d "${TMPDIR:-/tmp}/arbiter-ci-postgres.XXXXXX")"
  chmod 755 "$dir"
  mkdir "$dir/data" "$dir/run"
  chown -R postgres:postgres "$dir"
  echo "$dir" >"$state_file"

  log "initdb in $dir/data ($bin)"
  as_postgres "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >&2 \
    || as_postgres "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C >&2
  log "starting on 127.0.0.1:$port"
  as_postgres "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$dir/run -c fsync=off -c max_connections=200" \
    start >&2 || { cat "$dir/server.log" >&2; exit 1; }

  local psql="$bin/psql"
  as_postgres "$psql" -h 127.0.0.1 -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 -q >&2 <<'SQL'
CREATE ROLE arbiter LOGIN PASSWORD 'arbiter';
CREATE DATABASE arbiter_test OWNER arbiter ENCODING 'UTF8';
SQL
  echo "export ARBITER_CI_POSTGRES_DIR=$dir"
  echo "export ARBITER_TEST_POSTGRES_URL=postgres://arbiter:arbiter@127.0.0.1:$port/arbiter_test"
}

stop() {
  local dir="${ARBITER_CI_POSTGRES_DIR:-}"
  if [[ -z "$dir" && -f "$state_file" ]]; then
    dir="$(cat "$state_file")"
  fi
  if [[ -z "$dir" || ! -d "$dir" ]]; then
    log "nothing to stop"
    return 0
  fi
  local bin
  bin="$(bin_dir)"
  if [[ -n "$bin" && -f "$dir/data/postmaster.pid" ]]; then
    log "stopping the server in $dir"
    as_postgres "$bin/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop >&2 || true
  fi
  case "$dir" in
    "${TMPDIR:-/tmp}"/arbiter-ci-postgres.*) rm -rf "$dir" ;;
    *) log "not removing $dir: it is not a folder this script made" ;;
  esac
  rm -f "$state_file"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac

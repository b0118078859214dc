#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for paybox's PostgreSQL tests, for .ci/run and for developers:
#
#   eval "$(scripts/postgres-dev.sh start)"   # prints export PAYBOX_TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:PORT/postgres
#   npm test                                  # now also runs the postgres project
#   scripts/postgres-dev.sh stop              # stops the cluster and deletes its folder
#
# start: uses Debian's server binaries (/usr/lib/postgresql/<version>/bin, off the PATH; as
#        root it installs the postgresql package when they are missing), initdb's a cluster in
#        a temporary folder (trust auth, only 127.0.0.1, a free port, its socket inside the
#        folder), waits until it accepts connections and prints the one line above on stdout.
#        With a cluster already running it prints that cluster's line again.
# stop:  stops the cluster (pg_ctl -m fast) and deletes its folder.
# url:   prints the running cluster's line.
# pause / resume: stops the server and starts it again on the same port with the same data
#        (the outage tests: a sandbox must answer 503 meanwhile and recover by itself).
#
# The cluster is remembered in a state file: $PAYBOX_POSTGRES_STATE, by default
# ${TMPDIR:-/tmp}/paybox-postgres-dev-<uid>.state. Everything but that one line goes to stderr.
# initdb refuses to run as root, so as root the cluster belongs to the postgres user.
set -euo pipefail

STATE_FILE="${PAYBOX_POSTGRES_STATE:-${TMPDIR:-/tmp}/paybox-postgres-dev-$(id -u).state}"
# Folders this script creates, and the file inside them that says so: stop deletes only those.
DIR_PREFIX=paybox-postgres.
MARKER=paybox-postgres-dev

log() { printf 'postgres-dev: %s\n' "$*" >&2; }
die() {
  log "$*"
  exit 1
}

usage() {
  cat >&2 <<'EOF'
Usage: scripts/postgres-dev.sh start|stop|url|pause|resume
  start  start a throwaway PostgreSQL cluster (or find the running one) and print
         export PAYBOX_TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:PORT/postgres
  stop   stop it and delete its folder
  url    print the running cluster's PAYBOX_TEST_POSTGRES_URL line
  pause  stop the server, keeping its folder and port
  resume start the paused server again
EOF
}

is_root() { [ "$(id -u)" -eq 0 ]; }

# Runs a command as the cluster's owner: the postgres user when we are root, else ourselves.
# From inside the cluster's folder, since the owner may not be allowed into our working directory.
as_owner() {
  local dir=$1
  shift
  if is_root; then
    (cd "$dir" && runuser -u postgres -- "$@")
  else
    (cd "$dir" && "$@")
  fi
}

# The folder of initdb, pg_ctl and pg_isready: Debian's newest version, else the PATH's.
find_bindir() {
  local candidates=() candidate
  for candidate in /usr/lib/postgresql/*/bin/initdb; do
    [ -x "$candidate" ] && candidates+=("$candidate")
  done
  if [ "${#candidates[@]}" -gt 0 ]; then
    candidate=$(printf '%s\n' "${candidates[@]}" | sort -V | tail -n 1)
    dirname "$candidate"
  elif candidate=$(command -v initdb); then
    dirname "$candidate"
  else
    return 1
  fi
}

install_postgresql() {
  if ! is_root; then
    die "PostgreSQL's server binaries are missing (no /usr/lib/postgresql/*/bin/initdb): install Debian's postgresql package (sudo apt-get install postgresql), then run this again"
  fi
  log "installing Debian's postgresql package (no /usr/lib/postgresql/*/bin/initdb)"
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >&2
}

free_port() {
  if command -v node >/dev/null; then
    node -e "const s = require('net').createServer(); s.listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close() })"
  elif command -v python3 >/dev/null; then
    python3 -c "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1]); s.close()"
  else
    die 'cannot find a free port: neither node nor python3 is on the PATH'
  fi
}

# An export, so that `eval` hands the URL on to npm test and the CLI, not only to this shell.
url_line() { printf 'export PAYBOX_TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:%s/postgres\n' "$1"; }

# Reads the state file into STATE_DIR, STATE_PORT and STATE_BINDIR; fails if there is none.
# Parsed line by line rather than sourced: it lives in a shared temporary folder.
read_state() {
  STATE_DIR='' STATE_PORT='' STATE_BINDIR=''
  [ -f "$STATE_FILE" ] || return 1
  local key value
  while IFS='=' read -r key value; do
    case $key in
      dir) STATE_DIR=$value ;;
      port) STATE_PORT=$value ;;
      bindir) STATE_BINDIR=$value ;;
    esac
  done <"$STATE_FILE"
  if [ -z "$STATE_DIR" ] || [ -z "$STATE_BINDIR" ] || ! [[ $STATE_PORT =~ ^[0-9]+$ ]]; then
    die "unreadable state file $STATE_FILE: delete it"
  fi
}

# Whether the cluster in the state answers on its port.
state_running() {
  [ -x "$STATE_BINDIR/pg_isready" ] && "$STATE_BINDIR/pg_isready" -q -h 127.0.0.1 -p "$STATE_PORT" -U postgres -d postgres
}

# Deletes a cluster folder, only if this script made it.
remove_cluster_dir() {
  local dir=$1
  [ -d "$dir" ] || return 0
  case $(basename "$dir") in
    "$DIR_PREFIX"*) ;;
    *) die "refusing to delete $dir: not a folder this script created" ;;
  esac
  [ -f "$dir/$MARKER" ] || die "refusing to delete $dir: it has no $MARKER file"
  rm -rf -- "$dir"
}

# Stops the cluster in the state (if it runs), deletes its folder and the state file.
stop_cluster() {
  if [ -f "$STATE_DIR/data/postmaster.pid" ]; then
    as_owner "$STATE_DIR" "$STATE_BINDIR/pg_ctl" stop -D "$STATE_DIR/data" -m fast -w -t 30 >&2 ||
      log "pg_ctl stop failed (the server may already be gone); deleting the folder anyway"
  fi
  remove_cluster_dir "$STATE_DIR"
  rm -f -- "$STATE_FILE"
}

# Set while start builds a cluster: on failure, stop it and delete its folder.
NEW_DIR=''
NEW_BINDIR=''
cleanup_failed_start() {
  [ -n "$NEW_DIR" ] || return 0
  if [ -f "$NEW_DIR/data/postmaster.pid" ]; then
    as_owner "$NEW_DIR" "$NEW_BINDIR/pg_ctl" stop -D "$NEW_DIR/data" -m immediate -w >/dev/null 2>&1 || true
  fi
  remove_cluster_dir "$NEW_DIR" || true
}

cmd_start() {
  if read_state; then
    if state_running; then
      log "PostgreSQL already runs on 127.0.0.1:$STATE_PORT ($STATE_DIR)"
      url_line "$STATE_PORT"
      return 0
    fi
    log "the cluster in $STATE_FILE is not running: deleting it and starting a new one"
    stop_cluster
  fi

  local bindir
  if ! bindir=$(find_bindir); then
    install_postgresql
    bindir=$(find_bindir) || die 'the postgresql package is installed but there is still no /usr/lib/postgresql/*/bin/initdb'
  fi
  if is_root && ! id postgres >/dev/null 2>&1; then
    die 'initdb refuses to run as root and there is no postgres user to run it as: create one, or run this as another user'
  fi

  trap cleanup_failed_start EXIT
  NEW_BINDIR=$bindir
  NEW_DIR=$(mktemp -d "${TMPDIR:-/tmp}/${DIR_PREFIX}XXXXXX")
  : >"$NEW_DIR/$MARKER"
  if is_root; then
    chown postgres: "$NEW_DIR"
    runuser -u postgres -- test -w "$NEW_DIR" ||
      die "the postgres user cannot write to $NEW_DIR: point TMPDIR at a folder it can reach (such as /tmp)"
  fi

  # UTF-8, and C.UTF-8 rather than C: the test databases ask for C collation themselves
  # (harness/postgres.ts), and a cluster default that differs shows that they do.
  # --no-sync: the cluster is throwaway.
  if ! as_owner "$NEW_DIR" "$bindir/initdb" -D "$NEW_DIR/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 --no-sync >"$NEW_DIR/initdb.log" 2>&1; then
    cat "$NEW_DIR/initdb.log" >&2
    die "initdb failed (above)"
  fi
  mkdir "$NEW_DIR/socket"
  if is_root; then chown postgres: "$NEW_DIR/socket"; fi

  # The free port is only free until someone else takes it: try a few.
  local port='' attempt
  for attempt in 1 2 3; do
    port=$(free_port)
    # Settings in the configuration file rather than on pg_ctl's command line, which postgres
    # would parse again (paths with spaces).
    cat >>"$NEW_DIR/data/postgresql.conf" <<EOF
# scripts/postgres-dev.sh (attempt $attempt)
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$NEW_DIR/socket'
EOF
    if as_owner "$NEW_DIR" "$bindir/pg_ctl" start -D "$NEW_DIR/data" -l "$NEW_DIR/postgres.log" -w -t 60 >&2; then
      break
    fi
    log "PostgreSQL did not start on port $port (attempt $attempt); its log:"
    tail -n 20 "$NEW_DIR/postgres.log" >&2 || true
    port=''
  done
  [ -n "$port" ] || die "PostgreSQL did not start (folder $NEW_DIR)"
  "$bindir/pg_isready" -q -h 127.0.0.1 -p "$port" -U postgres -d postgres -t 30 ||
    die "PostgreSQL started but does not accept connections on 127.0.0.1:$port"

  local state_tmp
  state_tmp=$(mktemp "$STATE_FILE.XXXXXX")
  printf 'dir=%s\nport=%s\nbindir=%s\n' "$NEW_DIR" "$port" "$bindir" >"$state_tmp"
  mv -f -- "$state_tmp" "$STATE_FILE"
  trap - EXIT
  log "PostgreSQL $("$bindir/pg_ctl" --version | sed -E 's/^[^0-9]*([0-9.]+).*/\1/') runs on 127.0.0.1:$port ($NEW_DIR); stop it with scripts/postgres-dev.sh stop"
  url_line "$port"
}

cmd_stop() {
  if ! read_state; then
    log "no cluster to stop ($STATE_FILE does not exist)"
    return 0
  fi
  stop_cluster
  log "stopped PostgreSQL on 127.0.0.1:$STATE_PORT and deleted $STATE_DIR"
}

cmd_url() {
  read_state || die "no cluster is running ($STATE_FILE does not exist): start one with scripts/postgres-dev.sh start"
  state_running || die "the cluster on 127.0.0.1:$STATE_PORT ($STATE_DIR) does not answer: run scripts/postgres-dev.sh stop, then start"
  url_line "$STATE_PORT"
}

cmd_pause() {
  read_state || die "no cluster to pause ($STATE_FILE does not exist)"
  as_owner "$STATE_DIR" "$STATE_BINDIR/pg_ctl" stop -D "$STATE_DIR/data" -m fast -w -t 30 >&2
}

cmd_resume() {
  read_state || die "no cluster to resume ($STATE_FILE does not exist)"
  as_owner "$STATE_DIR" "$STATE_BINDIR/pg_ctl" start -D "$STATE_DIR/data" -l "$STATE_DIR/postgres.log" -w -t 60 >&2
}

case "${1:-}" in
  start) cmd_start ;;
  pause) cmd_pause ;;
  resume) cmd_resume ;;
  stop) cmd_stop ;;
  url) cmd_url ;;
  -h | --help | help) usage ;;
  *)
    usage
    exit 2
    ;;
esac

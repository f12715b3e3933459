#!/usr/bin/env bash
# A throwaway PostgreSQL for the tests: installs Debian's package when it is missing, starts a
# cluster in a temporary directory on 127.0.0.1 (as an unprivileged user: PostgreSQL will not
# run as root), exports its URL as VOLLEY_TEST_PG, and stops and removes it when the shell
# that sourced this file exits. Source it: `. scripts/test-postgres.sh`.

volley_pg_bindir() {
  local initdb
  initdb="$(ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -n 1)"
  if [ -z "$initdb" ]; then initdb="$(command -v initdb || true)"; fi
  if [ -n "$initdb" ]; then dirname "$(readlink -f "$initdb")"; fi
}

if [ -z "$(volley_pg_bindir)" ]; then
  echo "test-postgres: PostgreSQL is not installed: installing Debian's package" >&2
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql
fi
VOLLEY_PG_BIN="$(volley_pg_bindir)"
if [ -z "$VOLLEY_PG_BIN" ]; then
  echo "test-postgres: no initdb found after installing PostgreSQL" >&2
  exit 1
fi

VOLLEY_PG_DIR="$(mktemp -d /tmp/volley-pg.XXXXXX)"
VOLLEY_PG_RUN=()
if [ "$(id -u)" = 0 ]; then
  VOLLEY_PG_USER=postgres
  if ! id "$VOLLEY_PG_USER" >/dev/null 2>&1; then
    useradd --system --no-create-home --shell /usr/sbin/nologin "$VOLLEY_PG_USER"
  fi
  chown "$VOLLEY_PG_USER" "$VOLLEY_PG_DIR"
  VOLLEY_PG_RUN=(runuser -u "$VOLLEY_PG_USER" --)
fi

"${VOLLEY_PG_RUN[@]}" "$VOLLEY_PG_BIN/initdb" -D "$VOLLEY_PG_DIR/data" -U volley --auth=trust -E UTF8 >"$VOLLEY_PG_DIR/initdb.log" 2>&1 || {
  echo "test-postgres: initdb failed in $VOLLEY_PG_DIR:" >&2
  cat "$VOLLEY_PG_DIR/initdb.log" >&2
  exit 1
}

# A free port: try a few at random until the server starts on one.
VOLLEY_PG_PORT=""
for _ in 1 2 3 4 5 6 7 8; do
  port=$((20000 + RANDOM % 20000))
  if "${VOLLEY_PG_RUN[@]}" "$VOLLEY_PG_BIN/pg_ctl" -D "$VOLLEY_PG_DIR/data" -l "$VOLLEY_PG_DIR/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories=$VOLLEY_PG_DIR -c max_connections=300 -c fsync=on" start >/dev/null; then
    VOLLEY_PG_PORT=$port
    break
  fi
done
if [ -z "$VOLLEY_PG_PORT" ]; then
  echo "test-postgres: the PostgreSQL server would not start; its log ($VOLLEY_PG_DIR/server.log):" >&2
  cat "$VOLLEY_PG_DIR/server.log" >&2
  exit 1
fi

volley_pg_stop() {
  "${VOLLEY_PG_RUN[@]}" "$VOLLEY_PG_BIN/pg_ctl" -D "$VOLLEY_PG_DIR/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$VOLLEY_PG_DIR"
}
trap volley_pg_stop EXIT

export VOLLEY_TEST_PG="postgres://volley@127.0.0.1:$VOLLEY_PG_PORT/postgres"
echo "test-postgres: a PostgreSQL server for the tests at $VOLLEY_TEST_PG (stopped at exit)"

#!/usr/bin/env bash
# Runs the server example (ServerExample/) against a real PostgreSQL, on 127.0.0.1 only: installs PostgreSQL from
# Debian's packages if it is missing, starts a throwaway cluster on a free port in a temporary folder, builds the
# example, starts two server processes, and runs the check (ServerExample/Sources/LiveUpdatesCheck): WebSocket clients
# on every process and topic, events POSTed to either process by concurrent publishers, and, per client, every event
# the table holds for its topic compared with what it received; one LISTEN connection per process in
# pg_stat_activity, a terminated LISTEN connection, resume by last id on either process, a reset past retention, a
# timed catch-up, and appends per second with NOTIFY in the transaction and without. It ends with one line per
# figure, `figure NAME VALUE`, then `server-example: N passed, M failed`.
#
#   Scripts/check-server-example.sh [options]
#     --clients N          WebSocket clients (300)
#     --topics N           topics (3)
#     --events N           events per topic in the steady round (100)
#     --publishers N       concurrent publishers (32)
#     --catch-up N         events one client catches up from the table, timed (2000)
#     --faults             also, while events flow: a PostgreSQL restart, a 20 s stop, a terminated LISTEN
#                          connection, and one server process killed, whose clients resume on the other
#     --outage-seconds N   how long the stop of --faults lasts (20)
#     --adversarial        instead of the round above, attack the servers, started with --max-topics 500,
#                          --slow-client-deadline-ms 3000, --request-head-timeout-ms 2000 and
#                          --max-connections-per-client 8: upgrades and POSTs without a token, with a forged, an
#                          expired and another topic's token, from an origin not listed, with bodies not JSON (each
#                          refused with its status and a JSON reason, and counted in /metrics under it); a burst past
#                          the rate limit (429, Retry-After); 20 upgrades racing for a token's last 2 slots (2 served,
#                          18 refused 429); 1,000 connections that send half a request head (each closed within the
#                          deadline and 3 s, and counted); 20,000 short-lived topics, 64 at once, then a new one;
#                          5,000 short sessions to one topic (rss-growth-per-session-bytes under 2,048); 100
#                          WebSockets that never read, flooded (each closed as slow within the deadline and 3 s).
#                          Its figures include each server's VmRSS before and after
#     --release            build and run a release build (default: debug, which builds in about half the time)
#     --time-limit SECONDS the whole run, build included (1500)
#     --build-only         build the example (as the same command would without this flag) and stop: CI starts it
#                          in the background at its start, so the run later finds the build done
#
# Everything it starts (the cluster, the servers) is stopped when it exits, whatever the reason; the cluster's folder
# is removed. Logs of a failed run are printed. It builds into ServerExample/.build.
set -euo pipefail
cd "$(dirname "$0")/.."

clients=300 topics=3 events=100 publishers=32 catch_up=2000 faults=0 outage_seconds=20 configuration=debug
time_limit=1500 build_only=0 adversarial=0
arguments=("$@")
while [ $# -gt 0 ]; do
  case "$1" in
    --clients) clients="$2"; shift 2 ;;
    --topics) topics="$2"; shift 2 ;;
    --events) events="$2"; shift 2 ;;
    --publishers) publishers="$2"; shift 2 ;;
    --catch-up) catch_up="$2"; shift 2 ;;
    --faults) faults=1; shift ;;
    --adversarial) adversarial=1; shift ;;
    --outage-seconds) outage_seconds="$2"; shift 2 ;;
    --release) configuration=release; shift ;;
    --time-limit) time_limit="$2"; shift 2 ;;
    --build-only) build_only=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "error: unknown option $1 (--help lists them)" >&2; exit 2 ;;
  esac
done

# The time limit: the whole script runs under `timeout`, which signals its whole process group (the build, the
# servers, the check); the EXIT trap below then stops the cluster. That group is its own, out of reach of an interrupt
# (Ctrl-C) or a TERM sent to this script: those are passed on to `timeout`, which passes them to the group.
if [ -z "${SERVER_EXAMPLE_TIMED:-}" ]; then
  export SERVER_EXAMPLE_TIMED=1
  timeout --kill-after=60 "$time_limit" bash "$0" "${arguments[@]}" &
  timed=$!
  trap 'kill -TERM "$timed" 2>/dev/null || true' INT TERM
  status=0
  wait "$timed" || status=$?
  # A signal ends `wait` early; wait again, for the cleanup.
  while kill -0 "$timed" 2>/dev/null; do
    status=0
    wait "$timed" || status=$?
  done
  if [ "$status" -eq 124 ]; then echo "error: server-example: over the time limit of ${time_limit} s" >&2; fi
  exit "$status"
fi

# A thousand clients need more than a thousand sockets in the check's process.
ulimit -n 8192 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

work="$(mktemp -d "${TMPDIR:-/tmp}/server-example.XXXXXX")"
chmod 755 "$work"
server_pids=()
pg_ctl=""
pg_started=0
as_postgres() { "$@"; }

cleanup() {
  local status=$?
  trap - EXIT INT TERM
  # The servers: asked to stop, then killed if they have not within 5 s.
  local pid attempt
  for pid in "${server_pids[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  for attempt in $(seq 50); do
    alive=0
    for pid in "${server_pids[@]}"; do
      if kill -0 "$pid" 2>/dev/null; then alive=1; fi
    done
    [ "$alive" -eq 0 ] && break
    sleep 0.1
  done
  for pid in "${server_pids[@]}"; do
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  # The cluster runs in a session of its own, out of reach of the signals sent to this script: stop it, and kill its
  # postmaster if it does not stop. Wait for its pid file if the script was stopped while the cluster was starting.
  if [ "$pg_started" -eq 1 ]; then
    for attempt in $(seq 50); do
      [ -f "$work/pg/data/postmaster.pid" ] && break
      sleep 0.1
    done
    if [ -f "$work/pg/data/postmaster.pid" ]; then
      pid="$(head -n 1 "$work/pg/data/postmaster.pid")"
      as_postgres "$pg_ctl" -D "$work/pg/data" stop -m immediate -w -t 10 >/dev/null 2>&1 ||
        kill -KILL "$pid" 2>/dev/null || true
    fi
  fi
  if [ "$status" -ne 0 ]; then
    for log in "$work"/*.log "$work"/pg/*.log; do
      [ -f "$log" ] || continue
      echo "--- last lines of $(basename "$log")" >&2
      tail -n 30 "$log" >&2
    done
  fi
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 143' INT TERM

# PostgreSQL: the newest server binaries installed, or Debian's package, installed without the cluster it would
# otherwise create and start. Not for a build alone.
if [ "$build_only" -eq 0 ]; then
find_postgres() {
  local dir
  for dir in /usr/lib/postgresql/*/bin; do
    # An `if`, not `&&`: with no PostgreSQL the loop must still succeed, or `set -e` ends the script without a word.
    if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then echo "$dir"; fi
  done | sort -V | tail -n 1
}
pg_bin="$(find_postgres)"
if [ -z "$pg_bin" ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "error: PostgreSQL is not installed, and installing it takes root (apt-get install postgresql)" >&2
    exit 1
  fi
  echo "Installing PostgreSQL from Debian's packages…" >&2
  export DEBIAN_FRONTEND=noninteractive
  # Its output goes to apt.log, printed if the script fails.
  apt-get update -qq >>"$work/apt.log" 2>&1
  apt-get install -y -qq --no-install-recommends postgresql-common >>"$work/apt.log" 2>&1
  sed -i 's/^#* *create_main_cluster *=.*/create_main_cluster = false/' /etc/postgresql-common/createcluster.conf
  apt-get install -y -qq --no-install-recommends postgresql >>"$work/apt.log" 2>&1
  pg_bin="$(find_postgres)"
  [ -n "$pg_bin" ] || { echo "error: PostgreSQL installed, but no initdb under /usr/lib/postgresql/*/bin" >&2; exit 1; }
fi
pg_ctl="$pg_bin/pg_ctl"
# initdb and postgres refuse to run as root: as root, the cluster belongs to the `postgres` user the package created.
if [ "$(id -u)" -eq 0 ]; then
  as_postgres() { runuser -u postgres -- "$@"; }
fi
fi

port_in_use() { grep -qi ":$(printf '%04X' "$1") " /proc/net/tcp /proc/net/tcp6 2>/dev/null; }
free_port() {
  local port attempt
  for attempt in $(seq 100); do
    port=$((20000 + RANDOM % 30000))
    port_in_use "$port" || { echo "$port"; return 0; }
  done
  echo "error: no free port found" >&2
  return 1
}

# Build the example: the server, the check and, in a debug build, the example's unit tests, which run first. Product
# by product: a plain `swift build` would also build every other product of every dependency (HTTP/2, an HTTP client,
# test kits), more than twice the work. No debug information: nothing here reads it, and it was a sixth of the build's
# CPU time. More than half of what remains is BoringSSL, compiled twice (for swift-crypto and for swift-nio-ssl).
echo "Building ServerExample ($configuration)…" >&2
build_start=$SECONDS
build_options=(--package-path ServerExample -c "$configuration" -debug-info-format none)
products=(LiveUpdatesServer LiveUpdatesCheck)
if [ "$configuration" = debug ]; then products+=(ServerExamplePackageTests); fi
for product in "${products[@]}"; do
  swift build "${build_options[@]}" --product "$product" >>"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; exit 1; }
done
echo "Built in $((SECONDS - build_start)) s." >&2
# The project's own code (the example, and EventBus built as its dependency) compiles without a warning.
if grep -E "^$PWD/(ServerExample/)?(Sources|Tests)/[^:]*:[0-9]+:[0-9]+: warning:" "$work/build.log" >&2; then
  echo "error: the warnings above, in the project's own code" >&2
  exit 1
fi
if [ "$build_only" -eq 1 ]; then exit 0; fi
if [ "$configuration" = debug ]; then
  swift test "${build_options[@]}" --skip-build >"$work/unit-tests.log" 2>&1 ||
    { cat "$work/unit-tests.log" >&2; echo "error: the example's unit tests failed" >&2; exit 1; }
  grep -E "Test run with" "$work/unit-tests.log" | sed 's/^/unit tests: /' >&2
fi
bin="$(swift build "${build_options[@]}" --show-bin-path)"

# The cluster's folder (data, socket, log) belongs to the user the server runs as.
mkdir -p "$work/pg"
if [ "$(id -u)" -eq 0 ]; then chown postgres "$work/pg"; fi
as_postgres mkdir "$work/pg/data" "$work/pg/socket"
as_postgres "$pg_bin/initdb" -D "$work/pg/data" -U postgres --auth=trust -E UTF8 --no-sync >"$work/initdb.log" 2>&1
pg_port="$(free_port)"
as_postgres tee -a "$work/pg/data/postgresql.conf" >/dev/null <<CONF
listen_addresses = '127.0.0.1'
port = $pg_port
unix_socket_directories = '$work/pg/socket'
max_connections = 100
superuser_reserved_connections = 3
fsync = off
synchronous_commit = off
full_page_writes = off
shared_buffers = 32MB
CONF
echo "Starting PostgreSQL $("$pg_bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$pg_port…" >&2
pg_started=1
as_postgres "$pg_ctl" -D "$work/pg/data" -l "$work/pg/postgres.log" -w -t 60 start >/dev/null
psql() { "$pg_bin/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$pg_port" -U postgres "$@"; }
psql -d postgres -c "CREATE ROLE eventbus LOGIN" -c "CREATE DATABASE eventbus OWNER eventbus"

# The servers' token key, new for every run: the check mints its tokens with it.
LIVE_UPDATES_TOKEN_KEY="$(head -c 48 /dev/urandom | base64 | tr -d '\n')"
export LIVE_UPDATES_TOKEN_KEY

# Two server processes on free ports, each writing its port once it listens. History: enough for the timed catch-up.
# The check's WebSocket client (HummingbirdWSClient) sends `Origin: ws://HOST`, which the servers are told to allow.
retention_count=$((catch_up > 1000 ? catch_up : 1000))
servers=()
# The adversarial round: few topics kept, so that its short-lived ones are evicted; a short deadline for slow clients.
slow_deadline_ms=3000 head_timeout_ms=2000 connections_per_client=8
server_options=()
if [ "$adversarial" -eq 1 ]; then
  server_options=(--max-topics 500 --slow-client-deadline-ms "$slow_deadline_ms"
    --request-head-timeout-ms "$head_timeout_ms" --max-connections-per-client "$connections_per_client")
fi
for name in a b; do
  "$bin/LiveUpdatesServer" --port 0 --port-file "$work/$name.port" --process "$name" \
    --retention-count "$retention_count" --allowed-origin ws://127.0.0.1 "${server_options[@]}" \
    --postgres-port "$pg_port" --postgres-user eventbus --postgres-database eventbus >"$work/server-$name.log" 2>&1 &
  server_pids+=($!)
done
for name in a b; do
  for _ in $(seq 600); do
    [ -s "$work/$name.port" ] && break
    sleep 0.1
  done
  [ -s "$work/$name.port" ] || { echo "error: server $name did not start" >&2; exit 1; }
  servers+=(--server "$name=127.0.0.1:$(cat "$work/$name.port")")
done

# The faults' commands, run by the check while events flow: PostgreSQL restarted, stopped and started as the user
# that owns the cluster, and server a killed.
fault_options=()
if [ "$faults" -eq 1 ]; then
  as_postgres_prefix=""
  if [ "$(id -u)" -eq 0 ]; then as_postgres_prefix="runuser -u postgres --"; fi
  pg_command="$as_postgres_prefix $pg_ctl -D $work/pg/data -l $work/pg/postgres.log -w -t 60"
  fault_options=(--faults --outage-seconds "$outage_seconds"
    --restart-postgres "$pg_command -m fast restart >/dev/null"
    --stop-postgres "$pg_command -m fast stop >/dev/null"
    --start-postgres "$pg_command start >/dev/null"
    --kill-server "a=kill -KILL ${server_pids[0]}")
fi

if [ "$adversarial" -eq 1 ]; then
  adversarial_start=$SECONDS
  status=0
  "$bin/LiveUpdatesCheck" "${servers[@]}" --adversarial --server-pid "a=${server_pids[0]}" \
    --server-pid "b=${server_pids[1]}" --slow-client-deadline-ms "$slow_deadline_ms" \
    --request-head-timeout-ms "$head_timeout_ms" --max-connections-per-client "$connections_per_client" \
    --postgres-port "$pg_port" --postgres-user postgres --postgres-database eventbus || status=$?
  echo "The adversarial round took $((SECONDS - adversarial_start)) s." >&2
  exit "$status"
fi

"$bin/LiveUpdatesCheck" "${servers[@]}" --clients "$clients" --topics "$topics" --events "$events" \
  --publishers "$publishers" --catch-up "$catch_up" --retention-count "$retention_count" "${fault_options[@]}" \
  --postgres-port "$pg_port" --postgres-user postgres --postgres-database eventbus

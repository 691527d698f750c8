#!/usr/bin/env bash
# Runs the README's test command, `swift test --traits LiveObjects`, with one core kept busy by another process: a
# plain busy loop at normal priority, as a shared CI runner or a build beside the tests would. A suite that passes only
# on an idle machine teaches a team to ignore red builds; this is the check that it does not.
#
#   Scripts/check-tests-under-load.sh             one run
#   Scripts/check-tests-under-load.sh --runs 3    three runs in a row, each with its own busy loop
#
# Each run prints the test runner's own summary. The first run that fails stops the script with the runner's status.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=1
while [ $# -gt 0 ]; do
  case "$1" in
    --runs)
      [ $# -ge 2 ] && [[ "$2" =~ ^[1-9][0-9]*$ ]] || { echo "usage: $0 [--runs N]" >&2; exit 2; }
      runs=$2
      shift 2
      ;;
    -h | --help)
      echo "usage: $0 [--runs N]"
      exit 0
      ;;
    *)
      echo "usage: $0 [--runs N]" >&2
      exit 2
      ;;
  esac
done

busy_pid=""
stop_busy_loop() {
  if [ -n "$busy_pid" ]; then
    kill "$busy_pid" 2>/dev/null || true
    wait "$busy_pid" 2>/dev/null || true
    busy_pid=""
  fi
}
trap stop_busy_loop EXIT

# The build is not what this measures: it happens first, on whatever cores there are.
swift build --build-tests --traits LiveObjects

log=$(mktemp)
trap 'stop_busy_loop; rm -f "$log"' EXIT
for run in $(seq 1 "$runs"); do
  bash -c 'while :; do :; done' &
  busy_pid=$!
  echo "=== Run $run of $runs: swift test --traits LiveObjects, with a busy loop (pid $busy_pid) on one core"
  start=$SECONDS
  status=0
  swift test --traits LiveObjects 2>&1 | tee "$log" || status=$?
  stop_busy_loop
  echo "=== Run $run of $runs: $((SECONDS - start)) s"
  if [ "$status" != 0 ] || ! grep -q "Test run with .* passed" "$log"; then
    echo "error: run $run of $runs failed with one core busy" >&2
    exit 1
  fi
done
echo "All $runs run(s) passed with one core busy."

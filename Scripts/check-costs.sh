#!/usr/bin/env bash
# Checks the costs of `Output`'s send against their budgets in Benchmarks/costs.tsv: instructions per delivery
# (callgrind) and allocations per send in steady state (memcheck), counted in Bench's release build.
#
#   Scripts/check-costs.sh              # gate: exit 1 if a figure is over its budget
#   Scripts/check-costs.sh --measure    # print the figures without judging them, to set new budgets
#
# Counts repeat exactly for one binary, unlike times on a shared machine. Each row of the budget file is measured by
# two runs of Bench that differ only in `--iterations`; the difference between their counts, divided by the extra
# work, cancels start-up, set-up and the report (Benchmarks/costs.tsv gives the commands, Benchmarks/METHODOLOGY.md
# the method). Builds Bench with `swift build -c release --scratch-path .build-release -Xswiftc -warnings-as-errors
# --product Bench`, which does nothing after CI's release steps, built with the same flags in the same folder.
#
# Prints one line per row (`ok` or `FAIL`, the figure and its budget), then `costs: N passed, M failed`. Exits 1 if a
# figure is over its budget, 2 on a bad command line, a missing tool or a run that fails.
set -euo pipefail
cd "$(dirname "$0")/.."

measure_only=false
case "${1:-}" in
  "") ;;
  --measure) measure_only=true ;;
  *) echo "usage: Scripts/check-costs.sh [--measure]" >&2; exit 2 ;;
esac

budgets="Benchmarks/costs.tsv"
bench=".build-release/release/Bench"

if ! command -v valgrind >/dev/null 2>&1; then
  echo "Installing valgrind…" >&2
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq >/dev/null
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >/dev/null
fi

echo "Building Bench in .build-release…" >&2
swift build -c release --scratch-path .build-release -Xswiftc -warnings-as-errors --product Bench >&2

# A run of Bench sends `--iterations` events in each of its repetitions: one warm-up and the timed ones of its full
# plan (no --quick), read here from the source so that the figures follow a change of the plan.
timed="$(sed -n 's/.*static let full = MeasurementPlan(repetitions: \([0-9]*\).*/\1/p' \
  Sources/BenchHarness/MeasurementPlan.swift)"
[ -n "$timed" ] || { echo "error: cannot read the repetitions of MeasurementPlan.full" >&2; exit 2; }
runs_per_iteration=$((timed + 1))

# The main-actor scenario's sender blocks while it waits for a burst, rather than spin: a spin's instructions would be
# counted, and vary with the timing.
export BENCH_BLOCKING_WAIT=1

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Events per iteration: one in fanout, a burst in main-actor (SendingPattern.bursts), read from the source too.
burst="$(sed -n 's/.*static let bursts = SendingPattern.bursts(events: \([0-9]*\)).*/\1/p' \
  Sources/BenchHarness/SendingPattern.swift)"
[ -n "$burst" ] || { echo "error: cannot read the events of SendingPattern.bursts" >&2; exit 2; }

# count SCENARIO METRIC CONTENDER N ITERATIONS: instructions executed, or blocks allocated, by one run of Bench.
count() {
  local scenario="$1" metric="$2" contender="$3" n="$4" iterations="$5"
  local log="$work/$scenario-$metric-$contender-$n-$iterations.log"
  local args=(--scenario "$scenario" --contender "$contender" --n "$n" --iterations "$iterations")
  if [ "$metric" = instructions ]; then
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bench" "${args[@]}" >/dev/null 2>"$log"
    sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p' "$log"
  else
    valgrind --tool=memcheck "$bench" "${args[@]}" >/dev/null 2>"$log"
    sed -n 's/^==[0-9]*==   total heap usage: \([0-9,]*\) allocs.*/\1/p' "$log" | tr -d ,
  fi
}

passed=0
failed=0
measured=0
while IFS=$'\t' read -r scenario contender n metric first second budget; do
  case "$scenario" in "" | "#"* | scenario) continue ;; esac
  case "$scenario" in
    fanout) events_per_iteration=1 ;;
    main-actor) events_per_iteration="$burst" ;;
    *) echo "error: $budgets: no scenario $scenario" >&2; exit 2 ;;
  esac
  # The two runs of a row on two cores: counts do not depend on what else runs.
  count "$scenario" "$metric" "$contender" "$n" "$first" >"$work/first" &
  count "$scenario" "$metric" "$contender" "$n" "$second" >"$work/second" &
  wait
  first_count="$(cat "$work/first")"
  second_count="$(cat "$work/second")"
  if [ -z "$first_count" ] || [ -z "$second_count" ]; then
    echo "error: a valgrind run of $contender at N = $n failed:" >&2
    cat "$work"/*.log >&2
    exit 2
  fi
  extra_sends=$(((second - first) * runs_per_iteration * events_per_iteration))
  if [ "$metric" = instructions ]; then
    unit="instructions per delivery"
    figure="$(awk -v d="$((second_count - first_count))" -v w="$((extra_sends * n))" 'BEGIN { printf "%.2f", d / w }')"
  else
    unit="allocations per send"
    figure="$(awk -v d="$((second_count - first_count))" -v w="$extra_sends" 'BEGIN { printf "%.4f", d / w }')"
  fi
  line="$(printf '%-10s %-14s N = %-4s %-26s %10s   budget %s' "$scenario" "$contender" "$n" "$unit" "$figure" \
    "$budget")"
  line="$line   ($first_count at --iterations $first, $second_count at $second)"
  measured=$((measured + 1))
  if $measure_only; then
    echo "     $line"
  elif awk -v f="$figure" -v b="$budget" 'BEGIN { exit !(f <= b) }'; then
    passed=$((passed + 1))
    echo "ok   $line"
  else
    failed=$((failed + 1))
    echo "FAIL $line"
  fi
done <"$budgets"

if $measure_only; then
  echo "costs: $measured measured, not judged"
  exit 0
fi
echo "costs: $passed passed, $failed failed"
[ "$failed" = 0 ]

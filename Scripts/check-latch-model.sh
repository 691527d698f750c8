#!/usr/bin/env bash
# Checks the Promela model of `Output`'s delivery protocol (its latch, handlers that send and cancel, a lane's hand-off
# of the list, compaction) with spin, exhaustively, in both of its configurations, and checks that spin finds the bugs
# seeded in it (Sources/EventBus/Output/DeliveryLatch.pml says what the model covers and what each check asserts).
#
#   Scripts/check-latch-model.sh
#
# Installs spin from the distribution's packages if it is missing (apt-get; root or sudo). Each check generates the
# verifier with `spin -a`, compiles it with gcc and runs it over the whole state space:
#
#   model, safety                 senders, subscribe and cancel, a responder's deinit: every assertion in every
#                                 reachable state, and no invalid end state (deadlock)
#   model, liveness               every execution ends (LTL `terminates`: no loop spins for ever)
#   lane model, safety, liveness  the LANE configuration (-DLANE): handlers that send and cancel, a queue's lane and
#                                 its block, compaction; the same two checks
#   seeded bug 1                  release before publishing the changed list: the safety run must report an error,
#   seeded bug 1, user-visible    also with the assertions on subscribers and on the final state alone
#   seeded bug 2, user-visible    release despite queued work: likewise
#   seeded bug 3, lane            a change writes in place into a buffer a lane took (no fresh copy): the block's
#                                 read races the write; also user-visible
#   seeded bug 4, lane, ...       a cancel on the delivering thread does not mark the entry skipped
#   seeded bug 5, lane, ...       a send from a handler claims the delivery its own thread holds: a nested round
#   seeded bug 6, lane, ...       compaction leaves the entries' slot numbers as they were
#
# A check of the model passes on `errors: 0` from a full search; a check of a seeded bug passes only when the search
# reports a violation. Prints one line per check (`ok` or `FAIL`, states stored, seconds), spin's output for a
# failure, then `latch model: N passed, M failed`. Exits 1 if a check failed.
set -euo pipefail
cd "$(dirname "$0")/.."

model="$PWD/Sources/EventBus/Output/DeliveryLatch.pml"

if ! command -v spin >/dev/null 2>&1; then
  echo "Installing spin…" >&2
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq >/dev/null
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq spin >/dev/null
fi
command -v gcc >/dev/null 2>&1 || { echo "error: gcc is needed to compile spin's verifier" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$model" "$work/"
# spin reads the model next to the trail it replays, so each check gets its own copy.

passed=0
failed=0

# run NAME EXPECT SPIN-FLAGS GCC-FLAGS PAN-FLAGS: EXPECT is `clean` (no error) or `violation` (at least one).
# The verifier stops at 2 GB of memory rather than take the machine's; the larger configuration needs about 500 MB.
run() {
  local name="$1" expect="$2" spin_flags="$3" gcc_flags="$4" pan_flags="$5"
  local dir="$work/$(echo "$name" | tr -c 'a-z0-9\n' '-')"
  mkdir -p "$dir"
  cp "$work/DeliveryLatch.pml" "$dir/"
  local started=$SECONDS
  local result="" reason=""
  if ! (cd "$dir" && spin $spin_flags -a DeliveryLatch.pml >spin.log 2>&1); then
    reason="spin could not generate the verifier"
    cp "$dir/spin.log" "$dir/pan.log"
  elif ! (cd "$dir" && gcc -w -DMEMLIM=2048 $gcc_flags -o pan pan.c >gcc.log 2>&1); then
    reason="gcc could not compile the verifier"
    cp "$dir/gcc.log" "$dir/pan.log"
  else
    # pan exits 0 whether or not it found an error; its report says which.
    (cd "$dir" && ./pan -m100000 $pan_flags >pan.log 2>&1) || true
    local errors
    errors="$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' "$dir/pan.log" | tail -1)"
    if grep -q "max search depth too small\|out of memory\|aborted" "$dir/pan.log"; then
      reason="the search was not exhaustive"
    elif [ -z "$errors" ]; then
      reason="the verifier did not report"
    elif [ "$expect" = clean ] && [ "$errors" = 0 ]; then
      result=ok
    elif [ "$expect" = violation ] && [ "$errors" != 0 ] \
      && grep -q "assertion violated\|invalid end state\|acceptance cycle" "$dir/pan.log"; then
      result=ok
    elif [ "$expect" = clean ]; then
      reason="spin found an error in the model"
    else
      reason="spin did not find the seeded bug"
    fi
  fi
  local states
  states="$(sed -n 's/^ *\([0-9.e+]*\) states, stored.*/\1/p' "$dir/pan.log" | head -1)"
  local seconds=$((SECONDS - started))
  if [ "$result" = ok ]; then
    passed=$((passed + 1))
    local found
    found="$(grep -m1 "^pan:1:" "$dir/pan.log" | sed 's/ (at depth [0-9]*)//' || true)"
    printf 'ok   %-32s %10s states  %3d s%s\n' "$name" "${states:-?}" "$seconds" "${found:+  ($found)}"
  else
    failed=$((failed + 1))
    printf 'FAIL %-32s %s\n' "$name" "$reason"
    grep -v "^Depth=" "$dir/pan.log" | head -60 | sed 's/^/     /'
    if [ "$expect" = clean ] && [ -f "$dir/DeliveryLatch.pml.trail" ]; then
      echo "     the end of the counterexample (spin -t -p):"
      (cd "$dir" && spin $spin_flags -t -p DeliveryLatch.pml 2>&1 | tail -40 | sed 's/^/     /') || true
    fi
  fi
}

# -O1 compiles the verifier in half the time of -O2 and searches nearly as fast. The LANE configuration's verifier,
# whose search is short (a few hundred thousand states), and a seeded bug's, found within a few thousand states, are not
# optimised at all: compiling them at -O1 would cost more than it saves.
run "model, safety" clean "" "-O1 -DSAFETY -DNOCLAIM" ""
run "model, liveness" clean "" "-O1" "-a -N terminates"
run "lane model, safety" clean "-DLANE" "-O0 -DSAFETY -DNOCLAIM" ""
run "lane model, liveness" clean "-DLANE" "-O0" "-a -N terminates"
run "seeded bug 1" violation "-DSEEDED_BUG=1" "-O0 -DSAFETY -DNOCLAIM" ""
run "seeded bug 1, user-visible" violation "-DSEEDED_BUG=1 -DUSER_VISIBLE_ONLY" "-O0 -DSAFETY -DNOCLAIM" ""
run "seeded bug 2, user-visible" violation "-DSEEDED_BUG=2 -DUSER_VISIBLE_ONLY" "-O0 -DSAFETY -DNOCLAIM" ""
run "seeded bug 3, lane" violation "-DLANE -DSEEDED_BUG=3" "-O0 -DSAFETY -DNOCLAIM" ""
run "seeded bug 3, lane, user-visible" violation "-DLANE -DSEEDED_BUG=3 -DUSER_VISIBLE_ONLY" "-O0 -DSAFETY -DNOCLAIM" ""
run "seeded bug 4, lane, user-visible" violation "-DLANE -DSEEDED_BUG=4 -DUSER_VISIBLE_ONLY" "-O0 -DSAFETY -DNOCLAIM" ""
run "seeded bug 5, lane, user-visible" violation "-DLANE -DSEEDED_BUG=5 -DUSER_VISIBLE_ONLY" "-O0 -DSAFETY -DNOCLAIM" ""
run "seeded bug 6, lane, user-visible" violation "-DLANE -DSEEDED_BUG=6 -DUSER_VISIBLE_ONLY" "-O0 -DSAFETY -DNOCLAIM" ""

echo "latch model: $passed passed, $failed failed"
[ "$failed" = 0 ]

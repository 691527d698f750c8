#!/usr/bin/env bash
# API breakage check: the public API of the EventBus and Broadcasters libraries, compared with the baseline commit
# named in .api-baseline, by `swift package diagnose-api-breaking-changes`.
#
#   Scripts/check-api-breakage.sh [SCRATCH-PATH]     # default: .build-apibreak
#
# SwiftPM checks the baseline out of this repository's own git objects (no network) into SCRATCH-PATH, builds both,
# and lists every change that would break a client of the baseline: a removed or renamed declaration, a changed
# signature, a new protocol requirement without a default. Additions are fine. Only the two library products users
# depend on are compared; Bench and the test support are not API.
#
# The baseline's API is cached in SCRATCH-PATH/api-baseline, so a second run builds only the current tree.
#
# Exits 0 when nothing breaks, 1 when something does (the list is printed), 2 when the check cannot run: no baseline
# in .api-baseline, or a commit this clone does not have (a shallow clone: `git fetch --unshallow` first).
set -euo pipefail
cd "$(dirname "$0")/.."

scratch="${1:-.build-apibreak}"
baseline_file=".api-baseline"

# The first line that is neither blank nor a comment.
baseline="$(grep -vE '^[[:space:]]*(#|$)' "$baseline_file" 2>/dev/null | head -n 1 | tr -d '[:space:]' || true)"
if [ -z "$baseline" ]; then
  echo "error: no baseline commit in $baseline_file" >&2
  exit 2
fi
if ! git cat-file -e "$baseline^{commit}" 2>/dev/null; then
  echo "error: the baseline $baseline named in $baseline_file is not in this clone's history" >&2
  echo "       (a shallow clone? run 'git fetch --unshallow', then this script again)" >&2
  exit 2
fi

subject="$(git log -1 --format='%h %s' "$baseline")"
echo "Comparing the public API of EventBus and Broadcasters with $subject…" >&2
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
swift package --scratch-path "$scratch" diagnose-api-breaking-changes "$baseline" \
  --products EventBus Broadcasters --baseline-dir "$scratch/api-baseline" 2>&1 | tee "$log" || status=$?
[ "$status" -eq 0 ] && exit 0
if ! grep -q 'API breakage:' "$log"; then
  echo "error: the API comparison did not run to the end (see above): no verdict" >&2
  exit 2
fi
echo "error: the public API breaks code written against $baseline." >&2
echo "       Keep the old API (deprecate it, give a new requirement a default), or, if the break is meant, move" >&2
echo "       the baseline in $baseline_file in the same commit and say so in CHANGELOG.md (see CONTRIBUTING.md)." >&2
exit 1

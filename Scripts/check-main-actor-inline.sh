#!/usr/bin/env bash
# Checks that a `.main` subscriber runs inline when an async `main` sends on the main actor after its first `await`,
# which on Linux runs the main actor on the main queue from another thread. Swift Testing runs its main-actor tests
# differently, so this builds the real case: Checks/MainActorInline.swift compiled with the EventBus sources.
#
#   Scripts/check-main-actor-inline.sh
set -euo pipefail
cd "$(dirname "$0")/.."

build="${CHECK_BUILD_PATH:-.build-checks}"
mkdir -p "$build"
# -I: the module map of the C target with the atomic operations the EventBus sources import.
swiftc -parse-as-library -swift-version 6 -package-name EventBus -module-name MainActorInline \
  -I Sources/CEventBusAtomics/include \
  $(find Sources/EventBus -name '*.swift' | sort) Checks/MainActorInline.swift -o "$build/main-actor-inline"
result="$("$build/main-actor-inline")"
if [ "$result" != "inline" ]; then
  echo "error: a .main handler sent on the main actor after an await was $result, not run before send returned" >&2
  exit 1
fi
echo "main-actor send after an await: handler ran inline"

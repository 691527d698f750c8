#!/usr/bin/env bash
# Fuzzes the notification payload decoders with libFuzzer under AddressSanitizer: builds the EventBus and
# Broadcasters sources and Fuzz/UserInfoDecodingFuzzer.swift with swiftc, then runs the fuzzer for a bounded time.
#
#   Scripts/fuzz.sh [SECONDS]          # default: 60
#
# The committed seeds in Fuzz/Corpus are read, never written; what the fuzzer finds goes to the working corpus
# .build-fuzz/corpus, which later runs start from. A crash, a trap, a failed invariant or a memory error stops the
# fuzzer, leaves the input that caused it as .build-fuzz/crash-*, and makes this script exit non-zero. Replay one
# with `.build-fuzz/user-info-fuzzer .build-fuzz/crash-<hash>`.
#
# Environment:
#   FUZZ_BUILD_PATH   where to build and keep the working corpus (default: .build-fuzz)
#   FUZZ_OPTIONS      extra libFuzzer options, e.g. "-max_len=512"
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: Scripts/fuzz.sh [SECONDS]   (a whole number of seconds, at least 1; got '$seconds')" >&2
  exit 2
fi
build="${FUZZ_BUILD_PATH:-.build-fuzz}"
mkdir -p "$build/modules" "$build/corpus"

# -I: the module map of the C target with the atomic operations the EventBus sources import.
flags=(-sanitize=fuzzer,address -parse-as-library -swift-version 6 -package-name EventBus -O -g
  -I Sources/CEventBusAtomics/include)

echo "Building the fuzzer in $build" >&2
swiftc "${flags[@]}" -module-name EventBus -emit-module -emit-module-path "$build/modules/EventBus.swiftmodule" \
  -emit-library -static -o "$build/libEventBus.a" $(find Sources/EventBus -name '*.swift' | sort)
swiftc "${flags[@]}" -module-name Broadcasters -I "$build/modules" \
  -emit-module -emit-module-path "$build/modules/Broadcasters.swiftmodule" \
  -emit-library -static -o "$build/libBroadcasters.a" $(find Sources/Broadcasters -name '*.swift' | sort)
swiftc "${flags[@]}" -module-name UserInfoFuzzer -I "$build/modules" \
  Fuzz/UserInfoDecodingFuzzer.swift "$build/libBroadcasters.a" "$build/libEventBus.a" \
  -o "$build/user-info-fuzzer"

echo "Fuzzing for $seconds s" >&2
# Leak detection is off: the fuzzer keeps one broadcaster and its subscription for the whole run on purpose. Swift's
# own crash backtracer is off: it would race AddressSanitizer's report, which libFuzzer needs to record the input.
ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}" SWIFT_BACKTRACE=enable=no "$build/user-info-fuzzer" \
  -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -max_len=1024 -print_final_stats=1 \
  -artifact_prefix="$build/" ${FUZZ_OPTIONS:-} \
  "$build/corpus" Fuzz/Corpus

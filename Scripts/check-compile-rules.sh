#!/usr/bin/env bash
# Compile checks: the Swift 6 rules of the public API, proved by what the compiler accepts and what it rejects.
#
#   Scripts/check-compile-rules.sh [SCRATCH-PATH]     # default: .build-compilechecks
#
# Builds the EventBus and Broadcasters modules once (debug, in SCRATCH-PATH; pass .build to reuse the main build),
# then compiles every file under CompileChecks/ on its own, as a client of both modules, in Swift 6 mode:
#
#   CompileChecks/MustFail/*.swift     must not compile
#   CompileChecks/MustWarn/*.swift     must compile, with the warnings it names
#   CompileChecks/MustCompile/*.swift  must compile without a single diagnostic (warnings are errors)
#
# A MustFail or MustWarn file names the diagnostics it must produce in its leading comment, one per line:
#
#   // expected-error: type 'Model' does not conform to the 'Sendable' protocol
#   // expected-warning: result of call to 'subscribe(on:fileID:line:_:)' is unused
#
# Each line must match an error or warning of its own (its text is a substring of the compiler's message; write a
# line twice when the diagnostic must appear twice), and every error or warning the compiler prints must match one
# of the lines, so a file that fails for another reason than the one it names fails the check. Notes are ignored.
#
# Also checks that MustCompile/PublicNamesBesideSystemModules.swift names every public type of both modules, and that
# every message the library writes for the compiler to show (`message: "…"` in an `@available` attribute under
# Sources/) is followed as written by a file in MustCompile, which names it on a line of its leading comment:
#
#   // follows: a MainActorEventResponder runs on the main actor: write subscribe(type, responder, on: .main)
#
# Prints one line per check (`ok  MustFail/X.swift`, or `FAIL MustFail/X.swift` followed by the reason and the
# compiler's output), then `N passed, M failed`. Exits 1 if a check failed, 2 if the modules do not build.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch="${1:-.build-compilechecks}"
checks_dir="CompileChecks"
names_file="MustCompile/PublicNamesBesideSystemModules.swift"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "Building EventBus, Broadcasters and EventBusTesting in $scratch…" >&2
# Broadcasters depends on EventBus: building it builds both modules. EventBusTesting, for the files that follow its
# messages, adds its own module.
if ! { swift build --scratch-path "$scratch" --target Broadcasters && swift build --scratch-path "$scratch" \
  --target EventBusTesting; } >"$work/build.log" 2>&1; then
  cat "$work/build.log" >&2
  echo "error: could not build the EventBus, Broadcasters and EventBusTesting modules" >&2
  exit 2
fi
bin_path="$(swift build --scratch-path "$scratch" --show-bin-path)"
# SwiftPM 6 puts the .swiftmodule files in Modules/; earlier versions put them next to the object files.
modules_dir="$bin_path/Modules"
[ -d "$modules_dir" ] || modules_dir="$bin_path"
module_cache="$scratch/compile-checks-module-cache"

# -emit-sil rather than -typecheck: the ownership, initialisation and region-isolation diagnostics ("sending 'x'
# risks causing data races") come from the SIL passes that run after type checking. No code is generated.
# -parse-as-library: each file reads like a file of a client target, without top-level code.
# Testing and XCTest (and the plugin behind the Testing macros) come with the toolchain and need no flag.
compile() {
  swiftc -emit-sil -o /dev/null -swift-version 6 -parse-as-library -module-name CompileCheck \
    -I "$modules_dir" -I Sources/CEventBusAtomics/include -module-cache-path "$module_cache" \
    -diagnostic-style llvm -no-color-diagnostics "$@"
}

# A file's expectations, "error<TAB>text" or "warning<TAB>text", from its leading comment.
expectations() {
  awk '!/^\/\//{ exit } sub(/^\/\/ expected-/, "") && /^(error|warning): / { sub(/: /, "\t"); print }' "$1"
}

# The errors and warnings in the compiler's output, "error<TAB>message" or "warning<TAB>message".
diagnostics() {
  awk 'match($0, /: (error|warning): /) { line = substr($0, RSTART + 2); sub(/: /, "\t", line); print line }'
}

# matches DIAGNOSTIC EXPECTATION: the same severity, and the expected text is part of the message.
matches() {
  [ "${1%%$'\t'*}" = "${2%%$'\t'*}" ] || return 1
  case "${1#*$'\t'}" in
    *"${2#*$'\t'}"*) return 0 ;;
    *) return 1 ;;
  esac
}

passed=0
failed=0
report() { # report ok NAME | report FAIL NAME REASON [COMPILER-OUTPUT]
  if [ "$1" = ok ]; then
    printf 'ok  %s\n' "$2"
    passed=$((passed + 1))
  else
    printf 'FAIL %s\n' "$2"
    printf '%s\n' "$3" | sed 's/^/  /'
    if [ -n "${4:-}" ]; then printf '%s\n' "$4" | sed 's/^/    | /'; fi
    failed=$((failed + 1))
  fi
}

# check KIND FILE, KIND being MustFail, MustWarn or MustCompile.
check() {
  local kind="$1" file="$2" name output status=0 line
  name="$kind/$(basename "$file")"
  local -a flags=() expected=() diagnostics=() matched=()
  [ "$kind" = MustCompile ] && flags=(-warnings-as-errors)

  while IFS= read -r line; do expected+=("$line"); done < <(expectations "$file")
  if [ "$kind" = MustCompile ] && [ "${#expected[@]}" -ne 0 ]; then
    report FAIL "$name" "expects diagnostics: a file that must produce them goes in MustFail or MustWarn"
    return
  fi
  if [ "$kind" != MustCompile ] && [ "${#expected[@]}" -eq 0 ]; then
    report FAIL "$name" "names no diagnostic: its leading comment needs '// expected-error:' or '// expected-warning:'"
    return
  fi

  output="$(compile ${flags[@]+"${flags[@]}"} "$file" 2>&1)" || status=$?
  if [ "$kind" = MustFail ] && [ "$status" -eq 0 ]; then
    report FAIL "$name" "compiled, but must not" "$output"
    return
  fi
  if [ "$kind" != MustFail ] && [ "$status" -ne 0 ]; then
    report FAIL "$name" "did not compile" "$output"
    return
  fi

  while IFS= read -r line; do
    diagnostics+=("$line")
    matched+=(0)
  done < <(printf '%s\n' "$output" | diagnostics)

  local expectation index found problems=""
  # Each expectation takes the first diagnostic it matches that no other expectation has taken.
  for expectation in ${expected[@]+"${expected[@]}"}; do
    found=0
    for index in ${diagnostics[@]+"${!diagnostics[@]}"}; do
      if [ "${matched[index]}" -eq 0 ] && matches "${diagnostics[index]}" "$expectation"; then
        matched[index]=1
        found=1
        break
      fi
    done
    [ "$found" -eq 1 ] || problems+="missing ${expectation/$'\t'/: }"$'\n'
  done
  # A diagnostic no expectation took is unexpected, unless it repeats an expected one (the compiler repeats some).
  for index in ${diagnostics[@]+"${!diagnostics[@]}"}; do
    [ "${matched[index]}" -eq 0 ] || continue
    found=0
    for expectation in ${expected[@]+"${expected[@]}"}; do
      if matches "${diagnostics[index]}" "$expectation"; then
        found=1
        break
      fi
    done
    [ "$found" -eq 1 ] || problems+="unexpected ${diagnostics[index]/$'\t'/: }"$'\n'
  done

  if [ -n "$problems" ]; then
    report FAIL "$name" "the diagnostics differ from the expected ones:"$'\n'"${problems%$'\n'}" "$output"
  else
    report ok "$name"
  fi
}

# The top-level public types of both modules (classes, structures, enumerations, protocols, aliases), from their
# symbol graphs, must all be named in the names file, so a type added later is checked against the system modules.
check_public_type_names() {
  local module graph names="" unnamed="" type_name count
  local symbol_pattern='"kind":\{"identifier":"swift\.(class|struct|enum|protocol|typealias|actor)",[^}]*\},'
  symbol_pattern+='"identifier":\{[^}]*\},"pathComponents":\["[^"]+"\]'
  for module in EventBus Broadcasters; do
    if ! swift symbolgraph-extract -module-name "$module" -I "$modules_dir" -I Sources/CEventBusAtomics/include \
      -output-dir "$work" \
      -module-cache-path "$module_cache" -minimum-access-level public >"$work/symbols.log" 2>&1
    then
      report FAIL "public type names" "swift symbolgraph-extract failed for $module" "$(cat "$work/symbols.log")"
      return
    fi
    graph="$work/$module.symbols.json"
    # Each symbol starts {"kind":{"identifier":"swift.class",…},"identifier":{…},"pathComponents":["Name"],…: a
    # top-level type has one path component.
    names+="$(grep -oE "$symbol_pattern" "$graph" | sed -E 's/.*"pathComponents":\["([^"]+)"\]$/\1/' || true)"$'\n'
  done
  count=0
  while IFS= read -r type_name; do
    [ -n "$type_name" ] || continue
    count=$((count + 1))
    grep -qw "$type_name" "$checks_dir/$names_file" || unnamed+=" $type_name"
  done <<<"$names"
  if [ "$count" -eq 0 ]; then
    report FAIL "public type names" "found no public type in the symbol graphs of EventBus and Broadcasters"
  elif [ -n "$unnamed" ]; then
    report FAIL "public type names" "not named in $names_file:$unnamed"
  else
    report ok "public type names: all $count named in $names_file"
  fi
}

# The `message: "…"` of every `@available` attribute in Sources/, written on one line or spread over several.
available_messages() {
  # An attribute ends on the first of its lines that ends with `)`; a message line ends with its closing quote.
  find Sources -name '*.swift' -print0 | xargs -0 awk '
    /@available\(/ { inside = 1; attribute = "" }
    inside { attribute = attribute " " $0 }
    inside && /\)[ \t]*$/ {
      inside = 0
      if (match(attribute, /message:[ \t]*"[^"]*"/)) {
        text = substr(attribute, RSTART, RLENGTH)
        sub(/^message:[ \t]*"/, "", text)
        print substr(text, 1, length(text) - 1)
      }
    }
  '
}

# Every `message: "…"` of an attribute in Sources/ must be named on a `// follows:` line of a MustCompile file, whose
# code does what the message says; the file then compiles like any other in MustCompile.
check_messages_followed() {
  local message unfollowed="" count=0
  while IFS= read -r message; do
    [ -n "$message" ] || continue
    count=$((count + 1))
    grep -qxF "// follows: $message" "$checks_dir"/MustCompile/*.swift || unfollowed+=$'\n'"$message"
  done < <(available_messages | sort -u)
  if [ -n "$unfollowed" ]; then
    report FAIL "messages followed" "no MustCompile file has a '// follows:' line for:$unfollowed"
  else
    report ok "messages followed: all $count messages in Sources are followed in MustCompile"
  fi
}

for kind in MustFail MustWarn MustCompile; do
  for file in "$checks_dir/$kind"/*.swift; do
    [ -e "$file" ] || continue
    check "$kind" "$file"
  done
done
check_public_type_names
check_messages_followed

echo "$passed passed, $failed failed"
if [ "$failed" -ne 0 ] || [ "$passed" -eq 0 ]; then
  exit 1
fi

#!/usr/bin/env bash
# Builds every DocC catalog of the package (Sources/<Module>/<Module>.docc) into a static website, using only the
# toolchain's `docc`: no Swift-DocC plugin, no package dependency.
#
#   Scripts/build-docs.sh [OUTPUT-DIR]        # default: docs-site
#
# Then serve it, for example `python3 -m http.server -d docs-site 8000`, and open
# http://localhost:8000/EventBus/documentation/eventbus/ .
#
# Warnings are errors: a broken link, an unresolved ``Symbol`` reference or a malformed directive fails the build.
#
# Environment:
#   DOCC               the docc executable (default: next to `swift`, or `xcrun --find docc`)
#   DOCS_SCRATCH_PATH  the SwiftPM scratch path for the documentation build (default: .build-docs)
#   DOCS_HOSTING_BASE  a path prefix the site is served under, e.g. /EventBus for https://host/EventBus/
set -euo pipefail
cd "$(dirname "$0")/.."

output="${1:-docs-site}"
scratch="${DOCS_SCRATCH_PATH:-.build-docs}"
hosting_base="${DOCS_HOSTING_BASE:-}"

find_docc() {
  if [ -n "${DOCC:-}" ]; then echo "$DOCC"; return; fi
  local swift_path swift_dir
  swift_path="$(command -v swift)"
  # The toolchain's own docc sits next to the real `swift` (resolve symlinks such as /usr/bin/swift on Linux).
  swift_dir="$(dirname "$(readlink -f "$swift_path" 2>/dev/null || echo "$swift_path")")"
  if [ -x "$swift_dir/docc" ]; then echo "$swift_dir/docc"; return; fi
  if command -v docc >/dev/null; then command -v docc; return; fi
  if command -v xcrun >/dev/null && xcrun --find docc >/dev/null 2>&1; then xcrun --find docc; return; fi
  echo "error: docc not found; set DOCC to the toolchain's docc" >&2
  exit 1
}
docc="$(find_docc)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# 1. Symbol graphs of each documented module's public API, emitted by the compiler while it builds the module. The
#    build has its own scratch path: the extra compiler flags would otherwise invalidate the `swift test` build.
graphs="$work/symbol-graphs"
mkdir -p "$graphs"
for catalog in Sources/*/*.docc; do
  [ -d "$catalog" ] || continue
  module="$(basename "$(dirname "$catalog")")"
  echo "Building $module and emitting its symbol graph…" >&2
  if ! swift build --scratch-path "$scratch" --target "$module" \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs" >"$work/build.log" 2>&1
  then
    cat "$work/build.log" >&2
    echo "error: could not build $module" >&2
    exit 1
  fi
done

# 2. One static site per catalog, under OUTPUT-DIR/<Module>.
rm -rf "$output"
mkdir -p "$output"
built=0
for catalog in Sources/*/*.docc; do
  [ -d "$catalog" ] || continue
  module="$(basename "$(dirname "$catalog")")"
  module_graphs="$work/graphs/$module"
  mkdir -p "$module_graphs"
  # The module's own graph, and the graphs of its extensions to other modules' types (Module@Other.symbols.json).
  cp "$graphs/$module.symbols.json" "$module_graphs/"
  for extension_graph in "$graphs/$module@"*.symbols.json; do
    [ -e "$extension_graph" ] && cp "$extension_graph" "$module_graphs/"
  done
  echo "Building $catalog → $output/$module" >&2
  "$docc" convert "$catalog" \
    --additional-symbol-graph-dir "$module_graphs" \
    --output-path "$output/$module" \
    --fallback-display-name "$module" \
    --fallback-bundle-identifier "org.eventbus.$module" \
    --transform-for-static-hosting \
    --hosting-base-path "$hosting_base/$module" \
    --warnings-as-errors
  built=$((built + 1))
done

if [ "$built" -eq 0 ]; then
  echo "error: no DocC catalog found under Sources/*/*.docc" >&2
  exit 1
fi
echo "Documentation written to $output/ ($built catalog(s))." >&2

#!/usr/bin/env bash
# Builds the package's documentation into one static website, using only the toolchain's `docc`: no Swift-DocC plugin,
# no package dependency. Every DocC catalog (Sources/<Module>/<Module>.docc) becomes a documentation archive, links
# between the catalogs are resolved against each other's archives, and `docc merge` combines the archives into one
# site whose landing page leads to every module.
#
#   Scripts/build-docs.sh [OUTPUT-DIR]        # default: docs-site
#
# Then serve it, for example `python3 -m http.server -d docs-site 8000`, and open http://localhost:8000/documentation/
# (the landing page), http://localhost:8000/documentation/eventbus/ or http://localhost:8000/documentation/broadcasters/.
#
# Warnings are errors: a broken link (within a catalog or to another one), an unresolved ``Symbol`` reference or a
# malformed directive fails the build. Link to another catalog with an absolute path: ``/Broadcasters/Broadcaster``,
# <doc:/EventBus/RuntimeBehavior>.
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

# 2. One archive per catalog. A catalog may link to the others, and they to it, so the archives are built in two
#    rounds: the first only records what each catalog defines (its links to the others cannot resolve yet, so its
#    warnings are not checked), the second resolves every link against the first round's archives, warnings as errors.
modules=()
for catalog in Sources/*/*.docc; do
  [ -d "$catalog" ] || continue
  module="$(basename "$(dirname "$catalog")")"
  modules+=("$module")
  module_graphs="$work/graphs/$module"
  mkdir -p "$module_graphs"
  # The module's own graph, and the graphs of its extensions to other modules' types (Module@Other.symbols.json).
  cp "$graphs/$module.symbols.json" "$module_graphs/"
  for extension_graph in "$graphs/$module@"*.symbols.json; do
    [ -e "$extension_graph" ] && cp "$extension_graph" "$module_graphs/"
  done
done
if [ "${#modules[@]}" -eq 0 ]; then
  echo "error: no DocC catalog found under Sources/*/*.docc" >&2
  exit 1
fi

mkdir -p "$work/first" "$work/final"
hosting_options=()
if [ -n "$hosting_base" ]; then hosting_options=(--hosting-base-path "$hosting_base"); fi

convert() { # convert MODULE OUTPUT-ARCHIVE [docc options…]
  local module="$1" archive="$2"
  shift 2
  "$docc" convert "Sources/$module/$module.docc" \
    --additional-symbol-graph-dir "$work/graphs/$module" \
    --output-path "$archive" \
    --fallback-display-name "$module" \
    --fallback-bundle-identifier "org.eventbus.$module" \
    --enable-experimental-external-link-support \
    --transform-for-static-hosting \
    "${hosting_options[@]}" \
    "$@"
}

for module in "${modules[@]}"; do
  echo "Indexing the links of $module…" >&2
  if ! convert "$module" "$work/first/$module.doccarchive" >"$work/first-$module.log" 2>&1; then
    cat "$work/first-$module.log" >&2
    echo "error: could not index $module" >&2
    exit 1
  fi
done

archives=()
for module in "${modules[@]}"; do
  dependencies=()
  for other in "${modules[@]}"; do
    [ "$other" = "$module" ] || dependencies+=(--dependency "$work/first/$other.doccarchive")
  done
  echo "Building $module, links to the other catalogs resolved…" >&2
  convert "$module" "$work/final/$module.doccarchive" "${dependencies[@]}" --warnings-as-errors
  archives+=("$work/final/$module.doccarchive")
done

# 3. One site: the archives merged under a landing page that lists every module.
echo "Merging ${modules[*]} into $output…" >&2
"$docc" merge "${archives[@]}" \
  --output-path "$work/site.doccarchive" \
  --synthesized-landing-page-name "EventBus" \
  --synthesized-landing-page-kind "Package"
rm -rf "$output"
mkdir -p "$(dirname "$output")"
mv "$work/site.doccarchive" "$output"
# The site's root leads to the landing page.
cat >"$output/index.html" <<HTML
<!doctype html>
<meta charset="utf-8">
<title>EventBus documentation</title>
<meta http-equiv="refresh" content="0; url=${hosting_base}/documentation/">
<a href="${hosting_base}/documentation/">EventBus documentation</a>
HTML
echo "Documentation written to $output/ (${#modules[@]} catalogs, one site; open $output's /documentation/)." >&2

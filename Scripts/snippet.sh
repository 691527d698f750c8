#!/usr/bin/env bash
# Prints the body of a documentation snippet region, dedented, ready to paste into a DocC article as a ```swift block.
#
#   Scripts/snippet.sh <name>      # the region `// snippet: <name>` … `// end-snippet` in Tests/*/Documentation/
#                                  # or Integration/Tests/*/Documentation/ (the Combine samples)
#
# DocumentationSnippetTests fails when an article's block differs from its region, so edit the test, run it, then
# paste this output into the article.
set -euo pipefail
cd "$(dirname "$0")/.."
name="${1:?usage: Scripts/snippet.sh <name>}"
found=0
for file in Tests/*/Documentation/*.swift Integration/Tests/*/Documentation/*.swift; do
  [ -e "$file" ] || continue
  body="$(awk -v name="$name" '
    { line = $0; sub(/^[ \t]+/, "", line) }
    line == "// snippet: " name { inside = 1; next }
    inside && line == "// end-snippet" { exit }
    inside { print }
  ' "$file")"
  if [ -n "$body" ]; then
    indent="$(printf '%s\n' "$body" | awk 'NF { match($0, /^ */); if (min == "" || RLENGTH < min) min = RLENGTH } END { print min + 0 }')"
    printf '%s\n' "$body" | awk -v n="$indent" '{ print substr($0, n + 1) }'
    found=1
    break
  fi
done
if [ "$found" -eq 0 ]; then
  echo "error: no snippet named '$name' in Tests/*/Documentation/ or Integration/Tests/*/Documentation/" >&2
  exit 1
fi

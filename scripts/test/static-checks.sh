#!/usr/bin/env bash
# npm test's static checks, two at a time: each of them runs on one core (tsc, eslint, prettier
# and madge are single-threaded), and the machines the suite runs on have two. ESLint, the longest,
# has one lane; the type-check, the format and the import circles share the other. Each check's
# output is printed whole when it ends, with its time; the script fails if any check failed.
set -uo pipefail
cd "$(dirname "$0")/../.."
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
trap 'exit 143' TERM INT

# One check: its output kept apart, then printed under its name.
check() {
  local name=$1
  shift
  local started=$SECONDS status=0
  "$@" >"$logs/$name" 2>&1 || status=$?
  echo "--- $name ($((SECONDS - started)) s, exit $status)"
  cat "$logs/$name"
  return "$status"
}

check lint npm run --silent lint &
lint=$!
others=0
check type-check npm run --silent typecheck || others=1
check format npm run --silent format:check || others=1
# Import circles, type-only imports included (madge; lint leaves them to it).
check import-circles npm run --silent check:cycles || others=1
wait "$lint" || others=1
echo "--- all four ended after $SECONDS s"
exit "$others"

#!/usr/bin/env bash
# Runs every browser test file (scripts/test's phase "browser e2e"), in two lanes at once:
# gods.test.js (the longest file by far, in-memory server, no database) in one node --test,
# every other file one after the other in a second. The second lane keeps the files that share
# the PostgreSQL database (SANTORINI_TEST_DATABASE_URL) from running at the same time, and the
# two lanes overlap what is mostly waiting on the browser and the game clocks.
#
# Usage: tests/browser/run.sh [FILE...]   (from anywhere; under scripts/with-postgres for the
#        stored tests). FILEs are paths from tests/browser (tests/csp.test.js); default: all.
# The gods lane's output is printed after the other lane's, so the two do not interleave.
# Exits non-zero if either lane failed.
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"
gods=tests/gods.test.js
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(tests/*.test.js)
run_gods=0
others=()
for f in "${files[@]}"; do
  if [ "$f" = "$gods" ]; then run_gods=1; else others+=("$f"); fi
done

gods_log=$(mktemp)
trap 'rm -f "$gods_log"' EXIT
start=$SECONDS
gods_rc=0
if [ "$run_gods" -eq 1 ]; then
  node --test "$gods" >"$gods_log" 2>&1 &
  gods_pid=$!
fi

others_rc=0
if [ ${#others[@]} -gt 0 ]; then
  node --test "${others[@]}"
  others_rc=$?
  echo "== browser e2e: ${#others[@]} files: exit $others_rc after $((SECONDS - start)) s"
fi

if [ "$run_gods" -eq 1 ]; then
  wait "$gods_pid"
  gods_rc=$?
  cat "$gods_log"
  echo "== browser e2e: $gods: exit $gods_rc after $((SECONDS - start)) s"
fi

[ "$others_rc" -eq 0 ] && [ "$gods_rc" -eq 0 ]

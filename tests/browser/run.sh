#!/usr/bin/env bash
# Runs every browser test file (scripts/test's phase "browser e2e") in one node --test, one file
# after the other (node's default on this 2-core machine). Two lanes at once (gods.test.js beside
# the other files) were tried and dropped: the browser tests are CPU-bound here, both lanes took
# as long as the serial run, and gods.test.js ran past its own timeout.
#
# Usage: tests/browser/run.sh [FILE...]   (from anywhere; under scripts/with-postgres for the
#        stored tests). FILEs are paths from tests/browser (tests/csp.test.js); default: all.
# Exits non-zero if any file failed.
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(tests/*.test.js)
start=$SECONDS
rc=0
node --test "${files[@]}" || rc=$?
echo "== browser e2e: ${#files[@]} files: exit $rc after $((SECONDS - start)) s"
exit "$rc"

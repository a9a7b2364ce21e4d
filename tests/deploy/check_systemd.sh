#!/usr/bin/env bash
# ctest deploy.systemd: deploy/santorini-server.service passes `systemd-analyze verify`, with
# its ExecStart pointed at the given binary (the unit names the installed path, absent here).
# Any message of verify (an unknown key, a bad value) fails the check, not only its exit code.
# Exit 77 (skipped) when systemd-analyze is not installed.
#
# Usage: tests/deploy/check_systemd.sh SANTORINI_SERVER_BINARY [UNIT_FILE]
set -euo pipefail
binary=${1:?usage: check_systemd.sh SANTORINI_SERVER_BINARY [UNIT_FILE]}
unit=${2:-"$(dirname "${BASH_SOURCE[0]}")/../../deploy/santorini-server.service"}
if ! command -v systemd-analyze > /dev/null; then
  echo "SKIPPED: systemd-analyze is not installed; $unit not checked"
  exit 77
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/santorini-unit.XXXXXX")
trap 'rm -rf "$dir"' EXIT
sed "s|^ExecStart=/usr/local/bin/santorini-server|ExecStart=$binary|" "$unit" > "$dir/santorini-server.service"
grep -q "^ExecStart=$binary" "$dir/santorini-server.service" || {
  echo "FAILED: the unit has no ExecStart=/usr/local/bin/santorini-server line"; exit 1; }
out=$(systemd-analyze verify "$dir/santorini-server.service" 2>&1) || { echo "$out"; exit 1; }
if [ -n "$out" ]; then
  echo "FAILED: systemd-analyze verify says:"
  echo "$out"
  exit 1
fi
echo "ok: $unit"

#!/usr/bin/env bash
# ctest deploy.haproxy: deploy/haproxy.cfg is a valid configuration for this machine's HAProxy.
# Exit 77 (skipped) when haproxy is not installed (scripts/setup installs it).
set -euo pipefail
cfg=${1:-"$(dirname "${BASH_SOURCE[0]}")/../../deploy/haproxy.cfg"}
haproxy=$(PATH="$PATH:/usr/sbin:/sbin" command -v haproxy || true)
if [ -z "$haproxy" ]; then
  echo "SKIPPED: haproxy is not installed (scripts/setup installs it); $cfg not checked"
  exit 77
fi
# -c parses and resolves everything; warnings count as failures (-dW turns them into errors).
"$haproxy" -dW -c -f "$cfg"

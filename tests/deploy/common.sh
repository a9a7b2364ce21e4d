# shellcheck shell=bash
# What the deploy scripts (container_test.sh, compose_test.sh, systemd_test.sh) share: their
# arguments, their log lines, the container engine and the deploy-play player. Sourced from the
# repository root.

# deploy_start NAME HELP_END "$@": log/fail/now/since prefixed by NAME, and `build` (0 with
# --no-build); -h prints the script's header comment (lines 2 to HELP_END) and exits.
deploy_start() {
  deploy_name=$1
  local help_end=$2
  shift 2
  build=1
  for arg in "$@"; do
    case "$arg" in
      --no-build) build=0 ;;
      -h|--help) sed -n "2,${help_end}s/^# \{0,1\}//p" "$0"; exit 0 ;;
      *) echo "$deploy_name: unknown argument '$arg'" >&2; exit 2 ;;
    esac
  done
}
log() { echo "$deploy_name: $*"; }
fail() { echo "$deploy_name: FAILED: $*" >&2; exit 1; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# `engine` (an array: CONTAINER_ENGINE, else podman, else docker) and `is_podman`.
choose_engine() {
  if [ -n "${CONTAINER_ENGINE:-}" ]; then
    read -r -a engine <<< "$CONTAINER_ENGINE"
  elif command -v podman > /dev/null; then
    engine=(podman)
  elif command -v docker > /dev/null; then
    engine=(docker)
  else
    fail "neither podman nor docker is installed"
  fi
  is_podman=0
  "${engine[@]}" --version 2> /dev/null | grep -qi podman && is_podman=1
  return 0
}

# `play`: DEPLOY_PLAY, else the deploy-play of build/release or build/asan (scripts/test builds
# it in build/asan, whose release tree has SERVER_TESTS=OFF; a developer's release tree has it).
find_deploy_play() {
  play=${DEPLOY_PLAY:-}
  for candidate in build/release/deploy-play build/asan/deploy-play; do
    [ -n "$play" ] || { [ -x "$candidate" ] && play=$candidate; }
  done
  [ -n "$play" ] || fail "build deploy-play first (ninja -C build/release deploy-play)"
}

# shellcheck source=tests/deploy/podman_sandbox.sh
source tests/deploy/podman_sandbox.sh

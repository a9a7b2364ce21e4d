#!/usr/bin/env bash
# The image end to end: builds docker/Dockerfile, starts it against a throwaway PostgreSQL
# (scripts/with-postgres, on 127.0.0.1) read-only and without capabilities (as deploy/k8s
# runs it), waits for its HEALTHCHECK, checks that it runs as a
# user without privileges, plays a Santorini and a Splendor game against it (build/release/
# deploy-play), stops it with SIGTERM and checks it stopped gracefully (exit 0, within the
# grace), then starts a second container on the same database, as a fleet node, and checks
# the games are there.
#
# Usage: tests/deploy/container_test.sh [--no-build]
#   --no-build         use the image already tagged (SANTORINI_IMAGE)
#   CONTAINER_ENGINE   the engine command (default podman, else docker), with its global options,
#                      e.g. "podman --runtime runc --cgroup-manager cgroupfs" (deploy/README.md)
#   CONTAINER_RUN_FLAGS extra flags for `build` and `run`, e.g. "--ulimit nofile=4096:4096"
#   SANTORINI_IMAGE    the tag (default localhost/santorini-server:test)
#   PODMAN_SANDBOX     the same settings in files instead, as compose_test.sh (tests/deploy/podman_sandbox.sh)
#
# deploy-play sends faster than the default message rate, so the containers get it raised (as
# the integration tests' servers do), through the environment.
# Not a ctest: building the image takes minutes and needs the Debian mirror. The container
# uses the host's network (so that it reaches the throwaway database on 127.0.0.1) and listens
# on 127.0.0.1 only. Every wait is bounded; the containers are removed on exit.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

# shellcheck source=tests/deploy/common.sh
source tests/deploy/common.sh
deploy_start container_test 19 "$@"

if [ -z "${SANTORINI_TEST_DATABASE_URL:-}" ]; then
  exec scripts/with-postgres "$0" "$@"
fi

tmp=$(mktemp -d)
podman_sandbox "$tmp"
choose_engine
read -r -a extra <<< "${CONTAINER_RUN_FLAGS:-}"
image=${SANTORINI_IMAGE:-localhost/santorini-server:test}
find_deploy_play

names=()
cleanup() {
  for n in "${names[@]}"; do
    "${engine[@]}" rm -f -t 0 "$n" > /dev/null 2>&1 || true
  done
  rm -rf "$tmp"
}
trap cleanup EXIT

if [ "$build" -eq 1 ]; then
  start=$SECONDS
  log "building $image with ${engine[*]}"
  # Podman writes OCI images by default, which have no HEALTHCHECK: ask for Docker's format.
  format=()
  [ "$is_podman" -eq 1 ] && format=(--format docker)
  timeout 3600 "${engine[@]}" build "${format[@]}" --network host "${extra[@]}" -f docker/Dockerfile -t "$image" .
  log "image built in $((SECONDS - start)) s"
fi
log "image size: $("${engine[@]}" image inspect --format '{{.Size}}' "$image") bytes"

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# start NAME PORT [ENV=VALUE...]: a detached container on the host's network, on 127.0.0.1:PORT.
start_container() {
  local name=$1 port=$2
  shift 2
  local env=()
  for e in "$@"; do env+=(-e "$e"); done
  names+=("$name")
  # As deploy/k8s runs it: a read-only root file system, no capabilities, no privilege gain.
  "${engine[@]}" run -d --name "$name" --network host "${extra[@]}" \
    --read-only --cap-drop ALL --security-opt no-new-privileges \
    -e SANTORINI_DATABASE_URL="$SANTORINI_TEST_DATABASE_URL" -e SANTORINI_PORT="$port" \
    -e SANTORINI_MESSAGES_PER_SECOND=100000 -e SANTORINI_MESSAGE_BURST=100000 "${env[@]}" \
    "$image" --address 127.0.0.1 > /dev/null
}

# wait_healthy NAME PORT: /healthz answers, then the image's own HEALTHCHECK passes.
wait_healthy() {
  local name=$1 port=$2 deadline=$((SECONDS + 60))
  until curl -fsS -o /dev/null "http://127.0.0.1:$port/healthz" 2> /dev/null; do
    [ "$SECONDS" -lt "$deadline" ] || { "${engine[@]}" logs "$name" >&2 || true; fail "$name: no /healthz in 60 s"; }
    [ "$("${engine[@]}" inspect --format '{{.State.Running}}' "$name")" = true ] ||
      { "${engine[@]}" logs "$name" >&2 || true; fail "$name exited"; }
    sleep 0.5
  done
  if [ "$is_podman" -eq 1 ]; then
    "${engine[@]}" healthcheck run "$name" || fail "$name: podman healthcheck run says unhealthy"
  else
    until [ "$("${engine[@]}" inspect --format '{{.State.Health.Status}}' "$name")" = healthy ]; do
      [ "$SECONDS" -lt "$deadline" ] || fail "$name: HEALTHCHECK not healthy in 60 s"
      sleep 1
    done
  fi
  log "$name healthy on 127.0.0.1:$port"
}

# 1. The first container: healthy, unprivileged, two games.
port=$(free_port)
first=santorini-deploy-test-$$-1
start=$SECONDS
start_container "$first" "$port"
wait_healthy "$first" "$port"
log "ready $((SECONDS - start)) s after run (migrations applied)"
uid=$("${engine[@]}" exec "$first" id -u)
[ "$uid" = 10001 ] || fail "the server runs as uid $uid, not 10001"
"${engine[@]}" exec "$first" test -w /srv/santorini/web && fail "web/ is writable by the server"

out=$(SANTORINI_DEPLOY_PORT=$port timeout 120 "$play" 2>&1) || { echo "$out" >&2; "${engine[@]}" logs "$first" 2>&1 | tail -n 30 >&2; fail "deploy-play"; }
echo "$out" | grep '^deploy-play:'
mapfile -t matches < <(echo "$out" | sed -n 's/^deploy-play: [a-z]* \([^ ]*\) finished.*/\1/p')
[ "${#matches[@]}" -eq 2 ] || fail "deploy-play did not report two finished matches"

# 2. SIGTERM: a graceful stop, well within the grace (podman/docker stop -t 15 sends SIGTERM,
#    then SIGKILL after 15 s; a SIGKILL would show as exit code 137).
start=$SECONDS
"${engine[@]}" stop -t 15 "$first" > /dev/null
took=$((SECONDS - start))
code=$("${engine[@]}" inspect --format '{{.State.ExitCode}}' "$first")
[ "$code" = 0 ] || { "${engine[@]}" logs "$first" 2>&1 | tail -n 20 >&2; fail "exit code $code after SIGTERM"; }
grep -q 'action=graceful_stop' <<< "$("${engine[@]}" logs "$first" 2>&1)" || fail "no graceful_stop in the log"
log "stopped gracefully in $took s (exit 0)"

# 3. A new container on the same database, as a fleet node (its id from the environment, as
#    deploy/k8s gives it): /healthz reports the node, and the games are stored.
port=$(free_port)
second=santorini-deploy-test-$$-2
start_container "$second" "$port" SANTORINI_NODE_ID=deploy-test-2 SANTORINI_LEASE_MS=3000
wait_healthy "$second" "$port"
node=$(curl -fsS "http://127.0.0.1:$port/healthz" |
  python3 -c 'import json, sys; print((json.load(sys.stdin).get("fleet") or {}).get("node"))')
[ "$node" = deploy-test-2 ] || fail "/healthz names node '$node', not deploy-test-2"
log "the second container is fleet node $node"
for m in "${matches[@]}"; do
  status=$(curl -fsS "http://127.0.0.1:$port/api/matches/$m" |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["status"])')
  [ "$status" = finished ] || fail "match $m is '$status' after the restart"
done
log "both matches stored and finished after a new container"
log "all passed"

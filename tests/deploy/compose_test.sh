#!/usr/bin/env bash
# docker/compose.yaml end to end: builds the server image and a PostgreSQL 15 image, brings the
# file up (unchanged, plus an override that raises the message rate) under a project name of
# its own on a free port of 127.0.0.1, waits for /healthz through the published port, checks
# the `url` service printed the address, plays a Santorini and a Splendor game to the end
# through it (build/release/deploy-play), checks both matches and all their steps are in the
# `db` service's database, stops the server (SIGTERM: exit 0, graceful), brings the project
# down (the volume stays) and up again and checks the games survived, then `down -v`.
#
# Usage: tests/deploy/compose_test.sh [--no-build]
#   --no-build        use the images already tagged: santorini-server:latest and
#                     docker.io/library/postgres:15
#   CONTAINER_ENGINE  the engine that builds and inspects (default podman, else docker)
#   COMPOSE           the compose command (default podman-compose with podman, else
#                     "docker compose")
#   POSTGRES_STANDIN  1 (default): build docker/postgres (Debian's postgresql-15) and tag it
#                     docker.io/library/postgres:15, which replaces a pulled official image
#                     of that tag; 0: use the official image (compose pulls it)
#   PODMAN_SANDBOX    a directory: podman (and the podman that podman-compose starts) runs with
#                     runc, cgroupfs, file events, ulimits of 4096 and its store there
#                     (tests/deploy/podman_sandbox.sh; deploy/README.md says why this host
#                     needs it)
#
# Not a ctest: the server image build takes minutes and needs the Debian mirror. The port is
# published on 127.0.0.1 only (SANTORINI_PUBLISHED_ADDRESS=127.0.0.1). Every wait is
# bounded; the project's containers, volume and network are removed on exit.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

# shellcheck source=tests/deploy/common.sh
source tests/deploy/common.sh
deploy_start compose_test 26 "$@"

tmp=$(mktemp -d)
project=santorini-compose-test-$$
compose_up=0
cleanup_tmp() { rm -rf "$tmp"; }
trap cleanup_tmp EXIT

podman_sandbox "$tmp"
choose_engine
if [ -n "${COMPOSE:-}" ]; then
  read -r -a compose_cmd <<< "$COMPOSE"
elif [ "$is_podman" -eq 1 ] && command -v podman-compose > /dev/null; then
  compose_cmd=(podman-compose)
else
  compose_cmd=(docker compose)
fi
find_deploy_play

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
export SANTORINI_PUBLISHED_ADDRESS=127.0.0.1 SANTORINI_PUBLISHED_PORT=$port
POSTGRES_PASSWORD=$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')
export POSTGRES_PASSWORD
# compose.yaml passes the server only some variables; deploy-play sends faster than the default
# message rate (as the integration tests' players do), so an override adds the raised rate.
cat > "$tmp/override.yaml" << 'EOF'
services:
  server:
    environment:
      SANTORINI_MESSAGES_PER_SECOND: "100000"
      SANTORINI_MESSAGE_BURST: "100000"
EOF
compose=("${compose_cmd[@]}" -p "$project" -f docker/compose.yaml -f "$tmp/override.yaml")
# podman-compose prints every command it runs and the merged file: to a log, shown on failure.
compose_log=$tmp/compose.log
run_compose() {
  echo "+ ${compose_cmd[*]} $*" >> "$compose_log"
  timeout 300 "${compose[@]}" "$@" >> "$compose_log" 2>&1 ||
    { tail -n 40 "$compose_log" >&2; fail "${compose_cmd[*]} $* (exit $?)"; }
}

# The container of a service, by the labels both podman-compose and Docker Compose set.
container_of() {
  "${engine[@]}" ps -a --filter "label=com.docker.compose.project=$project" \
    --filter "label=com.docker.compose.service=$1" --format '{{.Names}}' | head -n 1
}

cleanup() {
  local code=$?
  if [ "$compose_up" -eq 1 ]; then
    [ "$code" -eq 0 ] || { log "logs of the project's containers:"; for s in db server url; do
      c=$(container_of "$s") && [ -n "$c" ] && { echo "--- $s ($c)"; "${engine[@]}" logs "$c" 2>&1 | tail -n 20; }
    done; } >&2 || true
    timeout 120 "${compose[@]}" down -v -t 0 >> "$compose_log" 2>&1 || true
    for c in $("${engine[@]}" ps -aq --filter "label=com.docker.compose.project=$project" 2> /dev/null); do
      "${engine[@]}" rm -f "$c" > /dev/null 2>&1 || true
    done
    "${engine[@]}" volume rm -f "${project}_pgdata" > /dev/null 2>&1 || true
    "${engine[@]}" network rm "${project}_default" > /dev/null 2>&1 || true
  fi
  cleanup_tmp
}
trap cleanup EXIT

if [ "$build" -eq 1 ]; then
  # Podman writes OCI images by default, which have no HEALTHCHECK: ask for Docker's format.
  format=()
  [ "$is_podman" -eq 1 ] && format=(--format docker)
  start=$(now)
  log "building santorini-server:latest with ${engine[*]}"
  nice -n 19 timeout 3600 "${engine[@]}" build "${format[@]}" --network host \
    -f docker/Dockerfile -t santorini-server:latest .
  log "server image built in $(since "$start") s"
  if [ "${POSTGRES_STANDIN:-1}" = 1 ]; then
    start=$(now)
    log "building the PostgreSQL stand-in docker.io/library/postgres:15 (docker/postgres)"
    nice -n 19 timeout 1800 "${engine[@]}" build "${format[@]}" --network host \
      -f docker/postgres/Dockerfile -t docker.io/library/postgres:15 docker/postgres
    log "postgres image built in $(since "$start") s"
  fi
fi
for image in santorini-server:latest docker.io/library/postgres:15; do
  size=$("${engine[@]}" image inspect --format '{{.Size}}' "$image" 2> /dev/null) ||
    { [ "$image" != santorini-server:latest ] && [ "${POSTGRES_STANDIN:-1}" = 0 ] && continue; fail "no image $image (build it: run without --no-build)"; }
  log "image $image: $size bytes"
done

# wait_healthy START: /healthz through the published port, bounded. Until the database answers, the
# server may exit and be restarted (podman-compose ignores condition: service_healthy).
wait_healthy() {
  local start=$1 deadline=$((SECONDS + 120))
  until curl -fsS -o /dev/null "http://127.0.0.1:$port/healthz" 2> /dev/null; do
    [ "$SECONDS" -lt "$deadline" ] || fail "no /healthz on 127.0.0.1:$port in 120 s"
    sleep 0.5
  done
  local server
  server=$(container_of server)
  log "healthy on 127.0.0.1:$port $(since "$start") s after up started (server restarts: $("${engine[@]}" inspect --format '{{.RestartCount}}' "$server"))"
}

psql_db() {
  "${engine[@]}" exec "$(container_of db)" psql -U santorini -d santorini -v ON_ERROR_STOP=1 -Atc "$1"
}

# 1. Up: healthy, the url service's line, two games, stored with every step.
log "up: ${compose[*]} up -d --no-build"
compose_up=1
start=$(now)
run_compose up -d --no-build
log "up -d returned after $(since "$start") s"
wait_healthy "$start"

deadline=$((SECONDS + 60))
expected="santorini: open http://localhost:$SANTORINI_PUBLISHED_PORT/"
# (The logs are read whole before grep: `grep -q` would stop reading early and, with pipefail,
# the engine's SIGPIPE would fail the pipeline.)
until url=$(container_of url) && [ -n "$url" ] && grep -qxF "$expected" <<< "$("${engine[@]}" logs "$url" 2>&1)"; do
  [ "$SECONDS" -lt "$deadline" ] || fail "the url service did not print '$expected' in 60 s"
  sleep 1
done
log "the url service printed: $expected"

start=$(now)
out=$(SANTORINI_DEPLOY_PORT=$port timeout 120 "$play" 2>&1) || { echo "$out" >&2; fail "deploy-play"; }
echo "$out" | grep '^deploy-play:'
log "played in $(since "$start") s"
mapfile -t played < <(echo "$out" | sed -n 's/^deploy-play: [a-z]* \([^ ]*\) finished after \([0-9]*\) steps.*/\1|finished|\2/p' | LC_ALL=C sort)
[ "${#played[@]}" -eq 2 ] || fail "deploy-play did not report two finished matches"

query="SELECT m.id, m.status, count(s.number) FROM matches m LEFT JOIN steps s ON s.match_id = m.id
       GROUP BY m.id, m.status ORDER BY m.id"
stored=$(psql_db "$query")
[ "$stored" = "$(printf '%s\n' "${played[@]}")" ] ||
  fail "the db service holds '$stored', not the games played (${played[*]})"
log "stored in the db service (id|status|steps): $(echo "$stored" | tr '\n' ' ')"

# 2. A graceful stop of the server (compose sends SIGTERM, then SIGKILL after 15 s: exit 137).
server=$(container_of server)
start=$(now)
run_compose stop -t 15 server
code=$("${engine[@]}" inspect --format '{{.State.ExitCode}}' "$server")
[ "$code" = 0 ] || fail "the server exited with $code after SIGTERM"
grep -q 'action=graceful_stop' <<< "$("${engine[@]}" logs "$server" 2>&1)" || fail "no graceful_stop in the server's log"
log "server stopped gracefully in $(since "$start") s (exit 0)"

# 3. Down (the volume stays), up again: the games are still there.
start=$(now)
run_compose down -t 15
log "down in $(since "$start") s"
[ -z "$("${engine[@]}" ps -aq --filter "label=com.docker.compose.project=$project")" ] || fail "containers left after down"
"${engine[@]}" volume inspect "${project}_pgdata" > /dev/null || fail "the volume ${project}_pgdata is gone after down"
start=$(now)
run_compose up -d --no-build
wait_healthy "$start"
for row in "${played[@]}"; do
  m=${row%%|*}
  status=$(curl -fsS "http://127.0.0.1:$port/api/matches/$m" |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["status"])')
  [ "$status" = finished ] || fail "match $m is '$status' after down and up"
done
[ "$(psql_db "$query")" = "$stored" ] || fail "the db service's matches changed after down and up"
log "both matches and their steps survived down and up (the volume ${project}_pgdata)"

# 4. Down -v: nothing of the project left (podman-compose 1.0.3 leaves the network).
start=$(now)
run_compose down -v -t 15
log "down -v in $(since "$start") s"
[ -z "$("${engine[@]}" ps -aq --filter "label=com.docker.compose.project=$project")" ] || fail "containers left after down -v"
"${engine[@]}" volume inspect "${project}_pgdata" > /dev/null 2>&1 && fail "the volume is still there after down -v"
if "${engine[@]}" network inspect "${project}_default" > /dev/null 2>&1; then
  log "down -v left the network ${project}_default (removed by this script)"
  "${engine[@]}" network rm "${project}_default" > /dev/null
fi
compose_up=0
log "all passed"

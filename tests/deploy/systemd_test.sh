#!/usr/bin/env bash
# deploy/santorini-server.service under a real systemd: a container with systemd as PID 1 and
# Debian's PostgreSQL 15 (tests/deploy/systemd.Containerfile) and this checkout mounted read-only
# at /src. It runs the install commands of the unit's own header there, as written (the env
# file gets a database of the container's PostgreSQL and a raised message rate), then `systemctl
# enable --now`, waits for /healthz inside, checks the sandbox (a dynamic user, no capabilities,
# no new privileges), plays a Santorini and a Splendor game to the end (deploy-play, inside),
# kills the server (SIGKILL: Restart=on-failure must bring it back with the games), then
# `systemctl stop` and checks the stop was graceful (Result=success, status 0, graceful_stop in
# the journal).
#
# Usage: tests/deploy/systemd_test.sh [--no-build]
#   --no-build         use the image already tagged (SYSTEMD_IMAGE)
#   CONTAINER_ENGINE   the engine (default podman; only podman was tried)
#   SYSTEMD_RUN_FLAGS  how the engine runs systemd as PID 1 (default "--systemd=always
#                      --cap-add SYS_ADMIN": the unit's ProtectSystem=, PrivateTmp= and the rest
#                      need mount namespaces, which systemd cannot set up without it)
#   SYSTEMD_IMAGE      the tag (default localhost/santorini-systemd-test:latest)
#   PODMAN_SANDBOX     as for compose_test.sh (tests/deploy/podman_sandbox.sh)
#
# Needs build/release/santorini-server and build/release/deploy-play (ninja -C build/release
# santorini-server deploy-play), built on Debian 12 like the image. Not a ctest: the image
# comes from the Debian mirror. The container has no network but its own loopback. Every wait
# is bounded; the container is removed on exit.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

# shellcheck source=tests/deploy/common.sh
source tests/deploy/common.sh
deploy_start systemd_test 25 "$@"

tmp=$(mktemp -d)
name=santorini-systemd-test-$$
started=0
podman_sandbox "$tmp"
read -r -a engine <<< "${CONTAINER_ENGINE:-podman}"
read -r -a run_flags <<< "${SYSTEMD_RUN_FLAGS:---systemd=always --cap-add SYS_ADMIN}"
image=${SYSTEMD_IMAGE:-localhost/santorini-systemd-test:latest}
for f in build/release/santorini-server build/release/deploy-play; do
  [ -x "$f" ] || fail "no $f (ninja -C build/release santorini-server deploy-play)"
done

cleanup() {
  local code=$?
  if [ "$started" -eq 1 ]; then
    if [ "$code" -ne 0 ]; then
      { log "the unit's journal:"; "${engine[@]}" exec "$name" journalctl -u santorini-server --no-pager 2>&1 | tail -n 30; } >&2 || true
    fi
    "${engine[@]}" stop -t 15 "$name" > /dev/null 2>&1 || true
    "${engine[@]}" rm -f -t 0 "$name" > /dev/null 2>&1 || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT

in_box() { "${engine[@]}" exec "$name" "$@"; }
show() { in_box systemctl show -p "$1" --value santorini-server; }

if [ "$build" -eq 1 ]; then
  start=$(now)
  log "building $image"
  mkdir "$tmp/context"
  nice -n 19 timeout 1800 "${engine[@]}" build --format docker --network host \
    -f tests/deploy/systemd.Containerfile -t "$image" "$tmp/context"
  log "image built in $(since "$start") s"
fi
log "image size: $("${engine[@]}" image inspect --format '{{.Size}}' "$image") bytes"

# 1. systemd as PID 1, its system up (PostgreSQL's unit among it).
start=$(now)
started=1
"${engine[@]}" run -d --name "$name" --network none "${run_flags[@]}" \
  -v "$PWD:/src:ro" "$image" > /dev/null
# (Until systemd has made its socket, systemctl cannot ask it: poll, rather than --wait once.)
deadline=$((SECONDS + 60))
until state=$(in_box systemctl is-system-running 2> /dev/null) || true; [ "$state" = running ]; do
  if [ "$state" = degraded ] || [ "$SECONDS" -ge "$deadline" ]; then
    in_box systemctl --failed --no-pager >&2 || true
    fail "systemd is '$state', not running"
  fi
  sleep 0.5
done
[ "$(in_box cat /proc/1/comm)" = systemd ] || fail "PID 1 is not systemd"
log "systemd $(in_box systemctl --version | sed -n '1s/^systemd \([0-9]*\).*/\1/p') is PID 1 and $state $(since "$start") s after run"

# 2. The unit's header, as written: install, the env file, the unit, enable --now.
mapfile -t header < <(sed -n 's/^#   //p' deploy/santorini-server.service)
[ "${#header[@]}" -eq 5 ] || fail "the unit's header has ${#header[@]} install commands, not 5"
for cmd in "${header[@]:0:4}"; do
  echo "+ $cmd"
  "${engine[@]}" exec -w /src "$name" bash -euo pipefail -c "$cmd" || fail "'$cmd'"
done
password=$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')
in_box runuser -u postgres -- psql -q -v ON_ERROR_STOP=1 -c "CREATE ROLE santorini LOGIN PASSWORD '$password'"
in_box runuser -u postgres -- createdb -O santorini santorini
# deploy-play sends faster than the default message rate (as the integration tests' players do).
in_box bash -c "printf '%s\n' 'SANTORINI_DATABASE_URL=postgresql://santorini:$password@127.0.0.1:5432/santorini' \
  SANTORINI_MESSAGES_PER_SECOND=100000 SANTORINI_MESSAGE_BURST=100000 >> /etc/santorini-server.env"
[ "$(in_box stat -c %a /etc/santorini-server.env)" = 600 ] || fail "the env file is not mode 600"
echo "+ ${header[4]}"
start=$(now)
"${engine[@]}" exec -w /src "$name" bash -euo pipefail -c "${header[4]}" || fail "'${header[4]}'"
deadline=$((SECONDS + 60))
until in_box curl -fsS -o /dev/null http://127.0.0.1:8080/healthz 2> /dev/null; do
  [ "$SECONDS" -lt "$deadline" ] || fail "no /healthz inside in 60 s"
  sleep 0.5
done
log "santorini-server.service active, /healthz answers $(since "$start") s after enable --now"

# 3. What the unit's sandbox gives the process.
pid=$(show MainPID)
uid=$(in_box stat -c %u "/proc/$pid")
if [ "$uid" -lt 61184 ] || [ "$uid" -gt 65519 ]; then fail "the server runs as uid $uid, not a dynamic user"; fi
status=$(in_box cat "/proc/$pid/status")
grep -q '^CapEff:[[:space:]]*0000000000000000$' <<< "$status" || fail "the server has capabilities"
grep -q '^NoNewPrivs:[[:space:]]*1$' <<< "$status" || fail "the server may gain privileges"
grep -q '^Seccomp:[[:space:]]*2$' <<< "$status" || fail "the server has no seccomp filter"
log "the server runs as dynamic uid $uid, no capabilities, no new privileges, a seccomp filter"
log "$(in_box systemd-analyze security santorini-server --no-pager 2>&1 | tail -n 1)"

# 4. Two games, stored in PostgreSQL with every step.
start=$(now)
out=$(timeout 120 "${engine[@]}" exec -e SANTORINI_DEPLOY_PORT=8080 "$name" /src/build/release/deploy-play 2>&1) ||
  { echo "$out" >&2; fail "deploy-play"; }
echo "$out" | grep '^deploy-play:'
log "played in $(since "$start") s"
mapfile -t played < <(echo "$out" | sed -n 's/^deploy-play: [a-z]* \([^ ]*\) finished after \([0-9]*\) steps.*/\1|finished|\2/p' | LC_ALL=C sort)
[ "${#played[@]}" -eq 2 ] || fail "deploy-play did not report two finished matches"
query="SELECT m.id, m.status, count(s.number) FROM matches m LEFT JOIN steps s ON s.match_id = m.id
       GROUP BY m.id, m.status ORDER BY m.id"
stored=$(in_box runuser -u postgres -- psql -d santorini -v ON_ERROR_STOP=1 -Atc "$query")
[ "$stored" = "$(printf '%s\n' "${played[@]}")" ] || fail "PostgreSQL holds '$stored', not the games played"
log "stored (id|status|steps): $(echo "$stored" | tr '\n' ' ')"

# 5. A crash: Restart=on-failure (RestartSec=2s) brings the server back, with the games.
start=$(now)
in_box systemctl kill --kill-whom=main --signal=SIGKILL santorini-server
deadline=$((SECONDS + 30))
until [ "$(show ActiveState)" = active ] && [ "$(show MainPID)" != "$pid" ] && [ "$(show MainPID)" != 0 ] &&
  in_box curl -fsS -o /dev/null http://127.0.0.1:8080/healthz 2> /dev/null; do
  [ "$SECONDS" -lt "$deadline" ] || fail "the server did not come back within 30 s of SIGKILL"
  sleep 0.5
done
[ "$(show NRestarts)" = 1 ] || fail "NRestarts is $(show NRestarts), not 1"
for row in "${played[@]}"; do
  m=${row%%|*}
  [ "$(in_box curl -fsS "http://127.0.0.1:8080/api/matches/$m" |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["status"])')" = finished ] ||
    fail "match $m is not finished after the restart"
done
log "after SIGKILL systemd restarted it in $(since "$start") s (NRestarts=1); both matches finished"

# 6. systemctl stop: one SIGTERM, a graceful stop within the grace.
start=$(now)
timeout 30 "${engine[@]}" exec "$name" systemctl stop santorini-server
took=$(since "$start")
result="$(show Result) $(show ExecMainCode) $(show ExecMainStatus) $(show ActiveState)"
# ExecMainCode 1 is CLD_EXITED (an exit, not a signal), status 0.
[ "$result" = "success 1 0 inactive" ] || fail "after stop: Result ExecMainCode ExecMainStatus ActiveState = $result"
journal=$(in_box journalctl -u santorini-server --no-pager -o cat)
[ "$(grep -c 'action=graceful_stop' <<< "$journal")" = 1 ] || fail "no single graceful_stop in the journal"
grep -q 'event=server_stopped' <<< "$journal" || fail "no server_stopped in the journal"
log "systemctl stop took $took s: Result=success, exit status 0, graceful_stop in the journal"
log "all passed"

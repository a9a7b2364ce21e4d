#!/usr/bin/env bash
# ctest deploy.haproxy_play: deploy/haproxy.cfg as shipped, on free loopback ports, in front of
# one santorini-server: HAProxy's /healthz check marks the node up, deploy-play plays a Santorini
# and a Splendor game through it (HTTP and WebSocket upgrades), and after the node's graceful
# stop (SIGTERM) the check marks it down. The fleet of three nodes behind it is the fleet
# end-to-end test's. Needs SANTORINI_TEST_DATABASE_URL (scripts/with-postgres); exit 77
# (skipped) when haproxy is not installed. Every wait is bounded; both processes are stopped
# on exit.
#
# Usage: tests/deploy/haproxy_play_test.sh SANTORINI_SERVER DEPLOY_PLAY
set -euo pipefail
server=${1:?usage: haproxy_play_test.sh SANTORINI_SERVER DEPLOY_PLAY}
play=${2:?usage: haproxy_play_test.sh SANTORINI_SERVER DEPLOY_PLAY}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
haproxy=$(PATH="$PATH:/usr/sbin:/sbin" command -v haproxy || true)
if [ -z "$haproxy" ]; then
  echo "SKIPPED: haproxy is not installed (scripts/setup installs it)"
  exit 77
fi
url=${SANTORINI_TEST_DATABASE_URL:?SANTORINI_TEST_DATABASE_URL is not set (run under scripts/with-postgres)}

dir=$(mktemp -d "${TMPDIR:-/tmp}/santorini-haproxy.XXXXXX")
server_pid= haproxy_pid=
cleanup() {
  [ -n "$server_pid" ] && kill -KILL "$server_pid" 2> /dev/null
  [ -n "$haproxy_pid" ] && kill -TERM "$haproxy_pid" 2> /dev/null
  wait 2> /dev/null
  rm -rf "$dir"
}
trap cleanup EXIT
fail() {
  echo "FAILED: $*"
  echo "--- haproxy:"; tail -n 20 "$dir/haproxy.log" || true
  echo "--- santorini-server:"; grep -v 'level=debug' "$dir/server.log" | tail -n 20 || true
  exit 1
}
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}
node=$(free_port); front=$(free_port); stats=$(free_port)

# The shipped file with this test's ports, one node, and no syslog (no /dev/log needed).
sed -e "s/^\( *bind\) :8080$/\1 127.0.0.1:$front/" -e "s/^\( *bind\) 127.0.0.1:8404$/\1 127.0.0.1:$stats/" \
    -e "s/^\( *server n1\) 127.0.0.1:8081 /\1 127.0.0.1:$node /" -e '/^ *server n[23] /d' \
    -e '/^ *log \/dev\/log/d' -e '/^ *log global/d' -e '/^ *option httplog/d' \
    "$root/deploy/haproxy.cfg" > "$dir/haproxy.cfg"
for want in "bind 127.0.0.1:$front" "bind 127.0.0.1:$stats" "server n1 127.0.0.1:$node "; do
  grep -q "$want" "$dir/haproxy.cfg" || fail "deploy/haproxy.cfg changed shape: no '$want' after the substitution"
done

node_state() {
  curl -fsS -m 2 "http://127.0.0.1:$stats/stats;csv" 2> /dev/null | awk -F, '$1 == "nodes" && $2 == "n1" {print $18}'
}
wait_state() {
  local want=$1 deadline=$((SECONDS + 20))
  until [ "$(node_state)" = "$want" ]; do
    [ "$SECONDS" -lt "$deadline" ] || fail "HAProxy did not mark the node $want within 20 s (it says '$(node_state)')"
    sleep 0.2
  done
}

(cd "$root" && SANTORINI_MESSAGES_PER_SECOND=100000 SANTORINI_MESSAGE_BURST=100000 \
  exec "$server" --port "$node" --database-url "$url" --threads 2 > "$dir/server.log" 2>&1) &
server_pid=$!
"$haproxy" -f "$dir/haproxy.cfg" -db > "$dir/haproxy.log" 2>&1 &
haproxy_pid=$!

wait_state UP
echo "HAProxy marks the node UP"
SANTORINI_DEPLOY_PORT=$front timeout 120 "$play" || fail "deploy-play through HAProxy"
grep -q 'event=ws_open' "$dir/server.log" || fail "no WebSocket reached the node"

kill -TERM "$server_pid"
wait "$server_pid" || fail "santorini-server exited with $? after SIGTERM"
server_pid=
wait_state DOWN
echo "HAProxy marks the node DOWN after its graceful stop"
kill -0 "$haproxy_pid" || fail "haproxy exited"
echo "ok"

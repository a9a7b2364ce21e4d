# shellcheck shell=bash
# Sourced by tests/deploy/common.sh (for the three deploy scripts): when PODMAN_SANDBOX names a
# directory, podman (and any podman that podman-compose or conmon starts) runs with runc,
# cgroupfs, file events, ulimits of 4096 and its store under that directory, through a
# containers.conf and a storage.conf written to the directory given as $1 (a temporary one).
# deploy/README.md says why a host without systemd, CAP_SYS_RESOURCE and cgroup v2 needs this.
# Environment variables rather than podman's global flags: podman-compose passes no global
# flags, and CONTAINERS_STORAGE_CONF must name the storage driver, or the `podman container
# cleanup` that conmon runs when a container exits fails and restart policies do nothing.
podman_sandbox() {
  [ -n "${PODMAN_SANDBOX:-}" ] || return 0
  mkdir -p "$PODMAN_SANDBOX"
  cat > "$1/containers.conf" << 'CONF'
[containers]
default_ulimits = ["nofile=4096:4096", "nproc=4096:4096"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
CONF
  cat > "$1/storage.conf" << CONF
[storage]
driver = "overlay"
graphroot = "$PODMAN_SANDBOX/root"
runroot = "$PODMAN_SANDBOX/run"
CONF
  export CONTAINERS_CONF=$1/containers.conf CONTAINERS_STORAGE_CONF=$1/storage.conf
}

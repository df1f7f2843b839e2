# SPDX-License-Identifier: MIT
# Sourced by the shell tests that need a Docker engine (containers.sh,
# environments.sh): skips without dockerd, Go, root or two cores, then
# starts a dockerd of the test's own (no registry, no bridge) and exports
# DOCKER_HOST; $d is its directory, removed on exit. Defines fail.
command -v dockerd >/dev/null || { echo "SKIP docker.io is not installed"; exit 77; }
command -v go >/dev/null || { echo "SKIP go is not installed"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "SKIP dockerd needs root"; exit 77; }
[ "$(nproc)" -ge 2 ] || { echo "SKIP needs 2 cores: one kept back, one lane"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
cd "$CHECK_TMPDIR"
export GOFLAGS=-mod=mod GOCACHE="$CHECK_TMPDIR/gocache" CGO_ENABLED=0
# A unix socket path must fit in 108 bytes: the daemon lives in /tmp.
d=$(mktemp -d /tmp/fs-dk.XXXXXX)
stop() {
	[ -s "$d/docker.pid" ] && kill "$(cat "$d/docker.pid")" 2>/dev/null
	for _ in $(seq 50); do [ -e "$d/docker.pid" ] || break; sleep 0.2; done
	umount -R "$d/data" 2>/dev/null || true
	rm -rf "$d"
}
trap stop EXIT
dockerd --host "unix://$d/docker.sock" --data-root "$d/data" --exec-root "$d/exec" \
	--pidfile "$d/docker.pid" --bridge none --iptables=false --ip6tables=false \
	>"$d/log" 2>&1 &
export DOCKER_HOST=unix://$d/docker.sock
for _ in $(seq 150); do
	[ "$(curl -s --unix-socket "$d/docker.sock" http://localhost/_ping)" = OK ] && break
	sleep 0.2
done
[ "$(curl -s --unix-socket "$d/docker.sock" http://localhost/_ping)" = OK ] ||
	{ cat "$d/log"; fail "dockerd did not start"; }

#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# Issue 29 (b), variant: a lease left by a sweep whose process is gone (its
# pid, on this host, was a child that has exited and been reaped), with a
# fresh owner file. flakesweep(1), --lease-dir: a stale lease "is never
# taken over: the sweep starts no new run, lets the runs in flight end,
# writes its results as interrupted (--resume continues it) and exits 2,
# naming the lease's path, owner and age ('stale lease DIR/NAME: ...:
# investigate, then remove it')". The lease stays as it was.
set -eu
. "$CHECK_SRCDIR/tests/lib/variant3.sh"
need_go

gomod shop example.com/shop
mkdir -p shop/disk shop/util
cat >shop/disk/disk_test.go <<'GO'
package disk

import "testing"

func TestFormat(t *testing.T) {}
GO
cat >shop/util/util_test.go <<'GO'
package util

import "testing"

func TestTrim(t *testing.T) {}
GO

leases=$work/leases
mkdir -p "$leases/rawdisk"
sh -c 'exit 0' &
dead=$!
wait "$dead" || true
kill -0 "$dead" 2>/dev/null && skip "pid $dead was reused at once"
printf '{"host":"%s","pid":%d,"outdir":"/srv/out/7","started":"%s"}\n' \
	"$(hostname)" "$dead" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >"$leases/rawdisk/owner"
cp "$leases/rawdisk/owner" "$work/owner.before"

cd shop
rc=0
"$FLAKESWEEP" --cpu 1 --load 1 --count 3 --confirm 0 --canaries 0 --no-race --ui none \
	--exclusive rawdisk=./disk --lease-dir "$leases" -o "$work/out" ./disk ./util \
	>"$work/out.txt" 2>&1 || rc=$?
cat "$work/out.txt"
[ "$rc" = 2 ] || fail "exit $rc with a stale lease (dead owner pid $dead), want 2"
grep -q "stale lease $leases/rawdisk" "$work/out.txt" || fail "the message does not name the lease $leases/rawdisk"
grep -q "investigate, then remove it" "$work/out.txt" || fail "the message lacks 'investigate, then remove it'"
grep -q "$dead" "$work/out.txt" || fail "the message does not name the owner (pid $dead)"
[ -d "$leases/rawdisk" ] || fail "the stale lease was removed"
cmp -s "$leases/rawdisk/owner" "$work/owner.before" || fail "the stale lease's owner file was changed"
[ -f "$work/out/results.json" ] || fail "no results.json written"
st=$(json_get "$work/out/results.json" 'd["status"]')
[ "$st" = interrupted ] || fail "results.json status is $st, want interrupted"
n=$(json_get "$work/out/results.json" 'sum(c["runs"] for t in d["tests"] if t["package"].endswith("/disk") for c in t["cells"])')
[ "$n" = 0 ] || fail "$n runs of the group's package ran past a stale lease"
echo "ok: exit 2, lease named and kept, status $st, no run of ./disk"

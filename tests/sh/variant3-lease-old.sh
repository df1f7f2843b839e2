#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# Issue 29 (b), variant: leases that are stale for other reasons than a dead
# pid. (1) A lease of another host, its owner file not refreshed for two
# hours (past the default --lease-ttl of 10m); (2) a lease whose owner file
# is not a JSON line; (3) a lease directory with no owner file. Each is
# stale (flakesweep(1), --lease-dir; flakesweep(5), LEASES): exit 2, the
# lease named and left in place, results interrupted, no run of the group.
# Then, with the lease removed, --resume continues the sweep to the end.
# Bad input: --lease-dir on a regular file is an error before anything runs.
set -eu
. "$CHECK_SRCDIR/tests/lib/variant3.sh"
need_go

gomod vault example.com/vault
mkdir -p vault/hsm vault/cli
cat >vault/hsm/hsm_test.go <<'GO'
package hsm

import "testing"

func TestSign(t *testing.T) {}
GO
cat >vault/cli/cli_test.go <<'GO'
package cli

import "testing"

func TestArgs(t *testing.T) {}
GO
cd vault

leases=$work/leases
stale_case() {
	local name=$1 rc=0
	"$FLAKESWEEP" --cpu 1 --load 1 --count 2 --confirm 0 --canaries 0 --no-race --ui none \
		--exclusive hsm=example.com/vault/hsm --lease-dir "$leases" -o "$work/$name" ./... \
		>"$work/$name.txt" 2>&1 || rc=$?
	[ "$rc" = 2 ] || { cat "$work/$name.txt"; fail "$name: exit $rc, want 2"; }
	grep -q "stale lease $leases/hsm" "$work/$name.txt" ||
		{ cat "$work/$name.txt"; fail "$name: the lease $leases/hsm is not named stale"; }
	[ -d "$leases/hsm" ] || fail "$name: the stale lease was removed"
	st=$(json_get "$work/$name/results.json" 'd["status"]')
	[ "$st" = interrupted ] || fail "$name: status $st, want interrupted"
	n=$(json_get "$work/$name/results.json" 'sum(c["runs"] for t in d["tests"] if t["package"].endswith("/hsm") for c in t["cells"])')
	[ "$n" = 0 ] || fail "$name: $n runs of the group ran"
	echo "ok: $name: $(grep 'stale lease' "$work/$name.txt" | head -1)"
}

# (1) another host's lease, last refreshed two hours ago.
mkdir -p "$leases/hsm"
printf '{"host":"build-17.example","pid":4242,"outdir":"/nfs/out/3","started":"%s"}\n' \
	"$(date -u -d '3 hours ago' +%Y-%m-%dT%H:%M:%SZ)" >"$leases/hsm/owner"
touch -d '2 hours ago' "$leases/hsm/owner"
cp -p "$leases/hsm/owner" "$work/owner.before"
stale_case old
cmp -s "$leases/hsm/owner" "$work/owner.before" || fail "old: the owner file was changed"
grep -q "build-17.example" "$work/old.txt" || fail "old: the owner (host build-17.example) is not named"

# (2) an owner file that is not an owner line.
echo 'this is not json' >"$leases/hsm/owner"
stale_case malformed
grep -q 'this is not json' "$leases/hsm/owner" || fail "malformed: the owner file was rewritten"

# (3) no owner file at all.
rm -f "$leases/hsm/owner"
stale_case ownerless

# Removed by hand, the sweep goes on with --resume and completes.
rm -rf "$leases/hsm"
rc=0
"$FLAKESWEEP" --resume "$work/old" --ui none >"$work/resume.txt" 2>&1 || rc=$?
[ "$rc" = 0 ] || { cat "$work/resume.txt"; fail "resume after the lease was removed: exit $rc, want 0"; }
st=$(json_get "$work/old/results.json" 'd["status"]')
[ "$st" = complete ] || fail "resume: status $st, want complete"
n=$(json_get "$work/old/results.json" 'sum(c["runs"] for t in d["tests"] if t["package"].endswith("/hsm") for c in t["cells"])')
[ "$n" = 2 ] || fail "resume: $n runs of the hsm package, want 2"
[ ! -e "$leases/hsm" ] || fail "resume: the lease was not given back"
echo "ok: resumed to complete with $n runs of hsm; lease given back"

# Bad input: --lease-dir that is a file.
: >"$work/notadir"
rc=0
"$FLAKESWEEP" --cpu 1 --load 1 --count 1 --no-race --ui none --exclusive hsm=./hsm \
	--lease-dir "$work/notadir" -o "$work/bad" ./... >"$work/bad.txt" 2>&1 || rc=$?
[ "$rc" = 2 ] || { cat "$work/bad.txt"; fail "--lease-dir on a file: exit $rc, want 2"; }
grep -q "$work/notadir" "$work/bad.txt" || { cat "$work/bad.txt"; fail "--lease-dir on a file: the path is not named"; }
[ ! -e "$work/bad/journal.jsonl" ] || fail "--lease-dir on a file: a journal was written"
echo "ok: --lease-dir on a file: $(head -1 "$work/bad.txt")"

#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 400
# Leases (--lease-dir): a sweep takes its exclusive group's lease and gives
# it back; a lease held by a live owner is waited for, saying who holds it;
# a stale one (its owner's pid gone and old, or a malformed owner file)
# stops the sweep before any run of the group: exit 2 naming the lease,
# its owner and its age, the lease left in place, the results not
# complete, and --resume (which keeps the lease directory) continues
# once it is removed. A lease directory
# that is not a writable directory is an error before anything runs.
set -eu
. "$CHECK_SRCDIR/tests/lib/isolation.sh"
leases=$CHECK_TMPDIR/leases
mkdir "$leases"
host=$(hostname)

sweep() { # NAME [OPTIONS...]: prints the exit status
	local name=$1 rc=0
	shift
	"$FLAKESWEEP" --cpu 1 --load 2 --count 4 --confirm 0 --canaries 0 --ui line \
		--exclusive dev=./device/... --lease-dir "$leases" -o "$CHECK_TMPDIR/$name" "$@" \
		./device/... >"$CHECK_TMPDIR/$name.out" 2>&1 || rc=$?
	echo "$rc"
}
owner() { # PID: an owner file's line
	printf '{"host":"%s","pid":%s,"outdir":"/elsewhere/out","started":"2026-01-01T00:00:00Z"}\n' \
		"$host" "$1"
}

# Taken and given back.
[ "$(sweep plain)" = 0 ] || { cat "$CHECK_TMPDIR/plain.out"; fail "plain sweep"; }
[ ! -e "$leases/dev" ] || fail "the lease was not given back"

# A live owner (this shell): the sweep waits, says who, and goes on once
# the lease is given back.
mkdir "$leases/dev"
owner $$ >"$leases/dev/owner"
(sleep 3; rm -rf "$leases/dev") &
[ "$(sweep live)" = 0 ] || { cat "$CHECK_TMPDIR/live.out"; fail "live sweep"; }
wait
grep -qF "waiting: lease $leases/dev is held by $host pid $$ (output /elsewhere/out" \
	"$CHECK_TMPDIR/live.out" || { cat "$CHECK_TMPDIR/live.out"; fail "no waiting message"; }

# A stale lease: a dead pid on this host, an hour old.
dead=$(sh -c 'echo $$')
mkdir "$leases/dev"
owner "$dead" >"$leases/dev/owner"
touch -d '1 hour ago' "$leases/dev/owner"
rc=$(sweep stale)
[ "$rc" = 2 ] || { cat "$CHECK_TMPDIR/stale.out"; fail "stale: exit $rc, want 2"; }
grep -qF "stale lease $leases/dev: owner $host pid $dead (output /elsewhere/out, started 2026-01-01T00:00:00Z) is gone, age 3" \
	"$CHECK_TMPDIR/stale.out" || { cat "$CHECK_TMPDIR/stale.out"; fail "no stale message"; }
grep -qF "investigate, then remove it" "$CHECK_TMPDIR/stale.out" || fail "no advice"
[ -f "$leases/dev/owner" ] || fail "the stale lease was removed"
python3 - "$CHECK_TMPDIR/stale" <<'PY'
import json, os, sys
out = sys.argv[1]
runs = [json.loads(l) for l in open(os.path.join(out, "journal.jsonl")) if '"type":"run"' in l]
assert runs == [], runs
res = json.load(open(os.path.join(out, "results.json")))
assert res["status"] != "complete", res["status"]
assert res["config"]["lease_dir"].endswith("/leases"), res["config"]
assert res["config"]["lease_ttl_ms"] == 600000, res["config"]
PY
# Removed, the sweep resumes and completes.
rm -rf "$leases/dev"
rc=0
"$FLAKESWEEP" --resume "$CHECK_TMPDIR/stale" --ui none \
	>"$CHECK_TMPDIR/resume.out" 2>&1 || rc=$?
[ "$rc" = 0 ] || { cat "$CHECK_TMPDIR/resume.out"; fail "resume: exit $rc"; }
[ ! -e "$leases/dev" ] || fail "the resumed sweep kept the lease"

# A malformed owner file counts as stale, never as free.
mkdir "$leases/dev"
echo 'not json' >"$leases/dev/owner"
rc=$(sweep malformed)
[ "$rc" = 2 ] || { cat "$CHECK_TMPDIR/malformed.out"; fail "malformed: exit $rc, want 2"; }
grep -qF "stale lease $leases/dev: its owner file is missing or malformed" \
	"$CHECK_TMPDIR/malformed.out" || { cat "$CHECK_TMPDIR/malformed.out"; fail "no message"; }
rm -rf "$leases/dev"

# Not a writable directory: exit 2 before anything runs.
rc=$(sweep nodir --lease-dir "$CHECK_TMPDIR/nowhere")
[ "$rc" = 2 ] || fail "--lease-dir nowhere: exit $rc"
grep -qF "invalid value \"$CHECK_TMPDIR/nowhere\" for --lease-dir: expected a directory" \
	"$CHECK_TMPDIR/nodir.out" || { cat "$CHECK_TMPDIR/nodir.out"; fail "no message"; }
[ ! -e "$CHECK_TMPDIR/nodir" ] || fail "the sweep began"
echo "lease: ok"

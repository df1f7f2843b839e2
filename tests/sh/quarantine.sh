#!/bin/bash
# SPDX-License-Identifier: MIT
# `flakesweep quarantine` on the fixtures under tests/fixtures/quarantine:
# each case's standard output, standard error and exit status must match
# its golden file in expected/ exactly (FLAKESWEEP_UPDATE_GOLDEN=1 rewrites
# them; review the diff before committing).
set -u
fix="$CHECK_SRCDIR/tests/fixtures/quarantine"
exp="$fix/expected"
work="$CHECK_TMPDIR/quarantine"
now=--now=2026-11-30T12:00:00Z
bad=0

mkdir -p "$work" || exit 1
cp "$fix"/*.json "$fix"/*.jsonl "$work"/ || exit 1
cp "$CHECK_SRCDIR/tests/fixtures/gate/bad-json.jsonl" "$work/bad-ledger.jsonl" || exit 1
chmod u+w "$work"/* || exit 1
cd "$work" || exit 1

# run NAME ARGS...: runs `flakesweep quarantine ARGS` and compares.
run() {
	local name=$1 got rc
	shift
	got=$(
		"$FLAKESWEEP" quarantine "$@" >"$work/.out" 2>"$work/.err"
		rc=$?
		cat "$work/.out"
		echo "--- stderr"
		cat "$work/.err"
		echo "--- exit $rc"
	)
	compare "$name.txt" "$got"
}

# compare FILE TEXT: TEXT must equal expected/FILE.
compare() {
	if [ "${FLAKESWEEP_UPDATE_GOLDEN:-}" = 1 ]; then
		printf '%s\n' "$2" >"$exp/$1"
		return
	fi
	if ! diff -u "$exp/$1" <(printf '%s\n' "$2"); then
		echo "FAIL: $1"
		bad=1
	fi
}

# compare_file FILE PATH: the file at PATH must equal expected/FILE, byte
# for byte.
compare_file() {
	if [ "${FLAKESWEEP_UPDATE_GOLDEN:-}" = 1 ]; then
		cp "$2" "$exp/$1"
		return
	fi
	if ! cmp -s "$exp/$1" "$2"; then
		diff -u "$exp/$1" "$2"
		echo "FAIL: $1"
		bad=1
	fi
}

# Checks, with each kind of evidence.
run check-none check --file valid.json $now
run check-failing check --file valid.json $now --results results-failing.json --ledger ledger.jsonl
run check-clean check --file valid.json $now --results results-clean.json --ledger ledger.jsonl
run check-min-runs check --file valid.json $now --results results-failing.json --min-runs 201
run check-before-expiry check --file valid.json --now 2026-11-01
run check-invalid check --file invalid.json $now
run check-syntax check --file syntax.json $now
run check-notarray check --file notarray.json $now
run check-bad-ledger check --file valid.json --ledger bad-ledger.jsonl
run check-bad-results check --file valid.json --results valid.json
run check-missing-file check --file missing.json

# The demo test: active while it fails, stale once a sweep shows it clean,
# overdue when its date passes while it still fails.
run demo-active check --file demo.json --now 2026-12-01 --results results-failing.json
run demo-stale check --file demo.json --now 2026-12-01 --results results-clean.json
run demo-overdue check --file demo.json --now 2026-12-16 --results results-failing.json
run demo-last-day check --file demo.json --now 2026-12-15T23:59:59Z --results results-failing.json

# Lists.
run list-none list --file valid.json $now
run list-failing list --file valid.json $now --results results-failing.json --ledger ledger.jsonl
run list-clean list --file valid.json $now --results results-clean.json --ledger ledger.jsonl
run list-json list --file valid.json $now --results results-failing.json --ledger ledger.jsonl --json
run list-invalid list --file invalid.json $now
run list-empty list --file empty.json $now

# Exports.
run export-go-skip export --file valid.json --format go-skip
run export-go-skip-package export --file valid.json --format go-skip --package example.com/demo/cache
run export-pytest export --file valid.json --format pytest-deselect
run export-pytest-package export --file valid.json --format=pytest-deselect --package=tests/test_sched.py
run export-no-format export --file valid.json
run export-invalid export --file invalid.json --format go-skip

# Usage errors.
run usage-no-subcommand
run usage-unknown-subcommand frob
run usage-wrong-option list --owner someone
run usage-missing-value list --file
run usage-bad-now check --file valid.json --now tomorrow
run usage-bad-min-runs check --file valid.json --min-runs 0

# Adds: the file must end up exactly as expected/add-NAME.json, the rest of
# it kept byte for byte.
add() {
	local name=$1
	shift
	run "add-$name" add "$@" $now
}
add valid 'example.com/demo/retry::TestJitter' rng --owner platform --issue '#4823' \
	--expires 2026-12-24 --reason 'seeds from the clock' --file valid.json
compare_file add-valid.json valid.json
add compact 'tests/test_new.py::test_it[a "b"]' env:TZ --owner 'Zoë' --issue '#9' \
	--expires 2026-12-24 --file compact.json
compare_file add-compact.json compact.json
add single 'tests/test_new.py::test_it' any --owner sched --issue '#10' \
	--expires 2026-12-24 --file single.json
compare_file add-single.json single.json
add empty 'example.com/demo/net::TestDial' cpu=4,load=2 --owner net --issue '#12' \
	--expires 2026-12-24 --file empty.json
compare_file add-empty.json empty.json
add new 'example.com/demo/net::TestDial' net --owner net --issue '#12' \
	--expires 2026-12-24 --file proj/.flakesweep/quarantine.json
compare_file add-new.json proj/.flakesweep/quarantine.json
cp demo.json demo-before.json
add duplicate 'example.com/demo/retry::TestBackoff' cpu=1 --owner x --issue y \
	--expires 2026-12-24 --file demo.json
add past 'example.com/demo/retry::TestBackoff' cpu=2 --owner x --issue y \
	--expires 2026-11-29 --file demo.json
add bad-channel 'example.com/demo/retry::TestBackoff' cpu=two --owner x --issue y \
	--expires 2026-12-24 --file demo.json
add no-owner 'example.com/demo/retry::TestBackoff' cpu=2 --issue y \
	--expires 2026-12-24 --file demo.json
add invalid-file 'example.com/demo/retry::TestBackoff' cpu=2 --owner x --issue y \
	--expires 2026-12-24 --file invalid.json
cmp -s demo.json demo-before.json || { echo "FAIL: a refused add changed demo.json"; bad=1; }
cmp -s invalid.json "$fix/invalid.json" || { echo "FAIL: a refused add changed invalid.json"; bad=1; }

# remove: taking out what add appended gives the file back byte for byte.
cp valid.json valid-added.json
run remove-added remove 'example.com/demo/retry::TestJitter' rng --file valid.json
cmp -s valid.json "$fix/valid.json" || { diff -u "$fix/valid.json" valid.json; echo "FAIL: remove after add"; bad=1; }
run remove-added-only remove 'tests/test_new.py::test_it' --file single.json
cmp -s single.json "$fix/single.json" || { diff -u "$fix/single.json" single.json; echo "FAIL: remove after add (single)"; bad=1; }
run remove-missing remove 'example.com/demo/retry::TestNope' --file valid.json
run remove-wrong-channel remove 'example.com/demo/retry::TestJitter' cpu=9 --file valid-added.json
run usage-remove-no-test remove --file valid.json

# The default file is found from a subdirectory of the project.
mkdir -p proj/sub/dir
touch proj/go.mod
got=$(cd proj/sub/dir && "$FLAKESWEEP" quarantine export --format go-skip 2>&1; echo "--- exit $?")
compare default-file.txt "$got"

# Adds through two symbolic links to one file, 20 through each in parallel:
# all 40 entries reach the file the links name, and the links stay links.
mkdir -p links/real links/d1 links/d2
echo '[]' >links/real/q.json
ln -s ../real/q.json links/d1/q.json
ln -s ../real/q.json links/d2/q.json
for i in $(seq 20); do
	"$FLAKESWEEP" quarantine add "m::A$i" any --file links/d1/q.json --owner o --issue 1 \
		--expires 2027-06-01 $now >/dev/null 2>&1 &
	"$FLAKESWEEP" quarantine add "m::B$i" any --file links/d2/q.json --owner o --issue 1 \
		--expires 2027-06-01 $now >/dev/null 2>&1 &
done
wait
link_check() {
	local n
	[ -L links/d1/q.json ] && [ -L links/d2/q.json ] || { echo "FAIL: $1: a link was replaced"; ls -l links/d1 links/d2; bad=1; }
	n=$(grep -c '"test"' links/real/q.json)
	[ "$n" = "$2" ] || { echo "FAIL: $1: links/real/q.json has $n entries, not $2"; bad=1; }
}
link_check "adds through links" 40
"$FLAKESWEEP" quarantine remove m::A1 --file links/d2/q.json >/dev/null 2>&1
link_check "remove through a link" 39
# A link to a file not there yet: the add creates the file it names.
ln -s ../real/new.json links/d1/new.json
"$FLAKESWEEP" quarantine add m::C any --file links/d1/new.json --owner o --issue 1 \
	--expires 2027-06-01 $now >/dev/null 2>&1
[ -L links/d1/new.json ] && grep -q '"m::C"' links/real/new.json ||
	{ echo "FAIL: an add through a dangling link did not create the file it names"; bad=1; }

exit $bad

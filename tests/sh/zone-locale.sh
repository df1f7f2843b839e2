#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# Every run gets TZ and LC_ALL explicitly: a sweep started with
# TZ=America/New_York gives its runs TZ=UTC and LC_ALL=C; --tz and --locale
# choose others and inherit keeps the caller's. results.json's config and
# the journal header record them, and every reproduce line sets them. A zone
# or locale this machine does not have is an error before anything runs.
set -eu
. "$CHECK_SRCDIR/tests/lib/isolation.sh"

# sweep NAME TZ LC_ALL WANT_TZ WANT_LOCALE [OPTIONS...]: a sweep of ./zone
# started with TZ and LC_ALL in its environment; TestZone fails a run whose
# zone or locale is not WANT_*, TestEveryThird fails every third run.
sweep() {
	local name=$1 tz=$2 lc=$3 wtz=$4 wlc=$5 rc=0
	shift 5
	TZ=$tz LC_ALL=$lc FIXTURE_WANT_TZ=$wtz FIXTURE_WANT_LOCALE=$wlc "$FLAKESWEEP" \
		--cpu 1 --load 1 --count 6 --confirm 0 --canaries 0 --ui none \
		-o "$CHECK_TMPDIR/$name" "$@" ./zone >"$CHECK_TMPDIR/$name.out" 2>&1 || rc=$?
	[ "$rc" = 1 ] || { cat "$CHECK_TMPDIR/$name.out"; fail "$name: exit $rc, want 1"; }
}

# check NAME TZ LOCALE EXPORT FLAGS: the config, the header and the
# reproduce lines of sweep NAME.
check() {
	python3 - "$CHECK_TMPDIR/$1" "$2" "$3" "$4" "$5" <<'PY'
import json, os, sys
out, tz, lc, export, flags = sys.argv[1:]
res = json.load(open(os.path.join(out, "results.json")))
head = json.loads(open(os.path.join(out, "journal.jsonl")).readline())
for where, cfg in (("results.json", res["config"]), ("header", head["config"])):
    assert cfg["tz"] == tz and cfg["locale"] == lc, (where, cfg)
tests = {t["test"]: t for t in res["tests"]}
zone = tests["TestZone"]
assert zone["verdict"] == "passed", zone
third = tests["TestEveryThird"]
rep = third["reproduce"]
for line in (rep["flakesweep"], rep["direct"]):
    assert line.startswith(export + " && ") or line.startswith(export + " "), line
assert flags in rep["flakesweep"], rep["flakesweep"]
text = open(os.path.join(out, "report.txt")).read()
assert "reproduce: " + export in text, text
print("%s: %s" % (os.path.basename(out), rep["direct"][:len(export)]))
PY
}

sweep utc America/New_York fr_FR.UTF-8 UTC C
check utc UTC C "export TZ=UTC LC_ALL=C" "--count"
sweep berlin America/New_York C Europe/Berlin C.UTF-8 --tz Europe/Berlin --locale C.UTF-8
check berlin Europe/Berlin C.UTF-8 "export TZ=Europe/Berlin LC_ALL=C.UTF-8" \
	"--tz Europe/Berlin --locale C.UTF-8"
sweep inherit America/New_York C America/New_York C --tz inherit --locale inherit
check inherit inherit inherit "export TZ=America/New_York LC_ALL=C" "--tz inherit --locale inherit"

# A zone or locale this machine does not have: exit 2 before anything runs.
for bad in "--tz Mars/Olympus" "--tz ../../etc/passwd" "--locale xx_YY.nonsense"; do
	rc=0
	# shellcheck disable=SC2086
	"$FLAKESWEEP" --cpu 1 --load 1 --count 1 --ui none -o "$CHECK_TMPDIR/bad" $bad ./zone \
		>"$CHECK_TMPDIR/bad.out" 2>&1 || rc=$?
	[ "$rc" = 2 ] || { cat "$CHECK_TMPDIR/bad.out"; fail "$bad: exit $rc, want 2"; }
	[ ! -e "$CHECK_TMPDIR/bad" ] || fail "$bad: the sweep began"
	grep -q "invalid value \"${bad#* }\" for ${bad%% *}: expected a" "$CHECK_TMPDIR/bad.out" ||
		{ cat "$CHECK_TMPDIR/bad.out"; fail "$bad: no message"; }
done
echo "zone-locale: ok"

#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# Issue 29 (c), variant: a pytest test records os.environ's TZ and LC_ALL
# and time.tzname, failing every other run so that it has reproduce lines.
# Started with TZ=Australia/Sydney LC_ALL=C.UTF-8, every run gets TZ=UTC and
# LC_ALL=C (flakesweep(1), Isolation), config.tz/locale say so and the
# reproduce lines export them. With --tz inherit the runs keep Sydney,
# config.tz is "inherit" and the reproduce lines export Sydney ("so it runs
# in a fresh shell in the zone and locale the sweep's runs had"). A locale
# this machine cannot load is an error before anything runs.
set -eu
. "$CHECK_SRCDIR/tests/lib/variant3.sh"
need_pytest
[ -e /usr/share/zoneinfo/Australia/Sydney ] || skip "no zoneinfo for Australia/Sydney"

mkdir -p tzapp/tests
cd tzapp
cat >tests/test_invoice.py <<'PY'
import os
import time


def test_invoice_date():
    run = os.environ.get("FLAKESWEEP_RUN", "0")
    with open(os.path.join(os.environ["V3_REC"], "run-" + run), "w") as f:
        f.write("TZ=%s LC_ALL=%s tzname=%s\n" % (os.environ.get("TZ"),
                os.environ.get("LC_ALL"), time.tzname[0]))
    assert int(run) % 2 == 1, "invoice dated in " + time.tzname[0]
PY

sweep() {
	local name=$1 want=$2 rc=0
	shift 2
	export V3_REC=$work/rec-$name
	mkdir -p "$V3_REC"
	TZ=Australia/Sydney LC_ALL=C.UTF-8 "$FLAKESWEEP" --driver pytest --cpu 1 --load 1 --count 4 \
		--confirm 2 --canaries 0 --ui none -o "$work/$name" "$@" tests >"$work/$name.txt" 2>&1 || rc=$?
	[ "$rc" = "$want" ] || { cat "$work/$name.txt"; fail "$name: exit $rc, want $want"; }
}

check() {
	local name=$1 want=$2 cfg=$3 rtz=$4 f n=0
	for f in "$work/rec-$name"/run-*; do
		n=$((n + 1))
		grep -qx "$want" "$f" || fail "$name: ${f##*/}: $(cat "$f"), want $want"
	done
	[ "$n" -ge 4 ] || fail "$name: only $n runs recorded"
	c=$(json_get "$work/$name/results.json" 'd["config"].get("tz")')
	[ "$c" = "$cfg" ] || fail "$name: config.tz is $c, want $cfg"
	for k in flakesweep direct; do
		r=$(json_get "$work/$name/results.json" "[t for t in d['tests'] if t['reproduce']][0]['reproduce']['$k']")
		case $r in *"TZ=$rtz"*) ;; *) fail "$name: reproduce.$k lacks TZ=$rtz: $r" ;; esac
	done
	echo "ok: $name: $n runs '$want'; config.tz $c; reproduce: $r"
}

sweep default 1
check default "TZ=UTC LC_ALL=C tzname=UTC" UTC UTC
l=$(json_get "$work/default/results.json" 'd["config"].get("locale")')
[ "$l" = C ] || fail "default: config.locale is $l, want C"
r=$(json_get "$work/default/results.json" "[t for t in d['tests'] if t['reproduce']][0]['reproduce']['flakesweep']")
case $r in *LC_ALL=C*) ;; *) fail "default: the reproduce line lacks LC_ALL=C: $r" ;; esac

sweep inherit 1 --tz inherit
check inherit "TZ=Australia/Sydney LC_ALL=C tzname=AEST" inherit Australia/Sydney

rc=0
"$FLAKESWEEP" --driver pytest --locale xx_NOWHERE.UTF-8 --cpu 1 --load 1 --count 1 --ui none \
	-o "$work/badloc" tests >"$work/badloc.txt" 2>&1 || rc=$?
[ "$rc" = 2 ] || { cat "$work/badloc.txt"; fail "--locale xx_NOWHERE.UTF-8: exit $rc, want 2"; }
grep -q "xx_NOWHERE" "$work/badloc.txt" || fail "bad locale not named"
[ ! -e "$work/badloc/journal.jsonl" ] || fail "bad locale: a journal was written"
echo "ok: bad locale: $(head -1 "$work/badloc.txt")"

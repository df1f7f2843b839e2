#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# Issue 29 (c), variant: a Go test records the TZ it was given and the zone
# Go's time.Local resolves to, and fails every third run so that it gets
# reproduce lines. Started with TZ=America/Chicago, every run must get
# TZ=UTC (flakesweep(1), Isolation: "The time zone --tz names, UTC by
# default, never the one of whoever started the sweep"), config.tz is "UTC"
# and both reproduce lines export the zone ("Every reproduce line exports
# both first"). With --tz Asia/Tokyo every run is in Tokyo and the lines
# say so. A zone this machine lacks is an error before anything runs.
set -eu
. "$CHECK_SRCDIR/tests/lib/variant3.sh"
need_go
[ -e /usr/share/zoneinfo/Asia/Tokyo ] || skip "no zoneinfo for Asia/Tokyo"

gomod clock example.com/clock
mkdir -p clock/stamp
cat >clock/stamp/stamp_test.go <<'GO'
package stamp

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

func TestStampZone(t *testing.T) {
	run := os.Getenv("FLAKESWEEP_RUN")
	zone, _ := time.Now().Zone()
	tz, set := os.LookupEnv("TZ")
	line := fmt.Sprintf("TZ=%s set=%v zone=%s\n", tz, set, zone)
	os.WriteFile(filepath.Join(os.Getenv("V3_REC"), "run-"+run), []byte(line), 0o644)
	if n, _ := strconv.Atoi(run); n%3 == 0 {
		t.Fatalf("stamp printed in %s", zone)
	}
}
GO
cd clock

sweep() {
	local name=$1 want=$2 rc=0
	shift 2
	export V3_REC=$work/rec-$name
	mkdir -p "$V3_REC"
	TZ=America/Chicago "$FLAKESWEEP" --cpu 1 --load 1 --count 6 --confirm 2 --canaries 0 \
		--no-race --ui none -o "$work/$name" "$@" ./stamp >"$work/$name.txt" 2>&1 || rc=$?
	[ "$rc" = "$want" ] || { cat "$work/$name.txt"; fail "$name: exit $rc, want $want"; }
}

check() {
	local name=$1 tz=$2 zone=$3 f n=0
	for f in "$work/rec-$name"/run-*; do
		n=$((n + 1))
		grep -qx "TZ=$tz set=true zone=$zone" "$f" || fail "$name: ${f##*/}: $(cat "$f"), want TZ=$tz zone=$zone"
	done
	[ "$n" -ge 6 ] || fail "$name: only $n runs recorded"
	c=$(json_get "$work/$name/results.json" 'd["config"].get("tz")')
	[ "$c" = "$tz" ] || fail "$name: config.tz is $c, want $tz"
	for k in flakesweep direct; do
		r=$(json_get "$work/$name/results.json" "[t for t in d['tests'] if t['reproduce']][0]['reproduce']['$k']")
		case $r in *"TZ=$tz"*) ;; *) fail "$name: reproduce.$k lacks TZ=$tz: $r" ;; esac
		case $r in *America/Chicago*) fail "$name: reproduce.$k names the caller's zone: $r" ;; esac
	done
	echo "ok: $name: $n runs all TZ=$tz ($zone); config.tz $c; reproduce: $r"
}

sweep default 1
check default UTC UTC
sweep tokyo 1 --tz Asia/Tokyo
check tokyo Asia/Tokyo JST

rc=0
"$FLAKESWEEP" --tz Mars/Olympus_Mons --cpu 1 --load 1 --count 1 --no-race --ui none \
	-o "$work/mars" ./stamp >"$work/mars.txt" 2>&1 || rc=$?
[ "$rc" = 2 ] || { cat "$work/mars.txt"; fail "--tz Mars/Olympus_Mons: exit $rc, want 2"; }
grep -q "Mars/Olympus_Mons" "$work/mars.txt" || fail "--tz Mars/Olympus_Mons: the zone is not named"
[ ! -e "$work/mars/journal.jsonl" ] || fail "--tz Mars/Olympus_Mons: a journal was written"
echo "ok: bad zone: $(head -1 "$work/mars.txt")"

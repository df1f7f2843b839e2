#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 400
# Issue 29 (d), variant with Go modules. (1) ./relay's test listens on one
# fixed TCP port for half a second: runs of the same package collide at
# load 2 and never alone. flakesweep(1), Classes: "harness-bug: Interference
# ... is among its causes ... quarantine nothing"; quarantine add --results
# refuses it with exit 2 naming the class, also with --force alone, and
# takes it with --force --reason, the entry marked forced with its class.
# (2) ./dice's test fails every third run (by run id) whatever the pair or
# company: "test-flake: It fails alike at every pair, alone or not"; its
# quarantine on channel any is taken and records the class.
set -eu
. "$CHECK_SRCDIR/tests/lib/variant3.sh"
need_go

gomod tower example.com/tower
mkdir -p tower/relay tower/dice
cat >tower/relay/relay_test.go <<'GO'
package relay

import (
	"net"
	"testing"
	"time"
)

func TestRelayListens(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:47613")
	if err != nil {
		t.Fatalf("relay: %v", err)
	}
	defer l.Close()
	time.Sleep(500 * time.Millisecond)
}
GO
cat >tower/dice/dice_test.go <<'GO'
package dice

import (
	"os"
	"strconv"
	"testing"
)

func TestRollIsSix(t *testing.T) {
	if n, _ := strconv.Atoi(os.Getenv("FLAKESWEEP_RUN")); n%3 == 0 {
		t.Fatalf("rolled a one on run %d", n)
	}
}
GO
cd tower

sweep() {
	local name=$1 rc=0
	shift
	"$FLAKESWEEP" --canaries 0 --no-race --ui none -o "$work/$name" "$@" >"$work/$name.txt" 2>&1 || rc=$?
	[ "$rc" = 1 ] || { cat "$work/$name.txt"; fail "$name: exit $rc, want 1"; }
}
show() { # name id
	json_get "$work/$1/results.json" "[(t['verdict'], t.get('class'), [c['cause'] for c in t.get('causes') or []]) for t in d['tests'] if t['id'] == '$2']"
}

sweep relay --cpu 1 --load 2 --count 16 --confirm 16 ./relay
sweep dice --cpu 1,2 --load 1 --count 15 --confirm 6 ./dice
relay=example.com/tower/relay::TestRelayListens
dice=example.com/tower/dice::TestRollIsSix
echo "relay: $(show relay $relay)"
echo "dice: $(show dice $dice)"

q=$work/quarantine.json
add() { # want id results [options...]
	local want=$1 id=$2 res=$3 rc=0
	shift 3
	"$FLAKESWEEP" quarantine add "$id" any --owner ops --issue 77 --expires 2030-01-31 \
		--results "$res" --file "$q" "$@" >"$work/add.txt" 2>&1 || rc=$?
	[ "$rc" = "$want" ] || { cat "$work/add.txt"; fail "quarantine add $id $*: exit $rc, want $want"; }
}

cls=$(json_get "$work/relay/results.json" "[t.get('class') for t in d['tests'] if t['id'] == '$relay'][0]")
[ "$cls" = harness-bug ] || fail "relay: class $cls, want harness-bug (same-package interference): $(show relay $relay)"
add 2 "$relay" "$work/relay/results.json"
grep -q harness-bug "$work/add.txt" || { cat "$work/add.txt"; fail "the refusal does not name the class"; }
echo "ok: refused: $(head -1 "$work/add.txt")"
add 2 "$relay" "$work/relay/results.json" --force
add 0 "$relay" "$work/relay/results.json" --force --reason "the fixed port is shared; isolate-net planned"
json_get "$q" "[e for e in d if e['test'] == '$relay'][0]" >"$work/entry.json"
grep -q '"forced": true' "$work/entry.json" || fail "the forced entry is not marked forced: $(cat "$work/entry.json")"
grep -q '"class": "harness-bug"' "$work/entry.json" || fail "the forced entry lacks its class: $(cat "$work/entry.json")"
echo "ok: forced entry $(cat "$work/entry.json")"

cls=$(json_get "$work/dice/results.json" "[t.get('class') for t in d['tests'] if t['id'] == '$dice'][0]")
[ "$cls" = test-flake ] || fail "dice: class $cls, want test-flake: $(show dice $dice)"
add 0 "$dice" "$work/dice/results.json"
e=$(json_get "$q" "[e for e in d if e['test'] == '$dice'][0]")
case $e in *'"class": "test-flake"'*) ;; *) fail "the test-flake entry lacks its class: $e" ;; esac
case $e in *forced*) fail "the test-flake entry is marked forced: $e" ;; esac
echo "ok: test-flake taken: $e"

#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 200
# The triage inbox of the real binary in a private tmux server: a test
# dismissed in one sweep's view is still dismissed in the next sweep of the
# same project (the decision lives in the project's .flakesweep/), u after
# Q gives the quarantine file back byte for byte (and removes a file Q
# created), Q asks before creating a quarantine file outside the sweep's
# project, and y reaches tmux's buffer through OSC 52.
set -eu

. "$CHECK_SRCDIR/tests/lib/tmux.sh"
T="$CHECK_TMPDIR"
FX="$CHECK_SRCDIR/tests/fixtures/ui"

# sweep DIR ROOT: a copy of the demo sweep whose project root is ROOT.
sweep() {
	mkdir -p "$1"
	sed "s|/work/main/data/demo|$2|g" "$FX/demo/journal.jsonl" >"$1/journal.jsonl"
	sed "s|/work/main/data/demo|$2|g" "$FX/demo/results.json" >"$1/results.json"
}

P="$T/project"
mkdir -p "$P/.flakesweep"
cp "$FX/quarantine.json" "$P/.flakesweep/quarantine.json"
cp "$FX/quarantine.json" "$T/quarantine.before"
sweep "$T/night1" "$P"
sweep "$T/night2" "$P"

# --- night 1: dismiss the red canary, quarantine a test, take it back.
start one 120 40 "$FLAKESWEEP view $T/night1"
wait_for one "Flaky tests (4)"
tm send-keys -t one j j d
wait_for one "dismiss TestCanaryRed: reason:"
tm send-keys -t one -l "red on purpose"
tm send-keys -t one Enter
wait_for one "dismissed example.com/flakesweep-demo::TestCanaryRed"
tm send-keys -t one G Q
wait_for one "channel: cpu=1,load=1"
tm send-keys -t one Enter
wait_for one "owner (a person or team):"
tm send-keys -t one -l alice
tm send-keys -t one Enter
wait_for one "issue (URL or #number; none yet? p posts the report first):"
tm send-keys -t one -l "#77"
tm send-keys -t one Enter
wait_for one "expires (YYYY-MM-DD):"
tm send-keys -t one Enter
wait_for one "Quarantine (4,"
cmp -s "$P/.flakesweep/quarantine.json" "$T/quarantine.before" && fail "Q wrote no entry"
tm send-keys -t one u
wait_for one "took back quarantined on example.com/flakesweep-demo::TestNeedsTwoCPUs"
wait_for one "Quarantine (3,"
cmp "$P/.flakesweep/quarantine.json" "$T/quarantine.before" ||
	fail "u after Q: the quarantine file is not as it was"
tm send-keys -t one q
wait_for one "EXIT:0"
d="$P/.flakesweep/decisions.json"
grep -q '"decision":	"dismissed"' "$d" || fail "no dismissal in $d"
grep -q '"reason":	"red on purpose"' "$d" || fail "no reason in $d"
grep -q TestNeedsTwoCPUs "$d" && fail "the quarantine taken back is still in $d"
[ -e "$T/night1/decisions.json" ] && fail "night1/decisions.json written: decisions belong to the project"

# --- night 2, same project: the canary is still dismissed, with its reason.
start two 120 40 "$FLAKESWEEP view $T/night2"
wait_for two "Flaky tests (4)"
tm send-keys -t two j j
wait_for two "> TestCanaryRed      80/80 ██ ██ failing dismissed"
wait_for two "decision: dismissed at"
wait_for two ": red on purpose"
# y copies the reproduce command through tmux (set-clipboard on takes OSC 52).
tm set-option -g set-clipboard on
tm send-keys -t two g y
wait_for two "copied the reproduce command to the clipboard (OSC 52)"
want="cd $P && flakesweep stress --cpu 2 --load 1 --count 10 --run '^TestLoadSensitive\$' example.com/flakesweep-demo"
[ "$(tm show-buffer)" = "$want" ] || fail "y: the tmux buffer holds \"$(tm show-buffer)\", not \"$want\""
tm send-keys -t two q
wait_for two "EXIT:0"

# --- a project without a quarantine file: u removes the file Q created.
P2="$T/project2"
mkdir -p "$P2"
sweep "$T/night3" "$P2"
start three 120 40 "$FLAKESWEEP view $T/night3"
wait_for three "Flaky tests (4) 2 need a decision"
wait_for three "> TestLoadSensitive    43/79 ██ ██ flaky   to decide"
tm send-keys -t three Q
wait_for three "channel: any"
tm send-keys -t three Enter
wait_for three "owner (a person or team):"
tm send-keys -t three -l bob
tm send-keys -t three Enter
wait_for three "issue (URL or #number; none yet? p posts the report first):"
tm send-keys -t three -l "#7"
tm send-keys -t three Enter
wait_for three "expires (YYYY-MM-DD):"
tm send-keys -t three Enter
wait_for three "Flaky tests (4) 1 needs a decision"
[ -s "$P2/.flakesweep/quarantine.json" ] || fail "Q created no quarantine file"
tm send-keys -t three u
wait_for three "Flaky tests (4) 2 need a decision"
[ -e "$P2/.flakesweep/quarantine.json" ] && fail "u left the quarantine file Q created"
tm send-keys -t three q
wait_for three "EXIT:0"

# --- a sweep whose project is not on this machine, viewed from elsewhere:
# Q asks before creating ./.flakesweep/quarantine.json.
sweep "$T/night4" /nonexistent/project
mkdir -p "$T/elsewhere"
start four 120 40 "cd $T/elsewhere && $FLAKESWEEP view $T/night4"
wait_for four "Flaky tests (4)"
tm send-keys -t four Q
wait_for four "does not exist and is not in the sweep's project (/nonexistent/project): create it? (y/n)"
tm send-keys -t four n
wait_for four "quarantine cancelled"
[ -e "$T/elsewhere/.flakesweep/quarantine.json" ] && fail "Q created a file outside the project"
tm send-keys -t four q
wait_for four "EXIT:0"
echo "triage checks passed"

#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 180
# Q on a flaky test that has no report yet (a test-flake, at two pairs, so
# that its class lets it be quarantined): at the issue question, p posts
# the report first (the editor, the preview, y), and the quarantine entry
# names the post's URL once the post gives it; the expiry is asked last.
# A post cancelled from there quarantines nothing. Driven in a real
# terminal against the local stand-in for GitHub's GraphQL endpoint
# (tests/server), which checks every document against GitHub's schema.
set -eu

. "$CHECK_SRCDIR/tests/lib/tmux.sh"
. "$CHECK_SRCDIR/tests/lib/standin.sh"
T="$CHECK_TMPDIR"
standin_available || { echo "SKIP no node or tests/server/node_modules"; exit 77; }

mkdir "$T/proj"
cd "$T/proj"
cp "$CHECK_SRCDIR/tests/fixtures/tap/third.sh" .
"$FLAKESWEEP" --ui none --cpu 1,2 --load 1 --count 12 --confirm 0 -o out --driver tap -- ./third.sh \
	>sweep.txt 2>&1 || [ $? = 1 ] || { cat sweep.txt; fail "the sweep did not end with flaky"; }

standin_start "./third.sh::sometimes" 150
standin_editor "It fails in every third run."

start q 120 40 "GH_TOKEN=$STANDIN_TOKEN EDITOR=$T/editor.sh $FLAKESWEEP view $T/proj/out \
--repo demo/widgets --api-url $STANDIN_URL 2>$T/view.err"
wait_for q "Flaky tests (1)"
quarantine_until_issue() {
	tm send-keys -t q Q
	wait_for q "channel"
	tm send-keys -t q Enter
	wait_for q "owner (a person or team):"
	tm send-keys -t q C-u alice Enter
	wait_for q "none yet? p posts the report first"
	tm send-keys -t q p Enter
	wait_for q "post this to demo/widgets?"
}
# First the post is cancelled: nothing is posted, nothing quarantined.
quarantine_until_issue
tm send-keys -t q n
wait_for q "post cancelled: nothing was sent, nothing was quarantined"
[ ! -e .flakesweep/quarantine.json ] || fail "a cancelled post quarantined the test"
! grep -qs ' CreateDiscussion ' "$T/standin.log" || fail "a cancelled post was sent"
# Then it is sent, and the entry names its URL.
quarantine_until_issue
tm send-keys -t q y
wait_for q "expires (YYYY-MM-DD):" 30
grep -q ' CreateDiscussion 200 valid=yes auth=ok ' "$T/standin.log" ||
	{ cat "$T/standin.log"; fail "no valid CreateDiscussion"; }
tm send-keys -t q Enter
wait_for q "quarantined ./third.sh::sometimes"
python3 - .flakesweep/quarantine.json <<'PY'
import json, sys
q = json.load(open(sys.argv[1]))
e = [e for e in q if e["test"] == "./third.sh::sometimes"]
assert len(e) == 1, q
assert e[0]["issue"].startswith("https://github.com/demo/widgets/discussions/"), e[0]
assert e[0]["owner"] == "alice", e[0]
PY
tm send-keys -t q q
wait_for q "EXIT:0"
echo ok

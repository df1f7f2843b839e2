#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 180
# Confirm, then post, in the dashboard of a finished sweep, as its hint line
# suggests: `c` runs the confirm runs in the view's own process, and `p`
# then still finds GH_TOKEN (the runs never saw it) and posts to the local
# stand-in for GitHub's GraphQL endpoint (tests/server), which checks every
# document against GitHub's schema.
set -eu

. "$CHECK_SRCDIR/tests/lib/tmux.sh"
. "$CHECK_SRCDIR/tests/lib/standin.sh"
T="$CHECK_TMPDIR"
standin_available || { echo "SKIP no node or tests/server/node_modules"; exit 77; }

cd "$T"
cp "$CHECK_SRCDIR/tests/fixtures/tap/third.sh" .
"$FLAKESWEEP" --ui none --cpu 1 --load 1 --count 6 --confirm 0 -o out --driver tap -- ./third.sh \
	>sweep.txt 2>&1 || [ $? = 1 ] || { cat sweep.txt; fail "the sweep did not end with flaky"; }

standin_start "./third.sh::sometimes" 150
standin_editor "It fails in every third run."

start post 120 40 "GH_TOKEN=$STANDIN_TOKEN EDITOR=$T/editor.sh $FLAKESWEEP view $T/out \
--repo demo/widgets --api-url $STANDIN_URL 2>$T/view.err"
wait_for post "Flaky tests (1)"
tm send-keys -t post c
wait_for post "confirm sometimes: runs at each of 1 pairs:"
tm send-keys -t post C-u 1 0 Enter
WAIT_SECONDS=60 wait_for post "confirmed ./third.sh::sometimes: its confirm runs have run"
tm send-keys -t post p
wait_for post "post this to demo/widgets?"
tm send-keys -t post y
wait_for post "posted: https://github.com/demo/widgets/discussions/" 30
grep -q ' CreateDiscussion 200 valid=yes auth=ok ' "$T/standin.log" ||
	{ cat "$T/standin.log"; fail "no valid CreateDiscussion"; }
# The confirm runs did not see the token either.
! grep -rqF "$STANDIN_TOKEN" "$T/out" || fail "the token reached the output directory"
tm send-keys -t post q
wait_for post "EXIT:0"
echo ok

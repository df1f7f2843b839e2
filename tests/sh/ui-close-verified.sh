#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 180
# V in the dashboard on a test whose verify record says fixed: its open
# discussion gets the evidence and is closed as resolved, as report --close
# --verified DIR does; then its quarantine entry is removed once confirmed,
# and the close is recorded in the decisions file. A record that says
# not-fixed is refused with the reason, and nothing is sent. Driven in a
# real terminal against the local stand-in for GitHub's GraphQL endpoint
# (tests/server), which checks every document against GitHub's schema.
set -eu

. "$CHECK_SRCDIR/tests/lib/tmux.sh"
. "$CHECK_SRCDIR/tests/lib/standin.sh"
T="$CHECK_TMPDIR"
standin_available || { echo "SKIP no node or tests/server/node_modules"; exit 77; }
command -v git >/dev/null 2>&1 || { echo "SKIP git is not installed"; exit 77; }
ID=./third.sh::sometimes

mkdir "$T/proj"
cd "$T/proj"
cp "$CHECK_SRCDIR/tests/fixtures/tap/third.sh" .
g() { git -c user.name=t -c user.email=t@example.com "$@" >/dev/null; }
g init -q
g remote add origin git@github.com:demo/widgets.git
g add third.sh
g commit -q -m fix
head=$(git rev-parse HEAD)
"$FLAKESWEEP" --ui none --cpu 1,2 --load 1 --count 12 --confirm 0 -o "$T/out" --driver tap -- ./third.sh \
	>"$T/sweep.txt" 2>&1 || [ $? = 1 ] || { cat "$T/sweep.txt"; fail "the sweep did not end with flaky"; }
"$FLAKESWEEP" quarantine add "$ID" any --owner alice --issue '#7' --expires 2099-01-01 >/dev/null
verified() { # DIR VERDICT
	mkdir -p "$T/$1"
	printf '{"schema":"flakesweep/verify/v1","test":"%s","verdict":"%s","commit":"%s","dirty":false,"pairs":[{"cpu":2,"load":1,"runs":300,"failures":0,"decision":"%s"}],"runs":300,"bandaids":[]}\n' \
		"$ID" "$2" "$head" "$2" >"$T/$1/verify.json"
}
verified v-notfixed not-fixed
verified v-fixed fixed

standin_start "$ID" 150
url=${STANDIN_URL%/ok/graphql}/open-discussion/graphql
view() { # NAME VDIR
	start "$1" 220 40 "GH_TOKEN=$STANDIN_TOKEN $FLAKESWEEP view $T/out --verified $T/$2 \
--api-url $url 2>$T/$1.err"
	wait_for "$1" "Flaky tests (1)"
}

# Not fixed: refused, with the reason; nothing is sent.
view n v-notfixed
tm send-keys -t n V
wait_for n "not closed: $T/v-notfixed/verify.json says not-fixed, not fixed"
tm send-keys -t n q
wait_for n "EXIT:0"
! grep -qs '^open-discussion ' "$T/standin.log" || { cat "$T/standin.log"; fail "a refused close sent requests"; }

# Fixed: asked, closed, then the quarantine entry is offered for removal.
view f v-fixed
tm send-keys -t f V
wait_for f "close its discussion in demo/widgets as resolved?"
tm send-keys -t f y
wait_for f "Remove the 1 quarantine entry of $ID" 30
tm send-keys -t f y
wait_for f "closed $ID and removed its 1 quarantine entry from"
tm send-keys -t f q
wait_for f "EXIT:0"
ops=$(awk '$1 == "open-discussion" && $3 != "INVALID" { printf "%s%s:%s", sep, $3, $4; sep = " " } END { print "" }' \
	"$T/standin.log")
[ "$ops" = "RepoAndCategories:200 FindReports:200 AddDiscussionComment:200 CloseDiscussion:200" ] ||
	fail "the stand-in saw: $ops"
if grep -E 'valid=no|INVALID|auth=missing|ua=bad' "$T/standin.log"; then
	fail "the stand-in saw the requests above"
fi
python3 - .flakesweep/quarantine.json .flakesweep/decisions.json "$ID" <<'PY'
import json, sys
q = json.load(open(sys.argv[1]))
assert not [e for e in q if e["test"] == sys.argv[3]], q
d = json.load(open(sys.argv[2]))["tests"][sys.argv[3]]
assert d["decision"] == "closed", d
assert d["url"].startswith("https://github.com/demo/widgets/discussions/"), d
assert d["reason"].startswith("verified fixed; quarantine entries removed from ") and d["reason"].endswith(": 1"), d
PY
echo ok

#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 180
# The dashboard's verified close (V), against the stand-in GraphQL server
# that checks every request against GitHub's schema: a Go test that failed
# every other run is fixed and committed, `verify -o` records it fixed at
# HEAD with a clean tree; `view --verified` of the sweep then closes its
# open discussion on V (a comment, then closeDiscussion) and offers to
# remove its quarantine entry (y removes it). A record that says undecided
# is refused with the reason on the message line and sends nothing.
set -eu
. "$CHECK_SRCDIR/tests/lib/tmux.sh"
command -v go >/dev/null 2>&1 || { echo "SKIP go is not installed"; exit 77; }
command -v git >/dev/null 2>&1 || { echo "SKIP git is not installed"; exit 77; }
command -v node >/dev/null 2>&1 || { echo "SKIP node is not installed"; exit 77; }
[ -d "$CHECK_SRCDIR/tests/server/node_modules/@octokit/graphql-schema" ] ||
	{ echo "SKIP tests/server/node_modules is missing"; exit 77; }
T="$CHECK_TMPDIR"
unset GH_ENTERPRISE_TOKEN GITHUB_ENTERPRISE_TOKEN GH_HOST FLAKESWEEP_HTTP_TRACE || true
export GOFLAGS=-mod=mod GOCACHE="$T/gocache" XDG_CACHE_HOME="$T/cache" FLAKESWEEP_GITHUB_TIMEOUT=5s
# shellcheck source=../lib/standin.sh
. "$CHECK_SRCDIR/tests/lib/standin.sh"
ID='hinge.example/door/hinge::TestSwing'
mkdir -p "$T/door/hinge"
cd "$T/door"
g() { git -c user.name=t -c user.email=t@example.com "$@" >/dev/null; }
printf 'module hinge.example/door\n\ngo 1.19\n' >go.mod
cat >hinge/hinge_test.go <<EOF2
package hinge

import (
	"os"
	"strings"
	"testing"
)

// TestSwing fails every other run, counted in a file.
func TestSwing(t *testing.T) {
	b, _ := os.ReadFile("$T/count")
	n := len(strings.TrimSpace(string(b)))
	os.WriteFile("$T/count", []byte(strings.Repeat("x", n+1)), 0o644)
	if n%2 == 1 {
		t.Fatal("door stuck")
	}
}
EOF2
g init -q . && g remote add origin git@github.com:demo/widgets.git && g add . && g commit -q -m before
set +e
"$FLAKESWEEP" --cpu 1 --load 1 --count 6 --confirm 0 --no-race --ui line -o "$T/sweep" ./hinge \
	>"$T/sweep.log" 2>&1
set -e
grep -qF "\"$ID\"" "$T/sweep/results.json" || { cat "$T/sweep.log"; fail "the sweep has no $ID"; }
# The fix: the count no longer decides (the assertion stays).
sed -i 's/if n%2 == 1 {/if n < 0 {/' hinge/hinge_test.go
g commit -q -a -m "oil the hinge"
set +e
"$FLAKESWEEP" verify --test "$ID" --results "$T/sweep/results.json" --cpu 1 --load 1 --no-race \
	--budget 300 -o "$T/vfix" >"$T/verify.log" 2>&1
set -e
grep -q '"verdict":[[:space:]]*"fixed"' "$T/vfix/verify.json" ||
	{ cat "$T/verify.log" "$T/vfix/verify.json"; fail "verify did not record fixed"; }
"$FLAKESWEEP" quarantine add "$ID" any --owner doors --issue https://github.com/demo/widgets/discussions/7 \
	--expires 2099-01-01 --file "$T/q.json" >/dev/null
STANDIN_BODIES="$T/bodies" standin_start "$ID" 170
mkdir -p "$T/bodies"
base=${STANDIN_URL%/ok/graphql}
export GH_TOKEN="$STANDIN_TOKEN"
touch "$T/standin.log"
bad=0

# A record that says undecided: refused with the reason, nothing sent.
mkdir -p "$T/vund"
sed 's/"verdict":\([[:space:]]*\)"fixed"/"verdict":\1"undecided"/' "$T/vfix/verify.json" >"$T/vund/verify.json"
start refuse 160 45 "cd '$T/door' && '$FLAKESWEEP' view '$T/sweep' --verified '$T/vund' --quarantine '$T/q.json' --api-url '$base/url-open-refuse/graphql'"
wait_for refuse "TestSwing"
tm send-keys -t refuse V
WAIT_SECONDS=15 wait_for refuse "undecided"
sleep 2
if screen refuse | grep -qF '(y/n)'; then echo "FAIL an undecided record was offered for closing:"; screen refuse; bad=1; fi
if grep -q '^url-open-refuse ' "$T/standin.log"; then echo "FAIL a refused close sent requests:"; cat "$T/standin.log"; bad=1; fi
grep -qF "$ID" "$T/q.json" || { echo "FAIL a refused close touched the quarantine file"; bad=1; }

# The record that says fixed: V asks, closes, offers the quarantine entry.
start close 160 45 "cd '$T/door' && '$FLAKESWEEP' view '$T/sweep' --verified '$T/vfix' --quarantine '$T/q.json' --api-url '$base/open-discussion/graphql'"
wait_for close "TestSwing"
tm send-keys -t close V
WAIT_SECONDS=15 wait_for close "(y/n)"
tm send-keys -t close y
WAIT_SECONDS=20 wait_for close "quarantine entr"
screen close | grep -qF '(y/n)' || { echo "FAIL removing the quarantine entry was not offered:"; screen close; bad=1; }
tm send-keys -t close y
for _ in $(seq 100); do grep -qF "$ID" "$T/q.json" || break; sleep 0.1; done
if grep -qF "$ID" "$T/q.json"; then echo "FAIL y kept the quarantine entry:"; cat "$T/q.json"; bad=1; fi
ops=$(awk '$1 == "open-discussion" {printf "%s%s:%s", sep, $3, $4; sep=" "}' "$T/standin.log")
[ "$ops" = "RepoAndCategories:200 FindReports:200 AddDiscussionComment:200 CloseDiscussion:200" ] ||
	{ echo "FAIL requests of the close: $ops"; bad=1; }
if grep -E 'valid=no|auth=missing|auth=wrong|ua=bad' "$T/standin.log"; then echo "FAIL a request was not valid"; bad=1; fi
[ $bad = 0 ] || exit 1

# man 5, DECISIONS FILE: a quarantine file outside the project (q.json in
# $T, the project in $T/door) sends the decision to the output directory's.
# man 5, DECISIONS FILE: beside the quarantine file in use, whose
# directory exists though it lies outside the project.
grep -qF '"closed"' "$T/decisions.json" 2>/dev/null ||
	fail "no \"closed\" decision in $T/decisions.json; files: $(cd "$T" && ls ./*.json sweep/*.json)"
echo "variant4-close-hinge: fixed closes and offers the entry, undecided refused"

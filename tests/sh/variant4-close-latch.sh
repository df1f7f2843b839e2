#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 180
# The dashboard's verified close (V), against the stand-in GraphQL server
# that checks every request against GitHub's schema, with the project's own
# quarantine file (.flakesweep/quarantine.json, view's default): verify
# records the fixed Go test fixed at its commit; once the checkout moves on
# to a later commit, V is refused with the reason and sends nothing; with
# the verified commit checked out again, V closes the open discussion (a
# comment, then closeDiscussion), offers the quarantine entry for removal
# (n keeps it) and records "closed" with the URL in the project's
# .flakesweep/decisions.json.
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
ID='latch.example/gate/latch::TestBolt'
mkdir -p "$T/gate/latch"
cd "$T/gate"
g() { git -c user.name=t -c user.email=t@example.com "$@" >/dev/null; }
printf 'module latch.example/gate\n\ngo 1.19\n' >go.mod
cat >latch/latch_test.go <<EOF2
package latch

import (
	"os"
	"strings"
	"testing"
)

// TestBolt fails every other run, counted in a file.
func TestBolt(t *testing.T) {
	b, _ := os.ReadFile("$T/count")
	n := len(strings.TrimSpace(string(b)))
	os.WriteFile("$T/count", []byte(strings.Repeat("x", n+1)), 0o644)
	if n%2 == 1 {
		t.Fatal("bolt jammed")
	}
}
EOF2
g init -q . && g remote add origin git@github.com:demo/widgets.git && g add . && g commit -q -m before
set +e
"$FLAKESWEEP" --cpu 1 --load 1 --count 6 --confirm 0 --no-race --ui line -o "$T/sweep" ./latch \
	>"$T/sweep.log" 2>&1
set -e
grep -qF "\"$ID\"" "$T/sweep/results.json" || { cat "$T/sweep.log"; fail "the sweep has no $ID"; }
# The fix: the count no longer decides (the assertion stays).
sed -i 's/if n%2 == 1 {/if n < 0 {/' latch/latch_test.go
g commit -q -a -m "file the bolt"
set +e
"$FLAKESWEEP" verify --test "$ID" --results "$T/sweep/results.json" --cpu 1 --load 1 --no-race \
	--budget 300 -o "$T/vfix" >"$T/verify.log" 2>&1
set -e
grep -q '"verdict":[[:space:]]*"fixed"' "$T/vfix/verify.json" ||
	{ cat "$T/verify.log" "$T/vfix/verify.json"; fail "verify did not record fixed"; }
"$FLAKESWEEP" quarantine add "$ID" any --owner gates --issue https://github.com/demo/widgets/discussions/7 \
	--expires 2099-01-01 --file "$T/gate/.flakesweep/quarantine.json" >/dev/null
verified=$(git rev-parse HEAD)
echo "The latch." >README
g add README && g commit -q -m "a readme"
STANDIN_BODIES="$T/bodies" standin_start "$ID" 170
mkdir -p "$T/bodies"
base=${STANDIN_URL%/ok/graphql}
export GH_TOKEN="$STANDIN_TOKEN"
touch "$T/standin.log"
bad=0

Q="$T/gate/.flakesweep/quarantine.json"
# The checkout moved on: refused with the reason, nothing sent.
start refuse 160 45 "cd '$T/gate' && '$FLAKESWEEP' view '$T/sweep' --verified '$T/vfix' --api-url '$base/url-open-refuse/graphql'"
wait_for refuse "TestBolt"
tm send-keys -t refuse V
WAIT_SECONDS=15 wait_for refuse "commit"
sleep 2
if screen refuse | grep -qF '(y/n)'; then echo "FAIL a record of another commit was offered for closing:"; screen refuse; bad=1; fi
if grep -q '^url-open-refuse ' "$T/standin.log"; then echo "FAIL a refused close sent requests:"; cat "$T/standin.log"; bad=1; fi

# The verified commit checked out: V asks, closes, offers the entry; n keeps it.
git -C "$T/gate" checkout -q "$verified"
start close 160 45 "cd '$T/gate' && '$FLAKESWEEP' view '$T/sweep' --verified '$T/vfix' --api-url '$base/open-discussion/graphql'"
wait_for close "TestBolt"
tm send-keys -t close V
WAIT_SECONDS=15 wait_for close "(y/n)"
tm send-keys -t close y
WAIT_SECONDS=20 wait_for close "quarantine entr"
screen close | grep -qF '(y/n)' || { echo "FAIL keeping the quarantine entry was not offered:"; screen close; bad=1; }
tm send-keys -t close n
sleep 2
grep -qF "$ID" "$Q" || { echo "FAIL n removed the quarantine entry:"; cat "$Q"; bad=1; }
ops=$(awk '$1 == "open-discussion" {printf "%s%s:%s", sep, $3, $4; sep=" "}' "$T/standin.log")
[ "$ops" = "RepoAndCategories:200 FindReports:200 AddDiscussionComment:200 CloseDiscussion:200" ] ||
	{ echo "FAIL requests of the close: $ops"; bad=1; }
if grep -E 'valid=no|auth=missing|auth=wrong|ua=bad' "$T/standin.log"; then echo "FAIL a request was not valid"; bad=1; fi
python3 - "$T/gate/.flakesweep/decisions.json" "$ID" <<'EOF2' || { echo "FAIL no closed decision with the URL"; bad=1; }
import json, sys
d = json.load(open(sys.argv[1]))["tests"][sys.argv[2]]
assert d["decision"] == "closed" and d["url"].startswith("https://github.com/demo/widgets/discussions/"), d
EOF2
[ $bad = 0 ] || exit 1
echo "variant4-close-latch: another commit refused, the verified one closes"

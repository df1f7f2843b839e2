#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# `flakesweep report` against the local stand-in for GitHub's GraphQL
# endpoint (tests/server/graphql-standin.js, which checks every document
# against GitHub's published schema): each refusal and each fault, with
# stdout, stderr and the exit status checked exactly; then no file or
# output of the whole run may hold the token.
set -eu

command -v node >/dev/null 2>&1 || { echo "SKIP node is not installed"; exit 77; }
T="$CHECK_TMPDIR"
srv="$CHECK_SRCDIR/tests/server"
fx="$CHECK_SRCDIR/tests/fixtures/post"
golden="$CHECK_SRCDIR/tests/golden/post"
# A tree without tests/server/node_modules (make distcheck) may name an
# installed copy in STANDIN_NODE_MODULES.
if [ ! -d "$srv/node_modules" ] && [ -n "${STANDIN_NODE_MODULES:-}" ]; then
	mkdir -p "$T/server"
	cp "$srv/graphql-standin.js" "$T/server/"
	ln -s "$STANDIN_NODE_MODULES" "$T/server/node_modules"
	srv="$T/server"
fi
if [ ! -d "$srv/node_modules/@octokit/graphql-schema" ] || [ ! -d "$srv/node_modules/graphql" ]; then
	echo "SKIP tests/server/node_modules is missing: run (cd tests/server && npm ci) to test report"
	exit 77
fi
ID='example.com/widgets/cache::TestCache/evicts_under_pressure'
TOKEN='ghp_standinToken0123456789abcdefXYZ'
export STANDIN_TOKEN="$TOKEN"
unset GH_TOKEN GITHUB_TOKEN GH_ENTERPRISE_TOKEN GITHUB_ENTERPRISE_TOKEN GH_HOST \
	FLAKESWEEP_HTTP_TRACE SSL_CERT_FILE CURL_CA_BUNDLE || true
export TZ=UTC LC_ALL=C FLAKESWEEP_GITHUB_TIMEOUT=3s

# The demo project, a git checkout whose origin is on GitHub.
mkdir -p "$T/project/cache" "$T/project/.git" "$T/bodies"
cp "$fx/demo/project/go.mod" "$T/project/"
cp "$fx/demo/project/cache/cache_test.go" "$T/project/cache/"
printf '[remote "origin"]\n\turl = git@github.com:demo/widgets.git\n' >"$T/project/.git/config"
sed "s|@ROOT@|$T/project|g" "$fx/demo/results.json" >"$T/results.json"

# A private CA and a certificate for 127.0.0.1, for the stand-in's TLS port.
tls=()
if command -v openssl >/dev/null 2>&1; then
	ec=(-newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes)
	openssl req -x509 "${ec[@]}" -keyout "$T/ca.key" -out "$T/ca.pem" -days 2 \
		-subj /CN=flakesweep-test-ca 2>/dev/null
	openssl req "${ec[@]}" -keyout "$T/leaf.key" -out "$T/leaf.csr" -subj /CN=127.0.0.1 2>/dev/null
	printf 'subjectAltName=IP:127.0.0.1\n' >"$T/leaf.ext"
	openssl x509 -req -in "$T/leaf.csr" -CA "$T/ca.pem" -CAkey "$T/ca.key" -CAcreateserial \
		-out "$T/leaf.pem" -days 2 -extfile "$T/leaf.ext" 2>/dev/null
	tls=(--tls-cert "$T/leaf.pem" --tls-key "$T/leaf.key" --tls-port-file "$T/tlsport")
fi

node "$srv/graphql-standin.js" --port-file "$T/port" --log "$T/standin.log" --test "$ID" \
	--bodies "$T/bodies" --lifetime 280 --idle 120 --delay 8000 "${tls[@]}" \
	>"$T/standin.out" 2>&1 &
standin=$!
trap 'kill $standin 2>/dev/null || true' EXIT
for _ in $(seq 200); do
	[ -s "$T/port" ] && { [ ${#tls[@]} = 0 ] || [ -s "$T/tlsport" ]; } && break
	sleep 0.1
done
[ -s "$T/port" ] || { echo "the stand-in did not start:"; cat "$T/standin.out"; exit 1; }
port=$(cat "$T/port")
tlsport=$(cat "$T/tlsport" 2>/dev/null || echo none)

fail=0
# run NAME SCENARIO [ARGS...]: one report into its own output directory.
run() {
	local name=$1 scenario=$2
	shift 2
	mkdir -p "$T/$name"
	cp "$T/results.json" "$T/$name/results.json"
	set +e
	"$FLAKESWEEP" report --results "$T/$name/results.json" --test "$ID" \
		--description "$fx/demo/description.md" --notes "$fx/demo/notes.md" \
		--api-url "http://127.0.0.1:$port/$scenario/graphql" "$@" \
		>"$T/$name.out" 2>"$T/$name.err"
	echo $? >"$T/$name.rc"
	set -e
	sed -i "s/127\.0\.0\.1:$port/127.0.0.1:PORT/g; s/127\.0\.0\.1:$tlsport/127.0.0.1:TLSPORT/g" \
		"$T/$name.err"
}
# expect NAME RC STDOUT STDERR: the exact outputs of run NAME.
expect() {
	local name=$1 rc=$2 out=$3 err=$4
	if [ "$(cat "$T/$name.rc")" != "$rc" ] || [ "$(cat "$T/$name.out")" != "$out" ] ||
		[ "$(cat "$T/$name.err")" != "$err" ]; then
		echo "FAIL $name: exit $(cat "$T/$name.rc") (want $rc)"
		echo "--- stdout:"; cat "$T/$name.out"
		echo "--- want:"; printf '%s\n' "$out"
		echo "--- stderr:"; cat "$T/$name.err"
		echo "--- want:"; printf '%s\n' "$err"
		fail=1
	fi
}
# ops SCENARIO: the operations and statuses the stand-in saw, in order.
ops() {
	awk -v s="$1" '$1 == s && $3 != "INVALID" { printf "%s%s:%s", sep, $3, $4; sep = " " } END { print "" }' \
		"$T/standin.log"
}
expect_ops() {
	local got
	got=$(ops "$1")
	if [ "$got" != "$2" ]; then
		echo "FAIL $1: the stand-in saw: $got"
		echo "                    want: $2"
		fail=1
	fi
}
recorded() {
	grep -q "\"url\":	\"$2\"" "$T/$1/decisions.json" 2>/dev/null &&
		grep -q '"decision":	"posted"' "$T/$1/decisions.json" ||
		{ echo "FAIL $1: decisions.json does not record $2"; fail=1; }
}

D=https://github.com/demo/widgets/discussions

# --dry-run: the golden report, then each request it would send with its
# variables, and nothing sent (no token needed either). The requests
# printed, sent to the stand-in as scenario dry-check, are valid against
# GitHub's schema (checked with the others at the end).
dry_requests() { # NAME GOLDEN NAMES
	python3 "$CHECK_SRCDIR/tests/lib/dry-requests.py" "$T/$1.out" "$2" "$3" \
		--post "http://127.0.0.1:$port/dry-check/graphql" >"$T/$1.requests" ||
		{ echo "FAIL $1: the requests it printed are not the ones expected"; fail=1; }
}
run dry-run never --dry-run
dry_requests dry-run "$golden/demo-flaky.md" \
	"RepoAndCategories FindReports CreateDiscussion AddDiscussionComment ReopenDiscussion AddDiscussionComment"
grep -q '^CreateDiscussion .*"categoryId": "<the id of the category RepoAndCategories answers>"' \
	"$T/dry-run.requests" && grep -q '^RepoAndCategories {"name": "widgets", "owner": "demo"}$' "$T/dry-run.requests" ||
	{ echo "FAIL dry-run: the variables printed:"; cat "$T/dry-run.requests"; fail=1; }
grep -q "POSTed to http://127.0.0.1:$port/never/graphql with the header Authorization: bearer \*\*\*" "$T/dry-run.out" ||
	{ echo "FAIL dry-run: no endpoint line"; fail=1; }
[ "$(cat "$T/dry-run.rc")" = 0 ] && [ ! -s "$T/dry-run.err" ] ||
	{ echo "FAIL dry-run: exit $(cat "$T/dry-run.rc"):"; cat "$T/dry-run.err"; fail=1; }
expect_ops never ""

export GH_TOKEN="$TOKEN"

# Posted: the body GitHub got is the golden one; the URL is recorded.
run ok ok
expect ok 0 "$D/40" ""
expect_ops ok "RepoAndCategories:200 FindReports:200 CreateDiscussion:200"
cmp -s "$T/bodies/ok-40.md" "$golden/demo-flaky.md" ||
	{ echo "FAIL ok: the posted report differs from the golden one"; fail=1; }
# No path of this machine (the project's root, the output directory);
# the commit and the test's source line at it are linked.
grep -qF "$T" "$T/bodies/ok-40.md" && { echo "FAIL ok: the posted report holds a local path"; fail=1; }
grep -qF "(https://github.com/demo/widgets/commit/4f2a9c1e7b3d5a6f8e9d0c1b2a3f4e5d6c7b8a90)" \
	"$T/bodies/ok-40.md" || { echo "FAIL ok: no commit link"; fail=1; }
grep -qF "https://github.com/demo/widgets/blob/4f2a9c1e7b3d5a6f8e9d0c1b2a3f4e5d6c7b8a90/cache/cache_test.go#L11" \
	"$T/bodies/ok-40.md" || { echo "FAIL ok: no link to the test's source line"; fail=1; }
recorded ok "$D/40"

# Never twice: the same test again finds the first post and adds its
# evidence to it as a comment (report-follow.sh tests the comments).
run again ok
expect again 0 "$D/40#discussioncomment-4001" "flakesweep: added the new evidence to the open discussion of $ID: $D/40"

# Refusals: nothing is sent.
run failing refusal --test 'example.com/widgets/clock::TestClock/skew'
expect failing 2 "" "flakesweep: example.com/widgets/clock::TestClock/skew is failing, not flaky: it failed all 500 runs at cpu 1, load 1; flakesweep posts only flaky tests"
run passed refusal --test 'example.com/widgets/parse::TestParse'
expect passed 2 "" "flakesweep: example.com/widgets/parse::TestParse passed every run (3000): there is nothing to report"
run missing refusal --test 'example.com/widgets/cache::TestNope'
expect missing 2 "" "flakesweep: example.com/widgets/cache::TestNope is not in $T/missing/results.json"
printf 'Fails.\n\n### Details\n' >"$T/heading.md"
run heading refusal --description "$T/heading.md"
expect heading 2 "" "flakesweep: the description text has a Markdown heading on line 3: the report's sections are fixed, so write it without headings"
printf '\n \n' >"$T/empty.md"
run empty-notes refusal --notes "$T/empty.md"
expect empty-notes 2 "" "flakesweep: the notes text is empty"
run no-api refusal --api-url http://example.com/graphql
expect no-api 2 "" "flakesweep: --api-url must be https (http only on a loopback address): http://example.com/graphql"
run no-repo-flag refusal --repo nope
expect no-repo-flag 2 "" "flakesweep: --repo must be OWNER/NAME: nope"
run no-description refusal --description /nonexistent/description.md
expect no-description 2 "" "flakesweep: cannot read the description file /nonexistent/description.md: No such file or directory"
run usage refusal --test
expect usage 2 "" "flakesweep: option --test needs a value"
"$FLAKESWEEP" report --results "$T/results.json" --test "$ID" --description - \
	--notes "$fx/demo/notes.md" --dry-run <"$fx/demo/description.md" >"$T/stdin.out" 2>&1 &&
	python3 "$CHECK_SRCDIR/tests/lib/dry-requests.py" "$T/stdin.out" "$golden/demo-flaky.md" \
		"RepoAndCategories FindReports CreateDiscussion AddDiscussionComment ReopenDiscussion AddDiscussionComment" \
		>/dev/null ||
	{ echo "FAIL stdin: --description - did not give the golden report"; fail=1; }
sed "s|$T/project|/nonexistent/project|g" "$T/results.json" >"$T/elsewhere.json"
set +e
"$FLAKESWEEP" report --results "$T/elsewhere.json" --test "$ID" --description "$fx/demo/description.md" \
	--api-url "http://127.0.0.1:$port/refusal/graphql" >"$T/no-origin.out" 2>"$T/no-origin.err"
echo $? >"$T/no-origin.rc"
set -e
expect no-origin 2 "" "flakesweep: no GitHub repository to post to: the project has no origin remote on GitHub; name one with --repo OWNER/NAME"
expect_ops refusal ""
expect_ops never ""

# A .git, a file in it or a source file that is a FIFO is not read and
# blocks nothing.
mkdir -p "$T/fifo1" "$T/fifo2/.git"
mkfifo "$T/fifo1/.git" "$T/fifo2/.git/config"
cp -r "$T/project" "$T/fifo3"
cp -r "$T/project" "$T/fifo4"
rm "$T/fifo3/go.mod" "$T/fifo4/cache/cache_test.go"
mkfifo "$T/fifo3/go.mod" "$T/fifo4/cache/cache_test.go"
for f in fifo1 fifo2 fifo3 fifo4; do
	sed "s|$T/project|$T/$f|g" "$T/results.json" >"$T/$f.json"
	set +e
	timeout 10 "$FLAKESWEEP" report --results "$T/$f.json" --test "$ID" \
		--description "$fx/demo/description.md" --dry-run >"$T/$f.out" 2>"$T/$f.err"
	rc=$?
	set -e
	if [ $rc != 0 ] || [ -s "$T/$f.err" ] || [ "$(head -1 "$T/$f.out")" != "$(head -1 "$golden/demo-flaky.md")" ]; then
		echo "FAIL $f: exit $rc (want 0), stderr:"; cat "$T/$f.err"; fail=1
	fi
done

# A token value in the results or the description is neither shown nor
# sent, and the refusal names neither the variable nor the value.
LEAK=ghp_leakedValue0123456789abcdefXYZ
GHE_LEAK=ghe_leakedValue0123456789abcdefXYZ
sed "s|=== RUN   TestCache/evicts_under_pressure|GH_TOKEN=$LEAK|" "$T/results.json" >"$T/leak.json"
grep -q "$LEAK" "$T/leak.json" || { echo "FAIL: leak.json holds no token"; fail=1; }
printf 'Fails under load. GH_ENTERPRISE_TOKEN=%s\n' "$GHE_LEAK" >"$T/leak.md"
REFUSED="flakesweep: the report holds the value of a GitHub token from the environment: remove it from the results, the description and the notes; nothing was shown or sent"
(export GH_TOKEN=$LEAK; run leak-dry-run leak --dry-run --results "$T/leak.json")
expect leak-dry-run 2 "" "$REFUSED"
(export GH_TOKEN=$LEAK; run leak-post leak --results "$T/leak.json")
expect leak-post 2 "" "$REFUSED"
(export GH_ENTERPRISE_TOKEN=$GHE_LEAK; run leak-enterprise leak --dry-run --description "$T/leak.md")
expect leak-enterprise 2 "" "$REFUSED"
(export GH_ENTERPRISE_TOKEN=$GHE_LEAK GH_TOKEN=$TOKEN; run leak-enterprise-post leak --description "$T/leak.md")
expect leak-enterprise-post 2 "" "$REFUSED"
expect_ops leak ""
if grep -l -e "$LEAK" -e "$GHE_LEAK" "$T"/leak-*.out "$T"/leak-*.err "$T"/bodies/* 2>/dev/null; then
	echo "FAIL: a token value was shown or sent"
	fail=1
fi

# Credentials and permissions.
(unset GH_TOKEN; run no-token ok)
expect no-token 2 "" "flakesweep: no GitHub token: set GH_TOKEN or GITHUB_TOKEN (a token with the public_repo or repo scope, or Discussions write access)"
(unset GH_TOKEN; export GITHUB_TOKEN="$TOKEN"; run github-token ok)
expect github-token 0 "$D/40#discussioncomment-4002" "flakesweep: added the new evidence to the open discussion of $ID: $D/40"
run bad-credentials bad-credentials
expect bad-credentials 2 "" "flakesweep: GitHub rejected the token in GH_TOKEN (bad credentials)"
(export GH_TOKEN=ghp_wrongToken; run wrong-token ok)
expect wrong-token 2 "" "flakesweep: GitHub rejected the token in GH_TOKEN (bad credentials)"
run hostile-echo hostile-echo
expect hostile-echo 2 "" "flakesweep: GitHub rejected the token in GH_TOKEN (bad credentials)"
run insufficient-scopes insufficient-scopes
expect insufficient-scopes 2 "" "flakesweep: the token in GH_TOKEN is missing a scope: it needs public_repo (repo for a private repository)"
run forbidden forbidden
expect forbidden 2 "" "flakesweep: the token in GH_TOKEN may not do this (Resource not accessible by integration): posting needs Discussions write access, or the public_repo scope (repo for a private repository)"
expect_ops forbidden "RepoAndCategories:200 FindReports:200 CreateDiscussion:200"

# The repository and its categories.
run no-such-repo ok --repo demo/nope
expect no-such-repo 2 "" "flakesweep: repository demo/nope was not found, or the token in GH_TOKEN cannot see it"
run disabled discussions-disabled
expect disabled 2 "" "flakesweep: Discussions are not enabled in demo/widgets"
run no-category missing-category
expect no-category 2 "" 'flakesweep: demo/widgets has no discussion category "Bugs"; it has: Announcements, General, Q&A (choose one with --category)'
run other-category missing-category --category general
expect other-category 0 "$D/40" ""
recorded other-category "$D/40"

# Earlier reports: an open discussion gets a comment, an open issue stops
# the post, one closed as outdated is linked.
run open-discussion open-discussion
expect open-discussion 0 "$D/40#discussioncomment-4001" "flakesweep: added the new evidence to the open discussion of $ID: $D/40"
expect_ops open-discussion "RepoAndCategories:200 FindReports:200 AddDiscussionComment:200"
run open-issue open-issue
expect open-issue 2 "https://github.com/demo/widgets/issues/12" "flakesweep: an open issue already names $ID: https://github.com/demo/widgets/issues/12"
run closed-discussion closed-discussion
expect closed-discussion 0 "$D/41" ""
grep -qx -- "- An earlier report, closed: $D/40" "$T/bodies/closed-discussion-41.md" ||
	{ echo "FAIL closed-discussion: the closed report is not linked"; fail=1; }
run unrelated-open unrelated-open
expect unrelated-open 0 "$D/41" ""

# Rate limits.
run secondary secondary-rate-limit
expect secondary 0 "$D/40" "flakesweep: GitHub's rate limit: waiting 2s, then looking for the discussion again before another try"
expect_ops secondary-rate-limit "RepoAndCategories:200 FindReports:200 CreateDiscussion:403 FindReports:200 CreateDiscussion:200"
awk '$1 == "secondary-rate-limit" && $3 == "CreateDiscussion" { sub("t=", "", $8); t[n++] = $8 }
	END { exit !(n == 2 && t[1] - t[0] >= 1000) }' "$T/standin.log" ||
	{ echo "FAIL secondary: less than a second between the two mutations"; fail=1; }
run secondary-long secondary-rate-limit-long
if [ "$(cat "$T/secondary-long.rc")" != 2 ] ||
	! grep -qxE "flakesweep: GitHub's rate limit was reached: try again after ([0-9]{4}-[01][0-9]-[0-3][0-9] )?[0-2][0-9]:[0-5][0-9]" "$T/secondary-long.err" ||
	[ -s "$T/secondary-long.out" ]; then
	echo "FAIL secondary-long:"; cat "$T/secondary-long.err"; fail=1
fi
run primary rate-limited
expect primary 2 "" "flakesweep: GitHub's rate limit was reached: try again after 2100-01-01 00:00"
expect_ops rate-limited "RepoAndCategories:200"
run too-many too-many-requests
expect too-many 0 "$D/40" "flakesweep: GitHub's rate limit: waiting 1s before trying again"

# Server faults and timeouts.
run bad-gateway-once bad-gateway-once
expect bad-gateway-once 0 "$D/40" "flakesweep: waiting 1s before trying again: GitHub answered HTTP 502: try again later"
run bad-gateway bad-gateway
expect bad-gateway 2 "" "flakesweep: waiting 1s before trying again: GitHub answered HTTP 502: try again later
flakesweep: waiting 2s before trying again: GitHub answered HTTP 502: try again later
flakesweep: waiting 4s before trying again: GitHub answered HTTP 502: try again later
flakesweep: GitHub answered HTTP 502: try again later"
expect_ops bad-gateway "RepoAndCategories:502 RepoAndCategories:502 RepoAndCategories:502 RepoAndCategories:502"
run slow-once slow-once
expect slow-once 0 "$D/40" "flakesweep: waiting 1s before trying again: GitHub did not answer within 3s (http://127.0.0.1:PORT/slow-once/graphql)"
run slow slow
expect slow 2 "" "flakesweep: waiting 1s before trying again: GitHub did not answer within 3s (http://127.0.0.1:PORT/slow/graphql)
flakesweep: waiting 2s before trying again: GitHub did not answer within 3s (http://127.0.0.1:PORT/slow/graphql)
flakesweep: waiting 4s before trying again: GitHub did not answer within 3s (http://127.0.0.1:PORT/slow/graphql)
flakesweep: GitHub did not answer within 3s (http://127.0.0.1:PORT/slow/graphql)"

# A create whose reply is lost, or comes too late, is found, not repeated.
run lost-reply lost-reply
expect lost-reply 0 "$D/40" "flakesweep: cannot reach http://127.0.0.1:PORT/lost-reply/graphql: Empty reply from server; looking for the discussion again in 2s before another try"
expect_ops lost-reply "RepoAndCategories:200 FindReports:200 CreateDiscussion:lost FindReports:200"
recorded lost-reply "$D/40"
run slow-create slow-create
expect slow-create 0 "$D/40" "flakesweep: GitHub did not answer within 3s (http://127.0.0.1:PORT/slow-create/graphql); looking for the discussion again in 2s before another try"
expect_ops slow-create "RepoAndCategories:200 FindReports:200 CreateDiscussion:slow FindReports:200"
for s in lost-reply slow-create; do
	n=$(grep -c "^$s .* created=" "$T/standin.log" || true)
	[ "$n" = 1 ] || { echo "FAIL $s: $n discussions created"; fail=1; }
done

# A link that is not a GitHub page is neither printed nor recorded.
for s in url-escape:https://github.com url-foreign:https://github.com.evil.example \
	url-http:http://github.com; do
	web=${s#*:}
	s=${s%%:*}
	run "$s" "$s"
	expect "$s" 2 "" "flakesweep: GitHub answered with a discussion URL that is not a GitHub page ($web/demo/widgets/discussions/40); the discussion may exist, but nothing was recorded"
	if grep -qs posted "$T/$s/decisions.json"; then
		echo "FAIL $s: decisions.json records the post"; fail=1
	fi
done
run url-open url-open-escape
expect url-open 2 "" "flakesweep: GitHub answered with a URL that is not a GitHub page: https://github.com/demo/widgets/discussions/40"
expect_ops url-open-escape "RepoAndCategories:200 FindReports:200"

# Plain HTTP only to loopback: localhost is resolved and pinned, a name
# that merely starts with 127. is refused before anything is sent.
run localhost open-discussion --api-url "http://localhost:$port/open-discussion/graphql"
expect localhost 0 "$D/40#discussioncomment-4002" "flakesweep: added the new evidence to the open discussion of $ID: $D/40"
run fake-loopback refusal --api-url http://127.attacker.example:18850/graphql
expect fake-loopback 2 "" "flakesweep: --api-url must be https (http only on a loopback address): http://127.attacker.example:18850/graphql"

# TLS is always verified; a private CA comes from SSL_CERT_FILE or CURL_CA_BUNDLE.
if [ "$tlsport" != none ]; then
	run tls-untrusted tls --api-url "https://127.0.0.1:$tlsport/tls/graphql"
	if [ "$(cat "$T/tls-untrusted.rc")" != 2 ] || [ -s "$T/tls-untrusted.out" ] ||
		! grep -qx "flakesweep: cannot reach https://127.0.0.1:TLSPORT/tls/graphql: SSL certificate problem: .* (a custom CA goes in SSL_CERT_FILE or CURL_CA_BUNDLE)" "$T/tls-untrusted.err"; then
		echo "FAIL tls-untrusted:"; cat "$T/tls-untrusted.err"; fail=1
	fi
	(export SSL_CERT_FILE="$T/ca.pem"; run tls-cert-file tls --api-url "https://127.0.0.1:$tlsport/tls/graphql")
	expect tls-cert-file 0 "$D/40" ""
	(export CURL_CA_BUNDLE="$T/ca.pem"; run tls-ca-bundle tls2 --api-url "https://127.0.0.1:$tlsport/tls2/graphql")
	expect tls-ca-bundle 0 "$D/40" ""
	expect_ops tls "RepoAndCategories:200 FindReports:200 CreateDiscussion:200"
else
	echo "# openssl is not installed: the TLS checks did not run"
fi

# A proxy in the environment is not used for a loopback endpoint.
(export http_proxy=http://127.0.0.1:9 HTTPS_PROXY=http://127.0.0.1:9 ALL_PROXY=http://127.0.0.1:9; run proxy ok)
expect proxy 0 "$D/40#discussioncomment-4003" "flakesweep: added the new evidence to the open discussion of $ID: $D/40"

# The masked trace: headers both ways, never the token.
(export FLAKESWEEP_HTTP_TRACE=1; run trace ok)
grep -q '^> Authorization: (hidden)$' "$T/trace.err" ||
	{ echo "FAIL trace: no masked Authorization line"; fail=1; }
grep -q '^< HTTP/1.1 200 OK' "$T/trace.err" || { echo "FAIL trace: no reply headers"; fail=1; }

# The stand-in's own validator refuses a document GitHub would refuse.
node -e '
const http = require("http");
const body = JSON.stringify({ query: "query Bad { repository(owner: \"demo\", name: \"widgets\") { discussions(closed: true) { nodes { state } } } }" });
const req = http.request({ host: "127.0.0.1", port: process.argv[1], path: "/selfcheck/graphql", method: "POST",
  headers: { "content-type": "application/json", authorization: "bearer x", "user-agent": "check" } },
  (res) => { res.resume(); res.on("end", () => process.exit(0)); });
req.end(body);' "$port"
grep -q "^selfcheck 1 INVALID Unknown argument \"closed\"" "$T/standin.log" &&
	grep -q "^selfcheck 1 INVALID Cannot query field \"state\" on type \"Discussion\"" "$T/standin.log" ||
	{ echo "FAIL: the stand-in accepted an invalid document"; fail=1; }

# Every document flakesweep sent was valid, authenticated and named itself.
if grep -v '^selfcheck ' "$T/standin.log" | grep -E 'valid=no|INVALID|auth=missing|ua=bad'; then
	echo "FAIL: the stand-in saw the requests above"
	fail=1
fi
grep -v '^selfcheck ' "$T/standin.log" | grep -q 'valid=yes auth=ok ua=ok' ||
	{ echo "FAIL: the stand-in saw no request"; fail=1; }

# The token appears nowhere: no output, no log, no result, no trace.
kill $standin 2>/dev/null || true
wait $standin 2>/dev/null || true
if grep -rlF "$TOKEN" "$T"; then
	echo "FAIL: the token leaked into the files above"
	fail=1
fi

[ $fail = 0 ] && echo "report: all scenarios behaved"
exit $fail

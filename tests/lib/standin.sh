# SPDX-License-Identifier: MIT
# The local stand-in for GitHub's GraphQL endpoint (tests/server), which
# checks every document against GitHub's schema, for the dashboard tests
# (sourced after tests/lib/tmux.sh, whose fail and tmux_cleanup it uses).
# standin_available: whether node and the server's modules are there.
# standin_start TEST_ID LIFETIME: starts it in $T (port, standin.log,
# standin.out), knowing TEST_ID as reported before; exports STANDIN_TOKEN,
# sets STANDIN_URL and stops it when the script exits. A script with an
# editor writes $T/editor.sh with standin_editor TEXT. STANDIN_BODIES
# names a directory for the discussions and comments it receives.

standin_available() {
	command -v node >/dev/null 2>&1 &&
		[ -d "$CHECK_SRCDIR/tests/server/node_modules/@octokit/graphql-schema" ]
}

standin_start() { # TEST_ID LIFETIME
	export STANDIN_TOKEN=ghp_standinToken0123456789abcdefXYZ
	node "$CHECK_SRCDIR/tests/server/graphql-standin.js" --port-file "$T/port" \
		--log "$T/standin.log" --test "$1" --lifetime "$2" --idle $(($2 * 3 / 4)) \
		${STANDIN_BODIES:+--bodies "$STANDIN_BODIES"} \
		>"$T/standin.out" 2>&1 &
	standin=$!
	trap 'kill $standin 2>/dev/null || true; tmux_cleanup' EXIT
	for _ in $(seq 100); do [ -s "$T/port" ] && break; sleep 0.1; done
	[ -s "$T/port" ] || { cat "$T/standin.out"; fail "the stand-in did not start"; }
	STANDIN_URL="http://127.0.0.1:$(cat "$T/port")/ok/graphql"
}

standin_editor() { # TEXT: an EDITOR that appends TEXT to the file
	printf '#!/bin/sh\nprintf "%%s\\n" "%s" >>"$1"\n' "$1" >"$T/editor.sh"
	chmod +x "$T/editor.sh"
}

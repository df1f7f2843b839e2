#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 120
# --isolate-net gives each run its own network namespace: a test that binds
# a fixed port never collides with its sibling runs at load 2, while
# without it the same sweep sees collisions (case 05).
set -eu
[ "$(id -u)" = 0 ] || { echo "SKIP needs root for network namespaces"; exit 77; }
cd "$CHECK_TMPDIR"
probe=$CHECK_SRCDIR/tests/fixtures/tap/port.sh
rc=0
"$FLAKESWEEP" --driver tap --cpu 1 --load 2 --count 20 --confirm 0 --isolate-net --ui none \
	-o iso -- sh "$probe" >/dev/null 2>err || rc=$?
cat err
[ "$rc" = 0 ] || { echo "isolated sweep exit status $rc, expected 0"; exit 1; }
rc=0
"$FLAKESWEEP" --driver tap --cpu 1 --load 2 --count 20 --confirm 0 --ui none \
	-o shared -- sh "$probe" >/dev/null 2>&1 || rc=$?
python3 - <<'PY'
import json, sys
iso = json.load(open("iso/results.json"))
shared = json.load(open("shared/results.json"))
t = {x["test"]: x for x in iso["tests"]}
def fail(msg):
    print("FAIL:", msg); sys.exit(1)
if not iso["config"]["isolate_net"]:
    fail("config.isolate_net")
if iso["summary"]["runs"] != 20 or sum(c["runs"] for c in t["bind"]["cells"]) != 20:
    fail("20 isolated runs of bind")
if iso["summary"]["failures"] != 0:
    fail("isolated runs collided: %s" % iso["summary"])
print("ok: 20/20 isolated runs bound the port; without isolation %d of %d failed"
      % (shared["summary"]["failures"], shared["summary"]["runs"]))
PY

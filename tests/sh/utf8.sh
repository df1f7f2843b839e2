#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 180
# A TAP test whose name is not UTF-8 (bytes \377\376): every JSON file the
# sweep writes (each journal line, results.json, the quarantine file, the
# control socket's messages) is valid UTF-8 JSON, with each such byte
# written as the escape \udcXX, and the test id comes back byte for byte:
# the confirm runs and --run select it by its real bytes, `report
# --rebuild` writes the same results.json, and a quarantine entry made
# with its real bytes matches it. A control-socket line that is not UTF-8
# is refused and never echoed.
set -u
command -v python3 >/dev/null || { echo "SKIP python3 is not installed"; exit 77; }
T="$CHECK_TMPDIR/utf8"
export LC_ALL=C
mkdir -p "$T" || exit 1
cd "$T" || exit 1
bad=0
fail() {
	echo "FAIL $*"
	bad=1
}

# The script notes each test it is asked for (--tap-select arg or env),
# as bytes, in selected.
cat >esc.sh <<'EOF'
#!/bin/sh
sel=${FLAKESWEEP_TEST:-${1:-}}
[ -n "$sel" ] && printf '%s\n' "$sel" >>selected
[ -n "${SLOW:-}" ] && sleep 0.3
echo "1..3"
echo "ok 1 - fine"
printf 'not ok 2 - bad \377\376 name\n'
printf 'ok 3 - caf\303\251\n'
EOF
chmod +x esc.sh
id=$(printf './esc.sh::bad \377\376 name')

# valid FILE...: each file, and each line of a .jsonl, is valid UTF-8 JSON
# (Python reads JSON text as UTF-8 and refuses anything else).
valid() {
	python3 - "$@" <<'PY' || bad=1
import json, sys
for path in sys.argv[1:]:
    data = open(path, "rb").read()
    try:
        if path.endswith(".jsonl"):
            for n, line in enumerate(data.decode("utf-8").splitlines(), 1):
                json.loads(line)
        else:
            json.loads(data.decode("utf-8"))
    except ValueError as e:
        print("FAIL %s: not UTF-8 JSON: %s" % (path, e))
        sys.exit(1)
PY
}

# has_id FILE: results.json FILE has the failing test $id, read back with
# surrogateescape (PEP 383) into its bytes.
has_id() {
	python3 - "$1" "$id" <<'PY' || bad=1
import json, os, sys
r = json.load(open(sys.argv[1], encoding="utf-8"))
want = os.fsencode(sys.argv[2])
t = [t for t in r["tests"] if t["id"].encode("utf-8", "surrogateescape") == want]
if not t or t[0]["verdict"] != "failing":
    print("FAIL %s: no failing test %r in %r" % (sys.argv[1], want, [t["id"] for t in r["tests"]]))
    sys.exit(1)
PY
}

"$FLAKESWEEP" --cpu 1 --load 1 --count 2 --confirm 1 --no-race --timeout 10s --ui none \
	--canaries 0 -o out --driver tap -- ./esc.sh >sweep.out 2>sweep.err </dev/null
rc=$?
[ "$rc" = 1 ] || { fail "sweep exit $rc, expected 1"; cat sweep.err; }
valid out/journal.jsonl out/results.json
# The id read back with surrogateescape gives the bytes; the confirm run
# selected the test by those bytes.
has_id out/results.json
grep -qxF "bad $(printf '\377\376') name" selected || fail "the confirm run did not select the test by its bytes"
grep -q "$(printf '\357\277\275')" out/report.txt || fail "report.txt does not show U+FFFD for the bytes"
if grep -qaP '\xff' out/report.txt sweep.out sweep.err; then
	fail "a raw \\377 reached report.txt or the terminal"
fi

# report --rebuild reads the escapes back into the same bytes: the same
# tests, with the same ids and counts (the order of the tests may differ,
# with or without such bytes).
cp out/results.json live.json
"$FLAKESWEEP" report --rebuild out >/dev/null 2>rebuild.err || true
valid out/results.json
python3 - live.json out/results.json <<'PY' || bad=1
import json, sys
a, b = (json.load(open(p, encoding="utf-8")) for p in sys.argv[1:])
for d in (a, b):
    d["tests"].sort(key=lambda t: t["id"])
if a != b:
    print("FAIL report --rebuild wrote other results: %r" % [k for k in a if a[k] != b.get(k)])
    sys.exit(1)
PY

# --run finds the test by a pattern, and its runs count for its id.
"$FLAKESWEEP" --run 'bad' --count 1 --cpu 1 --load 1 --no-race --timeout 10s --ui none \
	--canaries 0 -o run --driver tap -- ./esc.sh >run.out 2>run.err </dev/null
valid run/journal.jsonl run/results.json
has_id run/results.json

# A quarantine entry given the real bytes is written escaped, read back,
# and matches the failing test of results.json.
"$FLAKESWEEP" quarantine add "$id" any --owner me --issue '#1' --expires 2099-01-01 \
	--file q.json >q.out 2>&1 || { fail "quarantine add"; cat q.out; }
valid q.json
grep -qF '\udcff\udcfe' q.json || fail "q.json does not hold the escapes"
"$FLAKESWEEP" quarantine list --file q.json --results out/results.json --now 2026-12-01 \
	>ql.out 2>&1
grep -q 'active' ql.out || { fail "the quarantine entry does not match the test"; cat ql.out; }
"$FLAKESWEEP" quarantine list --file q.json --json --now 2026-12-01 >ql.json 2>&1
valid ql.json
"$FLAKESWEEP" quarantine remove "$id" --file q.json >qr.out 2>&1 || { fail "quarantine remove"; cat qr.out; }
[ "$(tr -d ' \n' <q.json)" = "[]" ] || { fail "quarantine remove left"; cat q.json; }

# The control socket: a line that is not UTF-8 is refused without echoing
# it; a test id sent escaped selects the test by its bytes.
: >selected
SLOW=1 "$FLAKESWEEP" --cpu 1 --load 1 --count 8 --confirm 0 --no-race --timeout 10s --ui none \
	--canaries 0 -o sock --driver tap -- ./esc.sh >sock.out 2>sock.err </dev/null &
pid=$!
for _ in $(seq 200); do
	[ -S sock/control.sock ] && grep -q '"type":"run"' sock/journal.jsonl 2>/dev/null && break
	sleep 0.1
done
python3 - sock/control.sock "$id" >socket.log 2>&1 <<'PY' || bad=1
import json, os, socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
f = s.makefile("rb")
test = os.fsencode(sys.argv[2]).decode("utf-8", "surrogateescape")
lines = [b'{"cmd":"pa\xffuse","id":1}\n',
         b'{"cmd":"confirm","test":"\xff\xfe","count":1,"id":2}\n',
         (json.dumps({"cmd": "confirm", "test": test, "count": 1, "id": 3}) + "\n").encode()]
for l in lines:
    s.sendall(l)
replies = {}
while len(replies) < 3:
    raw = f.readline()
    if not raw:
        break
    if b"\xff" in raw:
        print("FAIL a raw \\377 on the socket: %r" % raw)
        sys.exit(1)
    m = json.loads(raw.decode("utf-8"))
    if m.get("type") == "reply":
        replies[m.get("id")] = m
ok = True
for i in (1, 2):
    r = replies.get(i, {})
    if r.get("ok") is not False or "not UTF-8" not in r.get("error", ""):
        print("FAIL reply %d: %r, expected a refusal naming UTF-8" % (i, r))
        ok = False
if replies.get(3, {}).get("ok") is not True:
    print("FAIL reply 3: %r, expected the escaped id to confirm" % replies.get(3))
    ok = False
sys.exit(0 if ok else 1)
PY
cat socket.log
wait $pid
valid sock/journal.jsonl sock/results.json
grep -qxF "bad $(printf '\377\376') name" selected || fail "the confirm asked on the socket did not select the test by its bytes"

[ "$bad" = 0 ] && echo "ok: non-UTF-8 test name escaped in every JSON file and read back"
exit $bad

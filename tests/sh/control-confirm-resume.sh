#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 240
# A confirm asked for on the control socket during the sweep phase is
# served once: the sweep completes with --confirm runs plus the ones asked
# for, and each --resume of the complete sweep runs nothing (it ran the
# request again, 3 more runs a pair, on every resume). A line longer than
# the socket's 1 MiB is refused as such, however it arrives, and the
# connection goes on.
set -eu
T="$CHECK_TMPDIR"
cd "$T"
sweep_pid=
cleanup() { [ -z "$sweep_pid" ] || kill -9 "$sweep_pid" 2>/dev/null || true; }
trap cleanup EXIT
fail() {
	echo "FAIL: $*"
	[ ! -s "$T/sweep.err" ] || { echo "the sweep's stderr:"; head -20 "$T/sweep.err"; }
	exit 1
}
runs() { grep -c '"type":"run"' "$1/journal.jsonl" || true; }
# beta fails in runs 3, 6, ...: it fails in the sweep, so --confirm runs
# it too.
cat >t.sh <<'EOF'
#!/bin/sh
sleep 0.1
echo "1..2"
echo "ok 1 - alpha"
if [ $((FLAKESWEEP_RUN % 3)) = 0 ]; then echo "not ok 2 - beta"; else echo "ok 2 - beta"; fi
EOF
chmod +x t.sh
O="$T/out"
setsid "$FLAKESWEEP" --ui none --driver tap --cpu 1 --load 1,2 --count 30 --confirm 2 --canaries 0 \
	--timeout 10s -o "$O" -- ./t.sh >sweep.out 2>sweep.err </dev/null &
sweep_pid=$!
for _ in $(seq 300); do
	[ -S "$O/control.sock" ] && [ "$(runs "$O")" -ge 2 ] && break
	sleep 0.1
done
[ -S "$O/control.sock" ] || fail "no control socket in $O"
python3 - "$O/control.sock" >replies <<'PY'
import json, socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
f = s.makefile("rb")
def send(text):
    s.sendall(text)
    while True:
        m = json.loads(f.readline())
        if m["type"] == "reply":
            print(m.get("error", "ok"))
            return m
send(b'{"cmd":"confirm","test":"./t.sh::beta","count":3}\n')
send(b'{"cmd":"x","pad":"' + b"x" * (1024 * 1024 + 30) + b'"}\n')
send(b"y" * (1024 * 1024 + 300000) + b"\n")
send(b'{"cmd":"pause"}\n')
send(b'{"cmd":"resume"}\n')
PY
rc=0
wait "$sweep_pid" || rc=$?
sweep_pid=
[ "$rc" = 1 ] || fail "the sweep exited $rc, expected 1 (beta is flaky)"
expected="ok
line longer than 1 MiB
line longer than 1 MiB
ok
ok"
[ "$(cat replies)" = "$expected" ] || { echo "replies:"; cat replies; fail "unexpected replies"; }
# The request was made in the sweep phase.
awk '/"type":"confirm"/ { c = NR } /"type":"phase"/ && /"confirm"/ { p = NR }
	END { exit !(c && p && c < p) }' "$O/journal.jsonl" ||
	fail "the confirm line is not in the sweep phase"
# confirm_runs: beta's confirm runs at each pair, as results.json counts them.
confirm_runs() {
	python3 - "$O/results.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = [t for t in d["tests"] if t["id"] == "./t.sh::beta"][0]
print(" ".join(str(c["runs"]) for c in sorted(t["cells"], key=lambda c: c["load"])
               if c["phase"] == "confirm"))
PY
}
n=$(runs "$O")
# 2 + 3 of beta in confirm at each pair (and maybe runs alone: the runs
# at load 2 overlap).
[ "$(confirm_runs)" = "5 5" ] || fail "beta's confirm runs a pair: $(confirm_runs), expected 5 5"
for i in 1 2; do
	rc=0
	"$FLAKESWEEP" --resume "$O" --ui none >"resume$i.out" 2>"resume$i.err" || rc=$?
	[ "$rc" = 1 ] || { cat "resume$i.err"; fail "resume $i exited $rc, expected 1"; }
	[ "$(runs "$O")" = "$n" ] || fail "resume $i of the complete sweep ran $(($(runs "$O") - n)) runs"
	[ "$(confirm_runs)" = "5 5" ] || fail "after resume $i, beta's confirm runs: $(confirm_runs)"
done
echo "ok: $n runs, beta confirmed 5 a pair, unchanged by two resumes"

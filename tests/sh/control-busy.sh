#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 240
# The control socket answers while every lane is full of runs that spend
# CPU: each of a series of commands gets its reply (a generous limit,
# no timing measured) while the sweep goes on running, and runs are
# journaled between the first reply and the last (more commands are sent
# until one is).
set -eu
cd "$CHECK_TMPDIR"
fail() {
	echo "FAIL: $*"
	head -20 sweep.err
	exit 1
}
cat >t.sh <<'EOF2'
#!/bin/sh
i=0
while [ $i -lt 3000 ]; do i=$((i + 1)); done
echo "1..1"
echo "ok 1 - spin"
EOF2
chmod +x t.sh
O=$PWD/out
setsid "$FLAKESWEEP" --ui none --driver tap --keep 0 --cpu 1 --load 8 --count 100000 --confirm 0 \
	--canaries 0 -o "$O" -- ./t.sh >sweep.out 2>sweep.err </dev/null &
sweep_pid=$!
trap 'kill -9 "$sweep_pid" 2>/dev/null || true' EXIT
for _ in $(seq 300); do
	[ -S "$O/control.sock" ] && grep -q '"type":"run"' "$O/journal.jsonl" && break
	sleep 0.1
done
[ -S "$O/control.sock" ] || fail "no control socket in $O"
python3 - "$O/control.sock" "$O/journal.jsonl" >replies <<'PY' || fail "no reply in time"
import json, socket, sys
s = socket.socket(socket.AF_UNIX)
s.settimeout(60)
s.connect(sys.argv[1])
f = s.makefile("rb")
def runs():
    return sum(1 for line in open(sys.argv[2]) if '"type":"run"' in line)
def send(n, cmd):
    s.sendall(b'{"cmd":"%s","id":%d}\n' % (cmd, n))
    while True:
        m = json.loads(f.readline())
        if m["type"] == "reply" and m.get("id") == n:
            print(m.get("error", "ok"))
            return
first = None
for n in range(1, 21):
    send(n, b"nothing" if n % 2 else b"resume")
    if first is None:
        first = runs()
# A turn's run lines reach the journal at the turn's end, after the replies
# sent in it: on a starved host, more commands, each answered, until one
# lands (or 400 more).
n = 21
while runs() <= first and n < 421:
    send(n, b"resume")
    n += 1
print("runs between" if runs() > first else "no runs between")
s.sendall(b'{"cmd":"stop"}\n')
PY
wait "$sweep_pid" || true
[ "$(grep -c '^ok$' replies)" -ge 10 ] || { cat replies; fail "expected at least 10 ok replies"; }
[ "$(grep -c 'unknown command nothing' replies)" = 10 ] || { cat replies; fail "expected 10 refusals"; }
grep -q '^runs between$' replies || fail "no run was journaled while the commands were answered"

# SPDX-License-Identifier: MIT
# Sourced by the tests/sh/variant28-*.sh scripts: tiny real projects built
# in a temporary directory, and JSON reads through python3.
command -v python3 >/dev/null || { echo "SKIP python3 is not installed"; exit 77; }
V28=${CHECK_TMPDIR:-$(mktemp -d)}
fail() {
	echo "FAIL: $*"
	exit 1
}
# gomod DIR MODULE PKG:MS...: a Go module whose package PKG has one test
# that sleeps MS milliseconds.
gomod() {
	local dir=$1 mod=$2 spec n ms
	shift 2
	mkdir -p "$dir"
	printf 'module %s\n\ngo 1.19\n' "$mod" >"$dir/go.mod"
	for spec in "$@"; do
		n=${spec%%:*} ms=${spec##*:}
		mkdir -p "$dir/$n"
		cat >"$dir/$n/${n}_test.go" <<GO
package $n

import (
	"testing"
	"time"
)

func TestSleep(t *testing.T) { time.Sleep(${ms} * time.Millisecond) }
GO
	done
}
# tapscript FILE MS TESTS: a TAP script that sleeps MS ms, then passes TESTS tests.
tapscript() {
	{
		echo '#!/bin/sh'
		echo "sleep $(awk "BEGIN{print $2/1000}")"
		echo "echo 1..$3"
		local i
		for i in $(seq "$3"); do echo "echo ok $i - t$i"; done
	} >"$1"
	chmod +x "$1"
}
# jq_py FILE EXPR: print the python expression EXPR over the JSON in FILE as d.
jq_py() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }
# view_lanes SCREEN LANES: the captured screen of view on a plan's
# simulation says "simulated", gives the plan's wall time ("plan: ... in
# all") and shows each of the LANES lanes, alone (L7) or in a cell of
# neighbours (L0-L3); it prints the runs its lane cells add up to.
view_lanes() {
	python3 - "$1" "$2" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
lanes = int(sys.argv[2])
assert "simulated" in text, "no \"simulated\" in the header"
assert re.search(r"plan: ~?\S+ in all", text), "no \"plan: ... in all\" ETA"
seen, runs = [], 0
for m in re.finditer(r"\bL(\d+)(?:-L(\d+))?\s+\S+\s+\d+% (\d+) runs?", text):
    a = int(m.group(1)); b = int(m.group(2) or a)
    seen.extend(range(a, b + 1)); runs += int(m.group(3))
missing = sorted(set(range(lanes)) - set(seen))
assert not missing, "lanes not shown: %s" % missing
assert len(seen) == len(set(seen)) == lanes, "lanes shown twice or unknown: %s" % sorted(seen)
print(runs)
PY
}
# probe SOCKET N [CMD]: N times, connect to a sweep's control socket and
# time until its first status line (flakesweep(5), CONTROL SOCKET); with
# CMD, then send {"cmd": CMD, "id": i} and time until the reply with that
# id. The hello and the status (the socket's own thread answers them) are
# waited for at most 2 s; a command's reply, which the sweep's loop gives
# "when it gets to" it, 30 s. Prints the p50, p99 and max in ms, and exits
# 1 when a request got no answer in time. The status may be older than the
# journal's phase line: the man page says how old it may be.
probe() {
	python3 - "$@" <<'PY'
import json, socket, sys, time
path, n = sys.argv[1], int(sys.argv[2])
cmd = sys.argv[3] if len(sys.argv) > 3 else None
def lines(s):
    buf = b""
    while True:
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            yield json.loads(line)
        chunk = s.recv(65536)
        if not chunk:
            return
        buf += chunk
st, rp, bad = [], [], []
for i in range(n):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(2.0)
    t0 = time.monotonic()
    stage = "hello"
    try:
        s.connect(path)
        it = lines(s)
        hello = next(it)
        stage = "status"
        assert hello["type"] == "hello" and hello["protocol"] == 1, hello
        status = next(o for o in it if o.get("type") == "status")
        st.append((time.monotonic() - t0) * 1000)
        if cmd:
            stage = "reply to " + cmd
            s.settimeout(30.0)
            t1 = time.monotonic()
            s.sendall(json.dumps({"cmd": cmd, "id": i}).encode() + b"\n")
            reply = next(o for o in it if o.get("type") == "reply")
            rp.append((time.monotonic() - t1) * 1000)
            if reply.get("id") != i:
                bad.append("request %d: reply %s" % (i, reply))
    except Exception as e:
        bad.append("request %d: no %s in time (%r)" % (i, stage, e))
    finally:
        s.close()
def pct(a, p):
    a = sorted(a)
    return a[min(len(a) - 1, int(p * len(a)))] if a else float("nan")
print("status after connect, %d requests: p50 %.1f ms, p99 %.1f ms, max %.1f ms"
      % (len(st), pct(st, .5), pct(st, .99), max(st or [0])))
if cmd:
    print("reply to cmd %r, %d requests: p50 %.1f ms, p99 %.1f ms, max %.1f ms"
          % (cmd, len(rp), pct(rp, .5), pct(rp, .99), max(rp or [0])))
for b in bad[:10]:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
}
# stop_sweep SOCKET: send stop to a running sweep.
stop_sweep() {
	python3 -c '
import json, socket, sys
s = socket.socket(socket.AF_UNIX); s.settimeout(5); s.connect(sys.argv[1])
s.sendall(b"{\"cmd\":\"stop\",\"id\":\"end\"}\n")
buf = b""
while b"\"reply\"" not in buf:
    c = s.recv(65536)
    if not c: break
    buf += c
' "$1" || true
}

#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 120
# Who holds a lease is said where front ends look: two sweeps share one
# --lease-dir and one exclusive group; while the first holds the lease
# (its one run naps), the second waits. The second's control socket
# status lists the lease as waiting, with the first as its owner (host,
# pid, output directory, start), the first's lists it held, and a `view`
# of the second shows "lease dev held by HOST:PID (DIR) for ...".
set -eu
. "$CHECK_SRCDIR/tests/lib/tmux.sh"
cd "$CHECK_TMPDIR"
mkdir leases
cat >nap.sh <<'EOF2'
#!/bin/sh
sleep 60
echo "1..1"
echo "ok 1 - nap"
EOF2
chmod +x nap.sh
pids=
trap 'for p in $pids; do kill -9 "$p" 2>/dev/null || true; done; tmux_cleanup' EXIT
sweep() { # NAME: a sweep of nap.sh in the group dev, in the background
	setsid "$FLAKESWEEP" --ui none --driver tap --cpu 1 --load 1 --count 1 --confirm 0 \
		--canaries 0 --timeout 2m --exclusive dev=. --lease-dir "$PWD/leases" \
		-o "$PWD/$1" -- ./nap.sh >"$1.out" 2>&1 </dev/null &
	pids="$pids $!"
}
sweep first
for _ in $(seq 300); do
	[ -s leases/dev/owner ] && break
	sleep 0.1
done
[ -s leases/dev/owner ] || { cat first.out; fail "the first sweep took no lease"; }
sweep second
for _ in $(seq 300); do
	grep -q "waiting: lease" second.out && [ -S second/control.sock ] && break
	sleep 0.1
done
grep -q "waiting: lease" second.out || { cat second.out; fail "the second sweep does not wait"; }

# status DIR: the leases of the sweep's first status on its control socket
# that lists any (the first status a view gets may be up to a second old:
# man 5, CONTROL SOCKET), or null when none came within 20 s.
status() {
	python3 - "$1/control.sock" <<'PY'
import json, socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.settimeout(30)
s.connect(sys.argv[1])
f = s.makefile("rb")
end, leases = time.time() + 20, None
while leases is None and time.time() < end:
    m = json.loads(f.readline())
    if m["type"] == "status":
        leases = m.get("leases")
print(json.dumps(leases))
PY
}
status second >second.leases
status first >first.leases
python3 - "$PWD" <<'PY'
import json, os, socket, sys
d = sys.argv[1]
owner = json.load(open(os.path.join(d, "leases/dev/owner")))
for name, state in (("second", "waiting"), ("first", "held")):
    leases = json.load(open(os.path.join(d, name + ".leases")))
    assert leases is not None and len(leases) == 1, (name, leases)
    l = leases[0]
    want = {"name": "dev", "path": os.path.join(d, "leases/dev"), "state": state,
            "host": socket.gethostname(), "pid": owner["pid"],
            "outdir": os.path.join(d, "first"), "started": owner["started"]}
    for k, v in want.items():
        assert l[k] == v, (name, k, l[k], v)
    assert l["started_ms"] > 0 and l["age_s"] >= 0, l
PY
pid=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["pid"])' leases/dev/owner)

# The view of the second sweep says who holds the lease it waits for.
start view 160 30 "$FLAKESWEEP view $PWD/second"
wait_for view "lease dev held by $(hostname):$pid ($PWD/first) for " 30
screen view | grep -qF "its runs wait" || { screen view; fail "view: no \"its runs wait\""; }
echo "lease-view: ok"

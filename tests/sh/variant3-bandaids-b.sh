#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 400
# Issue 30 (f), variant B: other shapes of the same band-aids, each test in
# a package of its own. Go: ./fetch's coin-flip test "fixed" by a retry
# loop that continues on failure and returns on success; ./worker's by a
# conditional t.Skipf (skipped unless an opt-in variable is set, so it
# skips in every run); ./pool's race fixed for real with a channel and a
# sync.WaitGroup. pytest: test_poll.py "fixed" by import time as clock;
# clock.sleep(...), test_lottery.py by the flaky plugin's decorator form
# @pytest.mark.flaky(max_runs=5), test_signal.py fixed for real with a
# threading.Event. flakesweep(1), compare, Band-aids: retry, skip, sleep,
# flaky-marker named; the real fixes have none (bandaids empty) and are
# neither masked nor skipped; a test that now skips is skipped.
set -eu
. "$CHECK_SRCDIR/tests/lib/variant3.sh"
need_go
need_pytest
command -v git >/dev/null || skip "no git"

mkdir -p repo/fetch repo/worker repo/pool repo/tests
cd repo
git init -q
git config user.email t@example.com
git config user.name t
printf 'module example.com/svc\n\ngo 1.19\n' >go.mod
coin='func coin() bool { return rand.New(rand.NewSource(time.Now().UnixNano())).Intn(2) == 0 }'
cat >fetch/fetch_test.go <<GO
package fetch

import (
	"errors"
	"math/rand"
	"testing"
	"time"
)

$coin

func get() error {
	if coin() {
		return errors.New("503 from upstream")
	}
	return nil
}

func TestGet(t *testing.T) {
	if err := get(); err != nil {
		t.Fatal(err)
	}
}
GO
cat >worker/worker_test.go <<GO
package worker

import (
	"math/rand"
	"testing"
	"time"
)

$coin

func TestDrain(t *testing.T) {
	if coin() {
		t.Fatal("queue not drained")
	}
}
GO
cat >pool/pool_test.go <<'GO'
package pool

import (
	"sync/atomic"
	"testing"
)

func work() int32 {
	s := int32(0)
	for i := 0; i < 200000; i++ {
		s += int32(i & 1)
	}
	return s
}

func TestPoolResult(t *testing.T) {
	var got int32
	go func() { atomic.StoreInt32(&got, work()) }()
	if atomic.LoadInt32(&got) != 100000 {
		t.Fatal("result not ready")
	}
}
GO
cat >tests/test_poll.py <<'PY'
import random
import threading


def test_poll_job_done():
    state = {}
    threading.Timer(random.uniform(0, 0.01), state.update, kwargs={"done": True}).start()
    assert state.get("done"), "job still running"
PY
cat >tests/test_lottery.py <<'PY'
import random


def test_lottery_draw():
    assert random.random() < 0.5, "lost the draw"
PY
cat >tests/test_signal.py <<'PY'
import random
import threading


def test_signal_seen():
    seen = []
    threading.Timer(random.uniform(0, 0.01), seen.append, [1]).start()
    assert seen, "signal not seen"
PY
git add -A
git commit -qm before

sweeps() { # tag
	local rc=0
	"$FLAKESWEEP" --cpu 1 --load 1 --count 12 --confirm 4 --canaries 0 --no-race --ui none \
		-o "$work/$1-go" ./... >"$work/$1-go.txt" 2>&1 || rc=$?
	[ "$rc" -le 1 ] || { cat "$work/$1-go.txt"; fail "$1 go sweep: exit $rc"; }
	rc=0
	"$FLAKESWEEP" --driver pytest --cpu 1 --load 1 --count 10 --confirm 3 --canaries 0 --ui none \
		-o "$work/$1-py" tests >"$work/$1-py.txt" 2>&1 || rc=$?
	[ "$rc" -le 1 ] || { cat "$work/$1-py.txt"; fail "$1 pytest sweep: exit $rc"; }
}
sweeps before

/usr/bin/python3 - <<'PY'
def edit(p, old, new):
    s = open(p).read()
    assert old in s, (p, old)
    open(p, "w").write(s.replace(old, new))

edit("fetch/fetch_test.go", """	if err := get(); err != nil {
		t.Fatal(err)
	}
""", """	var err error
	for try := 0; try < 10; try++ {
		if err = get(); err != nil {
			continue
		}
		return
	}
	t.Fatal(err)
""")
edit("worker/worker_test.go", """func TestDrain(t *testing.T) {
""", """func TestDrain(t *testing.T) {
	if os.Getenv("SVC_RUN_QUEUE_TESTS") == "" {
		t.Skipf("queue tests are opt-in")
	}
""")
edit("worker/worker_test.go", '"math/rand"\n', '"math/rand"\n\t"os"\n')
edit("pool/pool_test.go", """	var got int32
	go func() { atomic.StoreInt32(&got, work()) }()
""", """	var got int32
	var wg sync.WaitGroup
	ready := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		atomic.StoreInt32(&got, work())
		close(ready)
	}()
	<-ready
	wg.Wait()
""")
edit("pool/pool_test.go", '"sync/atomic"\n', '"sync"\n\t"sync/atomic"\n')
edit("tests/test_poll.py", "import threading\n", "import threading\nimport time as clock\n")
edit("tests/test_poll.py", "    assert state", "    clock.sleep(0.2)\n    assert state")
edit("tests/test_lottery.py", "import random\n", "import random\n\nimport pytest\n")
edit("tests/test_lottery.py", "def test_lottery", "@pytest.mark.flaky(max_runs=5)\ndef test_lottery")
edit("tests/test_signal.py", """    seen = []
    threading.Timer(random.uniform(0, 0.01), seen.append, [1]).start()
""", """    seen = []
    fired = threading.Event()
    threading.Timer(random.uniform(0, 0.01), lambda: (seen.append(1), fired.set())).start()
    fired.wait()
""")
PY
gofmt -l . | grep . && fail "gofmt: $(gofmt -l .)"
git add -A
git commit -qm after
sweeps after

for s in go py; do
	rc=0
	"$FLAKESWEEP" compare --json "$work/before-$s" "$work/after-$s" >"$work/$s.json" 2>"$work/$s.err" || rc=$?
	[ "$rc" -le 1 ] || { cat "$work/$s.err"; fail "compare $s: exit $rc"; }
	cat "$work/$s.err"
	/usr/bin/python3 -c '
import json, sys
for t in json.load(open(sys.argv[1]))["tests"]:
    print(t["id"], t["verdict"], t.get("measured"), [(b["kind"], b["file"], b["line"]) for b in t.get("bandaids", [])] if "bandaids" in t else None)' "$work/$s.json"
done

bad=0
has() { # file id kind
	json_get "$1" "any(b['kind'] == '$3' for t in d['tests'] if t['id'].endswith('$2') for b in t.get('bandaids') or [])" | grep -qx true ||
		{ echo "not ok: $2 has no band-aid of kind $3"; bad=1; }
}
none() { # file id
	local b
	b=$(json_get "$1" "[t.get('bandaids') for t in d['tests'] if t['id'].endswith('$2')][0]")
	[ "$b" = "[]" ] || { echo "not ok: $2 (a real fix) has band-aids $b, want []"; bad=1; }
}
verdict() { # file id verdicts...
	local v
	v=$(json_get "$1" "[t['verdict'] for t in d['tests'] if t['id'].endswith('$2')][0]")
	case " $3 " in *" $v "*) ;; *) echo "not ok: $2 verdict $v, want one of: $3"; bad=1 ;; esac
}
has "$work/go.json" fetch::TestGet retry
verdict "$work/go.json" fetch::TestGet masked
has "$work/go.json" worker::TestDrain skip
verdict "$work/go.json" worker::TestDrain skipped
none "$work/go.json" pool::TestPoolResult
verdict "$work/go.json" pool::TestPoolResult "fixed rarer inconclusive unchanged"
has "$work/py.json" ::test_poll_job_done sleep
verdict "$work/py.json" ::test_poll_job_done masked
has "$work/py.json" ::test_lottery_draw flaky-marker
verdict "$work/py.json" ::test_lottery_draw "masked unchanged worse"
none "$work/py.json" ::test_signal_seen
verdict "$work/py.json" ::test_signal_seen "fixed rarer inconclusive unchanged"
[ "$bad" = 0 ] || fail "band-aids not named as flakesweep(1), compare, says"
echo "ok: retry, skip, sleep and flaky-marker named; the channel/WaitGroup and Event fixes have none"

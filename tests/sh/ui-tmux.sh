#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# Black-box checks of the dashboard: the real binary in a private tmux
# server, keys by send-keys, screens by capture-pane. `view` of the demo
# fixture (panes, keys, help, resize, a terminal too small, following a
# journal as it grows), a live TAP sweep whose failing test prints escape
# sequences (pause, confirm, quit, the window title the dashboard's), the
# terminal given back on q, SIGTERM, SIGHUP, Ctrl-C and SIGSEGV, and
# TERM=dumb falling back to --ui line; then the boards of compare --ui full
# and of a live bisect --ui full.
set -eu

. "$CHECK_SRCDIR/tests/lib/tmux.sh"
T="$CHECK_TMPDIR"
FX="$CHECK_SRCDIR/tests/fixtures/ui"

# restored NAME: the program left the alternate screen and showed the cursor.
restored() {
	local alt cur
	alt=$(tm display-message -p -t "$1" '#{alternate_on}')
	cur=$(tm display-message -p -t "$1" '#{cursor_flag}')
	[ "$alt" = 0 ] || fail "$1: still on the alternate screen"
	[ "$cur" = 1 ] || fail "$1: the cursor is still hidden"
}
# fspid NAME: the flakesweep process in the pane.
fspid() {
	local shell
	shell=$(tm display-message -p -t "$1" '#{pane_pid}')
	pgrep -P "$shell" flakesweep | head -1
}

cp -r "$FX/demo" "$T/demo"
cp "$FX/quarantine.json" "$T/quarantine.json"
VIEW="$FLAKESWEEP view $T/demo --quarantine $T/quarantine.json"

# --- view at 120x40: every pane, then the keys.
start view 120 40 "$VIEW"
wait_for view "Flaky tests (4)"
s=$(screen view)
for want in "flakesweep  view: complete 200/200 runs" "2 flaky 2 failing" \
	"- Lanes: 1 lane x 2, idle: the sweep is over" "> TestLoadSensitive" \
	"example.com/flakesweep-demo::TestLoadSensitive" \
	"first failure (sweep, cpu 2, load 1" "reproduce:" "Quarantine (3," "expires in" \
	"overdue" "Enter details  Tab pane  c confirm  Q quarantine  p post bug"; do
	grep -qF -- "$want" <<<"$s" || { echo "$s"; fail "view: no \"$want\""; }
done
tm send-keys -t view j
wait_for view "> TestSometimesHangs"
tm send-keys -t view Enter
wait_for view "= TestSometimesHangs (2 of 4)"
tm send-keys -t view Escape
wait_for view "= Flaky tests (4)"
tm send-keys -t view G
wait_for view "> TestNeedsTwoCPUs"
tm send-keys -t view g
wait_for view "> TestLoadSensitive"
tm send-keys -t view Tab Tab
wait_for view "= Quarantine (3,"
tm send-keys -t view BTab BTab
wait_for view "= Flaky tests (4)"
tm send-keys -t view '?'
wait_for view "Keys of the flakesweep dashboard"
tm send-keys -t view '?'
wait_gone view "Keys of the flakesweep dashboard"
tm send-keys -t view / H a n g Enter
wait_for view 'Flaky tests (1 of 4, filter "Hang")'
tm send-keys -t view / C-u Enter
wait_for view "Flaky tests (4)"
tm send-keys -t view P
wait_for view "this view only reads the journal: nothing to pause"
# c on a sweep that is over would run it here: its binaries are not.
tm send-keys -t view c
wait_for view "confirm TestLoadSensitive: runs at each of 4 pairs: 10"
tm send-keys -t view Enter
wait_for view "cannot confirm example.com/flakesweep-demo::TestLoadSensitive here: its test binary"
cmp -s "$FX/demo/journal.jsonl" "$T/demo/journal.jsonl" || fail "view: c wrote to the journal"
# Resize: the 80-column layout, then too small, then back.
tm resize-window -t view -x 80 -y 24
wait_for view "= Flaky tests (4) =============================================================="
tm resize-window -t view -x 50 -y 12
wait_for view "too small: 50x12, need 60x16"
tm resize-window -t view -x 120 -y 40
wait_for view "example.com/flakesweep-demo::TestLoadSensitive"
tm send-keys -t view q
wait_for view "EXIT:0"
restored view

# --- the keys that decide, from view: d and Q write their files.
start decide 120 40 "$VIEW"
wait_for decide "Flaky tests (4)"
tm send-keys -t decide j d
wait_for decide "dismiss TestSometimesHangs: reason:"
tm send-keys -t decide -l "waits on a real network"
tm send-keys -t decide Enter
wait_for decide "dismissed example.com/flakesweep-demo::TestSometimesHangs"
tm send-keys -t decide G Q
wait_for decide "channel: cpu=1,load=1"
tm send-keys -t decide Enter
wait_for decide "owner (a person or team):"
tm send-keys -t decide -l alice
tm send-keys -t decide Enter
wait_for decide "issue (URL or #number; none yet? p posts the report first):"
tm send-keys -t decide -l "#77"
tm send-keys -t decide Enter
wait_for decide "expires (YYYY-MM-DD):"
tm send-keys -t decide Enter
wait_for decide "Quarantine (4,"
# Decisions go beside the quarantine file.
grep -q '"decision":	"dismissed"' "$T/decisions.json" || fail "no dismissal recorded"
grep -q '"decision":	"quarantined"' "$T/decisions.json" || fail "no quarantine recorded"
grep -q '"owner": "alice"' "$T/quarantine.json" || fail "no quarantine entry"
tm send-keys -t decide q
wait_for decide "EXIT:0"
restored decide

# --- p: a bug report posted to the local stand-in for GitHub's GraphQL
# endpoint (tests/server), when node and its modules are there.
. "$CHECK_SRCDIR/tests/lib/standin.sh"
if standin_available; then
	standin_start "example.com/flakesweep-demo::TestLoadSensitive" 200
	standin_editor "It misses its deadline when another run shares its core."
	start post 120 40 "GH_TOKEN=$STANDIN_TOKEN EDITOR=$T/editor.sh $VIEW --repo demo/widgets \
--api-url $STANDIN_URL"
	wait_for post "Flaky tests (4)"
	tm send-keys -t post p
	wait_for post "Post to demo/widgets"
	wait_for post "TestLoadSensitive fails intermittently"
	tm send-keys -t post y
	wait_for post "posted: https://github.com/demo/widgets/discussions/" 30
	grep -q '"decision":	"posted"' "$T/demo/decisions.json" || fail "post: no decision recorded"
	wait_for post "flaky   posted" 5
	tm send-keys -t post q
	wait_for post "EXIT:0"
	kill $standin 2>/dev/null || true
else
	echo "# no node or tests/server/node_modules: the post is not checked here"
fi

# --- view follows a journal that grows.
mkdir -p "$T/follow"
head -n 150 "$T/demo/journal.jsonl" >"$T/follow/journal.jsonl"
start follow 120 40 "$FLAKESWEEP view $T/follow --quarantine $T/quarantine.json"
wait_for follow "running elsewhere"
tail -n +151 "$T/demo/journal.jsonl" >>"$T/follow/journal.jsonl"
wait_for follow "view: complete 200/200 runs" 15
tm send-keys -t follow q
wait_for follow "EXIT:0"

# --- the terminal comes back on signals and on a crash.
for sig in TERM HUP SEGV; do
	start "sig$sig" 100 30 "$VIEW"
	wait_for "sig$sig" "Flaky tests (4)"
	pid=$(fspid "sig$sig")
	[ -n "$pid" ] || fail "no flakesweep process for SIG$sig"
	kill -"$sig" "$pid"
	wait_for "sig$sig" "EXIT:"
	restored "sig$sig"
done
start sigint 100 30 "$VIEW"
wait_for sigint "Flaky tests (4)"
tm send-keys -t sigint C-c
wait_for sigint "EXIT:"
restored sigint

# --- TERM=dumb: the line front end, even when the dashboard is asked for.
cat >"$T/t.sh" <<'EOF'
#!/bin/sh
# A fake TAP suite: beta fails about one run in four and prints escape
# sequences that would retitle the window, clear the screen and move the
# cursor if they reached the terminal.
sleep 0.05
echo "1..3"
echo "ok 1 - alpha"
if [ $(( $(od -An -N1 -tu1 /dev/urandom) % 4 )) -eq 0 ]; then
	echo "not ok 2 - beta"
	printf '# \033]0;pwned\007\033]2;pwned\007\033[2J\033[H\033[5;5HXXXX beta broke\n'
else
	echo "ok 2 - beta"
fi
echo "ok 3 - gamma"
EOF
chmod +x "$T/t.sh"
start dumb 100 30 "cd $T && TERM=dumb $FLAKESWEEP --ui full --driver tap --cpu 1 --load 1 --count 4 --confirm 0 -o $T/dumbout -- $T/t.sh"
wait_for dumb "EXIT:" 30
screen dumb | grep -qF "no dashboard (TERM is dumb or not set); using --ui line" ||
	{ screen dumb; fail "TERM=dumb did not fall back to the line front end"; }

# --- a live sweep at 120x40.
title=$(tm display-message -p -t dumb '#{pane_title}')
start live 120 40 "cd $T && $FLAKESWEEP --ui full --driver tap --cpu 1 --load 1,2 --count 60 --confirm 10 -o $T/tapout -- $T/t.sh"
tm select-pane -t live -T fixed-title
wait_for live "L0 load" 20
wait_for live "> beta" 30
tm send-keys -t live P
wait_for live "(paused)"
tm send-keys -t live P
wait_gone live "(paused)"
tm send-keys -t live c
wait_for live "confirm beta: runs at each of 2 pairs: 10"
tm send-keys -t live BSpace BSpace 3 Enter
wait_for live "queued 3 runs of"
tm send-keys -t live q
wait_for live "runs are going: stop them and quit?"
tm send-keys -t live n
wait_for live "still sweeping"
wait_for live "the sweep is complete" 120
s=$(screen live)
grep -qF "XXXX beta broke" <<<"$s" || { echo "$s"; fail "live: the failure's text is missing"; }
grep -q "^    XXXX" <<<"$s" && fail "live: a cursor move reached the screen"
# The window title is the sweep's progress, set by the dashboard alone:
# never the test's "pwned".
for i in $(seq 50); do
	t=$(tm display-message -p -t live '#{pane_title}')
	case $t in "flakesweep complete"*) break ;; esac
	sleep 0.1
done
case $t in
"flakesweep complete"*) ;;
*) fail "live: the window title is \"$t\", not the sweep's progress" ;;
esac
# confirmed once the confirm runs have run, beside the project's quarantine file.
cat "$T/.flakesweep/decisions.json" "$T/tapout/decisions.json" 2>/dev/null |
	grep -q '"decision":	"confirmed"' || fail "live: no confirm recorded"
tm send-keys -t live q
wait_for live "EXIT:1" 20
restored live
grep -qF "flakesweep report (complete)" <<<"$(screen live)" || fail "live: no report after quitting"
: "$title"

# --- compare --ui full: the board, j selects the next test and shows its
# heatmaps before and after, q prints the text; Ctrl-C is exit 130.
CMP="$FLAKESWEEP compare $FX/compare/before.json $FX/compare/after.json --ui full"
start cmp 100 30 "cd $T && $CMP"
wait_for cmp "compare  4 tests: 1 rarer 1 unchanged 1 worse 1 new"
wait_for cmp " new          p::TestNew at cpu 1 load 2: before 0/50 (0.0%), after 6/50 (12.0%)"
tm send-keys -t cmp j
wait_for cmp " rarer        p::TestRace at cpu 1 load 1: before 14/70 (20.0%), after 0/200"
wait_for cmp "cpu 1    10/50 20%"
wait_for cmp "0/200 <1.9%"
tm send-keys -t cmp q
wait_for cmp "EXIT:1" 20
restored cmp
grep -qx "4 tests: 0 fixed, 1 rarer, 1 unchanged, 1 worse, 1 new, 0 inconclusive" <<<"$(screen cmp)" ||
	fail "compare: no text after the board"
start cmpint 100 30 "cd $T && $CMP"
wait_for cmpint "compare  4 tests"
tm send-keys -t cmpint C-c
wait_for cmpint "EXIT:130" 20
restored cmpint

# --- bisect --ui full on eight commits whose test fails from commit 5 on:
# the board follows the probes and stays, with the answer, until q.
bash "$CHECK_SRCDIR/tests/fixtures/seq/bisect-repo.sh" "$T/brepo" 8 5
start bis 100 30 "cd $T/brepo && $FLAKESWEEP bisect --test 'sh t.sh::TestRace' --level 0.01 --good c1 --bad c8 -o $T/bisout --ui full --driver tap -- sh t.sh"
wait_for bis "bisect  sh t.sh::TestRace" 20
wait_for bis "bisect  sh t.sh::TestRace  done" 120
s=$(screen bis)
grep -qF "first bad commit: $(git -C "$T/brepo" rev-parse --short=12 c5) commit 5" <<<"$s" ||
	{ echo "$s"; fail "bisect: no first bad commit on the board"; }
grep -qE "^ +clean +[0-9a-f]{12} 0/[0-9]+ 0% +commit 4$" <<<"$s" ||
	{ echo "$s"; fail "bisect: commit 4 is not shown clean"; }
tm send-keys -t bis q
wait_for bis "EXIT:0" 20
restored bis
grep -q "^first bad commit: $(git -C "$T/brepo" rev-parse c5) commit 5$" <<<"$(screen bis)" ||
	fail "bisect: no text after the board"

# Again with commit 4's journal tampered (flaky, runs -5): commit 4 is
# probed again, and the warning that names the file waits for the board to
# close (a wide window: no line wraps); so does the directory.
c4=$(git -C "$T/brepo" rev-parse c4)
printf '{"commit":"%s","state":"flaky","runs":-5,"failures":1e308}\n' "$c4" >"$T/bisout/commits/$c4.json"
start bis2 250 30 "cd $T/brepo && $FLAKESWEEP bisect --test 'sh t.sh::TestRace' --level 0.01 --good c1 --bad c8 -o $T/bisout --ui full --driver tap -- sh t.sh 2>&1"
wait_for bis2 "bisect  sh t.sh::TestRace  done" 120
tm send-keys -t bis2 q
wait_for bis2 "EXIT:0" 20
restored bis2
s=$(screen bis2)
grep -qF "flakesweep: warning: $T/bisout/commits/$c4.json is not a bisect journal" <<<"$s" ||
	{ echo "$s"; fail "bisect: no warning after the board"; }
grep -qF "flakesweep: bisect journals in $T/bisout" <<<"$s" ||
	{ echo "$s"; fail "bisect: no directory after the board"; }
grep -q "^first bad commit: $(git -C "$T/brepo" rev-parse c5) commit 5$" <<<"$s" ||
	{ echo "$s"; fail "bisect: the tampered journal was taken"; }
echo "dashboard black-box checks passed"

#!/bin/bash
# SPDX-License-Identifier: MIT
# The layering (HACKING.md): the core (src/) never includes curses, a
# dashboard (ui/) header or a program (cli/) header, and names the folder
# of every core header it includes ("engine/sweep.h"); src/base/ includes
# nothing from the other folders; src/results/ includes no engine header; the dashboard never includes a cli/
# header. Only cli/ sees both halves. JSON text is printed from a tree
# only by jsonw_print. In the dashboard, the actions (decide*.c, yank.c)
# never call back into the loop that dispatches keys to them.
set -eu
cd "$CHECK_SRCDIR"
bad=0
if grep -rnE '#[[:space:]]*include[[:space:]]*[<"](n?curses|ncursesw/|curses|term\.h|panel\.h)' src/; then
	echo "src/ includes curses (above); only ui/ may"
	bad=1
fi

# The quoted includes of the files under DIR, as "FILE HEADER" lines.
includes() { # DIR
	grep -rnoE '^#[[:space:]]*include[[:space:]]*"[^"]+"' "$1" --include='*.[ch]' |
		sed -E 's/^([^:]+):[0-9]+:.*"([^"]+)"$/\1 \2/'
}

# FILE includes HEADER, which lives in one of the folders it must not use.
check() { # DIR FORBIDDEN...
	local dir=$1 file h f
	shift
	while read -r file h; do
		for f in "$@"; do
			if [ -f "$f/$h" ] && [ ! -f "$(dirname "$file")/$h" ]; then
				echo "$file includes $f/$h"
				bad=1
			fi
		done
	done < <(includes "$dir")
}
check src ui cli
check ui cli

# In src/, every include but config.h names a folder of src/, base/
# includes only base/, and results/ includes nothing from engine/.
while read -r file h; do
	case $h in
	config.h) ;;
	*/*)
		if [ ! -f "src/$h" ]; then
			echo "$file includes $h, which is not a header of src/"
			bad=1
		elif [ "${file#src/base/}" != "$file" ] && [ "${h#base/}" = "$h" ]; then
			echo "$file includes $h: src/base/ includes nothing from the other folders"
			bad=1
		elif [ "${file#src/results/}" != "$file" ] && [ "${h#engine/}" != "$h" ]; then
			echo "$file includes $h: src/results/ reads what sweeps recorded and includes no engine header"
			bad=1
		fi
		;;
	*)
		echo "$file includes \"$h\" without its folder (\"engine/sweep.h\")"
		bad=1
		;;
	esac
done < <(includes src)

# Nor through another header: no chain of includes from src/results/ ever
# reaches src/engine/ (a driver header that pulled in the engine's options
# did once).
declare -A seen=()
reach() { # HEADER CHAIN: fails at an engine header on the chain
	local h=$1 chain=$2 next
	[ -z "${seen[$h]:-}" ] || return 0
	seen[$h]=1
	if [ "${h#engine/}" != "$h" ]; then
		echo "$chain -> $h: src/results/ reaches an engine header through others"
		bad=1
		return 0
	fi
	for next in $(sed -nE 's/^#[[:space:]]*include[[:space:]]*"([^"]+\/[^"]+)"$/\1/p' "src/$h"); do
		[ -f "src/$next" ] && reach "$next" "$chain -> $h"
	done
	return 0
}
for file in src/results/*.[ch]; do
	seen=()
	for h in $(sed -nE 's/^#[[:space:]]*include[[:space:]]*"([^"]+\/[^"]+)"$/\1/p' "$file"); do
		[ -f "src/$h" ] && reach "$h" "$file"
	done
done

# JSON text is printed from a tree only by jsonw_print, which writes each
# byte that is not UTF-8 as a byte escape (flakesweep(5)).
if grep -rnE 'cJSON_Print[A-Za-z]*\(' src ui cli --include='*.c' | grep -v '^src/base/jsonw\.c:'; then
	echo "cJSON_Print outside src/base/jsonw.c (above); call jsonw_print"
	bad=1
fi

# The dashboard's calls go one way (ui/ui-int.h): the loop (ui.c,
# ui-keys.c, ui-live.c) calls the actions (decide.c, decide-post.c,
# yank.c), and both call the shared state (ui-state.c). An action never
# names a function of the loop, and the state names none of the loop's or
# the actions'. Of the actions, decide-record.c (what they share) calls
# none of the others, and decide-post.c none of decide.c: the quarantine
# dialog (decide.c) starts a post and is called back when it has a URL.
defined() { # FILE...: the functions the files define, a name at a line's start
	sed -nE 's/^([a-z_][a-z0-9_]*)\(.*/\1/p' "$@" | sort -u
}
one_way() { # CALLERS CALLEES: no file of CALLERS names a function of CALLEES
	local fn f hits
	for fn in $(cd ui && defined $2); do
		for f in $1; do
			hits=$(grep -nE "[^A-Za-z0-9_]$fn([^A-Za-z0-9_]|\$)" "ui/$f" || true)
			if [ -n "$hits" ]; then
				printf '%s\n' "$hits" | sed "s|^|ui/$f:|"
				echo "ui/$f names $fn, of $2: the calls go the other way (ui/ui-int.h)"
				bad=1
			fi
		done
	done
}
one_way "decide.c decide-post.c decide-record.c yank.c" "ui.c ui-keys.c ui-live.c"
one_way "ui-state.c" "ui.c ui-keys.c ui-live.c decide.c decide-post.c decide-record.c yank.c"
one_way "decide-record.c" "decide.c decide-post.c yank.c"
one_way "decide-post.c" "decide.c"

# The engine is a pipeline (HACKING.md): plan, schedule (the scheduler
# core, which knows nothing of a live sweep), spawn, collect, record. No
# part of it names a function of sweep.c, the sweep's life and commands.
for f in plan.c sched.c sched-core.c forecast.c; do
	if grep -n '#include "engine/sweep' "src/engine/$f"; then
		echo "src/engine/$f includes a sweep header: the scheduler knows no live sweep"
		bad=1
	fi
done
for fn in $(defined src/engine/sweep.c); do
	for f in src/engine/sweep-*.c src/engine/run.c src/engine/build.c src/engine/listing.c \
		src/engine/order.c src/engine/proc.c src/engine/plan.c src/engine/sched*.c \
		src/engine/forecast.c; do
		hits=$(grep -nE "[^A-Za-z0-9_]$fn\(" "$f" || true)
		if [ -n "$hits" ]; then
			printf '%s\n' "$hits" | sed "s|^|$f:|"
			echo "$f calls $fn back in sweep.c: the engine's parts do not call back"
			bad=1
		fi
	done
done

[ $bad = 0 ] || exit 1
echo "src/ is free of curses, ui/ and cli/; base/ stands alone; ui/ is free of cli/;" \
	"JSON is printed by jsonw_print; the dashboard's actions do not call its loop;" \
	"the engine's parts do not call back into sweep.c"

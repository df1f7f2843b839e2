#!/bin/bash
# SPDX-License-Identifier: MIT
# The man pages: both pass mandoc's and groff's checks without a warning;
# flakesweep.1 documents every long option of every command's option table
# and exactly the keys of the dashboard's action table (ui/action.c).
set -eu
export LC_ALL=C
cd "$CHECK_SRCDIR"

pages="man/flakesweep.1 man/flakesweep.5"
have_mandoc=0
have_groff=0
command -v mandoc >/dev/null 2>&1 && have_mandoc=1
command -v groff >/dev/null 2>&1 && have_groff=1
if [ $have_mandoc = 0 ] && [ $have_groff = 0 ]; then
	echo "SKIP neither mandoc nor groff is installed"
	exit 77
fi

bad=0
out="$CHECK_TMPDIR/lint.out"
for p in $pages; do
	if [ $have_mandoc = 1 ]; then
		if ! mandoc -Tlint -Wwarning "$p" >"$out" 2>&1 || [ -s "$out" ]; then
			echo "mandoc -Tlint -Wwarning $p:"
			cat "$out"
			bad=1
		fi
	fi
	if [ $have_groff = 1 ]; then
		# groff exits 0 after a warning: any output is a failure.
		if ! groff -mandoc -ww -z "$p" >"$out" 2>&1 || [ -s "$out" ]; then
			echo "groff -mandoc -ww -z $p:"
			cat "$out"
			bad=1
		fi
	fi
done

# The C block that starts with the line matching START, up to "};", as one
# line: the checks below must not depend on how clang-format wraps it.
c_block() { # FILE START
	awk -v start="$2" '$0 ~ start { on = 1 } on { print } on && /^};/ { exit }' "$1" |
		tr '\t\n' '  ' | tr -s ' '
}

# The names of a `static const struct cli_option NAME[] = { ... };` table,
# with the shared GitHub options where the table names them.
long_options() { # FILE TABLE
	local block
	block=$(c_block "$1" "struct cli_option $2\\[\\] = \\{")
	printf '%s\n' "$block" | grep -oE '\{"[^"]+",' | sed 's/^{"//; s/",$//' | grep -vx o || true
	if printf '%s\n' "$block" | grep -q CLI_GITHUB_OPTIONS; then
		c_block cli/cli.h '#define CLI_GITHUB_OPTIONS' | grep -oE '\{"[^"]+",' | sed 's/^{"//; s/",$//'
	fi
}

# Every long option must appear in flakesweep.1 as ".Fl -NAME".
check_table() { # FILE TABLE
	local names n
	names=$(long_options "$1" "$2")
	if [ -z "$names" ]; then
		echo "$1: no option table $2 found (did it move?)"
		bad=1
		return
	fi
	for n in $names; do
		if ! grep -Eq "Fl -$n( |$)" man/flakesweep.1; then
			echo "man/flakesweep.1 does not document --$n ($1, $2)"
			bad=1
		fi
	done
}
for cmd in stress view report quarantine gate plan; do
	check_table cli/cmd-$cmd.c cmd_${cmd}_options
done
if ! grep -Eq '^\.It Fl o Ar' man/flakesweep.1; then
	echo "man/flakesweep.1 does not document -o"
	bad=1
fi

# KEY BINDINGS: one ".It Cm KEY , Cm OTHER" line per action, the same keys
# as the action table's names ("j, Down" is j and Down), and no ".It" right
# after another (it renders as an empty item).
empty=$(awk '
	/^\.Sh / { on = ($0 == ".Sh KEY BINDINGS"); next }
	on && /^\.It/ && prev ~ /^\.It/ { print prev }
	{ prev = $0 }
' man/flakesweep.1)
if [ -n "$empty" ]; then
	echo "KEY BINDINGS of man/flakesweep.1 has empty items (name a key's other names on its .It line):"
	printf '%s\n' "$empty" | sed 's/^/  /'
	bad=1
fi
if [ -f ui/action.c ]; then
	table_keys=$(c_block ui/action.c 'action_rows\\[\\] = \\{' |
		grep -oE '\{ACTION_[A-Z_]+, \{[^}]*\}, "[^"]*"' |
		sed 's/.*}, "//; s/"$//' | awk '{ n = split($0, k, /, /); for (i = 1; i <= n; i++) print k[i] }' |
		sort -u)
	man_keys=$(awk '
		/^\.Sh / { on = ($0 == ".Sh KEY BINDINGS"); next }
		on && /^\.It Cm / { s = $0; sub(/^\.It Cm /, "", s); gsub(/\\&/, "", s); gsub(/ , Cm /, "\n", s); print s }
	' man/flakesweep.1 | sort -u)
	if [ -z "$table_keys" ]; then
		echo "ui/action.c: no action rows found (did the table's layout change?)"
		bad=1
	fi
	missing=$(comm -23 <(printf '%s\n' "$table_keys") <(printf '%s\n' "$man_keys"))
	extra=$(comm -13 <(printf '%s\n' "$table_keys") <(printf '%s\n' "$man_keys"))
	if [ -n "$missing" ]; then
		echo "keys of ui/action.c missing from KEY BINDINGS in man/flakesweep.1:"
		printf '%s\n' "$missing" | sed 's/^/  /'
		bad=1
	fi
	if [ -n "$extra" ]; then
		echo "keys in KEY BINDINGS of man/flakesweep.1 that ui/action.c does not have:"
		printf '%s\n' "$extra" | sed 's/^/  /'
		bad=1
	fi
fi

[ $bad = 0 ] && echo "man pages clean; every option and key documented"
exit $bad

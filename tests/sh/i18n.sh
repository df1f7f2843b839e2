#!/bin/bash
# SPDX-License-Identifier: MIT
# The German catalogue reaches the program. The catalogue the build made
# (po/de.gmo) is laid out as `make install` would install it, in a locale
# tree under CHECK_TMPDIR that FLAKESWEEP_LOCALEDIR names, since nothing is
# installed during make check; then --help, the subcommands' help and an
# error message must come out in German and not in English. First, every
# source or header file with translatable strings must be listed in po/POTFILES.in.
set -eu

# A file missing from po/POTFILES.in never reaches the catalogue.
bad=0
for f in "$CHECK_SRCDIR"/cli/*.[ch] "$CHECK_SRCDIR"/src/*/*.[ch] "$CHECK_SRCDIR"/ui/*.[ch]; do
	rel=${f#"$CHECK_SRCDIR"/}
	if grep -qE '(^|[^A-Za-z0-9_])N?_\("' "$f" && ! grep -qxF "$rel" "$CHECK_SRCDIR/po/POTFILES.in"; then
		echo "$rel has translatable strings but is not in po/POTFILES.in"
		bad=1
	fi
done
[ $bad = 0 ] || exit 1

if ! grep -q '^#define ENABLE_NLS 1' "$CHECK_BUILDDIR/config.h"; then
	echo "SKIP built without NLS (configure --disable-nls or no gettext)"
	exit 77
fi

# A UTF-8 locale other than plain C: gettext ignores LANGUAGE under "C".
loc=
for l in C.UTF-8 C.utf8 $(locale -a 2>/dev/null | grep -iE '\.utf-?8$' || true); do
	if [ "$(LC_ALL=$l locale charmap 2>/dev/null)" = UTF-8 ]; then
		loc=$l
		break
	fi
done
if [ -z "$loc" ]; then
	echo "SKIP no UTF-8 locale on this machine"
	exit 77
fi

tree="$CHECK_TMPDIR/locale"
mkdir -p "$tree/de/LC_MESSAGES"
mo="$tree/de/LC_MESSAGES/flakesweep.mo"
if [ -f "$CHECK_BUILDDIR/po/de.gmo" ]; then
	cp "$CHECK_BUILDDIR/po/de.gmo" "$mo"
elif [ -f "$CHECK_SRCDIR/po/de.gmo" ]; then
	cp "$CHECK_SRCDIR/po/de.gmo" "$mo"
elif command -v msgfmt >/dev/null 2>&1; then
	msgfmt -c -o "$mo" "$CHECK_SRCDIR/po/de.po"
else
	echo "SKIP no po/de.gmo was built and msgfmt is not installed"
	exit 77
fi

run_de() {
	LANGUAGE=de LC_ALL=$loc FLAKESWEEP_LOCALEDIR="$tree" "$FLAKESWEEP" "$@" 2>&1 || true
}

expect() { # WHAT OUTPUT GERMAN ENGLISH
	if ! printf '%s\n' "$2" | grep -qF -- "$3"; then
		echo "$1: \"$3\" is missing"
		bad=1
	fi
	if printf '%s\n' "$2" | grep -qF -- "$4"; then
		echo "$1: the English \"$4\" is still there"
		bad=1
	fi
}

help=$(run_de --help)
expect "flakesweep --help" "$help" "Aufruf: flakesweep [stress]" "Usage: flakesweep"
expect "flakesweep --help" "$help" "Kerne pro Lauf" "cores per run"
expect "flakesweep --help" "$help" "Exit-Status: 0" "Exit status:"
expect "flakesweep quarantine --help" "$(run_de quarantine --help)" \
	"Aufruf: flakesweep quarantine list" "Usage: flakesweep quarantine"
expect "flakesweep gate --help" "$(run_de gate --help)" "Aufruf: flakesweep gate" \
	"Usage: flakesweep gate"
expect "flakesweep compare --help" "$(run_de compare --help)" \
	"Aufruf: flakesweep compare VORHER NACHHER" "Usage: flakesweep compare"
expect "flakesweep bisect" "$(run_de bisect)" "Aufruf: flakesweep bisect --good" \
	"usage: flakesweep bisect"
expect "flakesweep verify" "$(run_de verify --test x)" "Aufruf: flakesweep verify --test" \
	"usage: flakesweep verify"
expect "flakesweep report --help" "$(run_de report --help)" \
	"Mit --close muss das Verify-Protokoll" "With --close, the verify record"
expect "flakesweep report --close" "$(run_de report --close --test x)" \
	"Aufruf: flakesweep report --close --test ID --verified VERZ" "usage: flakesweep report"
printf '{"schema":"flakesweep/verify/v1","test":"x","verdict":"not-fixed","commit":null,"dirty":false}\n' \
	>"$CHECK_TMPDIR/verify.json"
expect "flakesweep report --close --verified" \
	"$(run_de report --close --test x --verified "$CHECK_TMPDIR")" \
	"sagt not-fixed, nicht fixed: die Diskussion bleibt offen" "the discussion stays open"
expect "flakesweep --cpu x" "$(run_de --cpu x)" "ungültiger Wert \"x\" für --cpu" \
	"invalid value"

# The same binary in English, so the German above came from the catalogue.
en=$(LANGUAGE=en LC_ALL=$loc FLAKESWEEP_LOCALEDIR="$tree" "$FLAKESWEEP" --help 2>&1 || true)
expect "flakesweep --help in English" "$en" "cores per run" "Kerne pro Lauf"

if [ $bad = 0 ]; then
	echo "German messages from $mo under LC_ALL=$loc"
else
	echo "--- flakesweep --help with LANGUAGE=de:"
	printf '%s\n' "$help"
fi
exit $bad

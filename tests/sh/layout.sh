#!/bin/bash
# SPDX-License-Identifier: MIT
# The layering: the core (src/) never includes curses, a dashboard (ui/)
# header or a program (cli/) header; the dashboard never includes a cli/
# header. Only cli/ sees both halves.
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
[ $bad = 0 ] || exit 1
echo "src/ is free of curses, ui/ and cli/; ui/ is free of cli/"

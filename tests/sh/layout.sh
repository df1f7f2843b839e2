#!/bin/bash
# SPDX-License-Identifier: MIT
# The core never includes curses: only ui/ may.
set -eu
cd "$CHECK_SRCDIR"
if grep -rnE '#[[:space:]]*include[[:space:]]*[<"](n?curses|ncursesw/|curses|term\.h|panel\.h)' src/; then
	echo "src/ includes curses (above); only ui/ may"
	exit 1
fi
echo "src/ is free of curses"

#!/bin/bash
# SPDX-License-Identifier: MIT
# cli/, src/ and ui/ follow the checked-in .clang-format.
set -eu
cd "$CHECK_SRCDIR"
command -v clang-format >/dev/null || { echo "SKIP clang-format is not installed"; exit 77; }
bad=0
for f in cli/*.[ch] src/*/*.[ch] ui/*.[ch]; do
	[ -e "$f" ] || continue
	[ "$f" = src/base/gettext.h ] && continue
	if ! clang-format --style=file "$f" | cmp -s - "$f"; then
		echo "not formatted: $f (run clang-format -i $f)"
		bad=1
	fi
done
exit $bad

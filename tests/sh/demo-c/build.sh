# SPDX-License-Identifier: MIT
# Sourced by driver-gtest.sh and driver-ctest.sh: builds data/demo-c once
# per build tree into $demo_build (under a lock, as both may run at once).
demo_build=$CHECK_BUILDDIR/demo-c
mkdir -p "$demo_build"
(
	flock 9
	cmake -S "$CHECK_SRCDIR/data/demo-c" -B "$demo_build" >"$demo_build.log" 2>&1 &&
		cmake --build "$demo_build" >>"$demo_build.log" 2>&1 ||
		{ cat "$demo_build.log"; exit 1; }
) 9>"$demo_build.lock"

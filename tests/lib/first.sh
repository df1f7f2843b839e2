# SPDX-License-Identifier: MIT
# Sourced by the tests whose runs must have their cores to themselves on a
# host busy with other work (noise.sh, cause-load.sh, cause-noise.sh): the
# test goes on in a session of its own, so in an autogroup of its own,
# raised to the highest priority where that is allowed, and first=(...)
# is the prefix that raises a command's nice value too (empty where it is
# not allowed). Whatever else runs on the host then yields the cores, and
# what the test measures is what it set up.
if [ -z "${FIRST_SESSION:-}" ]; then
	FIRST_SESSION=1 exec setsid --wait bash "$0" "$@"
fi
echo -20 >/proc/self/autogroup 2>/dev/null || true
first=()
if nice -n -20 true 2>/dev/null; then first=(nice -n -20); fi

# SPDX-License-Identifier: MIT
# Sourced by the tests of the isolation fixture (zone-locale.sh,
# classes.sh, exclusive.sh, lease.sh): a SKIP without Go, Go kept off the
# network and on its own toolchain, a writable copy of
# tests/fixtures/isolation as the current directory, and fail.
command -v go >/dev/null || { echo "SKIP no go"; exit 77; }
export GOPROXY=off GOFLAGS=-mod=mod GOTOOLCHAIN=local
cp -r "$CHECK_SRCDIR/tests/fixtures/isolation" "$CHECK_TMPDIR/mod"
chmod -R u+w "$CHECK_TMPDIR/mod"
cd "$CHECK_TMPDIR/mod"
fail() { echo "FAIL: $*"; exit 1; }

# SPDX-License-Identifier: MIT
# Sourced by tests/sh/adaptive.sh and bench/adaptive.sh: adaptive_mod DIR
# [MASK] writes a Go module of two packages there: flaky, whose one test
# fails when GOMAXPROCS is 2 (at cpu 2) and a random byte has every bit of
# MASK set (1, the default: half the time; 7: one run in eight), never
# otherwise, and quiet, whose one test passes.
adaptive_mod() {
	mkdir -p "$1/flaky" "$1/quiet"
	printf 'module example.com/adaptive\n\ngo 1.19\n' >"$1/go.mod"
	cat >"$1/flaky/flaky_test.go" <<GO
package flaky

import (
	"crypto/rand"
	"runtime"
	"testing"
)

func TestTwoCores(t *testing.T) {
	var b [1]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	if runtime.GOMAXPROCS(0) == 2 && b[0]&${2:-1} == ${2:-1} {
		t.Fatal("lost the coin at two cores")
	}
}
GO
	printf 'package quiet\n\nimport "testing"\n\nfunc TestQuiet(t *testing.T) {}\n' \
		>"$1/quiet/quiet_test.go"
}

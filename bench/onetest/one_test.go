// Package onetest is the benchmark's test binary: one test that does
// almost nothing, so a run costs what starting a Go test binary costs.
package onetest

import "testing"

func TestOne(t *testing.T) {}

// Package demo is flakesweep's bundled demo suite: each test fails or hangs
// on a known cue, so a sweep of it shows every verdict. EXPECTED.md lists
// what a sweep must find.
package demo

// Sum adds the numbers; the tests only need something to call.
func Sum(xs ...int) int {
	t := 0
	for _, x := range xs {
		t += x
	}
	return t
}

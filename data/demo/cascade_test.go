package demo

import (
	"math/rand"
	"testing"
)

// server stands for a fixture that the package's tests share: one test
// that breaks it breaks every test after it in the same process.
var server = struct{ up bool }{up: true}

// TestServerRestart crashes the shared server in about one run in five
// and fails: the real flaky test.
func TestServerRestart(t *testing.T) {
	if rand.Intn(5) == 0 {
		server.up = false
		t.Fatal("restart: the server did not come back")
	}
}

// TestServerEcho never fails on its own; it fails only when an earlier
// test of the same process left the server down: a cascade of
// TestServerRestart, which it must be reported under, not as flaky.
func TestServerEcho(t *testing.T) {
	if !server.up {
		t.Fatal("echo: connection refused")
	}
}

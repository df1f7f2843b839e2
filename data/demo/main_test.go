package demo

import (
	"fmt"
	"math/rand"
	"os"
	"testing"
	"time"
)

// TestMain fails before any test runs in about one run in 25: a failure
// that belongs to the package, not to a test.
func TestMain(m *testing.M) {
	rand.Seed(time.Now().UnixNano() ^ int64(os.Getpid()))
	if rand.Intn(25) == 0 {
		fmt.Println("setup: fixture server did not come up")
		os.Exit(3)
	}
	os.Exit(m.Run())
}

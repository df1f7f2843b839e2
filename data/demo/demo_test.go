package demo

import (
	"math/rand"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// TestAlwaysPasses never fails.
func TestAlwaysPasses(t *testing.T) {
	if Sum(1, 2, 3) != 6 {
		t.Fatal("Sum is broken")
	}
}

// TestCanaryGreen is the green canary: it must never fail. A failure here
// means the harness, not the code, is broken.
func TestCanaryGreen(t *testing.T) {}

// TestCanaryRed is the red canary: it fails every run, so a sweep that
// reports it passing is not counting failures.
func TestCanaryRed(t *testing.T) {
	t.Fatal("red canary: this test fails on purpose")
}

// TestNeedsTwoCPUs fails whenever the process sees a single CPU, as code
// that sizes a worker pool from NumCPU()-1 would.
func TestNeedsTwoCPUs(t *testing.T) {
	workers := runtime.NumCPU() - 1
	if workers < 1 {
		t.Fatalf("no workers: NumCPU()=%d", runtime.NumCPU())
	}
}

// TestLoadSensitive fails, about one time in two, when its goroutine gets
// less than 60% of a core while it spins: when another run shares the
// core (load 2). A timing assumption of this kind is the classic flake.
func TestLoadSensitive(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var before, after syscall.Rusage
	const rusageThread = 1
	syscall.Getrusage(rusageThread, &before)
	start := time.Now()
	x := 0
	for time.Since(start) < 200*time.Millisecond {
		x++
	}
	syscall.Getrusage(rusageThread, &after)
	wall := time.Since(start)
	cpu := time.Duration(after.Utime.Nano()+after.Stime.Nano()-before.Utime.Nano()-before.Stime.Nano())
	share := float64(cpu) / float64(wall)
	if share < 0.6 && rand.Intn(2) == 0 {
		t.Fatalf("deadline missed: got %.0f%% of a core in %v (spun %d times)", share*100, wall, x)
	}
}

// TestSometimesHangs waits forever in about one run in six, like a test
// whose goroutine misses a signal.
func TestSometimesHangs(t *testing.T) {
	if rand.Intn(6) == 0 {
		never := make(chan struct{})
		<-never
	}
}

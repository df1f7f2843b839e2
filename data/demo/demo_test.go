package demo

import (
	"math/rand"
	"runtime"
	"sync"
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

// TestLoadSensitive fails, about one time in two, when its goroutines get
// less than 60% of the cores they spin on: when other runs share the cores
// (load 2). A timing assumption of this kind is the classic flake. It spins
// on every core it is given, so a run at any cpu count feels the sharing.
func TestLoadSensitive(t *testing.T) {
	n := runtime.GOMAXPROCS(0)
	var before, after syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	start := time.Now()
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Since(start) < 200*time.Millisecond {
			}
		}()
	}
	wg.Wait()
	wall := time.Since(start)
	syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	cpu := time.Duration(after.Utime.Nano() + after.Stime.Nano() - before.Utime.Nano() - before.Stime.Nano())
	share := float64(cpu) / (float64(wall) * float64(n))
	if share < 0.6 && rand.Intn(2) == 0 {
		t.Fatalf("deadline missed: got %.0f%% of the %d cores it spun on in %v", share*100, n, wall)
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

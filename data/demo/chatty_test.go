package demo

import (
	"math/rand"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// TestChattyChecksum logs 300 lines of progress before its assertion, which
// fails in about one run in three: the first failure must show the
// assertion, not the first lines of the log.
func TestChattyChecksum(t *testing.T) {
	sum := 0
	for i := 0; i < 300; i++ {
		sum += i
		t.Logf("processed record %d of 300, running sum %d", i+1, sum)
	}
	if rand.Intn(3) == 0 {
		t.Errorf("checksum mismatch: got %d, want %d", sum+1, sum)
	}
}

// lastCore is the highest-numbered core the machine has online.
func lastCore() int {
	b, err := os.ReadFile("/sys/devices/system/cpu/online")
	if err != nil {
		return -1
	}
	s := strings.TrimSpace(string(b))
	if i := strings.LastIndexAny(s, ",-"); i >= 0 {
		s = s[i+1:]
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return -1
	}
	return n
}

// TestPinnedCore queries its own CPU affinity and fails whenever it is
// pinned to the machine's last core alone, as code that assumes a core's
// cache or interrupt placement would: it fails on every run pinned to that
// core and passes on every other.
func TestPinnedCore(t *testing.T) {
	var set [128]uint64
	_, _, e := syscall.RawSyscall(syscall.SYS_SCHED_GETAFFINITY, 0, unsafe.Sizeof(set),
		uintptr(unsafe.Pointer(&set[0])))
	if e != 0 {
		t.Skipf("sched_getaffinity: %v", e)
	}
	var cores []int
	for i := 0; i < len(set)*64; i++ {
		if set[i/64]&(1<<(uint(i)%64)) != 0 {
			cores = append(cores, i)
		}
	}
	if len(cores) == 1 && cores[0] == lastCore() {
		t.Fatalf("pinned to core %d: the worker's shard map has no entry for it", cores[0])
	}
}

package batch

import (
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// fallbackMemory is what AvailableMemory returns when the machine's
// available memory cannot be read (no /proc/meminfo, no cgroup limit, no
// GOMEMLIMIT).
const fallbackMemory = 4 << 30

// AvailableMemory returns the memory a run may allocate: the machine's
// available memory (MemAvailable in /proc/meminfo), capped by the memory a
// cgroup (v2) has left (memory.max less memory.current) and by the Go
// memory limit (GOMEMLIMIT, debug.SetMemoryLimit), or 4 GiB when none of
// them can be read. source says which of them sets the limit. New refuses
// a run whose EstimateMemory exceeds it.
func AvailableMemory() (bytes int64, source string) {
	limit, source := int64(-1), ""
	if n, ok := meminfoAvailable(); ok {
		limit, source = n, "the available memory"
	}
	if n, ok := cgroupAvailable(); ok && (limit < 0 || n < limit) {
		limit, source = n, "the memory left to this cgroup"
	}
	if n := debug.SetMemoryLimit(-1); n < math.MaxInt64 && (limit < 0 || n < limit) {
		limit, source = n, "GOMEMLIMIT"
	}
	if limit < 0 {
		return fallbackMemory, "the default limit (the available memory is unknown)"
	}
	return limit, source
}

// meminfoAvailable returns MemAvailable from /proc/meminfo in bytes.
func meminfoAvailable() (int64, bool) {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "MemAvailable:"); ok {
			f := strings.Fields(rest)
			if len(f) == 0 {
				return 0, false
			}
			kb, err := strconv.ParseInt(f[0], 10, 64)
			if err != nil || kb < 0 || kb > math.MaxInt64/1024 {
				return 0, false
			}
			return kb * 1024, true
		}
	}
	return 0, false
}

// cgroupAvailable returns memory.max - memory.current of the process's
// cgroup (v2) when it has a limit.
func cgroupAvailable() (int64, bool) {
	read := func(name string) (int64, bool) {
		data, err := os.ReadFile("/sys/fs/cgroup/" + name)
		if err != nil {
			return 0, false
		}
		n, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
		return n, err == nil
	}
	lim, ok := read("memory.max") // "max" when unlimited: not a number
	if !ok {
		return 0, false
	}
	cur, _ := read("memory.current")
	return lim - min(cur, lim), true
}

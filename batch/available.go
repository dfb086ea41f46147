package batch

import (
	"bytes"
	"errors"
	"io/fs"
	"math"
	"runtime/debug"
	"strconv"
	"sync/atomic"
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

// smallFile is the most of a /proc or /sys file that AvailableMemory
// reads: /proc/meminfo's MemAvailable line is its third, well within.
const smallFile = 4096

// meminfoAvailable returns MemAvailable from /proc/meminfo in bytes. It
// reads the file into a buffer on the stack with plain system calls
// (readHead) and scans it in place: the kernel's ~10 µs of writing the
// file is the cost that stays, out of ~21 µs for os.ReadFile and a
// strings.Split into 60 lines.
func meminfoAvailable() (int64, bool) {
	var buf [smallFile]byte
	n, err := readHead("/proc/meminfo", buf[:])
	if err != nil {
		return 0, false
	}
	return parseMemAvailable(buf[:n])
}

// parseMemAvailable returns the MemAvailable line's value, in bytes, of
// the text of /proc/meminfo ("MemAvailable:   123456 kB\n"). Only whole
// lines count: a line the buffer cut off has no newline.
func parseMemAvailable(data []byte) (int64, bool) {
	const key = "MemAvailable:"
	for {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			return 0, false
		}
		line := data[:i]
		data = data[i+1:]
		rest, ok := bytes.CutPrefix(line, []byte(key))
		if !ok {
			continue
		}
		f := bytes.Fields(rest)
		if len(f) == 0 {
			return 0, false
		}
		kb, err := strconv.ParseInt(string(f[0]), 10, 64)
		if err != nil || kb < 0 || kb > math.MaxInt64/1024 {
			return 0, false
		}
		return kb * 1024, true
	}
}

// cgroupDir is where cgroupAvailable reads the cgroup's limit files (a
// variable for the tests).
var cgroupDir = "/sys/fs/cgroup/"

// noCgroupLimit is set when /sys/fs/cgroup/memory.max does not exist (no
// cgroup v2 hierarchy mounted there, or its root, which has no limit
// file): a file that does not appear while the process runs, so later
// calls skip the failed open (~4 µs of path lookup a call). A limit file
// that exists is read at every call, since its limit may change.
var noCgroupLimit atomic.Bool

// cgroupAvailable returns memory.max - memory.current of the process's
// cgroup (v2) when it has a limit.
func cgroupAvailable() (int64, bool) {
	if noCgroupLimit.Load() {
		return 0, false
	}
	read := func(name string) (int64, error) {
		var buf [64]byte
		n, err := readHead(cgroupDir+name, buf[:])
		if err != nil {
			return 0, err
		}
		return strconv.ParseInt(string(bytes.TrimSpace(buf[:n])), 10, 64)
	}
	lim, err := read("memory.max") // "max" when unlimited: not a number
	if errors.Is(err, fs.ErrNotExist) {
		noCgroupLimit.Store(true)
	}
	if err != nil {
		return 0, false
	}
	cur, _ := read("memory.current")
	return lim - min(cur, lim), true
}

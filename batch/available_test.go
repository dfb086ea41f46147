package batch

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestParseMemAvailable checks the in-place scan of /proc/meminfo's text:
// the MemAvailable line in kB gives bytes; a missing line, a line cut off
// by the end of the buffer (no newline), a value that is not a number or
// that overflows in bytes are not read.
func TestParseMemAvailable(t *testing.T) {
	const head = "MemTotal:       65536000 kB\nMemFree:         1024000 kB\n"
	for _, c := range []struct {
		text string
		want int64
		ok   bool
	}{
		{head + "MemAvailable:   32768000 kB\nBuffers:  1 kB\n", 32768000 * 1024, true},
		{"MemAvailable: 0 kB\n", 0, true},
		{head + "Buffers:  1 kB\n", 0, false},
		{head + "MemAvailable:   32768000 kB", 0, false}, // cut off: no newline
		{head + "MemAvailable:   3276", 0, false},
		{head + "MemAvailable:\n", 0, false},
		{head + "MemAvailable:   lots kB\n", 0, false},
		{head + "MemAvailable:   -1 kB\n", 0, false},
		{head + "MemAvailable:   9223372036854775807 kB\n", 0, false},
		{"", 0, false},
	} {
		got, ok := parseMemAvailable([]byte(c.text))
		if got != c.want || ok != c.ok {
			t.Errorf("%q: got %d, %v, want %d, %v", c.text, got, ok, c.want, c.ok)
		}
	}
}

// TestMeminfoMatchesTheFile checks meminfoAvailable's plain read against
// the MemAvailable line of the whole file read by os.ReadFile and split
// into lines; the two reads are moments apart, so the value may have
// moved, and each read is bracketed by the other's before and after.
func TestMeminfoMatchesTheFile(t *testing.T) {
	read := func() int64 {
		data, err := os.ReadFile("/proc/meminfo")
		if err != nil {
			t.Skip("no /proc/meminfo:", err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			if rest, ok := strings.CutPrefix(line, "MemAvailable:"); ok {
				kb, err := strconv.ParseInt(strings.Fields(rest)[0], 10, 64)
				if err != nil {
					t.Fatal(err)
				}
				return kb * 1024
			}
		}
		t.Skip("no MemAvailable line")
		return 0
	}
	before := read()
	got, ok := meminfoAvailable()
	after := read()
	if !ok {
		t.Fatalf("meminfoAvailable failed; the file says %d bytes", before)
	}
	lo, hi := min(before, after), max(before, after)
	// The machine's other processes move MemAvailable between reads: allow
	// 1/8 of it either way.
	if got < lo-lo/8 || got > hi+hi/8 {
		t.Errorf("meminfoAvailable() = %d, the file read before and after says %d and %d", got, before, after)
	}
}

// TestCgroupAvailable checks the cgroup limit's reading from a directory
// of limit files: memory.max less memory.current, none when the limit is
// "max", and none when memory.max does not exist, which is remembered.
func TestCgroupAvailable(t *testing.T) {
	dir := t.TempDir() + "/"
	file := func(name, text string) {
		if err := os.WriteFile(dir+name, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	defer func(d string) { cgroupDir = d; noCgroupLimit.Store(false) }(cgroupDir)
	cgroupDir = dir
	noCgroupLimit.Store(false)
	if n, ok := cgroupAvailable(); ok || !noCgroupLimit.Load() {
		t.Errorf("no memory.max: got %d, %v, remembered %v; want none, remembered", n, ok, noCgroupLimit.Load())
	}
	file("memory.max", "1000\n")
	file("memory.current", "200\n")
	if n, ok := cgroupAvailable(); ok {
		t.Errorf("memory.max missing at the first call: got %d from a file that appeared later", n)
	}
	noCgroupLimit.Store(false)
	if n, ok := cgroupAvailable(); n != 800 || !ok {
		t.Errorf("limit 1000, current 200: got %d, %v, want 800", n, ok)
	}
	file("memory.current", "1200\n")
	if n, ok := cgroupAvailable(); n != 0 || !ok {
		t.Errorf("limit 1000, current 1200: got %d, %v, want 0", n, ok)
	}
	file("memory.max", "max\n")
	if n, ok := cgroupAvailable(); ok || noCgroupLimit.Load() {
		t.Errorf("no limit (max): got %d, %v, remembered %v; want none, not remembered", n, ok, noCgroupLimit.Load())
	}
}

package runloop

import (
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// overlapWriter records whether two of its writes were ever under way at
// once; each write yields the processor in its middle, so that unserialised
// writers would meet there.
type overlapWriter struct {
	inside, overlaps atomic.Int32
	b                strings.Builder
}

func (o *overlapWriter) Write(p []byte) (int, error) {
	if o.inside.Add(1) > 1 {
		o.overlaps.Add(1)
	}
	runtime.Gosched()
	o.b.Write(p) // safe only when the writes are serialised (go test -race)
	o.inside.Add(-1)
	return len(p), nil
}

// TestSyncWriter writes 8 × 50 lines from 8 goroutines through one
// SyncWriter: no two writes overlap, and every line arrives whole.
func TestSyncWriter(t *testing.T) {
	const writers, lines = 8, 50
	var o overlapWriter
	w := SyncWriter(&o)
	var wg sync.WaitGroup
	for g := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range lines {
				w.Write([]byte(strings.Repeat(string(rune('a'+g)), 10) + "\n"))
			}
		}()
	}
	wg.Wait()
	if n := o.overlaps.Load(); n != 0 {
		t.Errorf("%d writes overlapped", n)
	}
	got := strings.Split(strings.TrimSuffix(o.b.String(), "\n"), "\n")
	if len(got) != writers*lines {
		t.Fatalf("%d lines, want %d", len(got), writers*lines)
	}
	for _, line := range got {
		if len(line) != 10 || strings.Count(line, line[:1]) != 10 {
			t.Fatalf("line %q: want 10 times one writer's letter", line)
		}
	}
}

package cliflag

import (
	"io"
	"strings"
	"testing"
)

// TestRecorded checks that Recorded gives the flags in command-line
// order with their text as typed (010, not 10; 1e-400, not 0), without
// the names skipped, and nothing when no flag was given.
func TestRecorded(t *testing.T) {
	s, _ := testSet()
	if got := s.Recorded(nil); got != nil {
		t.Errorf("no flags given: Recorded = %q, want none", got)
	}
	err := s.Parse([]string{"--rate", "1e-400", "--quiet", "--n", "010"}, io.Discard, "")
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(s.Recorded(map[string]bool{"quiet": true}), " ")
	if want := "--rate=1e-400 --n=010"; got != want {
		t.Errorf("Recorded = %q, want %q", got, want)
	}
}

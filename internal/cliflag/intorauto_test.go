package cliflag

import (
	"io"
	"strings"
	"testing"
)

// TestIntOrAuto checks the flag through a Set: auto sets Auto and keeps
// the number, a number clears Auto, 010 is decimal 10 (as every integer
// flag), and other text is refused naming the flag and what it wants.
func TestIntOrAuto(t *testing.T) {
	parse := func(args ...string) (int, bool, error) {
		n, auto := 50, false // 50: an arbitrary default
		s := New("prog", "cmd")
		s.Var(IntOrAuto{&n, &auto}, "chains", "`N|auto`")
		err := s.Parse(args, io.Discard, "")
		return n, auto, err
	}
	if n, auto, err := parse("--chains", "auto"); err != nil || !auto || n != 50 {
		t.Errorf("auto: %d, %v, %v", n, auto, err)
	}
	if n, auto, err := parse("--chains", "010"); err != nil || auto || n != 10 {
		t.Errorf("010: %d, %v, %v; want 10", n, auto, err)
	}
	if _, _, err := parse("--chains", "many"); err == nil || !strings.Contains(err.Error(), "--chains") || !strings.Contains(err.Error(), "want a whole number or auto") {
		t.Errorf("many: %v", err)
	}
	n, auto := 7, true
	if got := (IntOrAuto{&n, &auto}).String(); got != "auto" {
		t.Errorf("String = %q, want auto", got)
	}
	if auto = false; (IntOrAuto{&n, &auto}).String() != "7" || (IntOrAuto{}).String() != "" {
		t.Errorf("String of 7: %q, of the zero value: %q", IntOrAuto{&n, &auto}.String(), IntOrAuto{}.String())
	}
}

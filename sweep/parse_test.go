package sweep

import (
	"errors"
	"slices"
	"testing"
)

// TestParseLists checks the lists' parsers: texts as written with spaces
// trimmed ("010" reads as 10, as the flags read it), a value below the
// least refused with that value, a part that is no number refused with
// the part, and seeds up to 2⁶⁴−1 (18446744073709551615) but not 2⁶⁴.
func TestParseLists(t *testing.T) {
	xs, texts, err := ParseInts(" 1, 010 ,4", 1)
	if err != nil || !slices.Equal(xs, []int{1, 10, 4}) || !slices.Equal(texts, []string{"1", "010", "4"}) {
		t.Errorf("ParseInts: %v %q %v, want [1 10 4] [1 010 4]", xs, texts, err)
	}
	var le *ListError
	if _, _, err := ParseInts("3,1", 2); !errors.As(err, &le) || le.NotNumber || le.Value != 1 || le.Least != 2 {
		t.Errorf("1 with least 2: %v, want a ListError of value 1", err)
	}
	if _, _, err := ParseInts("3,x", 2); !errors.As(err, &le) || !le.NotNumber || le.Part != "x" {
		t.Errorf("x: %v, want a ListError NotNumber of part x", err)
	}
	seeds, err := ParseSeeds("0, 18446744073709551615")
	if err != nil || !slices.Equal(seeds, []uint64{0, 1<<64 - 1}) {
		t.Errorf("ParseSeeds: %v %v, want [0 2⁶⁴−1]", seeds, err)
	}
	if _, err := ParseSeeds("1,18446744073709551616"); !errors.As(err, &le) || le.Part != "18446744073709551616" {
		t.Errorf("2⁶⁴: %v, want a ListError of that part", err)
	}
}

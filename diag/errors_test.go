package diag

import (
	"errors"
	"math"
	"testing"
)

// TestErrors checks that every input Summarize cannot summarise gives its
// error, never a NaN.
func TestErrors(t *testing.T) {
	good := ar1(3, 2, MinDraws, 0, 0)
	nan := ar1(3, 2, MinDraws, 0, 0)
	nan[1][4] = math.NaN()
	inf := ar1(3, 2, MinDraws, 0, 0)
	inf[0][0] = math.Inf(1)
	constant := [][]float64{make([]float64, MinDraws), make([]float64, MinDraws)}
	for _, c := range []struct {
		name   string
		chains [][]float64
		want   error
	}{
		{"no chains", nil, ErrTooFewChains},
		{"one chain", good[:1], ErrTooFewChains},
		{"too few draws", [][]float64{good[0][:MinDraws-1], good[1][:MinDraws-1]}, ErrTooFewDraws},
		{"unequal", [][]float64{good[0], good[1][:MinDraws-1]}, ErrUnequalChains},
		{"NaN", nan, ErrNotFinite},
		{"Inf", inf, ErrNotFinite},
		{"constant", constant, ErrConstant},
	} {
		if _, err := Summarize(c.chains); !errors.Is(err, c.want) {
			t.Errorf("%s: Summarize error %v, want %v", c.name, err, c.want)
		}
		if _, err := Rhat(c.chains); !errors.Is(err, c.want) {
			t.Errorf("%s: Rhat error %v, want %v", c.name, err, c.want)
		}
		if _, err := ESSBulk(c.chains); !errors.Is(err, c.want) {
			t.Errorf("%s: ESSBulk error %v, want %v", c.name, err, c.want)
		}
		if _, err := ESSTail(c.chains); !errors.Is(err, c.want) {
			t.Errorf("%s: ESSTail error %v, want %v", c.name, err, c.want)
		}
	}
	if _, err := Summarize(good); err != nil {
		t.Errorf("%d chains of %d draws: %v", len(good), MinDraws, err)
	}
}

package registry

import (
	"errors"
	"testing"

	"github.com/ptbatch/ptbatch/models"
)

// TestIsingRegistered checks the Ising model's registration: its defaults
// (L = 16, β = 0.44, h = 0, isingParams) and given values build the model
// NewIsing builds, and a size below 2 or above the maximum, a fractional
// size or a β out of range are refused as ParamErrors.
func TestIsingRegistered(t *testing.T) {
	for _, c := range []struct {
		v         Values
		size      int
		beta, fld float64
	}{{nil, 16, 0.44, 0}, {Values{"size": 4, "beta": 0.6, "field": -0.1}, 4, 0.6, -0.1}} {
		got, err := New(Ising, c.v, 1)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := models.NewIsing(c.size, c.beta, c.fld)
		if g, w := got.(models.Described).Description(), want.Description(); g != w {
			t.Errorf("%v builds %q, want %q", c.v, g, w)
		}
	}
	for _, v := range []Values{{"size": 1}, {"size": models.MaxIsingSize + 1}, {"size": 4.5}, {"beta": models.MaxIsingCoupling + 1}, {"field": -models.MaxIsingCoupling - 1}} {
		if _, err := New(Ising, v, 1); !errors.Is(err, ErrParam) {
			t.Errorf("%v: error %v, want a ParamError", v, err)
		}
	}
}

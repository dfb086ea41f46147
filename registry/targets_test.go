package registry

import (
	"errors"
	"testing"

	"github.com/ptbatch/ptbatch/models"
)

// TestTargetsRegistered checks the four benchmark targets' registrations:
// the defaults build the models their constructors make with the values
// the help gives (descriptions compared), every one has an oracle
// (models.ExactLogZ, and toymvn models.ExactBarrier), and values out of
// range or in a refused combination (unid's y > n) are ParamErrors.
func TestTargetsRegistered(t *testing.T) {
	toy, _ := models.NewToyMVN(10, 10)
	unid, _ := models.NewUnid(100000, 50000, models.SliceSampler{})
	corner, _ := models.NewCornerMix(4, 2, 0.5, models.AutoMALA{})
	banana, _ := models.NewBanana(2, 0.1, models.AutoMALA{})
	for _, c := range []struct {
		name string
		want models.Described
		bad  []Values
	}{
		{ToyMVN, toy, []Values{{"dim": 0}, {"precision": 0}, {"precision": 2e6}}},
		{Unid, unid, []Values{{"n": 10, "y": 11}, {"n": 0}, {"y": -1}, {"explorer": 6}}},
		{CornerMix, corner, []Values{{"dim": 0}, {"mu": -1}, {"sd": 0}}},
		{Banana, banana, []Values{{"dim": 1}, {"curvature": -0.1}, {"curvature": 11}}},
	} {
		m, err := New(c.name, nil, 1)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got, want := m.(models.Described).Description(), c.want.Description(); got != want {
			t.Errorf("%s: defaults build %q, want %q", c.name, got, want)
		}
		if n := m.(models.Named).Name(); n != c.name {
			t.Errorf("%s: Name() = %q", c.name, n)
		}
		if _, ok := m.(models.ExactLogZ); !ok {
			t.Errorf("%s has no ExactLogZ", c.name)
		}
		for _, v := range c.bad {
			if _, err := New(c.name, v, 1); !errors.Is(err, ErrParam) {
				t.Errorf("%s %v: error %v, want a ParamError", c.name, v, err)
			}
		}
	}
	if m, _ := New(ToyMVN, nil, 1); !models.IsExact(m) {
		t.Error("toymvn does not draw exactly")
	}
	if m, _ := New(ToyMVN, nil, 1); !implementsBarrier(m) {
		t.Error("toymvn has no ExactBarrier")
	}
}

func implementsBarrier(m models.Model) bool {
	_, ok := m.(models.ExactBarrier)
	return ok
}

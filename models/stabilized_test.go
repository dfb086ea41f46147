package models

import (
	"strings"
	"testing"
)

// TestStabilizedIsItsOwnModel checks that Stabilized and StabilizedDense
// say so (IsStabilized, which the engine reads to refuse them on one leg)
// and describe themselves apart from Variational's models, so that a
// checkpoint of one is never restored into a run of another.
func TestStabilizedIsItsOwnModel(t *testing.T) {
	g, err := NewGaussian(2, -1, 1, 0.3, 0.3)
	if err != nil {
		t.Fatal(err)
	}
	descs := map[string]bool{}
	for _, c := range []struct {
		make func(Model, Explorer, int) (Model, error)
		stab bool
	}{{Variational, false}, {VariationalDense, false}, {Stabilized, true}, {StabilizedDense, true}} {
		m, err := c.make(g, MALA{}, 3)
		if err != nil {
			t.Fatal(err)
		}
		d := m.(Described).Description()
		if IsStabilized(m) != c.stab || strings.HasPrefix(d, "stabilized") != c.stab || descs[d] {
			t.Errorf("%s: IsStabilized %v, want %v (or a description seen before)", d, IsStabilized(m), c.stab)
		}
		descs[d] = true
	}
	if IsStabilized(g) {
		t.Error("the Gaussian itself is stabilized")
	}
}

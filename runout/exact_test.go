package runout

import (
	"math"
	"testing"

	"github.com/ptbatch/ptbatch/models"
)

// TestExactLogZ checks the closed forms against hand computations: the
// Gaussian in d = 3 with σ0 = 2, σ1 = 0.5 gives 3·(ln 0.5 − ln 2) = −3 ln 4;
// the Beta-binomial with a Beta(1, 1) prior and 1 success in 1 trial gives
// ln B(2, 1) − ln B(1, 1) = ln(1/2) − ln 1 = −ln 2 (B(2,1) = Γ2Γ1/Γ3 = 1/2);
// a model without a closed form gives NaN and false.
func TestExactLogZ(t *testing.T) {
	g, err := models.NewGaussian(3, 0, 0, 2, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	bb, err := models.NewBetaBinomial(1, 1, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		m    models.Model
		want float64
	}{{g, -3 * math.Log(4)}, {bb, -math.Ln2}} {
		got, ok := ExactLogZ(c.m)
		if !ok || math.Abs(got-c.want) > 1e-14 {
			t.Errorf("%T: %v, %v; want %v", c.m, got, ok, c.want)
		}
	}
	if x, ok := ExactLogZ(models.NewGalaxy()); ok || !math.IsNaN(x) {
		t.Errorf("galaxy: %v, %v; want NaN, false", x, ok)
	}
}

// TestExactOracles checks that ExactLogZ and ExactBarrier read a model's
// oracles (models.ExactLogZ, models.ExactBarrier): toymvn of dimension 3
// and precision 4 has log(Z1/Z0) = 3·ln(1/√4) = −3 ln 2 (its target
// N(0, I/4) against the reference N(0, I)) and a barrier, which the
// Gaussian pair, with no closed-form Λ here, does not.
func TestExactOracles(t *testing.T) {
	toy, err := models.NewToyMVN(3, 4)
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := ExactLogZ(toy); !ok || math.Abs(got+3*math.Ln2) > 1e-14 {
		t.Errorf("toymvn log Z: %v, %v; want %v", got, ok, -3*math.Ln2)
	}
	if got, ok := ExactBarrier(toy); !ok || got != toy.ExactBarrier() || !(got > 0) {
		t.Errorf("toymvn barrier: %v, %v; want %v > 0", got, ok, toy.ExactBarrier())
	}
	g, err := models.NewGaussian(1, -1, 1, 0.01, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	if x, ok := ExactBarrier(g); ok || !math.IsNaN(x) {
		t.Errorf("gaussian barrier: %v, %v; want NaN, false", x, ok)
	}
}

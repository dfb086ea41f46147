package models

import (
	"math"
	"testing"

	"github.com/ptbatch/ptbatch/kernel"
)

// TestMixGammaMoments checks the mean and variance of mixGamma's draws
// against Gamma(a, 1): E g = a, Var g = a. The draws are i.i.d., so the
// sample mean has SE √(a/n), and the mean of (g - a)² has SE
// √((μ4 - a²)/n) with the fourth central moment μ4 = 3a² + 6a, i.e.
// √((2a² + 6a)/n); the test allows 5 SE (two-sided normal tail 6e-7).
func TestMixGammaMoments(t *testing.T) {
	n := 40000
	if testing.Short() {
		n = 10000
	}
	lane := kernel.NewStream(17, 3).Lane(0)
	for _, a := range []float64{1, 1.7, 4, 30, 500} {
		var s1, s2 float64
		for i := 0; i < n; i++ {
			g := mixGamma(lane, a)
			if !(g > 0) {
				t.Fatalf("a=%v: draw %v not positive", a, g)
			}
			s1 += g
			s2 += (g - a) * (g - a)
		}
		mean, v := s1/float64(n), s2/float64(n)
		seMean, seVar := math.Sqrt(a/float64(n)), math.Sqrt((2*a*a+6*a)/float64(n))
		if math.Abs(mean-a) > 5*seMean || math.Abs(v-a) > 5*seVar {
			t.Errorf("a=%v: mean %v (SE %v), variance %v (SE %v), want %v, %v", a, mean, seMean, v, seVar, a, a)
		}
	}
}

// TestMixGammaRejectsSmallShape checks that a shape below 1, which no move
// of the mixture produces, panics.
func TestMixGammaRejectsSmallShape(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("mixGamma(0.5) did not panic")
		}
	}()
	mixGamma(kernel.NewStream(1, 0).Lane(0), 0.5)
}

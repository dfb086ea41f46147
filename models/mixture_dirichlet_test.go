package models

import (
	"math"
	"testing"

	"github.com/ptbatch/ptbatch/kernel"
)

// TestMixDirichletMoments checks mixDirichlet's draws, with their first
// attempts drawn from the same lane as the scalar reference draws them
// (kernel.Normals, then uniforms), against Dir(c): each w_i is
// Beta(c_i, c_0 - c_i) with c_0 = Σ c, so E w_i = μ = c_i/c_0 and
// Var w_i = σ² = c_i(c_0 - c_i)/(c_0²(c_0 + 1)). The draws are i.i.d., so
// the sample mean has SE σ/√n, and the mean of (w_i - μ)² has SE
// √((μ4 - σ⁴)/n) with the fourth central moment μ4 = σ⁴(3 + κ) and the
// excess kurtosis of Beta(a, b)
// κ = 6[(a-b)²(a+b+1) - ab(a+b+2)] / [ab(a+b+2)(a+b+3)]. The test allows
// 5 SE (two-sided normal tail 6e-7 per check, 16 checks). The parameters
// are those of the mixture's moves (at least 1, from 1 to 500) and, in the
// second set, one below 1, which kernel.FinishGamma boosts. Every draw
// must be positive and sum to 1 up to rounding.
func TestMixDirichletMoments(t *testing.T) {
	n := 40000
	if testing.Short() {
		n = 10000
	}
	lane := kernel.NewStream(17, 3).Lane(0)
	for _, conc := range [][]float64{{1, 1.7, 4, 30, 500}, {0.4, 1, 2.5}} {
		k := len(conc)
		c0 := 0.0
		for _, c := range conc {
			c0 += c
		}
		s1, s2 := make([]float64, k), make([]float64, k)
		w := make([]float64, k)
		mu := make([]float64, k)
		for i, c := range conc {
			mu[i] = c / c0
		}
		for d := 0; d < n; d++ {
			mixDirichlet(lane, conc, w, kernel.Normals(lane, k), mixUniforms(lane, k))
			sum := 0.0
			for i, v := range w {
				if !(v > 0) {
					t.Fatalf("conc %v: draw %v has a weight %v not positive", conc, w, v)
				}
				sum += v
				s1[i] += v
				s2[i] += (v - mu[i]) * (v - mu[i])
			}
			if math.Abs(sum-1) > 1e-14 {
				t.Fatalf("conc %v: draw %v sums to %v", conc, w, sum)
			}
		}
		for i, c := range conc {
			a, b := c, c0-c
			v := a * b / (c0 * c0 * (c0 + 1))
			kappa := 6 * ((a-b)*(a-b)*(a+b+1) - a*b*(a+b+2)) / (a * b * (a + b + 2) * (a + b + 3))
			mean, vhat := s1[i]/float64(n), s2[i]/float64(n)
			seMean, seVar := math.Sqrt(v/float64(n)), math.Sqrt((2+kappa)*v*v/float64(n))
			if math.Abs(mean-mu[i]) > 5*seMean || math.Abs(vhat-v) > 5*seVar {
				t.Errorf("conc %v, w_%d: mean %v (want %v, SE %v), variance %v (want %v, SE %v)", conc, i, mean, mu[i], seMean, vhat, v, seVar)
			}
		}
	}
}

package models_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ptbatch/ptbatch/models"
)

// ksStatistic returns the Kolmogorov–Smirnov distance sup_a |F_n(a) −
// F(a)| of the sample xs (sorted in place) from the CDF F.
func ksStatistic(xs []float64, cdf func(float64) float64) float64 {
	slices.Sort(xs)
	n := float64(len(xs))
	d := 0.0
	for i, x := range xs {
		f := cdf(x)
		d = max(d, math.Abs(f-float64(i)/n), math.Abs(float64(i+1)/n-f))
	}
	return d
}

// ksCritical is the Kolmogorov distribution's 0.999 quantile: √n·D exceeds
// it with probability 0.001 under the null (Smirnov's asymptotic law; its
// tables give 1.95).
const ksCritical = 1.95

// TestBananaMarginalsKS checks Banana.MarginalCDF, coordinate by
// coordinate, against 5000 independent draws of the twisted Gaussian
// made in the test from math/rand/v2's normals (x1 = 10z1, x2 = z2 −
// b(x1² − 100), x3 = z3), by a KS test at level 0.001, for curvatures
// on both sides of the quadrature's switch (100b = 0.05 and 1, 10, 100),
// and SampleTarget's draws (through a models.Rand on math/rand/v2) by the same
// test. Then the CDF of x2 at five points against the fraction of 200000
// draws below them (binomial se ≤ 1.2e-3, within 4 se): a finer check of
// the quadrature than KS's 0.028 (1.95/√5000).
func TestBananaMarginalsKS(t *testing.T) {
	for _, b := range []float64{0.0005, 0.01, 0.1, 1} {
		m, err := models.NewBanana(3, b, models.RandomWalk{})
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(11, math.Float64bits(b)))
		const n = 5000
		cols := [3][]float64{}
		own := [3][]float64{}
		lane := pcgRand{rand.New(rand.NewPCG(12, 1))}
		x := make([]float64, 3)
		for range n {
			x1 := 10 * rng.NormFloat64()
			cols[0] = append(cols[0], x1)
			cols[1] = append(cols[1], rng.NormFloat64()-b*(x1*x1-100))
			cols[2] = append(cols[2], rng.NormFloat64())
			m.SampleTarget(lane, x)
			for i := range 3 {
				own[i] = append(own[i], x[i])
			}
		}
		for i := range 3 {
			cdf := func(a float64) float64 { return m.MarginalCDF(i, a) }
			if d := ksStatistic(cols[i], cdf); math.Sqrt(n)*d > ksCritical {
				t.Errorf("b %g, x%d: KS distance %.4g of independent draws, √n·D = %.3g > %g", b, i+1, d, math.Sqrt(n)*d, ksCritical)
			}
			if d := ksStatistic(own[i], cdf); math.Sqrt(n)*d > ksCritical {
				t.Errorf("b %g, x%d: KS distance %.4g of SampleTarget's draws, √n·D = %.3g > %g", b, i+1, d, math.Sqrt(n)*d, ksCritical)
			}
		}
		const big = 200000
		points := []float64{-100 * b, -1, 0, 0.5, 2}
		below := make([]int, len(points))
		for range big {
			x1 := 10 * rng.NormFloat64()
			v := rng.NormFloat64() - b*(x1*x1-100)
			for k, a := range points {
				if v <= a {
					below[k]++
				}
			}
		}
		for k, a := range points {
			f := m.MarginalCDF(1, a)
			got := float64(below[k]) / big
			if se := math.Sqrt(f * (1 - f) / big); math.Abs(got-f) > 4*se+1e-9 {
				t.Errorf("b %g: P(x2 ≤ %g) = %.6g by quadrature, %.6g ± %.2g by 200000 draws", b, a, f, got, se)
			}
		}
	}
}

// pcgRand is a models.Rand on math/rand/v2, for drawing from a model's
// samplers in tests.
type pcgRand struct{ r *rand.Rand }

func (l pcgRand) Uniform() float64 { return 1 - l.r.Float64() }
func (l pcgRand) Normal() float64  { return l.r.NormFloat64() }

package models

import (
	"fmt"
	"math"
)

// Limits of NewCornerMix's μ and sd.
const (
	MaxCornerMu = 1e6  // largest μ: beyond it, μ²/sd² leaves float64's exact range
	MinCornerSD = 1e-3 // smallest sd
	MaxCornerSD = 1e6  // largest sd
)

// CornerMix is NRPT.jl's mixture of 2^d Gaussians at the corners of a
// cube: equal weights on N(c, sd² I) for every corner c ∈ {−μ, +μ}^d. The
// mixture factorises over coordinates, each ½N(μ, sd²) + ½N(−μ, sd²), so
// that with the unnormalised
//
//	W1(x) = Σ_i ln(e^{−(x_i−μ)²/(2sd²)} + e^{−(x_i+μ)²/(2sd²)}),  Z1 = (2√(2π) sd)^d,
//
// and the reference N(0, s0² I) of the target's own variance s0² = μ² +
// sd², W0(x) = −|x|²/(2s0²), Z0 = (√(2π) s0)^d, log(Z1/Z0) = d(ln 2 + ln sd
// − ln s0) (ExactLogZ), and every orthant holds mass 2^{−d}
// (OrthantMass). The modes are far apart when μ ≫ sd: a local explorer
// stays in one, and only the swaps of parallel tempering move a replica
// between them.
type CornerMix struct {
	Dim    int     // dimension d: 2^d components
	Mu, SD float64 // corners ±μ and components' sd; read-only after NewCornerMix
	*funcsModel
}

// NewCornerMix returns the corner mixture in dim ≥ 1 coordinates with
// corners ±mu (0 ≤ mu ≤ MaxCornerMu) and component standard deviation sd
// (in [MinCornerSD, MaxCornerSD]), explored by ex.
func NewCornerMix(dim int, mu, sd float64, ex Explorer) (*CornerMix, error) {
	switch {
	case dim < 1:
		return nil, fmt.Errorf("models: cornermix needs dimension at least 1, got %d", dim)
	case !(mu >= 0 && mu <= MaxCornerMu):
		return nil, fmt.Errorf("models: cornermix's mu must be in [0, %g], got %g", MaxCornerMu, mu)
	case !(sd >= MinCornerSD && sd <= MaxCornerSD):
		return nil, fmt.Errorf("models: cornermix's sd must be in [%g, %g], got %g", MinCornerSD, MaxCornerSD, sd)
	}
	c := &CornerMix{Dim: dim, Mu: mu, SD: sd}
	s0 := c.refSD()
	m, err := FromFuncs(Funcs{
		Dim:          dim,
		LogReference: func(x []float64) float64 { return -sumSquares(x) / (2 * s0 * s0) },
		LogTarget:    c.logTarget,
		SampleReference: func(r Rand, x []float64) {
			for d := range x {
				x[d] = s0 * r.Normal()
			}
		},
		GradLogReference: func(x, g []float64) {
			for d, v := range x {
				g[d] = -v / (s0 * s0)
			}
		},
		GradLogTarget: c.gradTarget,
	}, ex)
	if err != nil {
		return nil, err
	}
	c.funcsModel = m.(*funcsModel)
	return c, nil
}

// refSD is the reference's standard deviation s0 = √(μ² + sd²).
func (c *CornerMix) refSD() float64 { return math.Hypot(c.Mu, c.SD) }

// logTarget is W1: per coordinate, with z = xμ/sd², ln(e^a + e^b) =
// −(x² + μ²)/(2sd²) + |z| + ln(1 + e^{−2|z|}) (ln 2cosh z without
// overflow).
func (c *CornerMix) logTarget(x []float64) float64 {
	v := c.SD * c.SD
	s := 0.0
	for _, xi := range x {
		z := math.Abs(xi * c.Mu / v)
		s += -(xi*xi+c.Mu*c.Mu)/(2*v) + z + math.Log1p(math.Exp(-2*z))
	}
	return s
}

// gradTarget writes ∇W1: (−x_i + μ tanh(x_i μ/sd²))/sd².
func (c *CornerMix) gradTarget(x, g []float64) {
	v := c.SD * c.SD
	for i, xi := range x {
		g[i] = (-xi + c.Mu*math.Tanh(xi*c.Mu/v)) / v
	}
}

// ExactLogZ returns log(Z1/Z0) = Dim·(ln 2 + ln sd − ln √(μ² + sd²)).
func (c *CornerMix) ExactLogZ() float64 {
	return float64(c.Dim) * (math.Ln2 + math.Log(c.SD) - math.Log(c.refSD()))
}

// OrthantMass returns the target's mass in the orthant of the signs of
// corner (+1 where corner[i] ≥ 0): Π_i ½(Φ(μ/sd) + Φ(−μ/sd)) = 2^{−d},
// every orthant the same, for each coordinate's two components put the
// mass Φ(μ/sd) and Φ(−μ/sd) on its two sides. It panics if len(corner) is
// not Dim.
func (c *CornerMix) OrthantMass(corner []float64) float64 {
	if len(corner) != c.Dim {
		panic("models: CornerMix.OrthantMass needs one sign per coordinate")
	}
	near := 0.5 * math.Erfc(-c.Mu/c.SD/math.Sqrt2) // Φ(μ/sd): a component's mass on its own side
	p := 1.0
	for range corner {
		p *= 0.5*near + 0.5*(1-near)
	}
	return p
}

// Name returns "cornermix".
func (c *CornerMix) Name() string { return "cornermix" }

// Description returns "cornermix dim=… mu=… sd=… explorer=…".
func (c *CornerMix) Description() string {
	return fmt.Sprintf("cornermix dim=%d mu=%s sd=%s explorer=%s", c.Dim, fmtFloat(c.Mu), fmtFloat(c.SD), describeExplorer(c.ex))
}

var (
	_ ExactLogZ = (*CornerMix)(nil)
	_ Described = (*CornerMix)(nil)
	_ Named     = (*CornerMix)(nil)
)

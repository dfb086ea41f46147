package models

import (
	"fmt"
	"math"
)

// Limits of NewToyMVN's precision scale: beyond them the energies of a
// high-dimensional state leave float64's exact range long before the
// sampler has anything to say.
const (
	MinToyPrecision = 1e-6
	MaxToyPrecision = 1e6
)

// ToyMVN is Pigeons.jl's toy_mvn target, the scaled-precision normal path:
// reference N(0, I) and target N(0, I/Precision), so that every annealed
// density exp(η0·W0 + η1·W1) is the normal N(0, I/(η0 + η1·Precision)),
// drawn exactly. It is the Gaussian pair with μ0 = μ1 = 0, σ0 = 1 and σ1 =
// 1/√Precision, whose batched exact draws (kernel.GaussEnergy) it runs;
// its oracles are log Z (Gaussian.ExactLogZ) and the global barrier Λ of
// the linear path (ExactBarrier).
type ToyMVN struct {
	*Gaussian
	Precision float64 // the target's precision P, the reference's being 1
}

// NewToyMVN returns the toy_mvn target in dim ≥ 1 coordinates whose target
// precision is precision times the reference's, in [MinToyPrecision,
// MaxToyPrecision].
func NewToyMVN(dim int, precision float64) (*ToyMVN, error) {
	if !(precision >= MinToyPrecision && precision <= MaxToyPrecision) {
		return nil, fmt.Errorf("models: toymvn's precision must be in [%g, %g], got %g", MinToyPrecision, MaxToyPrecision, precision)
	}
	g, err := NewGaussian(dim, 0, 0, 1, 1/math.Sqrt(precision))
	if err != nil {
		return nil, fmt.Errorf("models: toymvn: %w", err)
	}
	return &ToyMVN{Gaussian: g, Precision: precision}, nil
}

// Name returns "toymvn".
func (m *ToyMVN) Name() string { return "toymvn" }

// Description returns "toymvn dim=… precision=…".
func (m *ToyMVN) Description() string {
	return fmt.Sprintf("toymvn dim=%d precision=%s", m.Dim, fmtFloat(m.Precision))
}

// ExactBarrier returns Λ of the linear path in closed form,
//
//	Λ = |ln(p1/p0)| · Γ((d+1)/2) / (Γ(d/2) √π),
//
// with p0 = 1/σ0² and p1 = 1/σ1² the two precisions. Derivation: V = W1 −
// W0 = −½(p1 − p0)|x|², and under π_t, N(0, I/p(t)) with p(t) = p0 +
// t(p1 − p0), |x|² = χ²_d/p(t). Two independent χ²_d = Gamma(d/2, 2)
// differ in absolute value by 4Γ((d+1)/2)/(Γ(d/2)√π) on average (the mean
// difference of Gamma(k, θ) is 2θΓ(k+½)/(Γ(k)√π)), so λ(t) = ½E|V−V′| =
// |p1 − p0| Γ((d+1)/2)/(p(t) Γ(d/2) √π), and ∫_0^1 |p1 − p0|/p(t) dt =
// |ln(p1/p0)|.
func (m *ToyMVN) ExactBarrier() float64 {
	p0 := 1 / (m.Sigma0 * m.Sigma0)
	p1 := 1 / (m.Sigma1 * m.Sigma1)
	a, _ := math.Lgamma(float64(m.Dim+1) / 2)
	b, _ := math.Lgamma(float64(m.Dim) / 2)
	return math.Abs(math.Log(p1/p0)) * math.Exp(a-b) / math.Sqrt(math.Pi)
}

var (
	_ ExactLogZ    = (*ToyMVN)(nil)
	_ ExactBarrier = (*ToyMVN)(nil)
	_ Described    = (*ToyMVN)(nil)
	_ Named        = (*ToyMVN)(nil)
	_ Exact        = (*ToyMVN)(nil)
)

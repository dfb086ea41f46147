package kernel

import (
	"math"

	"github.com/ptbatch/ptbatch/asm"
)

// Per-lane random variates. Every function below draws its uniforms from a
// Source in a fixed order, written out in its comment, so that a batched
// model, which passes a Lane of its Stream, and the model's scalar
// reference, which passes its own rng, consume the same numbers in the
// same order and get the same variates bit for bit. Products that feed a
// sum are written float64(a*b): the conversion rounds the product (Go
// spec, "Floating-point operators"), so that a build that fuses
// multiply-adds (GOAMD64=v3, arm64) computes the same values as one that
// does not.

// Source is a scalar source of uniform draws: the random numbers of one
// replicate seen alone, such as a Lane or the rng of a model's scalar
// reference. The variates take it as a type parameter, so that passing a
// Lane does not allocate.
type Source interface {
	// Uniform returns the next uniform draw on (0, 1].
	Uniform() float64
}

// Normal returns a standard normal from two uniforms of rng, u1 then u2:
// the cosine half √(-2 log u1)·cos 2πu2 of asm.BoxMuller (polynomial log
// and sincos). It is the number LaneNormal, Normals(rng, 1) and an odd last
// row of Stream.Normal give; the sine half is dropped.
func Normal[R Source](rng R) float64 {
	u1 := rng.Uniform()
	u2 := rng.Uniform()
	z0, _ := asm.BoxMuller(u1, u2)
	return z0
}

// Exponential returns an Exp(1) variate -log u from one uniform u of rng
// (math.Log). It is finite and not negative.
func Exponential[R Source](rng R) float64 {
	return -math.Log(rng.Uniform())
}

// GammaSampler holds the constants of Marsaglia and Tsang's method ("A
// simple method for generating gamma variables", ACM TOMS 26(3), 2000) for
// Gamma(shape, 1): with a = shape, or a = shape + 1 when shape < 1,
// d = a - 1/3 and c = 1/√(9d). An attempt takes a standard normal x and a
// uniform u, sets v = (1 + cx)³ and accepts d·v when v > 0 and
//
//	u < 1 - 0.0331 x⁴  or  log u < x²/2 + d(1 - v + log v).
//
// The accepted value has the Gamma(a, 1) law. For shape < 1 it is boosted:
// G = G'·u'^(1/shape) with one more uniform u', that is
// log G = log G' + log(u')/shape, which has the Gamma(shape, 1) law. The
// zero GammaSampler is not usable; make one with NewGammaSampler.
//
// A batched model draws the first attempts of a row of lanes with the
// fills of its Stream, calls Try, and completes each lane with
// FinishGamma; its scalar reference draws the same first attempt from its
// rng and calls the same two.
type GammaSampler struct {
	shape, d, c float64
	boost       bool
}

// NewGammaSampler returns the sampler of Gamma(shape, 1). It panics unless
// shape is positive and finite.
func NewGammaSampler(shape float64) GammaSampler {
	if !(shape > 0) || math.IsInf(shape, 1) {
		panic("kernel: gamma shape must be positive and finite")
	}
	g := GammaSampler{shape: shape}
	a := shape
	if shape < 1 {
		a++
		g.boost = true
	}
	g.d = a - 1.0/3
	g.c = 1 / math.Sqrt(9*g.d)
	return g
}

// Shape returns the shape of the gamma law g draws.
func (g GammaSampler) Shape() float64 { return g.shape }

// Boosted reports whether the shape is below 1, so that FinishGamma draws
// one more uniform for the boost.
func (g GammaSampler) Boosted() bool { return g.boost }

// Try returns the value d·v of the attempt with normal x and uniform u,
// or 0 when it is rejected (accepted values are positive). When 1 + cx ≤ 0
// it rejects without looking at u. It draws nothing:
//
//	t := 1 + float64(c*x)
//	if !(t > 0) { return 0 }
//	v := t * t * t
//	x2 := x * x
//	if u < 1-float64(0.0331*x2*x2) || math.Log(u) < float64(0.5*x2)+float64(d*(1-v+math.Log(v))) {
//		return d * v
//	}
//	return 0
func (g GammaSampler) Try(x, u float64) float64 {
	t := 1 + float64(g.c*x)
	if !(t > 0) {
		return 0
	}
	v := t * t * t
	x2 := x * x
	if u < 1-float64(0.0331*x2*x2) || math.Log(u) < float64(0.5*x2)+float64(g.d*(1-v+math.Log(v))) {
		return g.d * v
	}
	return 0
}

// FinishGamma completes a variate of g whose first attempt gave v (0 if it
// was rejected or not made) and returns the accepted value and the log
// boost, the variate being value·exp(logBoost). While v is 0 it makes a new
// attempt: x = Normal(rng) (two uniforms) and, only when 1 + cx > 0, one
// uniform u for Try(x, u). Then, when g is boosted, it draws one more
// uniform u' and logBoost = log(u')/shape; otherwise logBoost is 0. A
// caller that needs log G (a boosted variate may underflow) takes
// log(value) + logBoost.
func FinishGamma[R Source](rng R, g GammaSampler, v float64) (value, logBoost float64) {
	if !(g.d > 0) {
		panic("kernel: GammaSampler not made by NewGammaSampler")
	}
	for v == 0 {
		x := Normal(rng)
		if 1+float64(g.c*x) > 0 {
			v = g.Try(x, rng.Uniform())
		}
	}
	if g.boost {
		logBoost = math.Log(rng.Uniform()) / g.shape
	}
	return v, logBoost
}

// Gamma returns a Gamma(shape, 1) variate drawn from rng alone:
// FinishGamma(rng, NewGammaSampler(shape), 0), every attempt drawn as a
// retry is, and value·exp(logBoost) when shape < 1 (which underflows to 0
// for very small shapes; use FinishGamma for the logarithm). It panics
// unless shape is positive and finite.
func Gamma[R Source](rng R, shape float64) float64 {
	g := NewGammaSampler(shape)
	v, lb := FinishGamma(rng, g, 0)
	if g.boost {
		return v * math.Exp(lb)
	}
	return v
}

// Normal returns the lane's next standard normal, Normal(l): two uniforms,
// cosine half, as LaneNormal.
func (l Lane) Normal() float64 { return Normal(l) }

// Exponential returns the lane's next Exp(1) variate, Exponential(l).
func (l Lane) Exponential() float64 { return Exponential(l) }

// Gamma returns the lane's next Gamma(shape, 1) variate, Gamma(l, shape).
func (l Lane) Gamma(shape float64) float64 { return Gamma(l, shape) }

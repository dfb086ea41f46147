package kernel

import (
	"github.com/ptbatch/ptbatch/asm"
	"github.com/ptbatch/ptbatch/layout"
)

// The checked layer of the mixture models' kernels (asm/mix.go, which gives
// each kernel's exact operations). Rows hold layout.Lanes values, one per
// replicate; an observation's row of terms is one row per component. Every
// length is checked before the kernel runs, by divisions that cannot wrap
// (see GaussEnergy).

// rowsOf returns len(x)/layout.Lanes, or -1 when len(x) is not a multiple.
func rowsOf(n int) int {
	if n%layout.Lanes != 0 {
		return -1
	}
	return n / layout.Lanes
}

// MixTerms2 computes the label terms of a two-component mixture for every
// observation y[n] (asm.MixTerms2Generic): coef holds the rows a, b and mid,
// r the running sums R_0 and R_1 (two rows, added to), e and inv one row per
// observation. It panics with "kernel: slice lengths do not match" unless
// len(coef) == 3·Lanes, len(r) == 2·Lanes and len(e) == len(inv) ==
// len(y)·Lanes.
func MixTerms2(e, inv, r, y, coef []float64) {
	const L = layout.Lanes
	if len(coef) != 3*L || len(r) != 2*L || rowsOf(len(e)) != len(y) || len(inv) != len(e) {
		panic(errLengths)
	}
	raceRead(y)
	raceRead(coef)
	raceWrite(r)
	raceWrite(e)
	raceWrite(inv)
	impl.MixTerms2(e, inv, r, y, coef)
}

// MixProp2 runs the second pass of the two-component mixture's MH move
// over the observations from on (asm.MixProp2Generic) and returns where it
// stopped: the number of observations, or the first observation at which
// some lane's running product leaves its range (the caller takes that
// observation itself and calls again after it). acc holds the rows r_0, r_1
// and p, a the rows a_0 and a_1, e and inv one row per observation. It
// panics with "kernel: slice lengths do not match" unless len(acc) ==
// 3·Lanes, len(a) == 2·Lanes, len(e) == len(inv) (a multiple of Lanes) and
// 0 ≤ from ≤ len(inv)/Lanes.
func MixProp2(acc, e, inv, a []float64, from int) int {
	const L = layout.Lanes
	nd := rowsOf(len(inv))
	if len(acc) != 3*L || len(a) != 2*L || nd < 0 || len(e) != len(inv) || from < 0 || from > nd {
		panic(errLengths)
	}
	raceRead(e)
	raceRead(inv)
	raceRead(a)
	raceWrite(acc)
	return impl.MixProp2(acc, e, inv, a, from)
}

// MixLabels2 draws the labels of a two-component mixture into z, one row
// of bytes per observation, and adds the count, sum and sum of squares of
// component 1's observations to the rows of acc (asm.MixLabels2Generic).
// f holds the rows f_0 and f_1; e and u have one row per observation,
// whose centred values and their squares are yc and yc2. It panics with
// "kernel: slice lengths do not match" unless len(acc) == 3·Lanes,
// len(f) == 2·Lanes, len(yc2) == len(yc) and len(z) == len(e) == len(u) ==
// len(yc)·Lanes.
func MixLabels2(z []uint8, acc, e, u, f, yc, yc2 []float64) {
	const L = layout.Lanes
	if len(acc) != 3*L || len(f) != 2*L || len(yc2) != len(yc) || rowsOf(len(e)) != len(yc) || len(u) != len(e) || len(z) != len(e) {
		panic(errLengths)
	}
	raceRead(e)
	raceRead(u)
	raceRead(f)
	raceRead(yc)
	raceRead(yc2)
	raceWrite(acc)
	raceWriteBytes(z)
	impl.MixLabels2(z, acc, e, u, f, yc, yc2)
}

// MixTermsK computes the label terms of m components of a mixture for every
// centred observation yc[n] (asm.MixTermsKGeneric): cc and cb hold one row
// per component, r the running sums R_i (one row per component, added to),
// e m rows per observation and inv one. It panics with "kernel: slice
// lengths do not match" unless len(cc) == len(cb) == len(r) == m·Lanes with
// m ≥ 1, len(inv) == len(yc)·Lanes and len(e) == m·len(inv).
func MixTermsK(e, inv, r, yc, cc, cb []float64) {
	m := rowsOf(len(cc))
	if m < 1 || len(cb) != len(cc) || len(r) != len(cc) || rowsOf(len(inv)) != len(yc) || len(e)/m != len(inv) || len(e)%m != 0 {
		panic(errLengths)
	}
	raceRead(yc)
	raceRead(cc)
	raceRead(cb)
	raceWrite(r)
	raceWrite(e)
	raceWrite(inv)
	impl.MixTermsK(e, inv, r, yc, cc, cb)
}

// MixPropK is MixProp2 for m components (asm.MixPropKGeneric): acc holds
// the rows r_0 … r_{m-1} and p, a the rows a_0 … a_{m-1}, e m rows per
// observation and inv one. It panics with "kernel: slice lengths do not
// match" unless len(a) == m·Lanes with m ≥ 1, len(acc) == len(a) + Lanes,
// len(inv) is a multiple of Lanes, len(e) == m·len(inv) and
// 0 ≤ from ≤ len(inv)/Lanes.
func MixPropK(acc, e, inv, a []float64, from int) int {
	m := rowsOf(len(a))
	nd := rowsOf(len(inv))
	if m < 1 || nd < 0 || len(acc)-layout.Lanes != len(a) || len(e)/m != len(inv) || len(e)%m != 0 || from < 0 || from > nd {
		panic(errLengths)
	}
	raceRead(e)
	raceRead(inv)
	raceRead(a)
	raceWrite(acc)
	return impl.MixPropK(acc, e, inv, a, from)
}

// MixLabelsK draws the labels of a mixture from the terms of m components
// by the inverse of their cumulative sums into z, one row of bytes per
// observation, and tallies the count, sum and sum of squares of the
// observations of each label in tv (asm.MixLabelsKGeneric): f holds one
// row per component, lv a base label and m steps (the label when the first
// q cumulative sums are at most u·S is lv[0] + … + lv[q]; labels must be
// whole numbers below 256), acc three rows per label of tv (added to).
// It panics with "kernel: slice lengths do not match" unless len(f) ==
// m·Lanes with m ≥ 1, len(lv) == m+1, len(acc) == 3·len(tv)·Lanes,
// len(yc2) == len(yc), len(z) == len(u) == len(yc)·Lanes and
// len(e) == m·len(u).
func MixLabelsK(z []uint8, acc, e, u, f, lv, tv, yc, yc2 []float64) {
	m := rowsOf(len(f))
	if m < 1 || len(lv) != m+1 || rowsOf(len(acc)) != 3*len(tv) || len(yc2) != len(yc) ||
		rowsOf(len(u)) != len(yc) || len(z) != len(u) || len(e)/m != len(u) || len(e)%m != 0 {
		panic(errLengths)
	}
	raceRead(e)
	raceRead(u)
	raceRead(f)
	raceRead(lv)
	raceRead(tv)
	raceRead(yc)
	raceRead(yc2)
	raceWrite(acc)
	raceWriteBytes(z)
	impl.MixLabelsK(z, acc, e, u, f, lv, tv, yc, yc2)
}

// MixGammaTry makes the first attempts of the Gamma(conc[i], 1) variates
// of a Dirichlet draw for every lane at once from the normals x and
// uniforms u (asm.MixGammaTryGeneric): g[i] is GammaSampler.Try's value
// where its squeeze accepts, 0 where the caller must finish the variate
// (GammaSampler.Try, then FinishGamma). Every shape must be at least 1
// (no boost). It panics with "kernel: slice lengths do not match" unless
// len(g) == len(conc) == len(x) == len(u), a multiple of Lanes.
func MixGammaTry(g, conc, x, u []float64) {
	if rowsOf(len(conc)) < 0 || len(g) != len(conc) || len(x) != len(conc) || len(u) != len(conc) {
		panic(errLengths)
	}
	raceRead(conc)
	raceRead(x)
	raceRead(u)
	raceWrite(g)
	impl.MixGammaTry(g, conc, x, u)
}

// MixLog sets dst[i] = math.Log(src[i]) bit for bit, for rows of lanes
// (asm.MixLogGeneric; the assembly repeats the operations of the standard
// library's amd64 logarithm). It panics with "kernel: slice lengths do not
// match" unless len(dst) == len(src), a multiple of Lanes.
func MixLog(dst, src []float64) {
	if rowsOf(len(src)) < 0 || len(dst) != len(src) {
		panic(errLengths)
	}
	raceRead(src)
	raceWrite(dst)
	impl.MixLog(dst, src)
}

// MixExpMin is the flush threshold of MixExp: e^x is 0 below it.
const MixExpMin = asm.MixExpMin

// MixExp returns e^x, x ≤ 709, to within 0.52 units in the last place, or
// 0 when x < MixExpMin = -700 or x is NaN: the exponential of the mixture
// models, computed as asm.MixExp describes, the same in every
// implementation and on every CPU (no fused multiply-add). The mixture
// kernels compute their terms with it.
func MixExp(x float64) float64 { return asm.MixExp(x) }

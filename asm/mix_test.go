package asm

import (
	"math"
	"math/rand/v2"
	"os"
	"regexp"
	"strings"
	"testing"
)

// sameOrNaN reports whether a and b have the same bits or are both NaN
// (the payload of a NaN depends on operand order, which the kernels do not
// promise; every NaN reads the same downstream).
func sameOrNaN(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b))
}

func sameRows(t *testing.T, what string, got, want []float64) {
	t.Helper()
	for i := range want {
		if !sameOrNaN(got[i], want[i]) {
			t.Fatalf("%s[%d] (row %d, lane %d) = %v (%#x), generic %v (%#x)", what, i, i/lanes, i%lanes,
				got[i], math.Float64bits(got[i]), want[i], math.Float64bits(want[i]))
		}
	}
}

// mixValue returns a random float64 from a mix that exercises the kernels'
// edge cases with probability special: NaN, ±Inf, ±0, values far beyond
// the exponential's flush and clamp thresholds, and exact ties.
func mixValue(rng *rand.Rand, lo, hi, special float64) float64 {
	if rng.Float64() < special {
		return []float64{math.NaN(), math.Inf(-1), math.Inf(1), 0, math.Copysign(0, -1), -750, 750, 1, -1e300}[rng.IntN(9)]
	}
	return lo + (hi-lo)*rng.Float64()
}

func mixRows(rng *rand.Rand, n int, lo, hi, special float64) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = mixValue(rng, lo, hi, special)
	}
	return x
}

// TestMixExpKernelCoversTable checks MixTerms2 with b = 0, whose terms are
// MixExp(min(a, 700)), against MixExp at arguments that reach every entry
// of the table and both sides of the flush threshold, and MixExp itself
// against math.Exp (0.52 ulp there, so at most one ulp apart).
func TestMixExpKernelCoversTable(t *testing.T) {
	var xs []float64
	for k := -129000; k <= 129000; k += 37 { // k ln2/128 + r over [-700, 700]
		xs = append(xs, float64(k)*math.Ln2/128+1e-3*float64(k%7))
	}
	xs = append(xs, MixExpMin, math.Nextafter(MixExpMin, -1), math.Nextafter(MixExpMin, 0), 0, math.Copysign(0, -1), 700, 709, math.NaN(), math.Inf(-1))
	for len(xs)%lanes != 0 {
		xs = append(xs, 0)
	}
	for _, x := range xs {
		if x >= MixExpMin && x <= 700 {
			if got, want := MixExp(x), math.Exp(x); math.Abs(got-want) > ulpOf(want) {
				t.Fatalf("MixExp(%v) = %v, math.Exp %v", x, got, want)
			}
		}
	}
	forEachImpl(t, func(t *testing.T, im Impl) {
		for b := 0; b < len(xs); b += lanes {
			coef := make([]float64, 3*lanes)
			copy(coef, xs[b:b+lanes])
			e, inv, r := make([]float64, lanes), make([]float64, lanes), make([]float64, 2*lanes)
			im.MixTerms2(e, inv, r, []float64{0.5}, coef)
			for j := 0; j < lanes; j++ {
				want := MixExp(min(xs[b+j], 700))
				if math.IsNaN(xs[b+j]) {
					want = 0
				}
				if !sameOrNaN(e[j], want) {
					t.Fatalf("term of %v = %v, MixExp gives %v", xs[b+j], e[j], want)
				}
			}
		}
	})
}

// TestMixKernelsMatchGeneric runs every mixture kernel of every
// implementation on random rows (with NaN, infinities, zeros and values
// beyond the thresholds mixed in) for many numbers of observations and
// components, and checks every output against the generic twin bit for
// bit, and that nothing is written past the slices.
func TestMixKernelsMatchGeneric(t *testing.T) {
	forEachImpl(t, func(t *testing.T, im Impl) {
		rng := rand.New(rand.NewPCG(11, 12))
		for nd := 0; nd <= 40; nd++ {
			for _, m := range []int{1, 2, 3, 5, 6, 9} {
				special := []float64{0, 0.02, 0.3}[(nd+m)%3]
				checkMix2(t, im, rng, nd, special)
				checkMixK(t, im, rng, nd, m, special)
			}
		}
	})
}

func checkMix2(t *testing.T, im Impl, rng *rand.Rand, nd int, special float64) {
	t.Helper()
	y := mixRows(rng, nd, -3, 3, special/4)
	coef := append(mixRows(rng, lanes, -30, 30, special), mixRows(rng, 2*lanes, -5, 5, special)...)
	r0 := mixRows(rng, 2*lanes, 0, 10, 0)
	var e, inv, r [2][]float64
	var gs [2][]float64
	for k := range e {
		e[k], gs[k] = guarded(nd * lanes)
		inv[k], _ = guarded(nd * lanes)
		r[k] = append([]float64(nil), r0...)
	}
	im.MixTerms2(e[0], inv[0], r[0], y, coef)
	MixTerms2Generic(e[1], inv[1], r[1], y, coef)
	checkGuard(t, gs[0])
	sameRows(t, "MixTerms2 e", e[0], e[1])
	sameRows(t, "MixTerms2 inv", inv[0], inv[1])
	sameRows(t, "MixTerms2 r", r[0], r[1])

	// The MH pass from the terms, with factors in (0, 1] and products
	// started near the ends of their range so that some lanes stop it.
	a := mixRows(rng, 2*lanes, 0, 1, special/4)
	acc0 := append(mixRows(rng, 2*lanes, 0, 5, 0), mixRows(rng, lanes, 0.5, 2, 0)...)
	for j := 0; j < lanes; j++ {
		if rng.IntN(3) == 0 {
			acc0[2*lanes+j] = math.Ldexp(1, 490+rng.IntN(10)) * (1 - 2*float64(rng.IntN(2))*0.25)
		}
	}
	var accs [2][]float64
	var stops [2][]int
	for k, f := range []func(acc, e, inv, a []float64, from int) int{im.MixProp2, MixProp2Generic} {
		acc := append([]float64(nil), acc0...)
		for from := 0; ; {
			n := f(acc, e[1], inv[1], a, from)
			stops[k] = append(stops[k], n)
			if n == nd {
				break
			}
			if n < from || n > nd {
				t.Fatalf("MixProp2 stopped at %d, from %d of %d", n, from, nd)
			}
			for j := 0; j < lanes; j++ { // the caller's step: take the observation as is
				x := e[1][n*lanes+j]
				tt := a[j] + a[lanes+j]*x
				acc[j] += 1 / tt
				acc[lanes+j] += x * (1 / tt)
				acc[2*lanes+j] = 1
			}
			from = n + 1
		}
		accs[k] = acc
	}
	if !equalInts(stops[0], stops[1]) {
		t.Fatalf("MixProp2 stops %v, generic %v", stops[0], stops[1])
	}
	sameRows(t, "MixProp2 acc", accs[0], accs[1])

	u := mixRows(rng, nd*lanes, 0, 1, special/4)
	f := mixRows(rng, 2*lanes, 0, 1.5, special/4)
	yc2 := mixRows(rng, nd, 0, 9, special/4)
	var zs [2][]uint8
	var la [2][]float64
	for k := range zs {
		zs[k] = make([]uint8, nd*lanes+lanes)
		for i := range zs[k] {
			zs[k][i] = 0xee
		}
		la[k] = mixRows(rng, 3*lanes, 0, 1, 0)
		if k == 1 {
			copy(la[1], la[0])
		}
	}
	im.MixLabels2(zs[0][:nd*lanes], la[0], e[1], u, f, y, yc2)
	MixLabels2Generic(zs[1][:nd*lanes], la[1], e[1], u, f, y, yc2)
	if string(zs[0]) != string(zs[1]) {
		t.Fatalf("MixLabels2 labels %v, generic %v", zs[0], zs[1])
	}
	sameRows(t, "MixLabels2 acc", la[0], la[1])
}

func checkMixK(t *testing.T, im Impl, rng *rand.Rand, nd, m int, special float64) {
	t.Helper()
	yc := mixRows(rng, nd, -3, 3, special/4)
	cc := mixRows(rng, m*lanes, -40, 5, special)
	cb := mixRows(rng, m*lanes, -20, 20, special)
	for i := range cc { // ties and components flushed everywhere
		switch rng.IntN(8) {
		case 0:
			cc[i], cb[i] = cc[i%lanes], cb[i%lanes]
		case 1:
			cc[i], cb[i] = -900, 0
		}
	}
	r0 := mixRows(rng, m*lanes, 0, 10, 0)
	var e, inv, r [2][]float64
	var gs [2][]float64
	for k := range e {
		e[k], gs[k] = guarded(nd * m * lanes)
		inv[k], _ = guarded(nd * lanes)
		r[k] = append([]float64(nil), r0...)
	}
	im.MixTermsK(e[0], inv[0], r[0], yc, cc, cb)
	MixTermsKGeneric(e[1], inv[1], r[1], yc, cc, cb)
	checkGuard(t, gs[0])
	sameRows(t, "MixTermsK e", e[0], e[1])
	sameRows(t, "MixTermsK inv", inv[0], inv[1])
	sameRows(t, "MixTermsK r", r[0], r[1])

	a := mixRows(rng, m*lanes, 0, 1, special/4)
	acc0 := append(mixRows(rng, m*lanes, 0, 5, 0), mixRows(rng, lanes, 0.5, 2, 0)...)
	for j := 0; j < lanes; j++ {
		if rng.IntN(3) == 0 {
			acc0[m*lanes+j] = math.Ldexp(1, -490-rng.IntN(10))
		}
	}
	var accs [2][]float64
	var stops [2][]int
	for k, f := range []func(acc, e, inv, a []float64, from int) int{im.MixPropK, MixPropKGeneric} {
		acc := append([]float64(nil), acc0...)
		for from := 0; ; {
			n := f(acc, e[1], inv[1], a, from)
			stops[k] = append(stops[k], n)
			if n == nd {
				break
			}
			if n < from || n > nd {
				t.Fatalf("MixPropK stopped at %d, from %d of %d", n, from, nd)
			}
			for j := 0; j < lanes; j++ {
				acc[m*lanes+j] = 1
			}
			from = n + 1
		}
		accs[k] = acc
	}
	if !equalInts(stops[0], stops[1]) {
		t.Fatalf("MixPropK stops %v, generic %v", stops[0], stops[1])
	}
	sameRows(t, "MixPropK acc", accs[0], accs[1])

	// Labels: m kept components among K = m+2, base label and steps as
	// the block builds them, and every label tallied.
	u := mixRows(rng, nd*lanes, 0, 1, special/4)
	f := mixRows(rng, m*lanes, 0, 1.5, special/4)
	lv := make([]float64, m+1)
	var tv []float64
	prev, l := 0.0, 0.0
	for p := 0; p <= m; p++ {
		l += float64(1 + rng.IntN(2))
		if p == m {
			l = float64(2*m + 2)
		} else {
			tv = append(tv, l)
		}
		lv[p], prev = l-prev, l
	}
	tv = append(tv, l)
	yc2 := mixRows(rng, nd, 0, 9, special/4)
	var zs [2][]uint8
	var la [2][]float64
	la0 := mixRows(rng, 3*len(tv)*lanes, 0, 1, 0)
	for k := range zs {
		zs[k] = make([]uint8, nd*lanes+lanes)
		for i := range zs[k] {
			zs[k][i] = 0xee
		}
		la[k] = append([]float64(nil), la0...)
	}
	im.MixLabelsK(zs[0][:nd*lanes], la[0], e[1], u, f, lv, tv, yc, yc2)
	MixLabelsKGeneric(zs[1][:nd*lanes], la[1], e[1], u, f, lv, tv, yc, yc2)
	if string(zs[0]) != string(zs[1]) {
		t.Fatalf("MixLabelsK labels %v, generic %v", zs[0], zs[1])
	}
	sameRows(t, "MixLabelsK acc", la[0], la[1])
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestMixRatioInRange checks the exponent test against the ranges of
// models.mixLogRatioStep written with math.Frexp.
func TestMixRatioInRange(t *testing.T) {
	in := func(x float64, e int) bool {
		if !(x > 0) || math.IsInf(x, 1) {
			return false
		}
		_, ex := math.Frexp(x) // x = f·2^ex, f in [½, 1): 2^(ex-1) ≤ x < 2^ex
		return ex-1 >= -e && ex-1 < e
	}
	xs := []float64{0, -1, 1, math.NaN(), math.Inf(1), math.Inf(-1), 5e-324, math.SmallestNonzeroFloat64 * 3}
	for k := -1100; k <= 1100; k++ {
		for _, f := range []float64{1, 1.5, math.Nextafter(2, 0)} {
			xs = append(xs, math.Ldexp(f, k))
		}
	}
	for _, r := range xs {
		for _, q := range []float64{1, math.Ldexp(1, 497), math.Ldexp(1, 498), math.Ldexp(1, -498), math.Ldexp(1, -499), r} {
			if got, want := MixRatioInRange(r, q), in(r, 332) && in(q, 498); got != want {
				t.Fatalf("MixRatioInRange(%v, %v) = %v, want %v", r, q, got, want)
			}
		}
	}
}

// TestMixGathersAreWellFormed checks the gathers of the generated
// assembly: destination, index and mask registers distinct (the CPU
// faults otherwise, and the register allocator does not know it), and no
// K0 as the mask (K0 means "no mask", which gathers refuse).
func TestMixGathersAreWellFormed(t *testing.T) {
	b, err := os.ReadFile("mix_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	regs := regexp.MustCompile(`\b[XYZK][0-9]+\b`)
	n := 0
	for i, line := range strings.Split(string(b), "\n") {
		if !strings.Contains(line, "VGATHERQPD") {
			continue
		}
		n++
		rs := regs.FindAllString(line, -1)
		if len(rs) != 3 || rs[0] == rs[1] || rs[1] == rs[2] || rs[0] == rs[2] || slicesContains(rs, "K0") {
			t.Errorf("mix_amd64.s:%d: %s", i+1, strings.TrimSpace(line))
		}
	}
	if n == 0 {
		t.Error("no gathers found")
	}
}

func slicesContains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// TestMixLogMatchesMathLog checks MixLog of every implementation against
// math.Log bit for bit (NaN payloads included) on the special values of
// math/log_amd64.s (±0, negative numbers, ±Inf, NaNs), subnormals, the
// edges of the normal range, the neighbours of √½ (where the reduction
// switches), uniforms and weights of (0, 1], and random bit patterns.
func TestMixLogMatchesMathLog(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	xs := []float64{0, math.Copysign(0, -1), -1, -1e-300, math.Inf(1), math.Inf(-1), math.NaN(),
		math.Float64frombits(0x7ff8dead0000beef), math.Float64frombits(0xfff8000000000001),
		math.SmallestNonzeroFloat64, 1e-310, 0x1p-1022, math.MaxFloat64, 1, 2, 0.5,
		math.Sqrt2 / 2, math.Nextafter(math.Sqrt2/2, 0), math.Nextafter(math.Sqrt2/2, 1), 1.0 / 6}
	for len(xs) < 40000 {
		switch len(xs) % 4 {
		case 0:
			xs = append(xs, math.Float64frombits(rng.Uint64()))
		case 1:
			xs = append(xs, 1-rng.Float64())
		case 2:
			xs = append(xs, math.Ldexp(1-rng.Float64(), -rng.IntN(1100)))
		case 3:
			xs = append(xs, math.Ldexp(math.Sqrt2/2, rng.IntN(2000)-1000)*(1+float64(rng.IntN(5)-2)*0x1p-52))
		}
	}
	forEachImpl(t, func(t *testing.T, im Impl) {
		dst, g := guarded(len(xs))
		im.MixLog(dst, xs)
		checkGuard(t, g)
		for i, x := range xs {
			if want := math.Log(x); math.Float64bits(dst[i]) != math.Float64bits(want) {
				t.Fatalf("MixLog(%v = %#x) = %v (%#x), math.Log %v (%#x)", x, math.Float64bits(x), dst[i], math.Float64bits(dst[i]), want, math.Float64bits(want))
			}
		}
	})
}

// TestMixGammaTryMatchesGeneric checks MixGammaTry of every implementation
// against its twin on shapes from 1 to 1e6 and normals and uniforms with
// edge values mixed in (t ≤ 0, u at 0 and 1, NaN).
func TestMixGammaTryMatchesGeneric(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	n := 4096
	conc, x, u := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range conc {
		conc[i] = 1 + math.Exp(14*rng.Float64()) - 1
		x[i] = rng.NormFloat64() * []float64{1, 1, 4, 40}[i%4]
		u[i] = 1 - rng.Float64()
	}
	conc[0], x[1], u[2], u[3], x[4] = 1, -3, 1, 0, math.NaN()
	want := make([]float64, n)
	MixGammaTryGeneric(want, conc, x, u)
	accepted := 0
	for _, g := range want {
		if g > 0 {
			accepted++
		}
	}
	if accepted < n/2 || accepted == n {
		t.Fatalf("%d of %d first tries accepted: the inputs do not exercise both outcomes", accepted, n)
	}
	forEachImpl(t, func(t *testing.T, im Impl) {
		g, guard := guarded(n)
		im.MixGammaTry(g, conc, x, u)
		checkGuard(t, guard)
		sameRows(t, "MixGammaTry", g, want)
	})
}

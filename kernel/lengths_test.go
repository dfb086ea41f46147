package kernel

import (
	"fmt"
	"math"
	"testing"

	"github.com/ptbatch/ptbatch/asm"
)

// panicMessage runs f and returns the value it panicked with, or nil.
func panicMessage(f func()) (msg any) {
	defer func() { msg = recover() }()
	f()
	return nil
}

// sentinel fills a buffer that a refused call must leave untouched.
const sentinel = 0x7ff8dead0000beef

func sentinels(n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = math.Float64frombits(sentinel)
	}
	return x
}

func untouched(x []float64) bool {
	for _, v := range x {
		if math.Float64bits(v) != sentinel {
			return false
		}
	}
	return true
}

// TestGaussEnergyRefusesWrappedLengths checks GaussEnergy on lengths
// whose product rows·8·dim wraps around in int arithmetic, so that the
// old check len(z) == n*dim passed on a tiny z and the AVX-512 kernel read
// out of bounds (issue 13): with n = len(m),
//
//	8 × 2⁶²       = 2⁶⁵            ≡ 0 (mod 2⁶⁴)   (run --dim 4611686018427387904)
//	8 × 2⁶¹       = 2⁶⁴            ≡ 0             (sweep --dims 2305843009213693952)
//	16 × 2⁶⁰      = 2⁶⁴            ≡ 0
//	8 × (2⁶¹+1)   = 2⁶⁴ + 8        ≡ 8
//	8 × (2⁶¹+2)   = 2⁶⁴ + 16       ≡ 16
//	8 × (1-2⁶¹)   = 8 - 2⁶⁴        ≡ 8             (a negative dim)
//	24 × ((2⁶⁴+8)/3 = 6148914691236517208) = 2⁶⁵ + 64 ≡ 64
//
// and on dim < 1, which the kernels cannot handle (they read the first
// coordinate unconditionally and count dim down to 0). Every call must
// panic with the constant message before the assembly runs: no fault, no
// output written.
func TestGaussEnergyRefusesWrappedLengths(t *testing.T) {
	cases := []struct {
		n, dim, lenZ int
		want         string
	}{
		{8, 1 << 62, 0, errLengths},
		{8, 1 << 61, 0, errLengths},
		{16, 1 << 60, 0, errLengths},
		{8, 1<<61 + 1, 8, errLengths},
		{8, 1<<61 + 2, 16, errLengths},
		{8, 1 - 1<<61, 8, errDim},
		{24, 6148914691236517208, 64, errLengths},
		{8, math.MaxInt, 0, errLengths},
		{8, 0, 0, errDim},
		{0, 0, 0, errDim},
		{8, -1, 8, errDim},
		{8, math.MinInt, 0, errDim},
		// Plain mismatches: z a row short, a row long, one value long.
		{16, 3, 16*3 - 8, errLengths},
		{16, 3, 16*3 + 8, errLengths},
		{16, 3, 16*3 + 1, errLengths},
		{0, 5, 8, errLengths},
	}
	forEachImpl(t, func(name string) {
		for _, c := range cases {
			w0, w1, first := sentinels(c.n), sentinels(c.n), sentinels(c.n)
			m, s, z := make([]float64, c.n), make([]float64, c.n), make([]float64, c.lenZ)
			got := panicMessage(func() { GaussEnergy(w0, w1, first, m, s, z, c.dim, 0, 0, 1, 1) })
			what := fmt.Sprintf("%s: n=%d dim=%d len(z)=%d", name, c.n, c.dim, c.lenZ)
			if got != c.want {
				t.Errorf("%s: panic %v, want %q", what, got, c.want)
			}
			if !untouched(w0) || !untouched(w1) || !untouched(first) {
				t.Errorf("%s: refused call wrote its outputs", what)
			}
		}
	})
}

// TestWrappedLengthsWouldPassTheNaiveCheck checks that the adversarial
// cases above are adversarial: n*dim in Go's wrapping int arithmetic
// equals the tiny len(z), which is what let the old check pass.
func TestWrappedLengthsWouldPassTheNaiveCheck(t *testing.T) {
	for _, c := range []struct{ n, dim, lenZ int }{
		{8, 1 << 62, 0}, {8, 1 << 61, 0}, {16, 1 << 60, 0}, {8, 1<<61 + 1, 8},
		{8, 1<<61 + 2, 16}, {8, 1 - 1<<61, 8}, {24, 6148914691236517208, 64},
	} {
		n, dim := c.n, c.dim // variables: a constant product would not compile
		if n*dim != c.lenZ {
			t.Errorf("%d*%d wraps to %d, not %d", n, dim, n*dim, c.lenZ)
		}
	}
}

// TestSwapAlphaRefusesBadLengths checks every way the six lengths of
// SwapAlpha can disagree: each slice a value short or long, a row short
// or long, empty, and alpha and rej not a whole number of rows.
func TestSwapAlphaRefusesBadLengths(t *testing.T) {
	const rows = 3
	n := rows * L
	forEachImpl(t, func(name string) {
		for arg := 0; arg < 6; arg++ {
			for _, delta := range []int{-L, -1, 1, L, math.MinInt} {
				lens := [6]int{n, n, n + L, n + L, n + L, n + L}
				lens[arg] += delta
				if delta == math.MinInt {
					lens[arg] = 0
				}
				if lens[arg] < 0 {
					continue
				}
				x := make([][]float64, 6)
				for i := range x {
					x[i] = sentinels(lens[i])
				}
				got := panicMessage(func() { SwapAlpha(x[0], x[1], x[2], x[3], x[4], x[5]) })
				if got != errLengths {
					t.Errorf("%s: lengths %v: panic %v, want %q", name, lens, got, errLengths)
				}
				if !untouched(x[0]) || !untouched(x[1]) {
					t.Errorf("%s: lengths %v: refused call wrote alpha or rej", name, lens)
				}
			}
		}
		// alpha and rej of 5 values, the others of 13: consistent but not
		// whole rows.
		a, r := sentinels(5), sentinels(5)
		e := make([]float64, 5+L)
		if got := panicMessage(func() { SwapAlpha(a, r, e, e, e, e) }); got != errLengths {
			t.Errorf("%s: 5 values: panic %v, want %q", name, got, errLengths)
		}
	})
}

// TestFillsRefuseBadLengths checks that Uniform and Normal refuse lengths
// that are not whole rows, with the constant message, and draw nothing.
func TestFillsRefuseBadLengths(t *testing.T) {
	forEachImpl(t, func(name string) {
		for _, n := range []int{1, 7, 9, 15, 17, 23} {
			for _, fill := range []struct {
				name string
				f    func(*Stream, []float64)
			}{{"Uniform", (*Stream).Uniform}, {"Normal", (*Stream).Normal}} {
				s := NewStream(1, 0)
				before := *s
				dst := sentinels(n)
				if got := panicMessage(func() { fill.f(s, dst) }); got != errRows {
					t.Errorf("%s: %s(len %d): panic %v, want %q", name, fill.name, n, got, errRows)
				}
				if *s != before || !untouched(dst) {
					t.Errorf("%s: %s(len %d): refused call drew numbers", name, fill.name, n)
				}
			}
		}
	})
}

// TestBookkeepingKernelsRefuseBadLengths checks MomentsAdd, MomentsAddSq
// and SwapApply: each slice a value or a row short or long, not whole
// rows, and SwapApply's from outside {0, 1} and zero chains; a refused
// call writes nothing.
func TestBookkeepingKernelsRefuseBadLengths(t *testing.T) {
	const rows = 5
	n := rows * L
	forEachImpl(t, func(name string) {
		for arg := 0; arg < 9; arg++ {
			for _, delta := range []int{-L, -1, 1, L} {
				lens := [9]int{n, n, n, n, n, n, n, n, n}
				lens[arg] += delta
				x := make([][]float64, 9)
				for i := range x {
					x[i] = sentinels(lens[i])
				}
				if arg < 6 {
					// MomentsAdd(sum0, sum1, w0, w1, shift0, shift1) takes
					// the first six.
					got := panicMessage(func() { MomentsAdd(x[0], x[1], x[2], x[3], x[4], x[5]) })
					if got != errLengths || !untouched(x[0]) || !untouched(x[1]) {
						t.Errorf("%s: MomentsAdd lengths %v: panic %v (want %q), or it wrote", name, lens[:6], got, errLengths)
					}
				}
				got := panicMessage(func() { MomentsAddSq(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8]) })
				if got != errLengths || !untouched(x[0]) || !untouched(x[2]) {
					t.Errorf("%s: MomentsAddSq lengths %v: panic %v (want %q), or it wrote", name, lens, got, errLengths)
				}
			}
		}
		// SwapApply(w0, w1, rep, alpha, u, from) on rows chains.
		ok := [5]int{n, n, n, n - L, rows / 2 * L}
		for arg := 0; arg < 5; arg++ {
			for _, delta := range []int{-L, -1, 1, L} {
				lens := ok
				lens[arg] += delta
				w0, w1 := sentinels(lens[0]), sentinels(lens[1])
				rep := make([]int32, lens[2])
				alpha, u := make([]float64, lens[3]), make([]float64, lens[4])
				got := panicMessage(func() { SwapApply(w0, w1, rep, alpha, u, 0) })
				if got != errLengths || !untouched(w0) || !untouched(w1) {
					t.Errorf("%s: SwapApply lengths %v: panic %v (want %q), or it wrote", name, lens, got, errLengths)
				}
			}
		}
		for _, from := range []int{-1, 2, 3} {
			w0, w1 := sentinels(n), sentinels(n)
			got := panicMessage(func() { SwapApply(w0, w1, make([]int32, n), make([]float64, n-L), make([]float64, rows/2*L), from) })
			if got != errLengths || !untouched(w0) {
				t.Errorf("%s: SwapApply from %d: panic %v, want %q", name, from, got, errLengths)
			}
		}
		if got := panicMessage(func() { SwapApply(nil, nil, nil, nil, nil, 0) }); got != errLengths {
			t.Errorf("%s: SwapApply with no chains: panic %v, want %q", name, got, errLengths)
		}
	})
}

// TestSolveCubicsAtRefusesBadInput checks that SolveCubicsAt refuses each
// of its eight slices a value or a row short or long (d, a2 and a3 may be
// longer than the segments), t, segs and targets that are not a multiple
// of layout.Lanes, and a segment outside the columns (-1, or the last
// knot's), without writing t.
func TestSolveCubicsAtRefusesBadInput(t *testing.T) {
	const n, m = 2 * L, 3 * L // targets, segments
	call := func(x [][]float64, segs []int) any {
		return panicMessage(func() { SolveCubicsAt(x[0], segs, x[2], x[3], x[4], x[5], x[6], x[7]) })
	}
	lens := []int{n, n, n, m + 1, m + 1, m, m, m} // t, segs, targets, xs, ys, d, a2, a3
	forEachImpl(t, func(name string) {
		for arg := range lens {
			for _, delta := range []int{-L, -1, 1, L} {
				if arg >= 5 && delta > 0 {
					continue // d, a2 and a3 may hold more than the segments
				}
				x := make([][]float64, len(lens))
				for i, l := range lens {
					if i == arg {
						l += delta
					}
					x[i] = sentinels(l)
				}
				segs := make([]int, len(x[1]))
				if got := call(x, segs); got != errLengths {
					t.Errorf("%s: slice %d %+d: panic %v, want %q", name, arg, delta, got, errLengths)
				}
				if !untouched(x[0]) {
					t.Errorf("%s: slice %d %+d: refused call wrote t", name, arg, delta)
				}
			}
		}
		x := make([][]float64, len(lens))
		for i := range x {
			x[i] = sentinels(5)
		}
		if got := call(x, make([]int, 5)); got != errLengths {
			t.Errorf("%s: 5 values: panic %v, want %q", name, got, errLengths)
		}
		for _, bad := range []int{-1, m, m + 1} {
			for i := range x {
				x[i] = sentinels(lens[i])
			}
			segs := make([]int, n)
			segs[n-1] = bad
			if got := call(x, segs); got != errSegment {
				t.Errorf("%s: segment %d of %d: panic %v, want %q", name, bad, m, got, errSegment)
			}
			if !untouched(x[0]) {
				t.Errorf("%s: segment %d: refused call wrote t", name, bad)
			}
		}
		// Valid input is taken: no panic, t written.
		for i := range x {
			x[i] = sentinels(lens[i])
		}
		segs := make([]int, n)
		segs[0] = m - 1
		if got := call(x, segs); got != nil {
			t.Errorf("%s: valid input: panic %v", name, got)
		}
		if untouched(x[0][:1]) {
			t.Errorf("%s: valid input: t not written", name)
		}
	})
}

// TestSplineStepsRefusesBadLengths checks that SplineSteps refuses each
// of its three slices a value or a row short or long, and rows that are
// not a multiple of layout.Lanes, without writing knots or accum.
func TestSplineStepsRefusesBadLengths(t *testing.T) {
	const n = 2 * L
	forEachImpl(t, func(name string) {
		for arg := 0; arg < 3; arg++ {
			for _, delta := range []int{-L, -1, 1, L} {
				x := make([][]float64, 3)
				for i := range x {
					l := n
					if i == arg {
						l += delta
					}
					x[i] = sentinels(l)
				}
				got := panicMessage(func() { SplineSteps(x[0], x[1], x[2], 0.2, 1e-8) })
				if got != errLengths {
					t.Errorf("%s: slice %d %+d: panic %v, want %q", name, arg, delta, got, errLengths)
				}
				if !untouched(x[0]) || !untouched(x[1]) {
					t.Errorf("%s: slice %d %+d: refused call wrote knots or accum", name, arg, delta)
				}
			}
		}
		x := [][]float64{sentinels(5), sentinels(5), sentinels(5)}
		if got := panicMessage(func() { SplineSteps(x[0], x[1], x[2], 0.2, 1e-8) }); got != errLengths {
			t.Errorf("%s: 5 values: panic %v, want %q", name, got, errLengths)
		}
	})
}

// TestTargetIndicesRefusesBadInput checks that TargetIndices refuses g
// or ys a value or a row short or long, rows that are not a multiple of
// layout.Lanes, and target counts outside [1, 2^31), without writing g.
func TestTargetIndicesRefusesBadInput(t *testing.T) {
	const n = 2 * L
	forEachImpl(t, func(name string) {
		for arg := 0; arg < 2; arg++ {
			for _, delta := range []int{-L, -1, 1, L} {
				lens := []int{n, n}
				lens[arg] += delta
				g := make([]int, lens[0])
				for i := range g {
					g[i] = -7
				}
				got := panicMessage(func() { TargetIndices(g, sentinels(lens[1]), 0.1, 10, 5) })
				if got != errLengths {
					t.Errorf("%s: slice %d %+d: panic %v, want %q", name, arg, delta, got, errLengths)
				}
				for _, v := range g {
					if v != -7 {
						t.Fatalf("%s: slice %d %+d: refused call wrote g", name, arg, delta)
					}
				}
			}
		}
		for _, num := range []int{0, -1, 1 << 31} {
			g := make([]int, n)
			if got := panicMessage(func() { TargetIndices(g, make([]float64, n), 0.1, 10, num) }); got != errTargets {
				t.Errorf("%s: num %d: panic %v, want %q", name, num, got, errTargets)
			}
		}
		g := make([]int, n)
		ys := make([]float64, n)
		for i := range ys {
			ys[i] = 0.05 * float64(i)
		}
		if got := panicMessage(func() { TargetIndices(g, ys, 0.1, 10, 5) }); got != nil {
			t.Errorf("%s: valid input: panic %v", name, got)
		}
		if g[0] != 1 || g[n-1] != 5 || g[3] != 2 { // 0 → 1; 0.15 → 2 (0.2 is above); 0.75 → none of 1 … 4: 5
			t.Errorf("%s: g = %v", name, g)
		}
	})
}

// TestFitKernelsRefuseBadLengths checks that CubicSlopes, CubicDerivs and
// CubicCoeffs refuse each slice a value or a row short or long, without
// writing their outputs.
func TestFitKernelsRefuseBadLengths(t *testing.T) {
	const n = 2 * L
	kernels := []struct {
		name string
		lens []int
		outs int // the first outs slices are written
		call func(x [][]float64)
	}{
		{"CubicSlopes", []int{n, n, n + 1, n + 1}, 2, func(x [][]float64) { CubicSlopes(x[0], x[1], x[2], x[3]) }},
		{"CubicDerivs", []int{n, n + 1, n + 2}, 1, func(x [][]float64) { CubicDerivs(x[0], x[1], x[2]) }},
		{"CubicCoeffs", []int{n, n, n + 1, n + 1, n + 1, n}, 2, func(x [][]float64) { CubicCoeffs(x[0], x[1], x[2], x[3], x[4], x[5]) }},
	}
	forEachImpl(t, func(name string) {
		for _, k := range kernels {
			for arg := range k.lens {
				for _, delta := range []int{-L, -1, 1, L} {
					x := make([][]float64, len(k.lens))
					for i, l := range k.lens {
						if i == arg {
							l += delta
						}
						x[i] = sentinels(l)
					}
					if got := panicMessage(func() { k.call(x) }); got != errLengths {
						t.Errorf("%s: %s: slice %d %+d: panic %v, want %q", name, k.name, arg, delta, got, errLengths)
					}
					for i := range k.outs {
						if !untouched(x[i]) {
							t.Errorf("%s: %s: slice %d %+d: refused call wrote output %d", name, k.name, arg, delta, i)
						}
					}
				}
			}
		}
	})
}

// TestPathKernelsRefuseBadLengths checks that PathMoments, PathProject and
// PathEta refuse a slice a value or a row short or long, fewer than two chains
// and numKnots below 1, without writing their outputs.
func TestPathKernelsRefuseBadLengths(t *testing.T) {
	const chains, k = 3, 2
	n := chains * L
	forEachImpl(t, func(name string) {
		lens := []int{asm.PathRecord * n, n, n, n, n, n, n, n, n, 2 * (k + 1) * L} // rec, the moments, t, knots
		for arg := range lens {
			for _, delta := range []int{-L, -1, 1, L} {
				x := make([][]float64, len(lens))
				for i, l := range lens {
					if i == arg {
						l += delta
					}
					x[i] = sentinels(l)
				}
				got := panicMessage(func() { PathMoments(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8], x[9], k, 0.1, 0.1) })
				if got != errLengths {
					t.Errorf("%s: PathMoments slice %d %+d: panic %v, want %q", name, arg, delta, got, errLengths)
				}
				if !untouched(x[0]) {
					t.Errorf("%s: PathMoments slice %d %+d: refused call wrote rec", name, arg, delta)
				}
			}
		}
		nr, na := asm.PathRecord*n, 2*(k+1)*L
		rec, acc := sentinels(nr+L), sentinels(na+L)
		for _, c := range []struct{ chains, k, rec, acc int }{
			{chains, k + 1, nr, na}, {chains + 1, k, nr, na}, {1, k, asm.PathRecord * L, na},
			{chains, 0, nr, 2 * L}, {chains, k, nr - 1, na}, {chains, k, nr, na + 1},
		} {
			got := panicMessage(func() { PathProject(acc[:c.acc:c.acc], rec[:c.rec:c.rec], c.chains, c.k) })
			if got != errLengths {
				t.Errorf("%s: PathProject chains %d K %d lengths %d %d: panic %v, want %q", name, c.chains, c.k, c.rec, c.acc, got, errLengths)
			}
			if !untouched(acc) {
				t.Errorf("%s: PathProject refused call wrote acc", name)
			}
		}
		for arg := 0; arg < 4; arg++ {
			for _, delta := range []int{-L, -1, 1, L} {
				x := [][]float64{sentinels(n), sentinels(n), sentinels(n), sentinels(2 * (k + 1) * L)}
				x[arg] = sentinels(len(x[arg]) + delta)
				if got := panicMessage(func() { PathEta(x[0], x[1], x[2], x[3], k) }); got != errLengths {
					t.Errorf("%s: PathEta slice %d %+d: panic %v, want %q", name, arg, delta, got, errLengths)
				}
				if !untouched(x[0]) || !untouched(x[1]) {
					t.Errorf("%s: PathEta slice %d %+d: refused call wrote η", name, arg, delta)
				}
			}
		}
		x := make([][]float64, 10)
		for i := range x {
			x[i] = sentinels(2 * L)
		}
		x[0], x[9] = sentinels(asm.PathRecord*2*L), sentinels(2*L)
		if got := panicMessage(func() { PathMoments(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8], x[9], 0, 0.1, 0.1) }); got != errLengths {
			t.Errorf("%s: PathMoments K = 0: panic %v, want %q", name, got, errLengths)
		}
	})
}

// TestScanSumsRefusesBadLengths checks that ScanSums refuses each of its
// slices a value or a row short or long, without writing its outputs.
func TestScanSumsRefusesBadLengths(t *testing.T) {
	const pairs = 3
	n := pairs * L
	forEachImpl(t, func(name string) {
		lens := []int{3 * L, n, n, n + L, n + L, n + L, n + L, n + L, n + L}
		for arg := range lens {
			for _, delta := range []int{-L, -1, 1, L} {
				x := make([][]float64, len(lens))
				for i, l := range lens {
					if i == arg {
						l += delta
					}
					x[i] = sentinels(l)
				}
				got := panicMessage(func() { ScanSums(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8], 0.01) })
				if got != errLengths {
					t.Errorf("%s: slice %d %+d: panic %v, want %q", name, arg, delta, got, errLengths)
				}
				if !untouched(x[0]) || !untouched(x[1]) {
					t.Errorf("%s: slice %d %+d: refused call wrote its outputs", name, arg, delta)
				}
			}
		}
	})
}

package asm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// cubicProblem draws one target's row: the Hermite cubic of a segment
// [x0, x0+h] rising by dy with end slopes s0, s1 ≥ 0 (a monotone
// interpolant's segment), as {a1, a2, a3, u, h, dy, x0, x1}, with a target
// height u in (0, dy].
func cubicProblem(rng *rand.Rand) [8]float64 {
	h := math.Ldexp(rng.Float64()+0.01, -rng.IntN(12))
	dy := math.Ldexp(rng.Float64()+0.01, -rng.IntN(8))
	sec := dy / h
	s0, s1 := 3*sec*rng.Float64(), 3*sec*rng.Float64()
	if rng.IntN(8) == 0 {
		s0 = 0
	}
	a2 := (3*sec - 2*s0 - s1) / h
	a3 := (s0 + s1 - 2*sec) / (h * h)
	u := dy * rng.Float64()
	if rng.IntN(10) == 0 {
		u = dy
	}
	x0 := rng.Float64()
	return [8]float64{s0, a2, a3, u, h, dy, x0, x0 + h}
}

// cubicEdges are rows whose answer depends on how NaN and signed zeros
// pass the clamps and the last minimum: a secant guess of 0/0 whose root
// is at the segment's start (a NaN iterate must stay NaN, not be clamped
// to 0), a root at a knot of -0 (t = +0 is kept, not replaced by x1 = -0),
// a NaN end (so a NaN width), and an infinite rise (a secant guess of 0).
var cubicEdges = [][8]float64{
	{1, 0, 0, 0, 1, 0, 0.5, 1.5},
	{1, 0, 0, 1, 1, 1, -1, math.Copysign(0, -1)},
	{1, 0, 0, 0.5, math.NaN(), 1, 0, math.NaN()},
	{1, 0, 0, 0.5, 1, math.Inf(1), 0, 1},
	{1, 0, 0, 0, 1, 0, 0, 1},
}

// cubicColumns lays out rows as a fit's columns, row i on segment 2i
// (knots 2i and 2i+1; the odd segments between them are never asked for)
// at the height a0 = ys[2i] chosen as 0 (so that u and dy are the row's
// exactly) or, now and then, as a moderate value or a special one; now
// and then one value of the columns or the targets is replaced by a
// special one (NaN, ±Inf, ±0, huge, tiny).
func cubicColumns(rng *rand.Rand, rows [][8]float64) (targets, xs, ys, d, a2, a3 []float64) {
	n := len(rows)
	targets = make([]float64, n)
	xs, ys = make([]float64, 2*n+1), make([]float64, 2*n+1)
	d, a2, a3 = make([]float64, 2*n), make([]float64, 2*n), make([]float64, 2*n)
	special := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1e300, -1e300, 5e-324, 0x1p511, 0x1p600}
	for i, p := range rows {
		a0 := 0.0
		switch rng.IntN(10) {
		case 0:
			a0 = rng.Float64()
		case 1:
			a0 = special[rng.IntN(len(special))]
		}
		k := 2 * i
		d[k], a2[k], a3[k] = p[0], p[1], p[2]
		targets[i] = a0 + p[3]
		xs[k], xs[k+1] = p[6], p[7]
		ys[k], ys[k+1] = a0, a0+p[5]
		if rng.IntN(6) == 0 {
			cols := [][]float64{targets[i : i+1], xs[k : k+2], ys[k : k+2], d[k : k+1], a2[k : k+1], a3[k : k+1]}
			col := cols[rng.IntN(len(cols))]
			col[rng.IntN(len(col))] = special[rng.IntN(len(special))]
		}
	}
	return targets, xs, ys, d, a2, a3
}

// TestSolveCubicsAtMatchesGeneric checks every tier against
// SolveCubicsAtGeneric bit for bit on segments of monotone cubics and on
// columns holding special values, at every length up to 80 targets (the
// assembly takes 8 at a time), each target on its own segment or on a
// segment drawn at random (so that the gathers read any segment, the
// first and the last included, and targets share segments), with guards
// past the output.
func TestSolveCubicsAtMatchesGeneric(t *testing.T) {
	forEachImpl(t, func(t *testing.T, im Impl) {
		rng := rand.New(rand.NewPCG(31, 32))
		nans := 0
		for n := 0; n <= 80; n += 8 {
			for rep := 0; rep < 20; rep++ {
				rows := make([][8]float64, n)
				for i := range rows {
					rows[i] = cubicProblem(rng)
					if rng.IntN(10) == 0 {
						rows[i] = cubicEdges[rng.IntN(len(cubicEdges))]
					}
				}
				targets, xs, ys, d, a2, a3 := cubicColumns(rng, rows)
				segs := make([]int, n)
				for i := range segs {
					segs[i] = 2 * i
					if rep%2 == 1 {
						segs[i] = rng.IntN(len(xs) - 1)
					}
				}
				got, g := guarded(n)
				want := make([]float64, n)
				im.SolveCubicsAt(got, segs, targets, xs, ys, d, a2, a3)
				SolveCubicsAtGeneric(want, segs, targets, xs, ys, d, a2, a3)
				checkGuard(t, g)
				sameBits(t, fmt.Sprintf("n=%d rep=%d: t", n, rep), got, want)
				for _, v := range want {
					if math.IsNaN(v) {
						nans++
					}
				}
			}
		}
		if nans == 0 {
			t.Error("no row failed to converge: the special values did not reach the test of convergence")
		}
	})
}

// TestSolveCubicsAtReadsItsSegment checks SolveCubicsAtGeneric's gather
// against SolveCubic on the row it describes: the target on segment s
// solves the cubic of d[s], a2[s], a3[s] between (xs[s], ys[s]) and
// (xs[s+1], ys[s+1]).
func TestSolveCubicsAtReadsItsSegment(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 34))
	rows := make([][8]float64, 16)
	for i := range rows {
		rows[i] = cubicProblem(rng)
	}
	var targets, xs, ys, d, a2, a3 []float64
	for _, p := range rows { // row i on segment 2i at the height a0 = 1
		xs = append(xs, p[6], p[7])
		ys = append(ys, 1, 1+p[5])
		d, a2, a3 = append(d, p[0], 0), append(a2, p[1], 0), append(a3, p[2], 0)
		targets = append(targets, 1+p[3])
	}
	xs, ys = append(xs, 1e9), append(ys, 1e9)
	segs := make([]int, len(rows))
	for i := range segs {
		segs[i] = 2 * (len(rows) - 1 - i) // the rows in reverse order
	}
	tgt := make([]float64, len(rows))
	for i, s := range segs {
		tgt[i] = targets[s/2]
	}
	got := make([]float64, len(rows))
	SolveCubicsAtGeneric(got, segs, tgt, xs, ys, d, a2, a3)
	for i, s := range segs {
		p := rows[s/2]
		want := SolveCubic(p[0], p[1], p[2], (1+p[3])-1, p[7]-p[6], (1+p[5])-1, p[6], p[7])
		if math.Float64bits(got[i]) != math.Float64bits(want) {
			t.Errorf("target %d on segment %d: got %v, want %v", i, s, got[i], want)
		}
	}
}

// TestSolveCubicsFindsRoots checks the generic solve on cubics with known
// roots: a line (the root u/a1 exactly, up to rounding), and the cubic
// (dx)³ on [0, 1], whose root ∛u the iteration reaches to 1e-15; and that
// a target above the segment (no root) and a zero slope at the root are
// reported as NaN, not as a wrong root.
func TestSolveCubicsFindsRoots(t *testing.T) {
	cases := []struct {
		name                         string
		a1, a2, a3, u, h, dy, x0, x1 float64
		want                         float64 // NaN: must not converge
	}{
		{"line", 2, 0, 0, 0.5, 1, 2, 0.25, 1.25, 0.5},
		{"steep line", 1e6, 0, 0, 1, 1e-5, 10, 0, 1e-5, 1e-6},
		{"cubic", 1e-3, 0, 1, 0.125, 1, 1.001, 0, 1, 0.49967},
		{"above the segment", 1, 0, 0, 2, 1, 1, 0, 1, math.NaN()},
		{"flat at the root", 0, 0, 1, 0, 1, 1, 0, 1, math.NaN()},
	}
	for _, c := range cases {
		got := SolveCubic(c.a1, c.a2, c.a3, c.u, c.h, c.dy, c.x0, c.x1)
		if math.IsNaN(c.want) {
			if !math.IsNaN(got) {
				t.Errorf("%s: got %v, want NaN (no convergence)", c.name, got)
			}
			continue
		}
		// The cubic's root: dx with 1e-3·dx + dx³ = 0.125.
		want := c.want
		if c.name == "cubic" {
			lo, hi := 0.0, 1.0
			for range 200 {
				mid := (lo + hi) / 2
				if 1e-3*mid+mid*mid*mid < 0.125 {
					lo = mid
				} else {
					hi = mid
				}
			}
			want = lo
		}
		if math.Abs(got-want) > 1e-15 {
			t.Errorf("%s: got %v, want %v", c.name, got, want)
		}
	}
}

// fitValue draws a value for the fit kernels' rows: a moderate one of
// either sign, now and then a special one (NaN, ±Inf, ±0, values whose
// products leave the normal range or overflow, steps below 1e-100).
func fitValue(rng *rand.Rand) float64 {
	special := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1),
		1e300, -1e300, 1e-300, -1e-300, 5e-324, 1e-160, 1e-101, 1e160, math.MaxFloat64}
	if rng.IntN(8) == 0 {
		return special[rng.IntN(len(special))]
	}
	return math.Ldexp(rng.NormFloat64(), rng.IntN(20)-10)
}

// fitRows returns n increasing abscissae and non-decreasing ordinates as
// the scan end fits (steps of many scales, a few below 1e-100 where the
// reciprocal is not taken), with now and then a special value.
func fitRows(rng *rand.Rand, n int) (xs, ys []float64) {
	xs, ys = make([]float64, n), make([]float64, n)
	x, y := 0.0, 0.0
	for i := range xs {
		step := math.Ldexp(rng.Float64()+1e-3, -rng.IntN(12))
		if rng.IntN(20) == 0 {
			step = 1e-120
		}
		x += step
		y += math.Ldexp(rng.Float64(), -rng.IntN(6))
		xs[i], ys[i] = x, y
		if rng.IntN(15) == 0 {
			xs[i] = fitValue(rng)
		}
		if rng.IntN(15) == 0 {
			ys[i] = fitValue(rng)
		}
	}
	return xs, ys
}

// TestFitKernelsMatchGeneric checks CubicSlopes, CubicDerivs and
// CubicCoeffs of every tier against their generic twins, bit for bit (a
// NaN equal to any NaN, as for the bookkeeping kernels: x86 keeps the
// first operand's payload), on barrier points and on rows of moderate and
// special values of either sign, which reach the slopes of opposite signs
// (derivative 0), gonum's three-division form and the division by steps
// below 1e-100; guards past every output.
func TestFitKernelsMatchGeneric(t *testing.T) {
	forEachImpl(t, func(t *testing.T, im Impl) {
		rng := rand.New(rand.NewPCG(41, 42))
		for n := 0; n <= 80; n += 8 {
			for rep := 0; rep < 30; rep++ {
				xs, ys := fitRows(rng, n+2)
				if rep%2 == 1 { // rows of values of either sign
					for i := range xs {
						xs[i], ys[i] = fitValue(rng), fitValue(rng)
					}
				}
				what := fmt.Sprintf("n=%d rep=%d", n, rep)
				slopes, gs := guarded(n + 1)
				invs, gi := guarded(n + 1)
				ws, wi := make([]float64, n+1), make([]float64, n+1)
				im.CubicSlopes(slopes[:n], invs[:n], xs[:n+1], ys[:n+1])
				CubicSlopesGeneric(ws[:n], wi[:n], xs[:n+1], ys[:n+1])
				checkGuard(t, gs)
				checkGuard(t, gi)
				sameBitsOrNaN(t, what+": slopes", slopes[:n], ws[:n])
				sameBitsOrNaN(t, what+": invs", invs[:n], wi[:n])

				sl := make([]float64, n+1)
				for i := range sl {
					sl[i] = fitValue(rng)
					if rep%3 == 0 && i < n {
						sl[i] = ws[i]
					}
				}
				d, gd := guarded(n)
				wd := make([]float64, n)
				im.CubicDerivs(d, sl, xs)
				CubicDerivsGeneric(wd, sl, xs)
				checkGuard(t, gd)
				sameBitsOrNaN(t, what+": d", d, wd)

				dd := make([]float64, n+1)
				for i := range dd {
					dd[i] = fitValue(rng)
				}
				for i := range wi[:n] {
					if rng.IntN(10) == 0 {
						wi[i] = 0
					}
				}
				a2, g2 := guarded(n)
				a3, g3 := guarded(n)
				w2, w3 := make([]float64, n), make([]float64, n)
				im.CubicCoeffs(a2, a3, dd, xs[:n+1], ys[:n+1], wi[:n])
				CubicCoeffsGeneric(w2, w3, dd, xs[:n+1], ys[:n+1], wi[:n])
				checkGuard(t, g2)
				checkGuard(t, g3)
				sameBitsOrNaN(t, what+": a2", a2, w2)
				sameBitsOrNaN(t, what+": a3", a3, w3)
			}
		}
	})
}

// targetInputs draws n knot values for TargetIndices as the schedule
// update makes them (the cumulative sums of rejections in [0, 1], a few
// of them 0, so that values repeat) with the step Λ/(num) of their last,
// and now and then a value at a target or an ulp or two from one (where
// the guess's rounding decides), or, in the rows of specials, NaN, ±Inf, negative
// values and huge ones.
func targetInputs(rng *rand.Rand, n int, specials bool) (ys []float64, step float64, num int) {
	ys = make([]float64, n)
	cum := 0.0
	for i := range ys {
		if rng.IntN(5) != 0 {
			cum += rng.Float64()
		}
		ys[i] = cum
	}
	num = 1 + rng.IntN(3*n+2)
	step = (cum + rng.Float64()) / float64(num)
	if rng.IntN(10) == 0 {
		step = math.Ldexp(rng.Float64()+0.5, -rng.IntN(40))
	}
	for i := range ys {
		switch {
		case rng.IntN(4) == 0:
			// At a target or an ulp or two either side of one, where the
			// guess's rounding decides (and is corrected down or up).
			at := float64(rng.IntN(num+2)) * step
			for k := rng.IntN(5) - 2; k != 0; {
				if k < 0 {
					at, k = math.Nextafter(at, math.Inf(-1)), k+1
				} else {
					at, k = math.Nextafter(at, math.Inf(1)), k-1
				}
			}
			ys[i] = at
		case specials && rng.IntN(4) == 0:
			ys[i] = []float64{math.NaN(), math.Inf(1), math.Inf(-1), -1, -1e300, 1e300, math.Copysign(0, -1), -0.5 * step}[rng.IntN(8)]
		}
	}
	return ys, step, num
}

// TestTargetIndicesMatchesGeneric checks every tier against
// TargetIndicesGeneric on knots at and between the targets, with guesses
// that need correcting, and on rows of special values, with guards past
// the output; and that the generic twin is the definition: the first
// target k·step above each value, found by a plain search.
func TestTargetIndicesMatchesGeneric(t *testing.T) {
	forEachImpl(t, func(t *testing.T, im Impl) {
		rng := rand.New(rand.NewPCG(81, 82))
		for n := 0; n <= 80; n += 8 {
			for rep := 0; rep < 40; rep++ {
				ys, step, num := targetInputs(rng, n, rep%2 == 1)
				inv := 1 / step
				want := make([]int, n)
				TargetIndicesGeneric(want, ys, step, inv, num)
				buf := make([]int, n+lanes)
				for i := range buf {
					buf[i] = -7
				}
				got := buf[:n]
				im.TargetIndices(got, ys, step, inv, num)
				for i := range want {
					if got[i] != want[i] {
						t.Fatalf("n=%d rep=%d: g[%d] = %d for %v (step %v, num %d), generic %d", n, rep, i, got[i], ys[i], step, num, want[i])
					}
				}
				for _, v := range buf[n:] {
					if v != -7 {
						t.Fatal("kernel wrote past the end of g")
					}
				}
				if rep%2 == 0 {
					for i, y := range ys { // the definition, for the schedule's values
						k := 1
						for k < num && float64(k)*step <= y {
							k++
						}
						if want[i] != k {
							t.Fatalf("n=%d rep=%d: generic g[%d] = %d for %v, the first target above it is %d", n, rep, i, want[i], y, k)
						}
					}
				}
			}
		}
	})
}

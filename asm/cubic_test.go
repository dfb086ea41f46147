package asm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// cubicProblem draws one row of SolveCubics: the Hermite cubic of a
// segment [x0, x0+h] rising by dy with end slopes s0, s1 ≥ 0 (a monotone
// interpolant's segment), and a target height u in (0, dy]; now and then
// one value is replaced by a special one (NaN, ±Inf, ±0, huge, tiny).
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
	p := [8]float64{s0, a2, a3, u, h, dy, x0, x0 + h}
	if rng.IntN(6) == 0 {
		special := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1e300, -1e300, 5e-324, 0x1p511, 0x1p600}
		p[rng.IntN(8)] = special[rng.IntN(len(special))]
	}
	return p
}

// cubicEdges are rows whose answer depends on how NaN and signed zeros
// pass the clamps and the last minimum: a secant guess of 0/0 whose root
// is at the segment's start (a NaN iterate must stay NaN, not be clamped
// to 0), a root at a knot of -0 (t = +0 is kept, not replaced by x1 = -0),
// a NaN width, and an infinite rise (a secant guess of 0).
var cubicEdges = [][8]float64{
	{1, 0, 0, 0, 1, 0, 0.5, 1.5},
	{1, 0, 0, 1, 1, 1, -1, math.Copysign(0, -1)},
	{1, 0, 0, 0.5, math.NaN(), 1, 0, 1},
	{1, 0, 0, 0.5, 1, math.Inf(1), 0, 1},
	{1, 0, 0, 0, 1, 0, 0, 1},
}

// TestSolveCubicsMatchesGeneric checks every tier against
// SolveCubicsGeneric bit for bit on segments of monotone cubics and on
// rows holding special values, at every length up to 80 targets (the
// assembly takes 8 at a time), with guards past the output.
func TestSolveCubicsMatchesGeneric(t *testing.T) {
	forEachImpl(t, func(t *testing.T, im Impl) {
		rng := rand.New(rand.NewPCG(31, 32))
		nans := 0
		for n := 0; n <= 80; n += 8 {
			for rep := 0; rep < 20; rep++ {
				rows := make([][]float64, 8)
				for k := range rows {
					rows[k] = make([]float64, n)
				}
				for i := 0; i < n; i++ {
					p := cubicProblem(rng)
					if rng.IntN(10) == 0 {
						p = cubicEdges[rng.IntN(len(cubicEdges))]
					}
					for k := range rows {
						rows[k][i] = p[k]
					}
				}
				got, g := guarded(n)
				want := make([]float64, n)
				im.SolveCubics(got, rows[0], rows[1], rows[2], rows[3], rows[4], rows[5], rows[6], rows[7])
				SolveCubicsGeneric(want, rows[0], rows[1], rows[2], rows[3], rows[4], rows[5], rows[6], rows[7])
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
		out := make([]float64, 8)
		rows := make([][]float64, 8)
		for k, v := range []float64{c.a1, c.a2, c.a3, c.u, c.h, c.dy, c.x0, c.x1} {
			rows[k] = []float64{v, v, v, v, v, v, v, v}
		}
		SolveCubicsGeneric(out, rows[0], rows[1], rows[2], rows[3], rows[4], rows[5], rows[6], rows[7])
		got := out[0]
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

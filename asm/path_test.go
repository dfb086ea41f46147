package asm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// pathInputs draws a block's inputs to PathMomentsGeneric for chains
// chains and a spline of numKnots segments: moments of either sign with
// now and then a special value, schedule points in [-0.1, 1.1] with some
// at 0, 1 and NaN (the ends' cases), and knots in (0, 1).
func pathInputs(rng *rand.Rand, chains, numKnots int) (rows [7][]float64, t, knots []float64) {
	n := chains * lanes
	for r := range rows {
		rows[r] = make([]float64, n)
		for i := range rows[r] {
			rows[r][i] = bookValue(rng)
		}
	}
	t = make([]float64, n)
	for i := range t {
		switch rng.IntN(12) {
		case 0:
			t[i] = 0
		case 1:
			t[i] = 1
		case 2:
			t[i] = []float64{math.NaN(), -0.05, 1.05, math.Copysign(0, -1), math.Inf(1)}[rng.IntN(5)]
		default:
			t[i] = rng.Float64()
		}
	}
	knots = make([]float64, 2*(numKnots+1)*lanes)
	for i := range knots {
		knots[i] = rng.Float64()
	}
	return rows, t, knots
}

// TestPathKernelsMatchGeneric checks PathMoments and PathProject of every
// tier against their generic twins, bit for bit (a NaN equal to any NaN),
// for 2 to 21 chains and splines of 1 to 6 segments (PathProject also on
// records whose segment is not one of 1 … K), with guards past the
// outputs.
func TestPathKernelsMatchGeneric(t *testing.T) {
	forEachImpl(t, func(t *testing.T, im Impl) {
		rng := rand.New(rand.NewPCG(51, 52))
		for chains := 2; chains <= 21; chains++ {
			for numKnots := 1; numKnots <= 6; numKnots++ {
				rows, ts, knots := pathInputs(rng, chains, numKnots)
				inv, inv1 := 1/float64(chains+97), 1/float64(chains+96)
				what := fmt.Sprintf("chains=%d K=%d", chains, numKnots)
				rec, g := guarded(PathRecord * chains * lanes)
				want := make([]float64, len(rec))
				im.PathMoments(rec, rows[0], rows[1], rows[2], rows[3], rows[4], rows[5], rows[6], ts, knots, numKnots, inv, inv1)
				PathMomentsGeneric(want, rows[0], rows[1], rows[2], rows[3], rows[4], rows[5], rows[6], ts, knots, numKnots, inv, inv1)
				checkGuard(t, g)
				sameBitsOrNaN(t, what+": records", rec, want)

				// Now and then a record whose segment is none of 1 … K
				// (which adds nothing).
				for i := recSeg * lanes; i < len(want); i += PathRecord * lanes {
					for j := 0; j < lanes; j++ {
						if rng.IntN(15) == 0 {
							want[i+j] = []float64{0, float64(numKnots + 1), 1.5, math.NaN(), -1}[rng.IntN(5)]
						}
					}
				}
				acc, ga := guarded(2 * (numKnots + 1) * lanes)
				wacc := make([]float64, len(acc))
				for i := range acc {
					acc[i] = bookValue(rng)
					wacc[i] = acc[i]
				}
				im.PathProject(acc, want, chains, numKnots)
				PathProjectGeneric(wacc, want, chains, numKnots)
				checkGuard(t, ga)
				sameBitsOrNaN(t, what+": knot sums", acc, wacc)
			}
		}
	})
}

// TestPathProjectSignedZeros checks PathProject on records built so that
// a difference of a chain with one neighbour, η_n - η_{n±1} and
// m_n - m_{n±1}, is -0: MomentGradient's 0 + (·) makes it +0, and with
// c01 = -1 and knot sums of -0 the sign reaches a sum (a tier that
// dropped the 0 + would leave it -0 where the generic twin leaves +0).
// Case "first" has it at chain 0 (the difference with the next chain),
// case "last" at the last chain (with the one before), whose term reaches
// only φ_2's sum, by a weight of 0 (and chain 1 of "first" only φ_1 and φ_2).
func TestPathProjectSignedZeros(t *testing.T) {
	nz := math.Copysign(0, -1)
	cases := []struct {
		name       string
		e0         []float64 // η0 and the mean of W0, by chain
		seg        []float64
		numKnots   int
		signedKnot int // the sum the sign reaches
	}{
		{"first", []float64{nz, 0}, []float64{1, 2}, 2, 0},
		{"last", []float64{0, 0, nz}, []float64{1, 1, 2}, 2, 2},
	}
	forEachImpl(t, func(t *testing.T, im Impl) {
		for _, c := range cases {
			chains := len(c.e0)
			rec := make([]float64, chains*PathRecord*lanes)
			for j := 0; j < lanes; j++ {
				for n, e0 := range c.e0 {
					r := rec[n*PathRecord*lanes+j:]
					r[recE0*lanes], r[recE1*lanes], r[recM0*lanes], r[recM1*lanes] = e0, 0, e0, 0
					r[recC00*lanes], r[recC01*lanes], r[recC11*lanes] = 1, -1, 1
					r[recSeg*lanes], r[recW*lanes] = c.seg[n], 0
				}
			}
			size := 2 * (c.numKnots + 1) * lanes
			acc, want := make([]float64, size), make([]float64, size)
			for i := range acc {
				acc[i], want[i] = nz, nz
			}
			im.PathProject(acc, rec, chains, c.numKnots)
			PathProjectGeneric(want, rec, chains, c.numKnots)
			sameBits(t, c.name+": knot sums", acc, want)
			if v := want[2*c.signedKnot*lanes]; math.Signbit(v) {
				t.Fatalf("%s: the generic twin's sum of φ_%d is %v: the case does not reach the sign it tests", c.name, c.signedKnot, v)
			}
		}
	})
}

// TestPathEtaMatchesGeneric checks PathEta of every tier against its
// generic twin bit for bit, and the twin against PathMomentsGeneric's η
// rows (the same η of the same schedule points), for 1 to 21 chains and
// splines of 1 to 6 segments.
func TestPathEtaMatchesGeneric(t *testing.T) {
	forEachImpl(t, func(t *testing.T, im Impl) {
		rng := rand.New(rand.NewPCG(53, 54))
		for chains := 1; chains <= 21; chains++ {
			for numKnots := 1; numKnots <= 6; numKnots++ {
				rows, ts, knots := pathInputs(rng, chains, numKnots)
				n := chains * lanes
				e0, g0 := guarded(n)
				e1, g1 := guarded(n)
				w0, w1 := make([]float64, n), make([]float64, n)
				im.PathEta(e0, e1, ts, knots, numKnots)
				PathEtaGeneric(w0, w1, ts, knots, numKnots)
				checkGuard(t, g0)
				checkGuard(t, g1)
				what := fmt.Sprintf("chains=%d K=%d", chains, numKnots)
				sameBits(t, what+": eta0", e0, w0)
				sameBits(t, what+": eta1", e1, w1)
				rec := make([]float64, PathRecord*n)
				PathMomentsGeneric(rec, rows[0], rows[1], rows[2], rows[3], rows[4], rows[5], rows[6], ts, knots, numKnots, 0.5, 0.5)
				for i := range ts {
					r := rec[(i/lanes)*PathRecord*lanes+i%lanes:]
					if !sameFloat(r[recE0*lanes], w0[i]) || !sameFloat(r[recE1*lanes], w1[i]) {
						t.Fatalf("%s: η of point %d is (%v, %v), PathMomentsGeneric's (%v, %v)", what, i, w0[i], w1[i], r[recE0*lanes], r[recE1*lanes])
					}
				}
			}
		}
	})
}

// sameFloat reports whether x and y have the same bits, or are both NaN.
func sameFloat(x, y float64) bool {
	return math.Float64bits(x) == math.Float64bits(y) || math.IsNaN(x) && math.IsNaN(y)
}

// TestScanSumsMatchesGeneric checks ScanSums of every tier against its
// generic twin bit for bit (a NaN equal to any NaN), for 1 to 40 pairs of
// chains, rejection counts of which some reach or pass the scan's length
// (a non-asymptotic barrier of +Inf), with guards past the outputs.
func TestScanSumsMatchesGeneric(t *testing.T) {
	forEachImpl(t, func(t *testing.T, im Impl) {
		rng := rand.New(rand.NewPCG(55, 56))
		for pairs := 1; pairs <= 40; pairs++ {
			const iters = 100
			xrej := make([]float64, pairs*lanes)
			for i := range xrej {
				xrej[i] = float64(rng.IntN(iters))
				if rng.IntN(60) == 0 {
					xrej[i] = []float64{iters, iters + 1, math.NaN()}[rng.IntN(3)]
				}
			}
			rows := make([][]float64, 6) // eta0, eta1, shift0, sum0, shift1, sum1
			for r := range rows {
				rows[r] = make([]float64, (pairs+1)*lanes)
				for i := range rows[r] {
					rows[r][i] = bookValue(rng)
				}
			}
			out, g := guarded(3 * lanes)
			rej, gr := guarded(len(xrej))
			wout, wrej := make([]float64, 3*lanes), make([]float64, len(xrej))
			im.ScanSums(out, rej, xrej, rows[0], rows[1], rows[2], rows[3], rows[4], rows[5], 1.0/iters)
			ScanSumsGeneric(wout, wrej, xrej, rows[0], rows[1], rows[2], rows[3], rows[4], rows[5], 1.0/iters)
			checkGuard(t, g)
			checkGuard(t, gr)
			what := fmt.Sprintf("pairs=%d", pairs)
			sameBitsOrNaN(t, what+": rej", rej, wrej)
			sameBitsOrNaN(t, what+": sums", out, wout)
		}
	})
}

package tune

import "github.com/ptbatch/ptbatch/layout"

// lanes is the number of replicates of an engine block, whose moments
// MomentGradients takes lane-innermost.
const lanes = layout.Lanes

// LaneMoments are the sample moments of every chain of the lanes of a
// block, lane-innermost: chain n of lane j at n·layout.Lanes + j, E_n[W0]
// in Mean0, E_n[W1] in Mean1, and Cov_n(W0, W0), Cov_n(W0, W1),
// Cov_n(W1, W1) in C00, C01, C11 (the arguments of MomentGradient, one
// lane at a time).
type LaneMoments struct {
	Mean0, Mean1, C00, C01, C11 []float64
}

// LaneGradientWorkspace holds the scratch of MomentGradients. The zero
// value is ready to use; after the first call it does not allocate again
// for the same (or fewer) chains. It must not be used by two goroutines at
// once.
type LaneGradientWorkspace struct {
	eta0, eta1 []float64 // η(t_n) of lane j at n·lanes + j
	weight     []float64 // … the weight of t_n's upper knot
	segment    []int     // … and its segment
	a0, a1     []float64 // … and ∂L/∂η_n
}

// MomentGradients writes to grad[j] MomentGradient's gradient of lane j
// (the block form of the SKL gradient of eq:bound), for every lane j of a
// block with active[j], from the moments m (lane-innermost), the lane's
// schedule sched[j] and path path[j]: bit for bit MomentGradient's, each
// lane's numbers by the same operations in the same order, but with the
// lanes innermost, so that the lanes' chains of dependent operations
// overlap and each chain's moments of all lanes are read at once.
// Inactive lanes are neither read nor written. Every active lane has the
// same number C ≥ 2 of chains, and m's slices hold C·layout.Lanes numbers.
func (w *LaneGradientWorkspace) MomentGradients(grad *[lanes][]float64, m *LaneMoments, sched *[lanes][]float64, path *[lanes]*Spline, active *[lanes]bool) {
	numChains := -1
	for j := range lanes {
		if !active[j] {
			continue
		}
		if numChains < 0 {
			numChains = len(sched[j])
		}
		switch {
		case len(sched[j]) != numChains:
			panic("tune: lanes with different numbers of chains")
		case len(grad[j]) != 2*(path[j].K()-1):
			panic("tune: gradient length mismatch")
		}
	}
	if numChains < 0 {
		return
	}
	if numChains < 2 {
		panic("tune: fewer than two chains")
	}
	size := numChains * lanes
	for _, s := range [][]float64{m.Mean0, m.Mean1, m.C00, m.C01, m.C11} {
		if len(s) != size {
			panic("tune: moment length mismatch")
		}
	}
	w.eta0, w.eta1 = grow(w.eta0, size), grow(w.eta1, size)
	w.weight, w.a0, w.a1 = grow(w.weight, size), grow(w.a0, size), grow(w.a1, size)
	if cap(w.segment) < size {
		w.segment = make([]int, size)
	}
	w.segment = w.segment[:size]
	for j := range lanes {
		if active[j] {
			path[j].etaSegmentsStrided(w.eta0[j:], w.eta1[j:], w.segment[j:], w.weight[j:], lanes, sched[j])
		}
	}
	w.laneTerms(m, numChains)
	for j := range lanes {
		if active[j] {
			clear(grad[j])
		}
	}
	// The projection of projectKnots, lane by lane, chain by chain.
	for j := range lanes {
		if !active[j] {
			continue
		}
		g, numKnots := grad[j], path[j].K()
		seg, wt, a0, a1 := w.segment[j:], w.weight[j:], w.a0[j:], w.a1[j:]
		for n := range numChains {
			o := n * lanes
			projectKnot(g, numKnots, seg[o], wt[o], a0[o], a1[o])
		}
	}
}

// laneTerms writes a_n = (D E[W])_n + Cov_n z_n, z = Dη, of every chain n
// of every lane (MomentGradient's, bit for bit) to w.a0 and w.a1 from η in
// w.eta0 and w.eta1. Inactive lanes get numbers nobody reads. The end
// chains, whose sums lack a neighbour's term, are apart from the interior
// ones.
func (w *LaneGradientWorkspace) laneTerms(m *LaneMoments, numChains int) {
	type row = [lanes]float64
	at := func(s []float64, n int) *row { return (*row)(s[n*lanes : (n+1)*lanes]) }
	// z_n = 0 + (η_n - η_{n-1}) + (η_n - η_{n+1}), each term only where
	// the neighbour exists; likewise (D E[W])_n.
	last := numChains - 1
	for _, ends := range [2][2]int{{0, 1}, {last, last - 1}} {
		n, o := ends[0], ends[1] // the end chain and its one neighbour
		e0, e1, m0, m1 := at(w.eta0, n), at(w.eta1, n), at(m.Mean0, n), at(m.Mean1, n)
		d0, d1, p0, p1 := at(w.eta0, o), at(w.eta1, o), at(m.Mean0, o), at(m.Mean1, o)
		c00, c01, c11 := at(m.C00, n), at(m.C01, n), at(m.C11, n)
		a0, a1 := at(w.a0, n), at(w.a1, n)
		for j := range lanes {
			z0, z1 := 0+(e0[j]-d0[j]), 0+(e1[j]-d1[j])
			l0, l1 := 0+(m0[j]-p0[j]), 0+(m1[j]-p1[j])
			a0[j] = l0 + (c00[j]*z0 + c01[j]*z1)
			a1[j] = l1 + (c01[j]*z0 + c11[j]*z1)
		}
	}
	for n := 1; n < last; n++ {
		e0, e1, m0, m1 := at(w.eta0, n), at(w.eta1, n), at(m.Mean0, n), at(m.Mean1, n)
		d0, d1, p0, p1 := at(w.eta0, n-1), at(w.eta1, n-1), at(m.Mean0, n-1), at(m.Mean1, n-1)
		f0, f1, q0, q1 := at(w.eta0, n+1), at(w.eta1, n+1), at(m.Mean0, n+1), at(m.Mean1, n+1)
		c00, c01, c11 := at(m.C00, n), at(m.C01, n), at(m.C11, n)
		a0, a1 := at(w.a0, n), at(w.a1, n)
		for j := range lanes {
			z0, z1 := 0+(e0[j]-d0[j]), 0+(e1[j]-d1[j])
			l0, l1 := 0+(m0[j]-p0[j]), 0+(m1[j]-p1[j])
			z0 += e0[j] - f0[j]
			z1 += e1[j] - f1[j]
			l0 += m0[j] - q0[j]
			l1 += m1[j] - q1[j]
			a0[j] = l0 + (c00[j]*z0 + c01[j]*z1)
			a1[j] = l1 + (c01[j]*z0 + c11[j]*z1)
		}
	}
}

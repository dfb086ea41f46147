package tune

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
)

// SKLWorkspace holds the scratch space of the SKL gradient estimator. The
// zero value is ready to use; after the first call a workspace does not
// allocate again for the same (or smaller) numbers of chains and
// iterations. A workspace must not be used by two goroutines at once.
type SKLWorkspace struct {
	centred []float64 // iters × 2C, the energies minus their column means
	mean    []float64 // 2C column means: E_n[W_i] at column 2n+i
	eta     []float64 // 2C: η(t_n) at 2n, 2n+1 (Gradient); η0 of every chain, then η1 (MomentGradient)
	z       []float64 // 2C: z_n = (Dη)_n
	a       []float64 // 2C: ∂L/∂η_n
	v       []float64 // iters: centred · z
	segment []int     // C: the spline segment of t_n (MomentGradient)
	weight  []float64 // C: … and the weight of its upper knot
	knots   []float64 // 2(K+1): MomentGradient's gradient at every knot, the end knots' terms thrown away
}

// NewMomentWorkspace returns an SKLWorkspace with room for MomentGradient
// on numChains chains and a spline of knots knots (K), so that its first
// call, at the end of a run's first scan, allocates nothing.
func NewMomentWorkspace(numChains, knots int) *SKLWorkspace {
	return &SKLWorkspace{
		eta:     make([]float64, 2*numChains),
		weight:  make([]float64, numChains),
		segment: make([]int, numChains),
		knots:   make([]float64, 2*(knots+1)),
	}
}

func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

// Gradient writes to grad (length 2(K-1), ordered like Spline.Step's
// argument: φ_1[η0], φ_1[η1], φ_2[η0], …) the Monte Carlo estimate of the
// gradient with respect to the interior knots, in linear space, of the SKL
// surrogate of eq:bound for the exponential family π_t ∝ exp(η(t)·W)
// (appendix "Objective and Gradient", §§ "Symmetric KL: exponential family
// case"):
//
//	L(φ) = Σ_{n=0}^{C-2} SKL(π_{t_n}, π_{t_{n+1}})
//	     = Σ_n (η_{n+1} - η_n)·(E_{n+1}[W] - E_n[W]) = Σ_{n=0}^{C-1} z_n·E_n[W],
//
// with η_n = η(t_n), z_0 = η_0 - η_1, z_n = 2η_n - η_{n-1} - η_{n+1},
// z_{C-1} = η_{C-1} - η_{C-2} (z = Dη with D the path-graph Laplacian).
// Since ∂E_n[W]/∂η_n = Cov_n(W) in an exponential family (appendix
// "Derivative of parameter-dependent expectation"),
//
//	∂L/∂η_n = (D E[W])_n + Σ_m Cov(W(X_n), W(X_m)) z_m,
//	∂L/∂φ_k = Σ_n (∂η_n/∂φ_k) ∂L/∂η_n,
//
// where ∂η_n/∂φ_k is the spline weight of φ_k at t_n (Spline.Segment).
// Expectations are replaced by sample means and covariances by sample
// covariances (divisor iters-1), so for independent samples the estimate is
// unbiased.
//
// energies is iters × 2C, row-major: row m, column 2n+i holds W_i of the
// state at chain n on iteration m, a sample of π_{t_n} for the schedule
// sched (length C) and the path's current knots. It is not modified.
//
// The paper's matrix form (appendix, W(X) an s × 2N matrix) uses the full
// 2C × 2C sample covariance of the row vectors W(X). Under the product
// target of parallel tempering the chains are independent, so the
// cross-chain blocks Cov(W(X_n), W(X_m)), n ≠ m, are zero in expectation and
// only add noise to the estimate; they are also estimated with whatever
// dependence PT's swaps induce between consecutive iterations. full = false
// keeps the block diagonal, the per-chain 2×2 covariances (Σ_m reduces to
// m = n); full = true uses the full sample covariance, cross-chain blocks
// included, as the authors' code does (np.cov over all columns). Both are
// unbiased for independent draws; on the paper's Gaussian (C = 50,
// M = 300, K = 4) the full form's variance per component was 1.4–9 times
// the block form's at Λ-optimal paths (1.4–6 and 2–9 at two local optima)
// and about 10⁴ times on the linear starting path
// (TestGradientVarianceReport in internal/gaussexact). The full form is
// computed as Cov·z = Xcᵀ(Xc z)/(iters-1) with two BLAS matrix-vector
// products (blas64.Gemv) on the centred energy matrix Xc, O(iters·C) work,
// never forming the 2C × 2C matrix; the block form accumulates the 2×2
// sums chain by chain. Both cost about the same.
//
// With iters < 2 the covariances are undefined and grad is filled with NaN.
func (w *SKLWorkspace) Gradient(grad, energies []float64, iters int, sched []float64, path *Spline, full bool) {
	numChains := len(sched)
	numKnots := path.K()
	cols := 2 * numChains
	switch {
	case len(grad) != 2*(numKnots-1):
		panic("tune: gradient length mismatch")
	case numChains < 2:
		panic("tune: fewer than two chains")
	case iters < 0 || len(energies) != iters*cols:
		panic("tune: energy matrix size mismatch")
	}
	if iters < 2 {
		for c := range grad {
			grad[c] = math.NaN()
		}
		return
	}
	w.mean = grow(w.mean, cols)
	w.eta = grow(w.eta, cols)
	w.z = grow(w.z, cols)
	w.a = grow(w.a, cols)
	mean, eta, z, a := w.mean, w.eta, w.z, w.a

	for n, t := range sched {
		eta[2*n], eta[2*n+1] = path.Eta(t)
	}
	laplacian(z, eta)

	clear(mean)
	for m := 0; m < iters; m++ {
		floats.Add(mean, energies[m*cols:(m+1)*cols])
	}
	floats.Scale(1/float64(iters), mean)
	laplacian(a, mean) // (D E[W])_n

	scale := 1 / float64(iters-1)
	if full {
		w.centred = grow(w.centred, iters*cols)
		w.v = grow(w.v, iters)
		xc := w.centred
		for m := 0; m < iters; m++ {
			floats.SubTo(xc[m*cols:(m+1)*cols], energies[m*cols:(m+1)*cols], mean)
		}
		g := blas64.General{Rows: iters, Cols: cols, Stride: cols, Data: xc}
		blas64.Gemv(blas.NoTrans, 1, g, blas64.Vector{N: cols, Inc: 1, Data: z},
			0, blas64.Vector{N: iters, Inc: 1, Data: w.v})
		blas64.Gemv(blas.Trans, scale, g, blas64.Vector{N: iters, Inc: 1, Data: w.v},
			1, blas64.Vector{N: cols, Inc: 1, Data: a})
	} else {
		// a_n += Cov_n z_n with Cov_n the 2×2 sample covariance of chain n,
		// accumulated chain by chain (column pair 2n, 2n+1) in registers.
		for n := 0; n < numChains; n++ {
			c00, c01, c11 := blockCov(energies, cols, 2*n, iters, mean[2*n], mean[2*n+1])
			z0, z1 := z[2*n], z[2*n+1]
			a[2*n] += (c00*z0 + c01*z1) * scale
			a[2*n+1] += (c01*z0 + c11*z1) * scale
		}
	}
	projectKnots(grad, a, sched, path)
}

// blockCov returns the centred sums of products Σ_m d0², Σ_m d0 d1,
// Σ_m d1² of the column pair (col, col+1) of the row-major matrix x with
// the given stride, d_i = x[m, col+i] - mean_i, with two interleaved sets
// of accumulators to halve the addition latency chains.
func blockCov(x []float64, stride, col, iters int, mean0, mean1 float64) (c00, c01, c11 float64) {
	var e00, e01, e11 float64
	m := 0
	for ; m+1 < iters; m += 2 {
		r := x[m*stride+col : m*stride+col+2 : m*stride+col+2]
		q := x[(m+1)*stride+col : (m+1)*stride+col+2 : (m+1)*stride+col+2]
		d0, d1 := r[0]-mean0, r[1]-mean1
		f0, f1 := q[0]-mean0, q[1]-mean1
		c00 += d0 * d0
		c01 += d0 * d1
		c11 += d1 * d1
		e00 += f0 * f0
		e01 += f0 * f1
		e11 += f1 * f1
	}
	if m < iters {
		r := x[m*stride+col : m*stride+col+2 : m*stride+col+2]
		d0, d1 := r[0]-mean0, r[1]-mean1
		c00 += d0 * d0
		c01 += d0 * d1
		c11 += d1 * d1
	}
	return c00 + e00, c01 + e01, c11 + e11
}

// laplacian writes dst = D src for 2-vectors by chain (src[2n], src[2n+1]),
// D the Laplacian of the path graph 0 - 1 - … - (C-1):
// dst_0 = src_0 - src_1, dst_n = 2 src_n - src_{n-1} - src_{n+1},
// dst_{C-1} = src_{C-1} - src_{C-2}.
//
// The end chains are written apart from the interior ones, whose loop has
// no branch; the sums are those of the loop with both tests (0 + the left
// difference + the right one), bit for bit.
func laplacian(dst, src []float64) {
	numChains := len(src) / 2
	dst = dst[:2*numChains]
	if numChains < 2 {
		clear(dst)
		return
	}
	for i := 0; i < 2; i++ {
		dst[i] = 0 + (src[i] - src[i+2])
		last := 2*(numChains-1) + i
		dst[last] = 0 + (src[last] - src[last-2])
	}
	for c := 2; c < 2*(numChains-1); c++ {
		v := 0 + (src[c] - src[c-2])
		dst[c] = v + (src[c] - src[c+2])
	}
}

// projectKnots writes grad_k = Σ_n (∂η_n/∂φ_k) a_n for the interior knots.
func projectKnots(grad, a, sched []float64, path *Spline) {
	numKnots := path.K()
	clear(grad)
	for n, t := range sched {
		k, w := path.Segment(t)
		if k-1 >= 1 { // φ_{k-1}, weight 1-w
			c := 2 * (k - 2)
			grad[c] += (1 - w) * a[2*n]
			grad[c+1] += (1 - w) * a[2*n+1]
		}
		if k <= numKnots-1 { // φ_k, weight w
			c := 2 * (k - 1)
			grad[c] += w * a[2*n]
			grad[c+1] += w * a[2*n+1]
		}
	}
}

// SKLEstimate returns the Monte Carlo estimate of the SKL surrogate of
// eq:bound,
//
//	Σ_{n=0}^{C-2} (η(t_{n+1}) - η(t_n))·(Ê_{n+1}[W] - Ê_n[W]),
//
// from the same energy matrix as SKLWorkspace.Gradient (iters × 2C, column
// 2n+i is W_i at chain n), Ê_n the sample means. It is unbiased for
// independent draws and its expectation is the function whose gradient
// Gradient estimates. It does not allocate.
func SKLEstimate(energies []float64, iters int, sched []float64, path *Spline) float64 {
	numChains := len(sched)
	cols := 2 * numChains
	if numChains < 2 {
		panic("tune: fewer than two chains")
	}
	if iters < 0 || len(energies) != iters*cols {
		panic("tune: energy matrix size mismatch")
	}
	if iters == 0 {
		return math.NaN()
	}
	inv := 1 / float64(iters)
	chainMean := func(n int) (w0, w1 float64) {
		for m := 0; m < iters; m++ {
			w0 += energies[m*cols+2*n]
			w1 += energies[m*cols+2*n+1]
		}
		return w0 * inv, w1 * inv
	}
	skl := 0.0
	prev0, prev1 := chainMean(0)
	e0, e1 := path.Eta(sched[0])
	for n := 1; n < numChains; n++ {
		cur0, cur1 := chainMean(n)
		f0, f1 := path.Eta(sched[n])
		skl += SKLTerm(e0, e1, f0, f1, prev0, prev1, cur0, cur1)
		prev0, prev1, e0, e1 = cur0, cur1, f0, f1
	}
	return skl
}

// SKLTerm is one pair's term of the SKL surrogate's estimate (eq:bound),
//
//	(η(t_{n+1}) - η(t_n))·(Ê_{n+1}[W] - Ê_n[W]),
//
// from the coefficients (a0, a1) of chain n and (b0, b1) of chain n+1 and
// the chains' mean energies (m0, m1) and (p0, p1).
func SKLTerm(a0, a1, b0, b1, m0, m1, p0, p1 float64) float64 {
	return (b0-a0)*(p0-m0) + (b1-a1)*(p1-m1)
}

// RoundTripRate returns 1/(2 + 2·b), the round-trip rate of eq:nrpt_rtr
// for the non-asymptotic barrier b = Σ_n r_n/(1-r_n) (eq:nonasympcb), or
// for the barrier Λ in place of b, the rate's asymptotic bound.
func RoundTripRate(b float64) float64 { return 1 / (2 + 2*b) }

// EquiRejectionRate returns the round-trip rate of eq:nrpt_rtr with
// numChains chains at equal rejections: the numChains-1 pairs share the
// barrier Λ, r_n = Λ/(numChains-1), so Σ_n r_n/(1-r_n) =
// Λ/(1 - Λ/(numChains-1)) and
//
//	τ = 1/(2 + 2Λ/(1 - Λ/(numChains-1))).
//
// It is the rate the equi-rejection schedule of eq:equicrit reaches on a
// path of barrier Λ when the rejections between neighbours add up to Λ,
// and 0 when Λ ≥ numChains-1 (every swap rejected). It panics with fewer
// than two chains.
func EquiRejectionRate(lambda float64, numChains int) float64 {
	if numChains < 2 {
		panic("tune: fewer than two chains")
	}
	pairs := float64(numChains - 1)
	if !(lambda < pairs) {
		return 0
	}
	return RoundTripRate(lambda / (1 - lambda/pairs))
}

// NonAsymptoticBarrier returns Σ_n r_n/(1-r_n), the objective of
// eq:nonasympcb (the round-trip rate of eq:nrpt_rtr is 1/(2 + 2·this)),
// or +Inf when some r_n ≥ 1. A NaN rejection gives NaN.
func NonAsymptoticBarrier(rej []float64) float64 {
	s := 0.0
	for _, r := range rej {
		if r >= 1 {
			return math.Inf(1)
		}
		s += r / (1 - r)
	}
	return s
}

// MomentGradient writes to grad the block-form gradient of Gradient
// (full = false) computed from each chain's moments instead of the energy
// matrix: mean[2n+i] = E_n[W_i] and cov[3n], cov[3n+1], cov[3n+2] =
// Cov_n(W0, W0), Cov_n(W0, W1), Cov_n(W1, W1), the sample moments of chain
// n under the schedule sched and the path's current knots. With the
// sample means and covariances (divisor M-1) of the same M samples it
// equals Gradient's block form up to rounding; the engine accumulates
// these moments during the scan, so the block form needs no record of the
// energies. It does not allocate after the first call with a given C.
func (w *SKLWorkspace) MomentGradient(grad, mean, cov, sched []float64, path *Spline) {
	numChains := len(sched)
	cols := 2 * numChains
	switch {
	case len(grad) != 2*(path.K()-1):
		panic("tune: gradient length mismatch")
	case numChains < 2:
		panic("tune: fewer than two chains")
	case len(mean) != cols || len(cov) != 3*numChains:
		panic("tune: moment length mismatch")
	}
	// η and the segment of every chain first (Spline.etaSegmentsStrided),
	// then one pass over the chains: the operations (and so the bits) of η
	// by path.Eta, z and (D E[W]) by laplacian, a_n = (D E[W])_n + Cov_n z_n,
	// and the projection of projectKnots, in the same order. The end
	// chains are apart from the interior ones, whose loop reads each
	// chain's neighbourhood through slices of constant length (no tests,
	// no bounds checks): one chain at a time with its neighbours in
	// registers, the loop spilled them and cost two hundred instructions a
	// chain.
	w.eta = grow(w.eta, cols)
	w.weight = grow(w.weight, numChains)
	if cap(w.segment) < numChains {
		w.segment = make([]int, numChains)
	}
	eta0, eta1, seg, wt := w.eta[:numChains], w.eta[numChains:cols], w.segment[:numChains], w.weight
	path.etaSegmentsStrided(eta0, eta1, seg, wt, 1, sched)
	mean, cov = mean[:cols], cov[:3*numChains]
	numKnots := path.K()
	// The terms of every knot, φ_0 … φ_K, each chain's two added without
	// tests of whether its segment's knots are interior (the end knots'
	// sums are dropped): the interior knots' sums are projectKnots', in
	// the same order.
	w.knots = grow(w.knots, 2*(numKnots+1))
	all := w.knots
	clear(all)
	// z_n = 0 + (η_n - η_{n-1}) + (η_n - η_{n+1}), each term only where
	// the neighbour exists; likewise (D E[W])_n.
	z0, z1 := 0+(eta0[0]-eta0[1]), 0+(eta1[0]-eta1[1])
	l0, l1 := 0+(mean[0]-mean[2]), 0+(mean[1]-mean[3])
	projectKnot(all, seg[0], wt[0], l0+(cov[0]*z0+cov[1]*z1), l1+(cov[1]*z0+cov[2]*z1))
	for n := 1; n < numChains-1; n++ {
		e0 := eta0[n-1 : n+2 : n+2] // η of chains n-1, n, n+1
		e1 := eta1[n-1 : n+2 : n+2]
		m := mean[2*n-2 : 2*n+4 : 2*n+4]
		c := cov[3*n : 3*n+3 : 3*n+3]
		z0 := 0 + (e0[1] - e0[0])
		z1 := 0 + (e1[1] - e1[0])
		l0 := 0 + (m[2] - m[0])
		l1 := 0 + (m[3] - m[1])
		z0 += e0[1] - e0[2]
		z1 += e1[1] - e1[2]
		l0 += m[2] - m[4]
		l1 += m[3] - m[5]
		a0 := l0 + (c[0]*z0 + c[1]*z1)
		a1 := l1 + (c[1]*z0 + c[2]*z1)
		projectKnot(all, seg[n], wt[n], a0, a1)
	}
	n := numChains - 1
	z0, z1 = 0+(eta0[n]-eta0[n-1]), 0+(eta1[n]-eta1[n-1])
	l0, l1 = 0+(mean[2*n]-mean[2*n-2]), 0+(mean[2*n+1]-mean[2*n-1])
	c := cov[3*n : 3*n+3]
	projectKnot(all, seg[n], wt[n], l0+(c[0]*z0+c[1]*z1), l1+(c[1]*z0+c[2]*z1))
	copy(grad, all[2:2*numKnots])
}

// projectKnot adds chain n's term of projectKnots, (∂η_n/∂φ_k)·a_n, for
// the knots φ_{k-1} (weight 1-w) and φ_k (weight w) of its segment k and
// weight w (Spline.Segment) to all, which holds the sums of every knot,
// φ_j's at 2j and 2j+1.
func projectKnot(all []float64, k int, w, a0, a1 float64) {
	g := all[2*k-2 : 2*k+2 : 2*k+2]
	g[0] += (1 - w) * a0
	g[1] += (1 - w) * a1
	g[2] += w * a0
	g[3] += w * a1
}

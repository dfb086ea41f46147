package asm

// The path step of the paper's tuning (alg:PT_tuning) for the lanes of a
// block at once: the SKL surrogate's gradient with respect to the spline
// knots from each chain's moments of the energies over the scan
// (tune.SKLWorkspace.MomentGradient, the block form of the appendix
// "Objective and Gradient"), in two passes over the chains with the lanes
// innermost, as the engine stores the moments. Package batch
// (tuner.blockGradients) transposes each lane's schedule and knots into
// rows, and takes the lanes' spline steps from the gradients' rows at once
// (SplineStepsGeneric, spline.go; tune.StepLanes).

// PathRecord is the number of rows of lanes PathMomentsGeneric writes per
// chain: the means of W0 and W1, the covariances (00, 01, 11), η0, η1,
// the chain's spline segment k (as a float64) and its weight w.
const PathRecord = 9

// The rows of a chain's record.
const (
	recM0 = iota
	recM1
	recC00
	recC01
	recC11
	recE0
	recE1
	recSeg
	recW
)

// PathMomentsGeneric writes, for every chain n < len(t)/lanes and lane j,
// the record of rows PathRecord at rec[(n·PathRecord + r)·lanes + j]: the
// chain's sample means and covariances (divisor M-1) of the energies over
// the scan from their shifted sums (inv = 1/M, inv1 = 1/(M-1)),
//
//	f0, f1 := sum0·inv, sum1·inv
//	m0, m1 := shift0 + f0, shift1 + f1
//	c00, c01, c11 := (sq00 - sum0·f0)·inv1, (sq01 - sum0·f1)·inv1, (sq11 - sum1·f1)·inv1
//
// and η(t) of the lane's spline of numKnots segments at t = t[n·lanes+j]
// with its segment k and weight w (tune.Spline's segmentOf and Eta):
//
//	t >= 1:  η = (0, 1), k = K, w = 1
//	t <= 0:  η = (1, 0), k = 1, w = 0
//	else:    x := t·K; k = int(x)+1 kept in [1, K]; w = x - (k-1)
//	         η = ((1-w)·φ_{k-1} + w·φ_k)
//
// with φ_k's component i for lane j at knots[(2k+i)·lanes + j]. All the
// row slices have len(t), a multiple of lanes, len(rec) ==
// PathRecord·len(t), len(knots) == 2(K+1)·lanes and K ≥ 1 (the checked
// layer in package kernel guarantees it). Every product is rounded before
// it is added.
func PathMomentsGeneric(rec, sum0, sum1, shift0, shift1, sq00, sq01, sq11, t, knots []float64, numKnots int, inv, inv1 float64) {
	n := len(t)
	sum0, sum1, shift0, shift1 = sum0[:n], sum1[:n], shift0[:n], shift1[:n]
	sq00, sq01, sq11, rec = sq00[:n], sq01[:n], sq11[:n], rec[:PathRecord*n]
	for i, tt := range t {
		c, j := i/lanes, i%lanes
		r := rec[c*PathRecord*lanes+j:]
		s0, s1 := sum0[i], sum1[i]
		f0, f1 := float64(s0*inv), float64(s1*inv)
		r[recM0*lanes] = shift0[i] + f0
		r[recM1*lanes] = shift1[i] + f1
		r[recC00*lanes] = float64((sq00[i] - float64(s0*f0)) * inv1)
		r[recC01*lanes] = float64((sq01[i] - float64(s0*f1)) * inv1)
		r[recC11*lanes] = float64((sq11[i] - float64(s1*f1)) * inv1)
		e0, e1, k, w := splineEta(tt, knots[j:], numKnots)
		r[recE0*lanes], r[recE1*lanes] = e0, e1
		r[recSeg*lanes], r[recW*lanes] = float64(k), w
	}
}

// PathProjectGeneric adds, for every lane j, the gradient terms of every
// chain n of the records rec (PathMomentsGeneric's) to the sums of the
// knots φ_0 … φ_K, component i of φ_k at acc[(2k+i)·lanes + j] (acc is not
// cleared first): with the chain's neighbours n±1 where they exist,
//
//	z = 0 + (η_n - η_{n-1}) + (η_n - η_{n+1})        (Dη, each component)
//	l = 0 + (m_n - m_{n-1}) + (m_n - m_{n+1})        (D E[W])
//	a0 := l0 + (c00·z0 + c01·z1);  a1 := l1 + (c01·z0 + c11·z1)
//	φ_{k-1} += (1-w)·a;  φ_k += w·a                 (k, w: the chain's segment)
//
// the terms in chain order, each product rounded before it is added:
// MomentGradient's operations in its order, so that the interior knots'
// sums are its gradient bit for bit. A record whose k is not one of
// 1 … K adds nothing. chains ≥ 2, len(rec) == PathRecord·lanes·chains and
// len(acc) == 2(K+1)·lanes (the checked layer in package kernel
// guarantees it).
func PathProjectGeneric(acc, rec []float64, chains, numKnots int) {
	const R = PathRecord * lanes
	rec, acc = rec[:chains*R], acc[:2*(numKnots+1)*lanes]
	for j := 0; j < lanes; j++ {
		at := func(n, row int) float64 { return rec[n*R+row*lanes+j] }
		for n := 0; n < chains; n++ {
			e0, e1, m0, m1 := at(n, recE0), at(n, recE1), at(n, recM0), at(n, recM1)
			z0, z1, l0, l1 := 0.0, 0.0, 0.0, 0.0
			if n > 0 {
				z0, z1 = 0+(e0-at(n-1, recE0)), 0+(e1-at(n-1, recE1))
				l0, l1 = 0+(m0-at(n-1, recM0)), 0+(m1-at(n-1, recM1))
			}
			if n < chains-1 {
				if n > 0 {
					z0 += e0 - at(n+1, recE0)
					z1 += e1 - at(n+1, recE1)
					l0 += m0 - at(n+1, recM0)
					l1 += m1 - at(n+1, recM1)
				} else {
					z0, z1 = 0+(e0-at(n+1, recE0)), 0+(e1-at(n+1, recE1))
					l0, l1 = 0+(m0-at(n+1, recM0)), 0+(m1-at(n+1, recM1))
				}
			}
			c00, c01, c11 := at(n, recC00), at(n, recC01), at(n, recC11)
			a0 := l0 + (float64(c00*z0) + float64(c01*z1))
			a1 := l1 + (float64(c01*z0) + float64(c11*z1))
			seg, w := at(n, recSeg), at(n, recW)
			k := int(seg)
			if float64(k) != seg || k < 1 || k > numKnots {
				continue // not a segment: no knot's sum (as the assembly, which compares seg with 1 … K)
			}
			g := acc[(2*k-2)*lanes+j:]
			g[0] += float64((1 - w) * a0)
			g[lanes] += float64((1 - w) * a1)
			g[2*lanes] += float64(w * a0)
			g[3*lanes] += float64(w * a1)
		}
	}
}

// splineEta returns η(t) of a spline of numKnots segments, the segment k
// of t and its weight w (tune.Spline's Eta and segmentOf), with component
// i of knot φ_k at knots[(2k+i)·lanes]:
//
//	t >= 1:  η = (0, 1), k = K, w = 1
//	t <= 0:  η = (1, 0), k = 1, w = 0
//	else:    x := t·K; k = int(x)+1 kept in [1, K]; w = x - (k-1)
//	         η = (1-w)·φ_{k-1} + w·φ_k
func splineEta(t float64, knots []float64, numKnots int) (e0, e1 float64, k int, w float64) {
	switch {
	case t >= 1:
		return 0, 1, numKnots, 1
	case t <= 0:
		return 1, 0, 1, 0
	}
	x := t * float64(numKnots)
	k = int(x) + 1
	if k > numKnots {
		k = numKnots
	}
	if k < 1 {
		k = 1
	}
	w = x - float64(k-1)
	a0, a1 := knots[(2*k-2)*lanes], knots[(2*k-1)*lanes]
	b0, b1 := knots[2*k*lanes], knots[(2*k+1)*lanes]
	e0 = float64((1-w)*a0) + float64(w*b0)
	e1 = float64((1-w)*a1) + float64(w*b1)
	return e0, e1, k, w
}

// PathEtaGeneric writes η(t) of each lane's spline of numKnots segments at
// every schedule point t[n·lanes+j] to eta0 and eta1 at the same index
// (PathMomentsGeneric's η rows, as tune.Spline.Eta): the coefficients of
// the chains of a block, with the lanes innermost as the engine keeps
// them, after a scan's tuning. len(eta0) == len(eta1) == len(t), a
// multiple of lanes, len(knots) == 2(K+1)·lanes and K ≥ 1 (the checked
// layer in package kernel guarantees it).
func PathEtaGeneric(eta0, eta1, t, knots []float64, numKnots int) {
	n := len(t)
	eta0, eta1 = eta0[:n], eta1[:n]
	for i, tt := range t {
		eta0[i], eta1[i], _, _ = splineEta(tt, knots[i%lanes:], numKnots)
	}
}

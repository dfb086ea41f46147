package tune

import (
	"errors"
	"fmt"
	"math"
)

// GaussianPair is the d-dimensional isotropic Gaussian pair of the paper's
// Gaussian experiment (appendix "Experimental details", Gaussian): reference
// N(Mu0·1, Sigma0² I), target N(Mu1·1, Sigma1² I), with
//
//	W_i(x) = -Σ_j (x_j - μ_i)² / (2σ_i²),  i = 0, 1,
//
// as in models.Gaussian. Every annealed density π_η ∝ exp(η·W) with
// precision p = η0/σ0² + η1/σ1² > 0 is N(m·1, s² I), s² = 1/p,
// m = (η0 μ0/σ0² + η1 μ1/σ1²)/p, so the SKL surrogate, the rejection rates
// and the communication barrier have closed forms or one-dimensional
// integrals. The methods serve the tests of the SKL gradient estimator and
// the report of the best round-trip rate a spline family can reach. They
// assume a valid pair (see Validate) and return NaN where an annealed
// density is improper.
type GaussianPair struct {
	Dim            int
	Mu0, Mu1       float64
	Sigma0, Sigma1 float64
}

// ErrDim is returned by the GaussianPair methods that are implemented for
// Dim = 1 only.
var ErrDim = errors.New("tune: only implemented for Dim = 1")

// Validate returns an error naming the first bad field of g, or nil.
func (g GaussianPair) Validate() error {
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	switch {
	case g.Dim < 1:
		return fmt.Errorf("tune: Dim must be at least 1, got %d", g.Dim)
	case !finite(g.Mu0) || !finite(g.Mu1):
		return fmt.Errorf("tune: means must be finite, got %v, %v", g.Mu0, g.Mu1)
	case !(g.Sigma0 > 0) || !finite(g.Sigma0) || !(g.Sigma1 > 0) || !finite(g.Sigma1):
		return fmt.Errorf("tune: standard deviations must be positive and finite, got %v, %v", g.Sigma0, g.Sigma1)
	}
	return nil
}

// Annealed returns the mean m and standard deviation s of each coordinate
// of π_η, and ok = false when the precision η0/σ0² + η1/σ1² is not
// positive and finite.
func (g GaussianPair) Annealed(eta0, eta1 float64) (m, s float64, ok bool) {
	a0 := eta0 / (g.Sigma0 * g.Sigma0)
	a1 := eta1 / (g.Sigma1 * g.Sigma1)
	p := a0 + a1
	if !(p > 0) || math.IsInf(p, 0) {
		return math.NaN(), math.NaN(), false
	}
	return (a0*g.Mu0 + a1*g.Mu1) / p, 1 / math.Sqrt(p), true
}

// Moments returns E[W] and Cov(W) under π_η, η = (eta0, eta1). With
// X ~ N(m·1, s² I) and δ_i = m - μ_i, each coordinate gives
// (x - μ_i)² = y² + 2δ_i y + δ_i², y ~ N(0, s²), and the Gaussian moments
// E y² = s², Var y² = 2s⁴, Cov(y², y) = 0 give
//
//	E[W_i]         = -d (δ_i² + s²) / (2σ_i²),
//	Cov(W_i, W_j)  =  d s² (s² + 2δ_i δ_j) / (2σ_i² σ_j²).
//
// (Cov(W) = ∂E[W]/∂η, the identity the SKL gradient rests on; the tests
// check it.)
func (g GaussianPair) Moments(eta0, eta1 float64) (mean [2]float64, cov [2][2]float64) {
	m, s, ok := g.Annealed(eta0, eta1)
	if !ok {
		nan := math.NaN()
		return [2]float64{nan, nan}, [2][2]float64{{nan, nan}, {nan, nan}}
	}
	d := float64(g.Dim)
	s2 := s * s
	v := [2]float64{g.Sigma0 * g.Sigma0, g.Sigma1 * g.Sigma1}
	delta := [2]float64{m - g.Mu0, m - g.Mu1}
	for i := 0; i < 2; i++ {
		mean[i] = -d * (delta[i]*delta[i] + s2) / (2 * v[i])
		for j := 0; j < 2; j++ {
			cov[i][j] = d * s2 * (s2 + 2*delta[i]*delta[j]) / (2 * v[i] * v[j])
		}
	}
	return mean, cov
}

// ExactSKL returns the SKL surrogate of eq:bound for the path and schedule,
//
//	Σ_{n=0}^{C-2} (η(t_{n+1}) - η(t_n))·(E_{n+1}[W] - E_n[W]),
//
// with the exact moments of Moments; it is Σ_n SKL(π_{t_n}, π_{t_{n+1}})
// exactly, and the expectation of SKLEstimate on independent draws.
func (g GaussianPair) ExactSKL(path *Spline, sched []float64) float64 {
	skl := 0.0
	var prevEta [2]float64
	var prevMean [2]float64
	for n, t := range sched {
		e0, e1 := path.Eta(t)
		mean, _ := g.Moments(e0, e1)
		if n > 0 {
			skl += (e0-prevEta[0])*(mean[0]-prevMean[0]) + (e1-prevEta[1])*(mean[1]-prevMean[1])
		}
		prevEta, prevMean = [2]float64{e0, e1}, mean
	}
	return skl
}

// ExactSKLGradient writes to grad (length 2(K-1), ordered like Spline.Step's
// argument) the exact gradient of ExactSKL with respect to the interior
// knots: the formula of SKLWorkspace.Gradient with the exact means and
// covariances of Moments in place of sample ones (the cross-chain
// covariances are zero).
func (g GaussianPair) ExactSKLGradient(path *Spline, sched []float64, grad []float64) {
	numChains := len(sched)
	if len(grad) != 2*(path.K()-1) {
		panic("tune: gradient length mismatch")
	}
	eta := make([]float64, 2*numChains)
	mean := make([]float64, 2*numChains)
	covs := make([][2][2]float64, numChains)
	for n, t := range sched {
		eta[2*n], eta[2*n+1] = path.Eta(t)
		var mu [2]float64
		mu, covs[n] = g.Moments(eta[2*n], eta[2*n+1])
		mean[2*n], mean[2*n+1] = mu[0], mu[1]
	}
	z := make([]float64, 2*numChains)
	a := make([]float64, 2*numChains)
	laplacian(z, eta)
	laplacian(a, mean)
	for n := range numChains {
		c := covs[n]
		a[2*n] += c[0][0]*z[2*n] + c[0][1]*z[2*n+1]
		a[2*n+1] += c[1][0]*z[2*n] + c[1][1]*z[2*n+1]
	}
	projectKnots(grad, a, sched, path)
}

// quadratic returns V(x) = A x² + B x (up to a constant) for one coordinate
// of V = Δ·W.
func (g GaussianPair) quadratic(delta [2]float64) (qa, qb float64) {
	v0, v1 := g.Sigma0*g.Sigma0, g.Sigma1*g.Sigma1
	qa = -(delta[0]/(2*v0) + delta[1]/(2*v1))
	qb = delta[0]*g.Mu0/v0 + delta[1]*g.Mu1/v1
	return qa, qb
}

// normCDF returns Φ(x); normSF returns 1 - Φ(x) without cancellation.
func normCDF(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }
func normSF(x float64) float64  { return 0.5 * math.Erfc(x/math.Sqrt2) }

// probBetween returns P(lo < Y < hi) for Y ~ N(m, s²), lo ≤ hi, computed in
// the tail where the two CDF values are small.
func probBetween(lo, hi, m, s float64) float64 {
	l, h := (lo-m)/s, (hi-m)/s
	if l > 0 {
		return normSF(l) - normSF(h)
	}
	return normCDF(h) - normCDF(l)
}

// probBelow returns P(V(Y) < V(x)) for Y ~ N(m, s²) and V(y) = A y² + B y:
// V(y) - V(x) = (y - x)(A(y + x) + B), whose roots in y are x and
// x* = -B/A - x (the reflection of x about the vertex -B/(2A)).
func probBelow(x, qa, qb, m, s float64) float64 {
	if qa == 0 {
		switch {
		case qb > 0:
			return normCDF((x - m) / s)
		case qb < 0:
			return normSF((x - m) / s)
		}
		return 0
	}
	lo, hi := x, -qb/qa-x
	if lo > hi {
		lo, hi = hi, lo
	}
	if qa > 0 {
		return probBetween(lo, hi, m, s)
	}
	return normCDF((lo-m)/s) + normSF((hi-m)/s)
}

// probCompare returns P(V(Y) < V(X)) for independent X ~ N(mo, so²) (the
// outer variable, integrated numerically) and Y ~ N(mi, si²) (closed form),
// V(x) = A x² + B x. The integrand is smooth except at the vertex, where
// the integration range is split; choosing the narrower distribution as X
// keeps the inner probability smooth on the scale of the outer density.
func probCompare(qa, qb, mo, so, mi, si float64) float64 {
	const width = 13 // Φ(-13) ≈ 6e-39: the truncated tails are negligible
	f := func(u float64) float64 {
		return math.Exp(-0.5*u*u) / math.Sqrt(2*math.Pi) * probBelow(mo+so*u, qa, qb, mi, si)
	}
	cuts := []float64{-width}
	if qa != 0 {
		uv := (-qb/(2*qa) - mo) / so
		if uv > -width && uv < width {
			cuts = append(cuts, uv)
		}
	}
	cuts = append(cuts, width)
	p := 0.0
	for i := 0; i+1 < len(cuts); i++ {
		a, b := cuts[i], cuts[i+1]
		panels := int(math.Ceil(b - a))
		p += adaptiveIntegrate(f, a, b, panels, 1e-14)
	}
	return p
}

// Rejection returns the exact expected swap rejection between π_a and π_b,
// η(a) = etaA, η(b) = etaB (§2; eq:nrpt_rtr's r(t, t')):
//
//	r = E[1 - min(1, exp(lr))],  lr = V(X') - V(X),  V = (η_a - η_b)·W,
//
// X ~ π_a, X' ~ π_b independent. Since e^{V} π_b ∝ π_a and e^{-V} π_a ∝ π_b,
// E[e^{lr} 1{lr < 0}] = P(V(X_a) < V(X_b)), hence
//
//	r = P(V(X_b) < V(X_a)) - P(V(X_a) < V(X_b)) = 2 P(V(X_b) < V(X_a)) - 1,
//
// a one-dimensional integral of normal CDFs against the narrower of the two
// densities (adaptive Gauss–Legendre; absolute error of order 1e-14: on
// the linear path with equal scales, where r = erf(δz/2), the relative
// error is below 1e-8 down to r = 1e-7). It returns ErrDim when Dim > 1,
// and NaN when a density is improper.
func (g GaussianPair) Rejection(etaA, etaB [2]float64) (float64, error) {
	if g.Dim != 1 {
		return math.NaN(), ErrDim
	}
	ma, sa, okA := g.Annealed(etaA[0], etaA[1])
	mb, sb, okB := g.Annealed(etaB[0], etaB[1])
	if !okA || !okB {
		return math.NaN(), nil
	}
	qa, qb := g.quadratic([2]float64{etaA[0] - etaB[0], etaA[1] - etaB[1]})
	if qa == 0 && qb == 0 {
		return 0, nil
	}
	var p float64 // P(V(X_b) < V(X_a))
	if sa <= sb {
		p = probCompare(qa, qb, ma, sa, mb, sb)
	} else {
		p = 1 - probCompare(qa, qb, mb, sb, ma, sa) // 1 - P(V(X_a) ≤ V(X_b))
	}
	return math.Min(math.Max(2*p-1, 0), 1), nil
}

// meanAbsNormal returns E|Y| for Y ~ N(mu, sd²).
func meanAbsNormal(mu, sd float64) float64 {
	if sd == 0 {
		return math.Abs(mu)
	}
	return sd*math.Sqrt(2/math.Pi)*math.Exp(-mu*mu/(2*sd*sd)) + mu*math.Erf(mu/(sd*math.Sqrt2))
}

// meanSqrtNoncentral returns E√S for S = Σ_{j=1}^d Y_j², Y_j ~ N(mu, sd²)
// independent, from E√S = (1/√π) ∫_0^∞ (1 - E e^{-v² S}) / v² dv with the
// moment generating function E e^{-uS} = (1+2u sd²)^{-d/2}
// exp(-u d mu²/(1+2u sd²)), after the substitution v = c tan θ,
// c = 1/sqrt(E S), which maps the range to [0, π/2] with a bounded
// integrand.
func meanSqrtNoncentral(d int, mu, sd float64) float64 {
	dd := float64(d)
	es := dd * (sd*sd + mu*mu)
	if es == 0 {
		return 0
	}
	c := 1 / math.Sqrt(es)
	f := func(theta float64) float64 {
		sn := math.Sin(theta)
		v := c * math.Tan(theta)
		u := v * v
		logM := -0.5*dd*math.Log1p(2*u*sd*sd) - u*dd*mu*mu/(1+2*u*sd*sd)
		return -math.Expm1(logM) / (c * sn * sn)
	}
	return adaptiveIntegrate(f, 0, math.Pi/2, 4, 1e-13*math.Sqrt(es)) / math.Sqrt(math.Pi)
}

// LocalBarrier returns the local communication barrier
//
//	λ = ½ E|V(X) - V(X')|,  V = etaDot·W,  X, X' iid π_eta,
//
// of §3 (Theorem thm:general_GCB) at a point η(t) = eta of a path with
// velocity η'(t) = etaDot. Per coordinate X = m + sU gives
// V = α U² + β U + const, α = A s², β = (2Am + B)s for V(x) = A x² + B x,
// and with P = (U+U')/√2, Q = (U-U')/√2 independent N(0, 1),
//
//	V(X) - V(X') = Σ_j Q_j Y_j,  Y_j = 2α P_j + √2 β ~ N(√2 β, 4α²),
//
// so E|V(X) - V(X')| = √(2/π) E√(Σ_j Y_j²): for Dim = 1 the mean of a
// folded normal, in closed form; for Dim > 1 the mean of a noncentral chi
// variable, by quadrature of its moment generating function (see
// meanSqrtNoncentral). λ is homogeneous of degree one in etaDot.
func (g GaussianPair) LocalBarrier(eta, etaDot [2]float64) float64 {
	m, s, ok := g.Annealed(eta[0], eta[1])
	if !ok {
		return math.NaN()
	}
	qa, qb := g.quadratic(etaDot)
	alpha := qa * s * s
	beta := (2*qa*m + qb) * s
	mu, sd := math.Sqrt2*beta, 2*math.Abs(alpha)
	var eSqrt float64
	if g.Dim == 1 {
		eSqrt = meanAbsNormal(mu, sd)
	} else {
		eSqrt = meanSqrtNoncentral(g.Dim, mu, sd)
	}
	return 0.5 * math.Sqrt(2/math.Pi) * eSqrt
}

// segmentBarrier returns ∫ λ over the part u ∈ [u0, u1] of segment k of the
// path. On segment k, η(t) = φ_{k-1} + u(φ_k - φ_{k-1}) with u = Kt - k + 1
// and η'(t) = K(φ_k - φ_{k-1}); since λ is homogeneous of degree one in η'
// and dt = du/K, ∫ λ(t) dt = ∫ λ(η(u), φ_k - φ_{k-1}) du.
func (g GaussianPair) segmentBarrier(knots [][2]float64, k int, u0, u1 float64) float64 {
	a, b := knots[k-1], knots[k]
	d := [2]float64{b[0] - a[0], b[1] - a[1]}
	if d == [2]float64{} || !(u1 > u0) {
		return 0
	}
	f := func(u float64) float64 {
		return g.LocalBarrier([2]float64{a[0] + u*d[0], a[1] + u*d[1]}, d)
	}
	return adaptiveIntegrate(f, u0, u1, 4, 1e-11)
}

// Barrier returns the global communication barrier Λ = ∫_0^1 λ(t) dt of the
// path (eq:nrpt_artr: the round-trip rate with many chains tends to
// 1/(2 + 2Λ)), λ from LocalBarrier, integrated segment by segment by
// adaptive Gauss–Legendre quadrature (absolute error about 1e-11 per
// segment). For the linear path and σ0 = σ1 = σ, λ is constant and
// Λ = √Dim·|μ1 - μ0|/(σ√π).
func (g GaussianPair) Barrier(path *Spline) float64 {
	total := 0.0
	for k := 1; k <= path.K(); k++ {
		total += g.segmentBarrier(path.knots, k, 0, 1)
	}
	return total
}

// EquiBarrierSchedule returns the schedule of numChains points on which the
// exact cumulative barrier t ↦ ∫_0^t λ is equally spaced (eq:equicrit with
// the exact λ in place of its rejection-rate estimate): t_0 = 0,
// t_{C-1} = 1 and ∫_0^{t_n} λ = Λ n/(C-1), each t_n found by bisection.
func (g GaussianPair) EquiBarrierSchedule(path *Spline, numChains int) []float64 {
	if numChains < 2 {
		panic("tune: fewer than two chains")
	}
	numKnots := path.K()
	segs := make([]float64, numKnots)
	total := 0.0
	for k := 1; k <= numKnots; k++ {
		segs[k-1] = g.segmentBarrier(path.knots, k, 0, 1)
		total += segs[k-1]
	}
	sched := make([]float64, numChains)
	sched[numChains-1] = 1
	k, before := 1, 0.0 // current segment and the barrier of segments before it
	u, atU := 0.0, 0.0  // anchor in segment k and ∫ of segment k up to it
	for n := 1; n < numChains-1; n++ {
		target := total * float64(n) / float64(numChains-1)
		for k < numKnots && before+segs[k-1] < target {
			before += segs[k-1]
			k++
			u, atU = 0, 0
		}
		lo, hi := u, 1.0
		for i := 0; i < 60 && hi-lo > 1e-15; i++ {
			mid := 0.5 * (lo + hi)
			v := atU + g.segmentBarrier(path.knots, k, u, mid)
			if before+v < target {
				lo = mid
				u, atU = mid, v
			} else {
				hi = mid
			}
		}
		sched[n] = (float64(k-1) + 0.5*(lo+hi)) / float64(numKnots)
	}
	return sched
}

// ScheduleRejections returns the exact rejection rates r_n between
// consecutive chains of the schedule on the path (Dim = 1; ErrDim
// otherwise).
func (g GaussianPair) ScheduleRejections(path *Spline, sched []float64) ([]float64, error) {
	rej := make([]float64, len(sched)-1)
	for n := range rej {
		a0, a1 := path.Eta(sched[n])
		b0, b1 := path.Eta(sched[n+1])
		r, err := g.Rejection([2]float64{a0, a1}, [2]float64{b0, b1})
		if err != nil {
			return nil, err
		}
		rej[n] = r
	}
	return rej, nil
}

// RoundTripRate returns the round-trip rate of eq:nrpt_rtr,
// 1/(2 + 2 Σ_n r_n/(1-r_n)), of the path with numChains chains on its
// equi-barrier schedule, with the exact rejections (Dim = 1; ErrDim
// otherwise). It is 0 when some r_n is 1.
func (g GaussianPair) RoundTripRate(path *Spline, numChains int) (float64, error) {
	rej, err := g.ScheduleRejections(path, g.EquiBarrierSchedule(path, numChains))
	if err != nil {
		return math.NaN(), err
	}
	return 1 / (2 + 2*NonAsymptoticBarrier(rej)), nil
}

// knotsFromLogits fills the interior knots of a monotone spline from
// 2(K-1) unconstrained parameters: each component's K increments along the
// knots are a softmax of K logits, the last one fixed at 0, so η0 decreases
// from 1 to 0 and η1 increases from 0 to 1 through strictly positive
// values. Knot k has η0 = Σ_{j>k} gap0_j and η1 = Σ_{j≤k} gap1_j, summed
// from the small end so that tiny components keep their relative accuracy.
func knotsFromLogits(knots [][2]float64, x []float64) {
	numKnots := len(knots) - 1
	gaps := make([]float64, numKnots)
	for i := 0; i < 2; i++ {
		mx := 0.0
		for j := 0; j < numKnots-1; j++ {
			mx = math.Max(mx, x[i*(numKnots-1)+j])
		}
		sum := 0.0
		for j := 0; j < numKnots; j++ {
			l := 0.0
			if j < numKnots-1 {
				l = x[i*(numKnots-1)+j]
			}
			gaps[j] = math.Exp(l - mx)
			sum += gaps[j]
		}
		if i == 0 { // η0 of knot k: the gaps k+1..K, j = k..K-1
			acc := 0.0
			for k := numKnots - 1; k >= 1; k-- {
				acc += gaps[k]
				knots[k][0] = acc / sum
			}
		} else {
			acc := 0.0
			for k := 1; k < numKnots; k++ {
				acc += gaps[k-1]
				knots[k][1] = acc / sum
			}
		}
	}
	knots[0] = [2]float64{1, 0}
	knots[numKnots] = [2]float64{0, 1}
}

// logitsFromKnots inverts knotsFromLogits; ok is false when the knots are
// not strictly monotone.
func logitsFromKnots(knots [][2]float64) (x []float64, ok bool) {
	numKnots := len(knots) - 1
	x = make([]float64, 2*(numKnots-1))
	for i := 0; i < 2; i++ {
		gap := func(j int) float64 { // increment j = 0..K-1, from knot j to j+1
			if i == 0 {
				return knots[j][0] - knots[j+1][0]
			}
			return knots[j+1][1] - knots[j][1]
		}
		last := gap(numKnots - 1)
		if !(last > 0) {
			return nil, false
		}
		for j := 0; j < numKnots-1; j++ {
			gj := gap(j)
			if !(gj > 0) {
				return nil, false
			}
			x[i*(numKnots-1)+j] = math.Log(gj / last)
		}
	}
	return x, true
}

// OptimalKnots returns the K-knot monotone spline path with the smallest
// global communication barrier Λ (Barrier) that it finds, and that Λ: it
// minimises Λ over the interior knots by Nelder–Mead (nelderMead), the knots
// parametrised by the logarithms of their increments (knotsFromLogits),
// which keeps them monotone and positive, restarting from the best point
// until a restart no longer improves Λ by 1e-9 relative. It starts from
// the linear path, from a path through small η (inflated variance) and,
// for K > 2, from the optimal 2-knot path, and keeps the best result. A local search: the answer is an upper bound on
// the family's best Λ.
func (g GaussianPair) OptimalKnots(numKnots int) (*Spline, float64) {
	path := NewSpline(numKnots)
	if numKnots == 1 {
		return path, g.Barrier(path)
	}
	dim := 2 * (numKnots - 1)
	work := NewSpline(numKnots)
	objective := func(x []float64) float64 {
		knotsFromLogits(work.knots, x)
		v := g.Barrier(work)
		if math.IsNaN(v) {
			return math.Inf(1)
		}
		return v
	}
	starts := [][]float64{make([]float64, dim)}
	// A start with interior knots near the origin, where the annealed
	// densities are wide: η0 falls at once (large first increment) and η1
	// rises at the end (large last increment).
	bent := make([]float64, dim)
	bent[0] = 6
	for j := 0; j < numKnots-1; j++ {
		bent[numKnots-1+j] = -6
	}
	starts = append(starts, bent)
	if numKnots > 2 {
		// The optimal 2-knot path, sampled at the K-knot positions.
		p2, _ := g.OptimalKnots(2)
		emb := NewSpline(numKnots)
		for k := 1; k < numKnots; k++ {
			emb.knots[k][0], emb.knots[k][1] = p2.Eta(float64(k) / float64(numKnots))
		}
		if x, ok := logitsFromKnots(emb.knots); ok {
			starts = append(starts, x)
		}
	}
	bestX, bestF := starts[0], math.Inf(1)
	for _, x0 := range starts {
		x, f := append([]float64(nil), x0...), objective(x0)
		for restart := 0; restart < 10; restart++ {
			xn, fn := nelderMead(objective, x, 0.5, 1e-10, 20000)
			improved := f - fn
			if fn < f {
				x, f = xn, fn
			}
			if !(improved > 1e-9*math.Abs(f)) {
				break
			}
		}
		if f < bestF {
			bestX, bestF = x, f
		}
	}
	knotsFromLogits(path.knots, bestX)
	return path, g.Barrier(path)
}

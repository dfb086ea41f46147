package gaussexact

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/ptbatch/ptbatch/tune"
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
var ErrDim = errors.New("gaussexact: only implemented for Dim = 1")

// Validate returns an error naming the first bad field of g, or nil.
func (g GaussianPair) Validate() error {
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	switch {
	case g.Dim < 1:
		return fmt.Errorf("gaussexact: Dim must be at least 1, got %d", g.Dim)
	case !finite(g.Mu0) || !finite(g.Mu1):
		return fmt.Errorf("gaussexact: means must be finite, got %v, %v", g.Mu0, g.Mu1)
	case !(g.Sigma0 > 0) || !finite(g.Sigma0) || !(g.Sigma1 > 0) || !finite(g.Sigma1):
		return fmt.Errorf("gaussexact: standard deviations must be positive and finite, got %v, %v", g.Sigma0, g.Sigma1)
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

// exactMoments returns the exact means (2C, E_n[W_i] at 2n+i) and, with
// withCov, the covariances (3C: Cov_n(W0, W0), Cov_n(W0, W1),
// Cov_n(W1, W1) at 3n, 3n+1, 3n+2) of Moments at the schedule's points, in
// the layouts of tune.SKLEstimate and tune.SKLWorkspace.MomentGradient.
func (g GaussianPair) exactMoments(path *tune.Spline, sched []float64, withCov bool) (mean, cov []float64) {
	mean = make([]float64, 2*len(sched))
	if withCov {
		cov = make([]float64, 3*len(sched))
	}
	for n, t := range sched {
		e0, e1 := path.Eta(t)
		mu, c := g.Moments(e0, e1)
		mean[2*n], mean[2*n+1] = mu[0], mu[1]
		if withCov {
			cov[3*n], cov[3*n+1], cov[3*n+2] = c[0][0], c[0][1], c[1][1]
		}
	}
	return mean, cov
}

// ExactSKL returns the SKL surrogate of eq:bound for the path and schedule,
//
//	Σ_{n=0}^{C-2} (η(t_{n+1}) - η(t_n))·(E_{n+1}[W] - E_n[W]),
//
// with the exact moments of Moments; it is Σ_n SKL(π_{t_n}, π_{t_{n+1}})
// exactly, and the expectation of tune.SKLEstimate on independent draws.
// It is tune.SKLEstimate applied to a one-row energy matrix holding the
// exact means (the sample mean of one row is the row itself), so the sum
// is written once. It panics with fewer than two chains.
func (g GaussianPair) ExactSKL(path *tune.Spline, sched []float64) float64 {
	mean, _ := g.exactMoments(path, sched, false)
	return tune.SKLEstimate(mean, 1, sched, path)
}

// ExactSKLGradient writes to grad (length 2(K-1), ordered like
// tune.Spline.Step's argument) the exact gradient of ExactSKL with respect
// to the interior knots: tune.SKLWorkspace.MomentGradient (the block form
// of tune.SKLWorkspace.Gradient) with the exact means and covariances of
// Moments in place of sample ones (the cross-chain covariances are zero).
func (g GaussianPair) ExactSKLGradient(path *tune.Spline, sched []float64, grad []float64) {
	mean, cov := g.exactMoments(path, sched, true)
	var ws tune.SKLWorkspace
	ws.MomentGradient(grad, mean, cov, sched, path)
}

// ExactSKLFiniteDiff returns central finite differences of ExactSKL with
// respect to the interior knot components, ordered like ExactSKLGradient
// (step 1e-6 relative to each component; the truncation error is
// O(h²) ≈ 1e-12 relative). It does not use the chain rule of the gradient
// code, so it checks ExactSKLGradient and, in expectation,
// tune.SKLWorkspace.Gradient independently.
func (g GaussianPair) ExactSKLFiniteDiff(path *tune.Spline, sched []float64) []float64 {
	knots := path.Knots()
	numKnots := path.K()
	out := make([]float64, 2*(numKnots-1))
	p := path.Clone()
	for k := 1; k < numKnots; k++ {
		for i := 0; i < 2; i++ {
			h := 1e-6 * knots[k][i]
			kp := append([][2]float64(nil), knots...)
			kp[k][i] += h
			if err := p.SetKnots(kp); err != nil {
				panic(err)
			}
			fp := g.ExactSKL(p, sched)
			kp[k][i] -= 2 * h
			if err := p.SetKnots(kp); err != nil {
				panic(err)
			}
			fm := g.ExactSKL(p, sched)
			out[2*(k-1)+i] = (fp - fm) / (2 * h)
		}
	}
	return out
}

// SampleEnergies fills energies (iters × 2C, row-major, the layout of
// tune.SKLWorkspace.Gradient: row m, column 2n+i holds W_i) with the
// energies of iters exact independent draws from each π_{t_n} of the
// schedule on the path. It panics if an annealed density is improper.
func (g GaussianPair) SampleEnergies(rng *rand.Rand, path *tune.Spline, sched []float64, iters int, energies []float64) {
	cols := 2 * len(sched)
	for n, t := range sched {
		e0, e1 := path.Eta(t)
		m, s, ok := g.Annealed(e0, e1)
		if !ok {
			panic("gaussexact: improper annealed density")
		}
		for it := 0; it < iters; it++ {
			w0, w1 := 0.0, 0.0
			for d := 0; d < g.Dim; d++ {
				x := m + s*rng.NormFloat64()
				w0 -= (x - g.Mu0) * (x - g.Mu0) / (2 * g.Sigma0 * g.Sigma0)
				w1 -= (x - g.Mu1) * (x - g.Mu1) / (2 * g.Sigma1 * g.Sigma1)
			}
			energies[it*cols+2*n] = w0
			energies[it*cols+2*n+1] = w1
		}
	}
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
func (g GaussianPair) Barrier(path *tune.Spline) float64 {
	return g.knotsBarrier(path.Knots())
}

// knotsBarrier is Barrier for the spline with the given knots.
func (g GaussianPair) knotsBarrier(knots [][2]float64) float64 {
	total := 0.0
	for k := 1; k < len(knots); k++ {
		total += g.segmentBarrier(knots, k, 0, 1)
	}
	return total
}

// EquiBarrierSchedule returns the schedule of numChains points on which the
// exact cumulative barrier t ↦ ∫_0^t λ is equally spaced (eq:equicrit with
// the exact λ in place of its rejection-rate estimate): t_0 = 0,
// t_{C-1} = 1 and ∫_0^{t_n} λ = Λ n/(C-1), each t_n found by bisection
// within the segment where the cumulative barrier at the knots
// (tune.CumulativeBarrier of the segments' barriers) passes the target.
func (g GaussianPair) EquiBarrierSchedule(path *tune.Spline, numChains int) []float64 {
	if numChains < 2 {
		panic("gaussexact: fewer than two chains")
	}
	knots := path.Knots()
	numKnots := path.K()
	segs := make([]float64, numKnots)
	for k := 1; k <= numKnots; k++ {
		segs[k-1] = g.segmentBarrier(knots, k, 0, 1)
	}
	cum := make([]float64, numKnots+1) // cum[k]: ∫ λ over segments 1..k
	total := tune.CumulativeBarrier(cum, segs)
	sched := make([]float64, numChains)
	sched[numChains-1] = 1
	k := 1             // current segment; cum[k-1] is the barrier before it
	u, atU := 0.0, 0.0 // anchor in segment k and ∫ of segment k up to it
	for n := 1; n < numChains-1; n++ {
		target := total * float64(n) / float64(numChains-1)
		for k < numKnots && cum[k] < target {
			k++
			u, atU = 0, 0
		}
		lo, hi := u, 1.0
		for i := 0; i < 60 && hi-lo > 1e-15; i++ {
			mid := 0.5 * (lo + hi)
			v := atU + g.segmentBarrier(knots, k, u, mid)
			if cum[k-1]+v < target {
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
func (g GaussianPair) ScheduleRejections(path *tune.Spline, sched []float64) ([]float64, error) {
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
// 1/(2 + 2 Σ_n r_n/(1-r_n)) (tune.NonAsymptoticBarrier), of the path with
// numChains chains on its equi-barrier schedule, with the exact rejections
// (Dim = 1; ErrDim otherwise). It is 0 when some r_n is 1.
func (g GaussianPair) RoundTripRate(path *tune.Spline, numChains int) (float64, error) {
	rej, err := g.ScheduleRejections(path, g.EquiBarrierSchedule(path, numChains))
	if err != nil {
		return math.NaN(), err
	}
	return tune.RoundTripRate(tune.NonAsymptoticBarrier(rej)), nil
}

package tune

import (
	"fmt"
	"math"

	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/layout"
)

// adagradEps is the ε of Adagrad's denominator sqrt(G + ε), as in the
// authors' optimizer (vittrom/PT-pathoptim, optimizers.Adagrad).
const adagradEps = 1e-8

// stepChunk is the number of components Spline.Step computes the
// exponents of before it takes their exponentials (a stack array).
const stepChunk = 16

// Spline is a K-knot linear spline annealing path (§4 "Spline annealing
// path family"): knots φ_0 = (1, 0), φ_1, …, φ_K = (0, 1) in the
// (η0, η1) plane and, for t in [(k-1)/K, k/K],
//
//	η(t) = (k - K t) φ_{k-1} + (K t - k + 1) φ_k.
//
// K = 1 is the linear path η(t) = (1-t, t). The interior knots φ_1 … φ_{K-1}
// are the free parameters; Step moves them by Adagrad in log space θ = log φ
// (§4, "Second, we take gradient steps in a log-transformed space"), so
// every component stays strictly positive, and keeps the Adagrad
// accumulator between steps.
type Spline struct {
	knots [][2]float64
	// accum is Adagrad's running sum of squared scaled gradients, one per
	// free component, ordered like the gradient of Step.
	accum []float64
}

// NewSpline returns the K-knot spline equal to the linear path: φ_k =
// (1 - k/K, k/K). K must be at least 1.
func NewSpline(numKnots int) *Spline {
	if numKnots < 1 {
		panic("tune: spline needs at least one segment")
	}
	s := &Spline{
		knots: make([][2]float64, numKnots+1),
		accum: make([]float64, 2*(numKnots-1)),
	}
	for k := range s.knots {
		u := float64(k) / float64(numKnots)
		s.knots[k] = [2]float64{1 - u, u}
	}
	s.knots[0] = [2]float64{1, 0}
	s.knots[numKnots] = [2]float64{0, 1}
	return s
}

// K returns the number of segments of the spline.
func (s *Spline) K() int { return len(s.knots) - 1 }

// Knots returns a copy of the knots φ_0 … φ_K.
func (s *Spline) Knots() [][2]float64 { return append([][2]float64(nil), s.knots...) }

// AppendKnots appends the knots φ_0 … φ_K to dst and returns the extended
// slice (Knots without the allocation when dst has room).
func (s *Spline) AppendKnots(dst [][2]float64) [][2]float64 { return append(dst, s.knots...) }

// Knot returns the knot φ_k, k = 0 … K.
func (s *Spline) Knot(k int) [2]float64 { return s.knots[k] }

// Clone returns an independent copy of the spline, Adagrad state included.
func (s *Spline) Clone() *Spline {
	return &Spline{
		knots: append([][2]float64(nil), s.knots...),
		accum: append([]float64(nil), s.accum...),
	}
}

// SetKnots replaces the knots by knots[0] … knots[K], which must number
// K+1 for the spline's K, start at (1, 0), end at (0, 1), and have finite,
// strictly positive interior components. Monotonicity is not required (Step
// restores it). SetKnots starts a new optimisation: it clears the Adagrad
// accumulator.
func (s *Spline) SetKnots(knots [][2]float64) error {
	numKnots := s.K()
	if len(knots) != numKnots+1 {
		return fmt.Errorf("tune: %d knots given for a %d-segment spline, want %d", len(knots), numKnots, numKnots+1)
	}
	if knots[0] != [2]float64{1, 0} {
		return fmt.Errorf("tune: first knot is %v, want [1 0]", knots[0])
	}
	if knots[numKnots] != [2]float64{0, 1} {
		return fmt.Errorf("tune: last knot is %v, want [0 1]", knots[numKnots])
	}
	for k := 1; k < numKnots; k++ {
		for _, v := range knots[k] {
			if !(v > 0) || math.IsInf(v, 0) {
				return fmt.Errorf("tune: knot %d is %v, components must be positive and finite", k, knots[k])
			}
		}
	}
	copy(s.knots, knots)
	clear(s.accum)
	return nil
}

// Segment returns the segment k in 1..K that holds t and the weight w of φ_k
// in η(t) = (1-w) φ_{k-1} + w φ_k, so that ∂η(t)/∂φ_{k-1} = (1-w) I and
// ∂η(t)/∂φ_k = w I, and η(t) does not depend on the other knots. t is
// clamped to [0, 1]: t ≤ 0 gives (1, 0), t ≥ 1 gives (K, 1). Segment and Eta
// agree: Eta(t) is (1-w) φ_{k-1} + w φ_k.
func (s *Spline) Segment(t float64) (k int, w float64) {
	switch {
	case t <= 0:
		return 1, 0
	case t >= 1:
		return s.K(), 1
	}
	return s.segment(t)
}

// segment returns k in 1..K with t in [(k-1)/K, k/K] and the weight
// w = K t - k + 1 of φ_k (φ_{k-1} has weight 1 - w).
func (s *Spline) segment(t float64) (k int, w float64) {
	return segmentOf(t, len(s.knots)-1)
}

// segmentOf is segment for a spline of numKnots segments: small enough
// to be inlined into the loops over a schedule.
func segmentOf(t float64, numKnots int) (k int, w float64) {
	x := t * float64(numKnots)
	k = int(x) + 1
	if k > numKnots {
		k = numKnots
	}
	if k < 1 {
		k = 1
	}
	return k, x - float64(k-1)
}

// Eta returns η(t) = (η0(t), η1(t)).
func (s *Spline) Eta(t float64) (eta0, eta1 float64) {
	if t >= 1 {
		return 0, 1
	}
	if t <= 0 {
		return 1, 0
	}
	k, w := s.segment(t)
	a, b := s.knots[k-1], s.knots[k]
	return (1-w)*a[0] + w*b[0], (1-w)*a[1] + w*b[1]
}

// EtaStrided writes η(t) = Eta(t) of every t = sched[n] to eta0[n·stride]
// and eta1[n·stride] (a lane of the engine's chain-major rows), bit for
// bit as Eta, in one loop with the knots at hand.
func (s *Spline) EtaStrided(eta0, eta1 []float64, stride int, sched []float64) {
	if len(sched) == 0 {
		return
	}
	last := (len(sched) - 1) * stride
	eta0, eta1 = eta0[:last+1], eta1[:last+1]
	knots := s.knots
	numKnots := len(knots) - 1
	for n, t := range sched {
		i := n * stride
		switch {
		case t >= 1:
			eta0[i], eta1[i] = 0, 1
		case t <= 0:
			eta0[i], eta1[i] = 1, 0
		default:
			k, w := segmentOf(t, numKnots)
			ab := knots[k-1 : k+1 : k+1] // one bounds check for both knots
			a, b := &ab[0], &ab[1]
			eta0[i], eta1[i] = (1-w)*a[0]+w*b[0], (1-w)*a[1]+w*b[1]
		}
	}
}

// etaSegmentsStrided writes, for every chain n at i = n·stride,
// Eta(sched[n]) to eta0[i] and eta1[i] and Segment(sched[n]) to seg[i]
// and w[i], bit for bit (the same operations, t's segment found once), in
// one loop with the knots at hand.
func (s *Spline) etaSegmentsStrided(eta0, eta1 []float64, seg []int, w []float64, stride int, sched []float64) {
	if len(sched) == 0 {
		return
	}
	last := (len(sched) - 1) * stride
	eta0, eta1, seg, w = eta0[:last+1], eta1[:last+1], seg[:last+1], w[:last+1]
	knots := s.knots
	numKnots := len(knots) - 1
	for n, t := range sched {
		i := n * stride
		switch {
		case t >= 1:
			eta0[i], eta1[i], seg[i], w[i] = 0, 1, numKnots, 1
		case t <= 0:
			eta0[i], eta1[i], seg[i], w[i] = 1, 0, 1, 0
		default:
			k, wk := segmentOf(t, numKnots)
			ab := knots[k-1 : k+1 : k+1] // one bounds check for both knots
			a, b := &ab[0], &ab[1]
			eta0[i], eta1[i], seg[i], w[i] = (1-wk)*a[0]+wk*b[0], (1-wk)*a[1]+wk*b[1], k, wk
		}
	}
}

// Step takes one path step of Algorithm 2 (alg:PT_tuning, the line
// φ ← φ - γ ∇_φ Σ_n SKL) as the authors do it (appendix "Experimental
// details"; vittrom/PT-pathoptim, PT.py and optimizers.py). grad, of length
// 2(K-1) and ordered φ_1[η0], φ_1[η1], φ_2[η0], …, φ_{K-1}[η1], is the
// gradient of the SKL surrogate with respect to the knots in linear space
// (as written by SKLWorkspace.Gradient), and lr is the learning rate γ.
// Each component is first scaled by its absolute value plus the value of
// the knot component,
//
//	g̃ = g / (|g| + φ),  so |g̃| < 1,
//
// then Adagrad updates θ = log φ:
//
//	G ← G + g̃²,  θ ← θ - lr g̃ / sqrt(G + 1e-8),
//
// computed as φ ← φ·exp(-lr g̃ / sqrt(G + 1e-8)), without the logarithm.
//
// Finally monotonicity (§4 "Convexity": η0 non-increasing and η1
// non-decreasing along the knots) is restored as §4 describes instead of
// projecting, which can make knots coincide: for each component separately,
// as the authors' fix_monotonicity_2 does, a greedy walk from φ_0 keeps a
// knot's component when it is monotone with respect to the last kept one
// and within the endpoint bounds (0, 1]; φ_0 and φ_K are always kept; the
// dropped components are put back by linear interpolation between the
// surrounding kept ones, evenly spaced by knot index. Interpolated values
// lie strictly between their neighbours, so every component stays in (0, 1].
//
// A gradient with a non-finite component is ignored (no step, no change to
// the Adagrad state). With K = 1 there are no free knots and Step does
// nothing. Step does not allocate.
func (s *Spline) Step(grad []float64, lr float64) {
	numKnots := s.K()
	if len(grad) != 2*(numKnots-1) {
		panic("tune: gradient length mismatch")
	}
	if numKnots == 1 {
		return
	}
	for _, g := range grad {
		if math.IsNaN(g) || math.IsInf(g, 0) {
			return
		}
	}
	// Component c is knot k = c/2 + 1's component i = c%2. In chunks of
	// stepChunk components: first every component's exponent (independent
	// divisions and square roots, which the core overlaps), then the
	// exponentials; one loop doing both waited on each component's chain
	// in turn.
	free := s.knots[1:numKnots]
	accum := s.accum[:len(grad)]
	var args [stepChunk]float64
	for c0 := 0; c0 < len(grad); c0 += stepChunk {
		n := min(stepChunk, len(grad)-c0)
		for c := c0; c < c0+n; c++ {
			phi := free[c/2][c%2]
			g := grad[c] / (math.Abs(grad[c]) + phi)
			accum[c] += float64(g * g) // never fused: StepLanes's kernel rounds the product
			// θ ← θ - lr g̃/sqrt(G + 1e-8) with θ = log φ, as
			// φ·exp(-lr g̃/sqrt(G + 1e-8)): no logarithm (issue 23).
			args[c-c0] = -lr * g / math.Sqrt(accum[c]+adagradEps)
		}
		for c := c0; c < c0+n; c++ {
			free[c/2][c%2] *= math.Exp(args[c-c0])
		}
	}
	s.repairMonotone()
}

// StepLanes takes Step(grad_j, lr) for every spline j of splines (at most
// layout.Lanes of them, all with the same K) at once, with Step's bits.
// The gradients are rows with the lanes innermost: component c of spline
// j's gradient (ordered like Step's argument) at grad[c·layout.Lanes + j],
// len(grad) == 2(K-1)·layout.Lanes. The Adagrad steps of every spline's
// components are one kernel.SplineSteps call on rows of their knots and
// sums laid out the same way in scratch, which must hold 2·len(grad)
// values. A spline whose gradient has a non-finite component is left
// alone, as Step leaves it; every other one then has its monotonicity
// repaired as Step repairs it. StepLanes does not allocate.
func StepLanes(splines []*Spline, grad []float64, lr float64, scratch []float64) {
	const L = layout.Lanes
	if len(splines) == 0 {
		return
	}
	numKnots := splines[0].K()
	free := 2 * (numKnots - 1)
	if len(splines) > L || len(grad) != free*L || len(scratch) < 2*free*L {
		panic("tune: StepLanes length mismatch")
	}
	for _, s := range splines {
		if s.K() != numKnots {
			panic("tune: StepLanes splines differ in K")
		}
	}
	if free == 0 {
		return
	}
	knots, accum := scratch[:free*L], scratch[free*L:2*free*L]
	for j := 0; j < L; j++ {
		for c := 0; c < free; c++ {
			// A lane without a spline takes a step that is thrown away.
			phi, sum := 1.0, 0.0
			if j < len(splines) {
				phi, sum = splines[j].knots[c/2+1][c%2], splines[j].accum[c]
			}
			knots[c*L+j], accum[c*L+j] = phi, sum
		}
	}
	kernel.SplineSteps(knots, accum, grad, lr, adagradEps)
lanes:
	for j, s := range splines {
		for c := 0; c < free; c++ {
			if g := grad[c*L+j]; math.IsNaN(g) || math.IsInf(g, 0) {
				continue lanes
			}
		}
		for c := 0; c < free; c++ {
			s.knots[c/2+1][c%2], s.accum[c] = knots[c*L+j], accum[c*L+j]
		}
		s.repairMonotone()
	}
}

// stepLog adds delta (ordered like Step's gradient) to the logarithms θ of
// the interior knot components, θ ← θ + delta, and projects θ back onto the
// monotone paths in log space: for each component separately, the
// isotonic regression of the interior θ_k (non-increasing in k for η0,
// non-decreasing for η1; pool-adjacent-violators, equal weights), which
// is the nearest monotone sequence in the Euclidean distance of θ, then
// θ_k ≤ 0 (φ ≤ 1; clamping keeps the order). Unlike Step's repair, which
// re-interpolates dropped knots in linear space and can move a knot by
// orders of magnitude when its neighbours are far apart in scale, the
// projection moves θ no further than the step did. The Adagrad
// accumulator is left alone. scratch must hold 2K-2 values.
func (s *Spline) stepLog(delta, scratch []float64) {
	numKnots := s.K()
	free := numKnots - 1
	if len(delta) != 2*free || len(scratch) < 2*free {
		panic("tune: step length mismatch")
	}
	theta, weight := scratch[:free], scratch[free:2*free]
	for i := 0; i < 2; i++ {
		for k := 1; k <= free; k++ {
			// η0 decreases along the knots: regress it in reverse order,
			// so both components are fitted non-decreasing.
			at := k - 1
			if i == 0 {
				at = free - k
			}
			theta[at] = math.Log(s.knots[k][i]) + delta[2*(k-1)+i]
		}
		isotonic(theta, weight)
		for k := 1; k <= free; k++ {
			at := k - 1
			if i == 0 {
				at = free - k
			}
			s.knots[k][i] = math.Exp(math.Min(theta[at], 0))
		}
	}
}

// isotonic replaces x by its least-squares non-decreasing fit with equal
// weights (pool-adjacent-violators): runs of x that violate the order are
// replaced by their mean. weight is scratch of len(x).
func isotonic(x, weight []float64) {
	// Blocks are kept in place: block b has mean x[b] and size weight[b].
	blocks := 0
	for i := range x {
		mean, size := x[i], 1.0
		for blocks > 0 && x[blocks-1] > mean {
			b := blocks - 1
			mean = (x[b]*weight[b] + mean*size) / (weight[b] + size)
			size += weight[b]
			blocks--
		}
		x[blocks], weight[blocks] = mean, size
		blocks++
	}
	// Expand the blocks from the right, where no block's values remain.
	i := len(x)
	for b := blocks - 1; b >= 0; b-- {
		mean, size := x[b], int(weight[b])
		for ; size > 0; size-- {
			i--
			x[i] = mean
		}
	}
}

// repairMonotone restores monotonicity of both components in place (see
// Step).
func (s *Spline) repairMonotone() {
	numKnots := s.K()
	for i := 0; i < 2; i++ {
		// Component 0 decreases from 1 to 0, component 1 increases from 0
		// to 1; interior values must lie in (0, 1].
		last := 0 // index of the last kept knot
		for k := 1; k <= numKnots; k++ {
			x := s.knots[k][i]
			keep := k == numKnots
			if !keep && x > 0 && x <= 1 {
				prev := s.knots[last][i]
				if i == 0 {
					keep = x <= prev
				} else {
					keep = x >= prev
				}
			}
			if !keep {
				continue
			}
			// Fill the gap (last, k) evenly between the kept values.
			if gap := k - last; gap > 1 {
				a, b := s.knots[last][i], s.knots[k][i]
				for j := last + 1; j < k; j++ {
					u := float64(j-last) / float64(gap)
					s.knots[j][i] = (1-u)*a + u*b
				}
			}
			last = k
		}
	}
}

package models

import (
	"fmt"
	"math"

	"github.com/ptbatch/ptbatch/internal/wire"
)

// hamiltonian is what the gradient explorers (MALA, AutoMALA, HMC) keep
// at one chain: the step size θ, the diagonal preconditioner s, the open
// scan's counts, the moments of the current window of scans, and scratch.
//
// The preconditioner is the chain's marginal standard deviations over a
// window of previous scans, all ones at first. Windows double, as
// Pigeons.jl's rounds do: at the end of scan 2^k, s is estimated from the
// states of scans 2^{k−1}+1 … 2^k, and the next window starts, so that an
// estimate rests on as many scans as went before it and the first scans'
// transient is forgotten.
//
// Moves are leapfrog steps of the Hamiltonian H(z, p) = −log π(s⊙z) +
// ½|p|² in the whitened coordinates z = x/s, p ~ N(0, I) (Neal, MCMC using
// Hamiltonian dynamics, Handbook of MCMC, 2011, §5.4.1 on the diagonal
// mass matrix), which in x reads x ← x + θ·s⊙p and p ← p + θ·s⊙∇log π(x).
type hamiltonian struct {
	theta float64   // step size (AutoMALA, autoHMC: the initial θ0)
	s     []float64 // diagonal preconditioner
	tries int       // the scan's moves
	accs  int       // the scan's acceptances
	sumJ  int       // AutoMALA: the scan's sum of selected exponents j
	winJ  int       // AutoMALA: the window's sum of selected exponents
	winN  int       // AutoMALA: and its moves
	scans int       // scans ended
	n     int       // the window's states recorded for the preconditioner
	mean  []float64 // their running mean (Welford)
	m2    []float64 // and sums of squared deviations

	x0, p0, g0 []float64 // the start of a move
	xt, pt, gt []float64 // a trajectory
	sm         []float64 // the preconditioner a move uses
}

// newHamiltonian returns a chain's state in dim coordinates with step
// size theta and the identity preconditioner.
func newHamiltonian(dim int, theta float64) *hamiltonian {
	h := &hamiltonian{theta: theta}
	for _, p := range []*[]float64{&h.s, &h.mean, &h.m2, &h.x0, &h.p0, &h.g0, &h.xt, &h.pt, &h.gt, &h.sm} {
		*p = make([]float64, dim)
	}
	for d := range h.s {
		h.s[d], h.sm[d] = 1, 1
	}
	return h
}

// leapfrog runs L leapfrog steps of size theta with preconditioner s from
// (x, p), with g = ∇log π(x) on entry, in place: a half step of p, then L
// alternating full steps of x and p with the last p step a half (Neal
// 2011, eq. 5.18–5.20). On return g is the gradient at the new x.
func leapfrog(t *Target, x, p, g, s []float64, theta float64, L int) {
	for d := range p {
		p[d] += theta / 2 * s[d] * g[d]
	}
	for l := 1; l <= L; l++ {
		for d := range x {
			x[d] += theta * s[d] * p[d]
		}
		t.GradLogDensity(x, g)
		c := theta
		if l == L {
			c = theta / 2
		}
		for d := range p {
			p[d] += c * s[d] * g[d]
		}
	}
}

// logJoint returns log π(x) − ½|p|², the log density of (z, p) up to the
// Jacobian of z = x/s (constant within a move), with −∞ for NaN.
func logJoint(t *Target, w [2]float64, p []float64) float64 {
	k := 0.0
	for _, v := range p {
		k += v * v
	}
	l := t.LogDensity(w) - k/2
	if math.IsNaN(l) {
		return math.Inf(-1)
	}
	return l
}

// trajectory runs L leapfrog steps of size theta from the move's start
// (x0, p0, g0) into (xt, pt, gt) and returns the energies at xt and the
// log ratio of the joint densities, end over start (logJ0).
func (h *hamiltonian) trajectory(t *Target, theta float64, L int, logJ0 float64) ([2]float64, float64) {
	copy(h.xt, h.x0)
	copy(h.pt, h.p0)
	copy(h.gt, h.g0)
	leapfrog(t, h.xt, h.pt, h.gt, h.sm, theta, L)
	w := t.Energies(h.xt)
	return w, logJoint(t, w, h.pt) - logJ0
}

// start sets the move's start: x0 = x, the gradient g0 at x, and momenta
// p0 ~ N(0, I) (Dim normals, in order).
func (h *hamiltonian) start(t *Target, rng Rand, x []float64) {
	copy(h.x0, x)
	t.GradLogDensity(h.x0, h.g0)
	for d := range h.p0 {
		h.p0[d] = rng.Normal()
	}
}

// record adds the chain's state after a move to the scan's moments.
func (h *hamiltonian) record(x []float64) {
	h.n++
	for d, v := range x {
		delta := v - h.mean[d]
		h.mean[d] += delta / float64(h.n)
		h.m2[d] += delta * (v - h.mean[d])
	}
}

// minPrecondStates is the fewest states of a window that update the
// preconditioner: fewer leave it as it was.
const minPrecondStates = 10

// endScan resets the scan's counts and, at the end of a window (scan
// 2^k), sets the preconditioner to the window's marginal standard
// deviations (where they are positive and finite) and starts the next.
func (h *hamiltonian) endScan() {
	h.tries, h.accs, h.sumJ = 0, 0, 0
	h.scans++
	if h.scans&(h.scans-1) != 0 {
		return
	}
	if h.n >= minPrecondStates {
		for d := range h.s {
			if sd := math.Sqrt(h.m2[d] / float64(h.n-1)); sd > 0 && !math.IsInf(sd, 0) {
				h.s[d] = sd
			}
		}
	}
	h.n = 0
	clear(h.mean)
	clear(h.m2)
}

// adaptStep moves θ towards the acceptance rate target as RandomWalk
// does: θ ← θ·exp(2(a − target)), a the scan's acceptance rate.
func (h *hamiltonian) adaptStep(target float64) {
	if h.tries > 0 {
		h.theta *= math.Exp(2 * (float64(h.accs)/float64(h.tries) - target))
	}
}

// MarshalBinary saves θ, the preconditioner, the open scan's counts and
// the window's moments.
func (h *hamiltonian) MarshalBinary() ([]byte, error) {
	var w wire.Writer
	w.Float64(h.theta)
	w.Float64s(h.s)
	w.Ints([]int{h.tries, h.accs, h.sumJ, h.n, h.scans, h.winJ, h.winN})
	w.Float64s(h.mean)
	w.Float64s(h.m2)
	return w.Bytes(), nil
}

// UnmarshalBinary restores what MarshalBinary saved into a state of the
// same dimension.
func (h *hamiltonian) UnmarshalBinary(data []byte) error {
	r := wire.NewReader(data)
	theta := r.Float64()
	s := make([]float64, len(h.s))
	r.Float64sInto(s, "preconditioner")
	c := r.Ints()
	mean, m2 := make([]float64, len(h.s)), make([]float64, len(h.s))
	r.Float64sInto(mean, "means")
	r.Float64sInto(m2, "squares")
	if r.Err() == nil && len(c) != 7 {
		r.Failf("%d counts, want 7", len(c))
	}
	if err := r.Close(); err != nil {
		return fmt.Errorf("gradient explorer state: %w", err)
	}
	h.theta, h.tries, h.accs, h.sumJ, h.n, h.scans, h.winJ, h.winN = theta, c[0], c[1], c[2], c[3], c[4], c[5], c[6]
	copy(h.s, s)
	copy(h.mean, mean)
	copy(h.m2, m2)
	return nil
}

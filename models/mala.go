package models

import (
	"cmp"
	"fmt"
	"math"
)

// MALA is the Metropolis-adjusted Langevin algorithm (Roberts and
// Tweedie, Bernoulli 2(4), 1996, §1.5; Rossky, Doll and Friedman, 1978)
// in its involutive form: one leapfrog step x' = x + θp + θ²/2·∇log π(x),
// p ~ N(0, I), accepted with probability min(1, π(x')e^{−|p'|²/2} /
// π(x)e^{−|p|²/2}), which is MALA with proposal variance θ². The step
// size θ is kept per replicate and chain and adapted after every scan
// towards the acceptance rate Acceptance as RandomWalk does,
// θ ← θ·exp(2(a − Acceptance)). It needs Funcs' gradients.
type MALA struct {
	// Step is the initial step size θ of every chain; 0 means 1.
	Step float64
	// Acceptance is the acceptance rate the adaptation aims at; 0 means
	// 0.574, the optimal rate in many dimensions (Roberts and Rosenthal,
	// J. R. Statist. Soc. B 60(1), 1998).
	Acceptance float64
	// Moves is the number of moves per local exploration; 0 means 1.
	Moves int
}

// Name returns "mala".
func (MALA) Name() string { return "mala" }

// NeedsGradient returns true.
func (MALA) NeedsGradient() bool { return true }

func (e MALA) settings() string {
	return fmt.Sprintf("step=%s acceptance=%s moves=%d", fmtFloat(cmp.Or(e.Step, 1)), fmtFloat(cmp.Or(e.Acceptance, 0.574)), cmp.Or(e.Moves, 1))
}

// NewState returns one chain's step size, counts and scratch.
func (e MALA) NewState(dim int) ExplorerState {
	return &malaState{hamiltonian: newHamiltonian(dim, cmp.Or(e.Step, 1)), target: cmp.Or(e.Acceptance, 0.574), moves: cmp.Or(e.Moves, 1)}
}

type malaState struct {
	*hamiltonian
	target float64
	moves  int
}

// Move draws, per move, Dim normals (the momenta) and one uniform.
func (s *malaState) Move(t *Target, rng Rand, x []float64, w *[2]float64) {
	for k := 0; k < s.moves; k++ {
		s.start(t, rng, x)
		u := rng.Uniform()
		wp, ell := s.trajectory(t, s.theta, 1, logJoint(t, *w, s.p0))
		s.tries++
		if math.Log(u) < ell {
			copy(x, s.xt)
			*w = wp
			s.accs++
		}
	}
}

// EndScan adapts the step size.
func (s *malaState) EndScan() {
	s.adaptStep(s.target)
	s.endScan()
}

// HMC is Hamiltonian Monte Carlo (Duane, Kennedy, Pendleton and Roweth,
// Phys. Lett. B 195, 1987; Neal 2011, §5.3.2): Leapfrogs leapfrog steps
// of size θ from momenta p ~ N(0, I), accepted with probability
// min(1, e^{−H(x', p')}/e^{−H(x, p)}), with a diagonal preconditioner per
// chain, the marginal standard deviations of the chain's states in the
// previous scan (see hamiltonian). θ is kept per replicate and chain and
// adapted after every scan towards Acceptance as MALA does.
//
// With Auto, θ is chosen at every move by AutoMALA's round-based
// selection (autoHMC, Liu, Surjanovic, Biron-Lattes, Bouchard-Côté and
// Campbell, ICML 2025), with AutoStep's symmetric criterion (|ℓ| against
// the bounds, see AutoMALA), and the preconditioner is mixed with the
// identity as AutoMALA's.
type HMC struct {
	// Step is the initial step size θ (with Auto, θ0) of every chain;
	// 0 means 0.1.
	Step float64
	// Leapfrogs is the number L of leapfrog steps per move; 0 means 10.
	Leapfrogs int
	// Acceptance is the acceptance rate the adaptation aims at (not
	// Auto); 0 means 0.65 (Beskos, Pillai, Roberts, Sanz-Serna and
	// Stuart, Bernoulli 19(5A), 2013: 0.651 is optimal in many dimensions).
	Acceptance float64
	// Auto selects the step size at every move (autoHMC).
	Auto bool
}

// Name returns "hmc", or "autohmc" with Auto.
func (e HMC) Name() string {
	if e.Auto {
		return "autohmc"
	}
	return "hmc"
}

// NeedsGradient returns true.
func (HMC) NeedsGradient() bool { return true }

func (e HMC) settings() string {
	return fmt.Sprintf("step=%s leapfrogs=%d acceptance=%s", fmtFloat(cmp.Or(e.Step, 0.1)), cmp.Or(e.Leapfrogs, 10), fmtFloat(cmp.Or(e.Acceptance, 0.65)))
}

// NewState returns one chain's step size, preconditioner, counts and
// scratch.
func (e HMC) NewState(dim int) ExplorerState {
	h := newHamiltonian(dim, cmp.Or(e.Step, 0.1))
	if e.Auto {
		return newAutoState(h, cmp.Or(e.Leapfrogs, 10), 1)
	}
	return &hmcState{hamiltonian: h, leapfrogs: cmp.Or(e.Leapfrogs, 10), target: cmp.Or(e.Acceptance, 0.65)}
}

type hmcState struct {
	*hamiltonian
	leapfrogs int
	target    float64
}

// Move draws Dim normals (the momenta) and one uniform.
func (s *hmcState) Move(t *Target, rng Rand, x []float64, w *[2]float64) {
	copy(s.sm, s.s)
	s.start(t, rng, x)
	u := rng.Uniform()
	wp, ell := s.trajectory(t, s.theta, s.leapfrogs, logJoint(t, *w, s.p0))
	s.tries++
	if math.Log(u) < ell {
		copy(x, s.xt)
		*w = wp
		s.accs++
	}
	s.record(x)
}

// EndScan adapts the step size and the preconditioner.
func (s *hmcState) EndScan() {
	s.adaptStep(s.target)
	s.endScan()
}

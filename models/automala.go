package models

import (
	"cmp"
	"fmt"
	"math"
)

// AutoMALA is autoMALA (Biron-Lattes, Surjanovic, Syed, Campbell and
// Bouchard-Côté, autoMALA: Locally adaptive Metropolis-adjusted Langevin
// algorithm, AISTATS 2024, Algorithms 1 and 2): MALA whose step size is
// chosen at every move from the local geometry, keeping the target
// invariant by an involutive construction.
//
// Each move draws momenta p ~ N(0, I) and acceptance bounds
// 0 < a < b < 1 uniformly. The step size selector starts at the chain's
// θ0 and doubles the step while e^{−|ℓ|}, ℓ the log ratio of the joint
// densities after and before one leapfrog step, stays at least b, or
// halves it until e^{−|ℓ|} exceeds a, which gives θ = θ0·2^j. The
// leapfrog step of size θ and a flip of the momenta propose (x', p');
// the selector run from (x', p') must give the same j, and the proposal
// is then accepted with probability min(1, e^ℓ).
//
// The selector compares |ℓ|, not ℓ, with the bounds: the symmetric
// selection of AutoStep (Liu, Surjanovic, Biron-Lattes, Bouchard-Côté
// and Campbell, AutoStep: Locally adaptive involutive MCMC, ICML 2025).
// The step of size θ from (x', p') returns to (x, p) with the log ratio
// −ℓ, so with |ℓ| a step judged within the bounds, too cautious or too
// bold from one end is judged the same from the other, and a move whose
// first step θ0 is within the bounds always passes the reversibility
// check. With the signed ℓ (as Pigeons.jl's AutoMALA compares it) the
// reversed selector sees −ℓ where the forward one saw ℓ, a good step
// (ℓ ≥ 0) looks too cautious from one end and too bold or within the
// bounds from the other, and the two disagree more: on the 10-d funnel
// (20 chains, 8 replicates, 6000 iterations, all chains' moves) 25 % of
// the moves failed the check with ℓ and 14 % with |ℓ|, and 63 % and 75 %
// were accepted (TestAutoMALASymmetricSelection: 24 % and 14 % from
// exact draws).
// Either criterion is a deterministic function of (x, p, a, b), so the
// kernel is invariant with both.
//
// At the ends of windows of scans that double (scans 2^{k−1}+1 … 2^k, the
// paper's rounds), θ0 ← θ0·2^{mean j} over the chain's moves of the
// window, and the diagonal preconditioner is the marginal standard
// deviations σ̂ of the chain's states in the window; each move uses
// ξσ̂ + (1 − ξ) with ξ ~ U(0, 1), as Pigeons.jl's mixed diagonal
// preconditioner does (a mixture of invariant kernels, since ξ does not
// depend on the state). It needs Funcs' gradients.
//
// Half the moves, chosen at random, move a random subset of the
// coordinates and leave the others where they are: each coordinate is in
// the subset with probability ½ (a subset left empty is the whole), and
// the move's preconditioner is zero outside it, so that the leapfrog step
// moves neither those coordinates nor their momenta and the step size is
// chosen for the subset's conditional alone. This is random-scan
// Metropolis-within-Gibbs over autoMALA kernels: each kernel leaves the
// target invariant, the subset is drawn independently of the state, and a
// mixture of invariant kernels is invariant (Tierney, Markov chains for
// exploring posterior distributions, Ann. Statist. 22(4), 1994, §2.4).
// Where one direction is stiff and others are wide, as in the mouth of
// Neal's funnel (v's conditional standard deviation about 0.47, the x_i's
// e^{v/2}), a move of every coordinate takes the stiff direction's step
// for all of them and diffuses, while the moves of subsets without v
// take the x_i's own steps: on the 10-d funnel with 20 chains and 16
// replicates (issue 20's bar) the kept Var[v] of seeds 1–6 was +1.7,
// −5.6, +0.8, −2.0, −0.7 and −4.5 % off 9, against −7.1, +10.4, −0.9,
// −7.2, +0.6 and −4.7 % with moves of every coordinate, at about 7 % more
// CPU (benchmarks/results.md, "autoMALA's subset moves"). Where the
// coordinates are strongly correlated a move of half of them mixes the
// rest less: on a 50-d Gaussian with correlation 0.9 between neighbours
// the ESS per CPU second fell by a fifth. AllCoordinates restores the
// paper's moves of every coordinate.
type AutoMALA struct {
	// Step is the initial θ0 of every chain; 0 means 1.
	Step float64
	// Moves is the number of moves per local exploration; 0 means
	// 3·⌈dim^0.35⌉ (Pigeons.jl's default for its AutoMALA, base_n_refresh
	// = 3 and exponent_n_refresh = 0.35: 9 in 10 dimensions).
	Moves int
	// AllCoordinates makes every move move every coordinate, as in the
	// paper, instead of a random subset in half the moves.
	AllCoordinates bool
}

// subsetShare is the probability that an autoMALA move moves a random
// subset of the coordinates, and keepShare the probability that the
// subset holds a given coordinate.
const subsetShare, keepShare = 0.5, 0.5

// refreshes returns moves, or 3·⌈dim^0.35⌉ for 0.
func refreshes(moves, dim int) int {
	if moves > 0 {
		return moves
	}
	return 3 * int(math.Ceil(math.Pow(float64(dim), 0.35)))
}

// Name returns "automala".
func (AutoMALA) Name() string { return "automala" }

// NeedsGradient returns true.
func (AutoMALA) NeedsGradient() bool { return true }

func (e AutoMALA) settings() string {
	return fmt.Sprintf("step=%s moves=%d all-coordinates=%t", fmtFloat(cmp.Or(e.Step, 1)), e.Moves, e.AllCoordinates)
}

// NewState returns one chain's θ0, preconditioner, counts and scratch.
func (e AutoMALA) NewState(dim int) ExplorerState {
	s := newAutoState(newHamiltonian(dim, cmp.Or(e.Step, 1)), 1, refreshes(e.Moves, dim))
	s.subsets = !e.AllCoordinates
	return s
}

// autoState is the state of AutoMALA (one leapfrog step) and autoHMC.
type autoState struct {
	*hamiltonian
	leapfrogs  int
	moves      int
	symmetric  bool       // the selector compares −|ℓ|, not ℓ, with the bounds (AutoStep's symmetric selection)
	subsets    bool       // half the moves move a random subset of the coordinates (AutoMALA)
	xs, ps, gs []float64  // the trial trajectory kept aside: the selected one
	ws, wt     [2]float64 // the energies of the selected and the last trial
	ls, lt     float64    // and their log joint ratios (signed)
	gx         []float64  // ∇log π at the chain's state, within one Move
}

// newAutoState returns the state of an explorer with leapfrogs steps per
// trajectory and moves moves per exploration, on h.
func newAutoState(h *hamiltonian, leapfrogs, moves int) *autoState {
	dim := len(h.s)
	return &autoState{hamiltonian: h, leapfrogs: leapfrogs, moves: moves, symmetric: true,
		xs: make([]float64, dim), ps: make([]float64, dim), gs: make([]float64, dim), gx: make([]float64, dim)}
}

// maxExponent bounds the selector's doublings and halvings.
const maxExponent = 30

// Move draws, per move, Dim normals (the momenta), then four uniforms:
// two for the bounds a < b, one for the preconditioner's mixture weight ξ
// and one for the acceptance; then, for AutoMALA unless AllCoordinates,
// the uniforms of restrict (one, or 1 + Dim for a move of a subset).
//
// It spends no leapfrog step on what is known, and the draws are those
// of the plain construction (the oracle's): the selected trajectory is
// kept from the selector's trials, the gradient at the chain's state is
// kept from one move to the next, a proposal that the Metropolis test
// (with its uniform drawn beforehand) rejects is not checked for
// reversibility, and the reversed selector stops as soon as its exponent
// is known to differ from j (reaches).
func (s *autoState) Move(t *Target, rng Rand, x []float64, w *[2]float64) {
	for k := 0; k < s.moves; k++ {
		if k == 0 {
			t.GradLogDensity(x, s.gx)
		}
		copy(s.x0, x)
		copy(s.g0, s.gx)
		for d := range s.p0 {
			s.p0[d] = rng.Normal()
		}
		u1, u2, xi, u := rng.Uniform(), rng.Uniform(), rng.Uniform(), rng.Uniform()
		la, lb := math.Log(min(u1, u2)), math.Log(max(u1, u2))
		s.mix(xi)
		if s.subsets {
			s.restrict(rng, xi)
		}
		j := s.selectExponent(t, logJoint(t, *w, s.p0), la, lb)
		wp, ell := s.ws, s.ls
		s.tries++
		s.sumJ += j
		if math.Log(u) < ell {
			// The involution: start again from (x', −p').
			copy(s.x0, s.xs)
			copy(s.g0, s.gs)
			for d, v := range s.ps {
				s.p0[d] = -v
			}
			if s.reaches(t, logJoint(t, wp, s.p0), la, lb, j) {
				copy(x, s.x0) // x0 is x' here
				copy(s.gx, s.g0)
				*w = wp
				s.accs++
			}
		}
		s.record(x)
	}
}

// restrict makes the move's preconditioner sm (mixed with weight xi)
// zero outside a random subset of the coordinates, with probability
// subsetShare: one uniform, then, for a subset move, Dim uniforms, one per
// coordinate, which is in the subset when its uniform is below keepShare.
// An empty subset leaves every coordinate in (the move of the whole).
func (s *autoState) restrict(rng Rand, xi float64) {
	if rng.Uniform() >= subsetShare {
		return
	}
	kept := 0
	for d := range s.sm {
		if rng.Uniform() < keepShare {
			kept++
		} else {
			s.sm[d] = 0
		}
	}
	if kept == 0 {
		s.mix(xi)
	}
}

// mix sets the move's preconditioner sm to ξσ̂ + (1 − ξ), σ̂ the chain's
// (Pigeons.jl's mixed diagonal preconditioner).
func (s *autoState) mix(xi float64) {
	for d, sd := range s.s {
		s.sm[d] = xi*sd + (1 - xi)
	}
}

// trial runs the trajectory of step θ0·2^j from the move's start into
// (xt, pt, gt, wt, lt) and returns ℓ(θ), or −|ℓ(θ)| when symmetric.
func (s *autoState) trial(t *Target, logJ0 float64, j int) float64 {
	s.wt, s.lt = s.trajectory(t, s.theta*math.Exp2(float64(j)), s.leapfrogs, logJ0)
	if s.symmetric {
		return -math.Abs(s.lt)
	}
	return s.lt
}

// keep sets the last trial aside as the selection so far (xs, ps, gs,
// ws, ls).
func (s *autoState) keep() {
	s.xs, s.xt = s.xt, s.xs
	s.ps, s.pt = s.pt, s.ps
	s.gs, s.gt = s.gt, s.gs
	s.ws, s.ls = s.wt, s.lt
}

// selectExponent is the step size selector of autoMALA's Algorithm 2
// from the move's start (x0, p0, g0) with log joint density logJ0, on
// ℓ(θ) the log joint ratio of the trajectory of step θ, or −|ℓ(θ)| when
// symmetric (AutoStep's symmetric selection): j = 0 if log a < ℓ(θ0) <
// log b; else the last j ≥ 0 before ℓ(θ0·2^{j+1}) falls below log b when
// ℓ(θ0) ≥ log b (the step is too cautious), or the first j ≤ −1 with
// ℓ(θ0·2^j) > log a when ℓ(θ0) ≤ log a, within ±maxExponent. The
// trajectory of the selected step is left in (xs, ps, gs, ws, ls).
func (s *autoState) selectExponent(t *Target, logJ0, la, lb float64) int {
	l := s.trial(t, logJ0, 0)
	s.keep()
	switch {
	case l >= lb:
		for j := 1; j <= maxExponent; j++ {
			if !(s.trial(t, logJ0, j) >= lb) {
				return j - 1
			}
			s.keep()
		}
		return maxExponent
	case l <= la:
		for j := -1; j >= -maxExponent; j-- {
			if s.trial(t, logJ0, j) > la || j == -maxExponent {
				s.keep()
				return j
			}
		}
	}
	return 0
}

// reaches reports whether selectExponent from the move's start would
// return j, running only the trials that decide it: the reversed
// selector's j must equal the forward one, and once a trial shows that
// it cannot, the rest are not run.
func (s *autoState) reaches(t *Target, logJ0, la, lb float64, j int) bool {
	l := s.trial(t, logJ0, 0)
	switch {
	case l >= lb:
		if j < 0 {
			return false
		}
		for i := 1; i <= j; i++ {
			if !(s.trial(t, logJ0, i) >= lb) {
				return false
			}
		}
		return j == maxExponent || !(s.trial(t, logJ0, j+1) >= lb)
	case l <= la:
		if j >= 0 {
			return false
		}
		for i := -1; i > j; i-- {
			if s.trial(t, logJ0, i) > la {
				return false
			}
		}
		return j == -maxExponent || s.trial(t, logJ0, j) > la
	}
	return j == 0
}

// EndScan, at the end of a window of scans (scan 2^k, as the
// preconditioner's), moves θ0 by the window's mean exponent, θ0 ←
// θ0·2^{mean j}, and updates the preconditioner. Rounds that double are
// Pigeons.jl's: θ0 rests on ever more moves, so that it depends less and
// less on where the chain is. (θ0 adapted at every scan from the
// chain's last moves follows the chain, and the chain's law drifts: on
// the 3-d funnel, from 8000 exact draws, 16 scans of 4 autoMALA moves
// moved E[v] by −0.32, 9 standard errors, which θ0 held fixed did not.)
func (s *autoState) EndScan() {
	s.winJ += s.sumJ
	s.winN += s.tries
	if end := s.scans + 1; end&(end-1) == 0 && s.winN > 0 {
		s.theta *= math.Exp2(float64(s.winJ) / float64(s.winN))
		s.winJ, s.winN = 0, 0
	}
	s.endScan()
}

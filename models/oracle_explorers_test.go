package models_test

import (
	"math"
	"testing"

	"github.com/ptbatch/ptbatch/models"
)

// plainDensity is an annealed density written plainly for the oracles:
// log π = η0·W0 + η1·W1 (a zero coefficient's term left out, NaN read as
// −∞) and its gradient.
type plainDensity struct {
	f          models.Funcs
	eta0, eta1 float64
}

func (p plainDensity) logp(x []float64) float64 {
	s := 0.0
	if p.eta0 != 0 {
		s += p.eta0 * p.f.LogReference(x)
	}
	if p.eta1 != 0 {
		s += p.eta1 * p.f.LogTarget(x)
	}
	if math.IsNaN(s) {
		return math.Inf(-1)
	}
	return s
}

func (p plainDensity) grad(x []float64) []float64 {
	g0, g1 := make([]float64, len(x)), make([]float64, len(x))
	p.f.GradLogReference(x, g0)
	p.f.GradLogTarget(x, g1)
	g := make([]float64, len(x))
	for d := range g {
		if p.eta0 != 0 {
			g[d] += p.eta0 * g0[d]
		}
		if p.eta1 != 0 {
			g[d] += p.eta1 * g1[d]
		}
	}
	return g
}

// oracle is a plain one-chain implementation of an explorer.
type oracle interface {
	move(p plainDensity, r models.Rand, x []float64)
	endScan()
}

// rwOracle is random-walk Metropolis with the step adapted per scan by
// exp(2(a − 0.3)).
type rwOracle struct {
	step        float64
	tries, accs int
}

func (o *rwOracle) move(p plainDensity, r models.Rand, x []float64) {
	y := make([]float64, len(x))
	for d := range x {
		y[d] = x[d] + o.step*r.Normal()
	}
	o.tries++
	if math.Log(r.Uniform()) < p.logp(y)-p.logp(x) {
		copy(x, y)
		o.accs++
	}
}

func (o *rwOracle) endScan() {
	o.step *= math.Exp(2 * (float64(o.accs)/float64(o.tries) - 0.3))
	o.tries, o.accs = 0, 0
}

// sliceOracle is Neal's (2003) slice sampler, coordinate by coordinate,
// with width 1, stepping out m = 20 split at random, and shrinkage.
type sliceOracle struct{}

func (sliceOracle) move(p plainDensity, r models.Rand, x []float64) {
	const w, m = 1.0, 20
	for d := range x {
		at := func(v float64) float64 {
			y := append([]float64(nil), x...)
			y[d] = v
			return p.logp(y)
		}
		level := p.logp(x) + math.Log(r.Uniform())
		lo := x[d] - w*r.Uniform()
		hi := lo + w
		j := int(math.Floor(m * r.Uniform()))
		if j == m {
			j = m - 1
		}
		k := m - 1 - j
		for ; j > 0 && at(lo) > level; j-- {
			lo -= w
		}
		for ; k > 0 && at(hi) > level; k-- {
			hi += w
		}
		for i := 0; i < 200; i++ {
			v := lo + r.Uniform()*(hi-lo)
			if at(v) > level {
				x[d] = v
				break
			}
			if v < x[d] {
				lo = v
			} else {
				hi = v
			}
		}
	}
}

func (sliceOracle) endScan() {}

// malaOracle is MALA in its textbook form: y = x + θ²/2·∇log π(x) + θz,
// accepted with π(y)q(x|y)/(π(x)q(y|x)), q(·|x) = N(x + θ²/2·∇log π(x),
// θ²I); the step adapted by exp(2(a − 0.574)).
type malaOracle struct {
	theta       float64
	tries, accs int
}

func (o *malaOracle) move(p plainDensity, r models.Rand, x []float64) {
	h := o.theta
	gx := p.grad(x)
	y := make([]float64, len(x))
	for d := range x {
		y[d] = x[d] + h*h/2*gx[d] + h*r.Normal()
	}
	gy := p.grad(y)
	logq := func(to, from, g []float64) float64 {
		s := 0.0
		for d := range to {
			e := to[d] - from[d] - h*h/2*g[d]
			s -= e * e / (2 * h * h)
		}
		return s
	}
	o.tries++
	if math.Log(r.Uniform()) < p.logp(y)+logq(x, y, gy)-p.logp(x)-logq(y, x, gx) {
		copy(x, y)
		o.accs++
	}
}

func (o *malaOracle) endScan() {
	o.theta *= math.Exp(2 * (float64(o.accs)/float64(o.tries) - 0.574))
	o.tries, o.accs = 0, 0
}

// leapfrogM runs L leapfrog steps with the diagonal mass matrix
// M = diag(1/s²) (Neal 2011, §5.4.1): momenta p ~ N(0, M),
// x ← x + θ·M⁻¹p, kinetic energy pᵀM⁻¹p/2. It returns the end point and
// the log ratio of the joint densities.
func leapfrogM(p plainDensity, x, mom, s []float64, theta float64, L int) ([]float64, float64) {
	kin := func(q []float64) float64 {
		k := 0.0
		for d := range q {
			k += q[d] * q[d] * s[d] * s[d] / 2
		}
		return k
	}
	h0 := p.logp(x) - kin(mom)
	y, q := append([]float64(nil), x...), append([]float64(nil), mom...)
	g := p.grad(y)
	for l := 0; l < L; l++ {
		for d := range q {
			q[d] += theta / 2 * g[d]
			y[d] += theta * s[d] * s[d] * q[d]
		}
		g = p.grad(y)
		for d := range q {
			q[d] += theta / 2 * g[d]
		}
	}
	copy(mom, q)
	l := p.logp(y) - kin(q) - h0
	if math.IsNaN(l) {
		l = math.Inf(-1)
	}
	return y, l
}

// sdOf returns the marginal standard deviations of states (two passes),
// or nil for fewer than 10.
func sdOf(states [][]float64) []float64 {
	if len(states) < 10 {
		return nil
	}
	sd := make([]float64, len(states[0]))
	for d := range sd {
		m, v := 0.0, 0.0
		for _, x := range states {
			m += x[d]
		}
		m /= float64(len(states))
		for _, x := range states {
			v += (x[d] - m) * (x[d] - m)
		}
		sd[d] = math.Sqrt(v / float64(len(states)-1))
	}
	return sd
}

// hmcOracle is HMC with L leapfrog steps, mass diag(1/s²) from the
// states of the previous window of scans (scans 2^{k−1}+1 … 2^k), and the step adapted by exp(2(a − 0.65)); with
// auto, the step is θ0·2^j chosen by autoMALA's selector (L = 1 is
// autoMALA), θ0 moves by the window's mean j at the window's end, and
// the mass uses s = ξσ̂ + 1 − ξ; with subsets, half the moves move a
// random subset of the coordinates (mass ∞ on the others).
type hmcOracle struct {
	theta       float64
	L           int
	auto        bool
	symmetric   bool // the selector compares −|ℓ| with the bounds (AutoStep's symmetric selection)
	subsets     bool // autoMALA: half the moves move a random subset of the coordinates
	s           []float64
	states      [][]float64
	tries, accs int
	sumJ        int
	winJ, winN  int // auto: the window's exponents and moves
	scans       int // windows of states end at scans 1, 2, 4, 8, …
}

func (o *hmcOracle) move(p plainDensity, r models.Rand, x []float64) {
	mom := make([]float64, len(x))
	for d := range mom {
		mom[d] = r.Normal() / o.s[d] // N(0, M), M = diag(1/s²)
	}
	if !o.auto {
		y, l := leapfrogM(p, x, mom, o.s, o.theta, o.L)
		o.tries++
		if math.Log(r.Uniform()) < l {
			copy(x, y)
			o.accs++
		}
		o.states = append(o.states, append([]float64(nil), x...))
		return
	}
	u1, u2, xi, u := r.Uniform(), r.Uniform(), r.Uniform(), r.Uniform()
	a, b := math.Min(u1, u2), math.Max(u1, u2)
	s := make([]float64, len(x))
	for d := range s {
		s[d] = xi*o.s[d] + 1 - xi
		mom[d] = mom[d] * o.s[d] / s[d] // the same normal, scaled by the mixed s
	}
	if o.subsets && r.Uniform() < 0.5 {
		// A move of the coordinates whose uniform is below ½ (all of
		// them if none is): the others have mass ∞ (s = 0) and no momentum.
		in := make([]bool, len(x))
		any := false
		for d := range in {
			in[d] = r.Uniform() < 0.5
			any = any || in[d]
		}
		for d := range in {
			if any && !in[d] {
				s[d], mom[d] = 0, 0
			}
		}
	}
	j := o.pick(p, x, mom, s, a, b)
	y, l := leapfrogM(p, x, append([]float64(nil), mom...), s, o.theta*math.Pow(2, float64(j)), o.L)
	q := append([]float64(nil), mom...)
	leapfrogM(p, x, q, s, o.theta*math.Pow(2, float64(j)), o.L)
	for d := range q {
		q[d] = -q[d]
	}
	o.tries++
	o.sumJ += j
	if o.pick(p, y, q, s, a, b) == j && math.Log(u) < l {
		copy(x, y)
		o.accs++
	}
	o.states = append(o.states, append([]float64(nil), x...))
}

// pick is autoMALA's step size selector: the exponent j of θ0·2^j.
func (o *hmcOracle) pick(p plainDensity, x, mom, s []float64, a, b float64) int {
	ell := func(j int) float64 {
		_, l := leapfrogM(p, x, append([]float64(nil), mom...), s, o.theta*math.Pow(2, float64(j)), o.L)
		if o.symmetric {
			return -math.Abs(l) // AutoStep: e^{−|ℓ|} against the bounds
		}
		return l
	}
	j := 0
	if ell(0) >= math.Log(b) {
		for j < 30 && ell(j+1) >= math.Log(b) {
			j++
		}
	} else if ell(0) <= math.Log(a) {
		for j > -30 && !(ell(j) > math.Log(a)) {
			j--
		}
	}
	return j
}

func (o *hmcOracle) endScan() {
	o.scans++
	o.winJ, o.winN = o.winJ+o.sumJ, o.winN+o.tries
	switch {
	case !o.auto:
		o.theta *= math.Exp(2 * (float64(o.accs)/float64(o.tries) - 0.65))
	case o.scans&(o.scans-1) == 0: // θ0 by the window's mean exponent
		o.theta *= math.Pow(2, float64(o.winJ)/float64(o.winN))
		o.winJ, o.winN = 0, 0
	}
	if o.scans&(o.scans-1) != 0 {
		o.tries, o.accs, o.sumJ = 0, 0, 0
		return
	}
	if sd := sdOf(o.states); sd != nil {
		for d, v := range sd {
			if v > 0 {
				o.s[d] = v
			}
		}
	}
	o.states, o.tries, o.accs, o.sumJ = nil, 0, 0, 0
}

// ones returns n ones.
func ones(n int) []float64 {
	s := make([]float64, n)
	for d := range s {
		s[d] = 1
	}
	return s
}

// TestExplorersMatchPlainOracles runs every explorer and its plain
// implementation above side by side from the same state with the same
// random numbers: 4 scans of 50 moves with an end of scan between, on the
// correlated Gaussian at (η0, η1) = (0.3, 0.7) and on the 3-d funnel at
// the target. The states must agree after every move to 1e-9 relative (the
// two round differently: the oracles use the textbook forms); the oracle
// then continues from the explorer's state, since HMC's trajectories in
// the funnel would amplify those last bits threefold a move.
func TestExplorersMatchPlainOracles(t *testing.T) {
	type pair struct {
		ex     models.Explorer
		oracle func(dim int) oracle
	}
	pairs := []pair{
		{models.RandomWalk{}, func(int) oracle { return &rwOracle{step: 1} }},
		{models.SliceSampler{}, func(int) oracle { return sliceOracle{} }},
		{models.MALA{}, func(int) oracle { return &malaOracle{theta: 1} }},
		{models.HMC{}, func(d int) oracle { return &hmcOracle{theta: 0.1, L: 10, s: ones(d)} }},
		{models.AutoMALA{Moves: 1}, func(d int) oracle {
			return &hmcOracle{theta: 1, L: 1, auto: true, symmetric: true, subsets: true, s: ones(d)}
		}},
		{models.AutoMALA{Moves: 1, AllCoordinates: true}, func(d int) oracle { return &hmcOracle{theta: 1, L: 1, auto: true, symmetric: true, s: ones(d)} }},
		{models.HMC{Auto: true}, func(d int) oracle { return &hmcOracle{theta: 0.1, L: 10, auto: true, symmetric: true, s: ones(d)} }},
	}
	densities := []plainDensity{{corrGauss(), 0.3, 0.7}, {funnel(3, 3), 0, 1}}
	for _, pr := range pairs {
		for k, p := range densities {
			compareWithOracle(t, pr.ex, pr.oracle(p.f.Dim), p, uint64(31+k))
		}
	}
}

// compareWithOracle runs ex and o side by side on p and reports the first
// move at which they part.
func compareWithOracle(t *testing.T, ex models.Explorer, o oracle, p plainDensity, seed uint64) {
	t.Helper()
	tg, err := models.NewTarget(p.f, p.eta0, p.eta1)
	if err != nil {
		t.Fatal(err)
	}
	st := ex.NewState(p.f.Dim)
	ra, rb := models.NewRand(seed, 0), models.NewRand(seed, 0)
	x := []float64{0.5, -0.3, 0.2}[:p.f.Dim]
	y := append([]float64(nil), x...)
	w := tg.Energies(x)
	moved := 0
	for scan := 0; scan < 4; scan++ {
		for i := 0; i < 50; i++ {
			before := x[0]
			st.Move(tg, ra, x, &w)
			o.move(p, rb, y)
			if x[0] != before {
				moved++
			}
			for d := range x {
				if math.Abs(x[d]-y[d]) > 1e-9*max(1, math.Abs(y[d])) {
					t.Fatalf("%s in %d dimensions: scan %d move %d: coordinate %d is %v, the plain implementation's %v", ex.Name(), p.f.Dim, scan, i, d, x[d], y[d])
				}
			}
			copy(y, x) // the next move from the same state, bit for bit
		}
		st.EndScan()
		o.endScan()
	}
	if moved < 20 {
		t.Errorf("%s: only %d of 200 moves changed the state: the comparison needs moves", ex.Name(), moved)
	}
}

package models

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/layout"
)

// mixSmall is a small mixture whose sweeps are cheap: K = 3, five points,
// α = 1.5 so that the β(α-1) terms are exercised.
func mixSmall(t testing.TB) *Mixture {
	m, err := NewMixtureModel(MixtureParams{
		K: 3, Sigma: 0.8, PriorMean: 1, PriorSD: 2, Alpha: 1.5,
		Data: []float64{-2.1, -0.4, 0.3, 1.9, 4.2},
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// mixEtas returns rows×Lanes coefficients drawn from a fixed list that
// covers the reference, the target, interior and extrapolated points, and
// improper ones ((0, 0), (-1, 0.5), (1, -1e9)).
func mixEtas(rng *rand.Rand, rows int) (eta0, eta1 []float64) {
	list := [][2]float64{
		{1, 0}, {0, 1}, {0.5, 0.5}, {0.3, 0.05}, {0.9, 0.6}, {-0.2, 1}, {0.01, 0.02},
		{0.97, 0.03}, {0.9, 0.1}, {0, 0}, {-1, 0.5}, {1, -1e9},
	}
	eta0 = make([]float64, rows*layout.Lanes)
	eta1 = make([]float64, rows*layout.Lanes)
	for i := range eta0 {
		e := list[rng.IntN(len(list))]
		eta0[i], eta1[i] = e[0], e[1]
	}
	return eta0, eta1
}

func sameFloat(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b))
}

// mixOne is a one-component mixture (K = 1: every label is 0).
func mixOne(t testing.TB) *Mixture {
	m, err := NewMixtureModel(MixtureParams{
		K: 1, Sigma: 1.3, PriorMean: -1, PriorSD: 3, Alpha: 2,
		Data: []float64{-2.1, -0.4, 0.3, 1.9},
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestMixtureBlockMatchesScalar checks that the batched sweep and the scalar
// reference agree bit for bit, in states and energies, for every lane of
// blocks starting at replicates 0 and 8, over sweeps whose per-slot
// coefficients change (as when replicas swap) and include improper ones:
// K = 3, the galaxy's K = 6 (whose blocks skip the components with no
// weight at an observation, liveComponents; the coefficients with small γ
// make some of them nearly so, and mixtureLiveCounts checks that the sweeps
// meet one, several and all live components), the mixture's K = 2 (its own
// code) and K = 1.
func TestMixtureBlockMatchesScalar(t *testing.T) {
	cases := []struct {
		m            *Mixture
		rows, sweeps int
		checkLive    bool
	}{
		{mixSmall(t), 3, 25, false},
		{NewGalaxy(), 4, 40, true},
		{NewMixture(7), 1, 3, false},
		{mixOne(t), 2, 10, false},
	}
	if testing.Short() {
		cases[1].sweeps, cases[2].sweeps = 10, 1
	}
	for _, tc := range cases {
		live := make([]int, tc.m.p.K+1) // lane-rows by number of live components
		proposals := 0
		for _, first := range []int{0, 8} {
			m, rows := tc.m, tc.rows
			k, n := m.p.K, len(m.p.Data)
			const seed = 20240611
			blk := m.NewBlock(BlockSpec{FirstReplicate: first, Rows: rows}).(*mixBlock)
			rng := kernel.NewStream(seed, first)
			out := Energies{W0: make([]float64, rows*layout.Lanes), W1: make([]float64, rows*layout.Lanes)}
			obs := make([]float64, len(m.Observables())) // μ_0 … μ_{K-1}, w_0 … w_{K-1}
			blk.Init(rng, initRows(rows), out)
			// The MH proposals of every sweep, whose numbers reach the
			// state only through rare discrete decisions, are compared
			// too: bits of ΔL, R(w), R(w'), w' by row and lane.
			type mhKey struct{ r, j int }
			var blockMH, scalarMH map[mhKey][]uint64
			record := func(to map[mhKey][]uint64, r, j int, dl float64, rr, rrp, wp []float64) {
				v := []uint64{math.Float64bits(dl)}
				for _, x := range [][]float64{rr, rrp, wp} {
					for _, y := range x {
						v = append(v, math.Float64bits(y))
					}
				}
				to[mhKey{r, j}] = v
			}
			blk.trace = func(r, j int, dl float64, rr, rrp, wp []float64) { record(blockMH, r, j, dl, rr, rrp, wp) }
			sc := m.Scalar()
			scs := make([]Scalar, layout.Lanes)
			for j := range scs {
				scs[j] = mixScalar{m: m, trace: func(r int, dl float64, rr, rrp, wp []float64) {
					record(scalarMH, r, j, dl, rr, rrp, wp)
				}}
			}
			lanes := make([]Lane, layout.Lanes)
			states := make([][][]float64, layout.Lanes)
			w0s := make([][]float64, layout.Lanes)
			w1s := make([][]float64, layout.Lanes)
			for j := range lanes {
				lanes[j] = kernel.NewStream(seed, first+j).Lane(0)
				states[j], w0s[j], w1s[j] = sc.Init(lanes[j], rows)
			}
			etaRNG := rand.New(rand.NewPCG(1, uint64(first)))
			for sweep := 0; ; sweep++ {
				for r := 0; r < rows; r++ {
					for j := 0; j < layout.Lanes; j++ {
						q := r*layout.Lanes + j
						x := states[j][r]
						blk.Observe(obs, r, j)
						if !sameFloat(out.W0[q], w0s[j][r]) || !sameFloat(out.W1[q], w1s[j][r]) ||
							!sameFloat(obs[0], x[k]) {
							t.Fatalf("%s first=%d sweep %d row %d lane %d: energies (%v, %v, %v), scalar (%v, %v, %v)",
								m.Name(), first, sweep, r, j, out.W0[q], out.W1[q], obs[0], w0s[j][r], w1s[j][r], x[k])
						}
						for i := 0; i < k; i++ {
							p := (r*k+i)*layout.Lanes + j
							if !sameFloat(blk.w[p], x[i]) || !sameFloat(blk.mu[p], x[k+i]) ||
								!sameFloat(obs[k+i], x[i]) || !sameFloat(obs[i], x[k+i]) {
								t.Fatalf("%s first=%d sweep %d row %d lane %d component %d: (w, μ) = (%v, %v), observed (%v, %v), scalar (%v, %v)",
									m.Name(), first, sweep, r, j, i, blk.w[p], blk.mu[p], obs[k+i], obs[i], x[i], x[k+i])
							}
						}
						for d := 0; d < n; d++ {
							if float64(blk.z[(r*n+d)*layout.Lanes+j]) != x[2*k+d] {
								t.Fatalf("%s first=%d sweep %d row %d lane %d: label %d differs", m.Name(), first, sweep, r, j, d)
							}
						}
					}
				}
				if sweep == tc.sweeps {
					break
				}
				eta0, eta1 := mixEtas(etaRNG, rows)
				mixLiveCounts(blk, eta0, eta1, live)
				blockMH, scalarMH = map[mhKey][]uint64{}, map[mhKey][]uint64{}
				blk.Explore(rng, testRows(eta0, eta1), out)
				for j := range lanes {
					e0 := make([]float64, rows)
					e1 := make([]float64, rows)
					for r := range e0 {
						e0[r], e1[r] = eta0[r*layout.Lanes+j], eta1[r*layout.Lanes+j]
					}
					w0s[j], w1s[j] = scs[j].Explore(lanes[j], states[j], e0, e1, nil)
				}
				if len(blockMH) != len(scalarMH) {
					t.Fatalf("%s first=%d sweep %d: %d MH proposals, scalar %d", m.Name(), first, sweep, len(blockMH), len(scalarMH))
				}
				proposals += len(blockMH)
				for key, v := range blockMH {
					if !slices.Equal(v, scalarMH[key]) {
						t.Fatalf("%s first=%d sweep %d row %d lane %d: MH proposal (ΔL, R(w), R(w'), w') differs from the scalar's",
							m.Name(), first, sweep, key.r, key.j)
					}
				}
			}
		}
		if proposals == 0 {
			t.Errorf("%s: no MH proposal compared", tc.m.Name())
		}
		if k := tc.m.p.K; tc.checkLive {
			t.Logf("%s: lane-rows by number of live components: %v", tc.m.Name(), live[1:])
			several := 0
			for _, c := range live[2:k] {
				several += c
			}
			if live[1] == 0 || several == 0 || live[k] == 0 {
				t.Errorf("%s: the sweeps did not meet one, several and all live components: %v", tc.m.Name(), live[1:])
			}
		}
	}
}

// mixLiveCounts adds to live[m] the number of proper lane-rows of blk with
// m live components (liveComponents) under the coefficients eta0, eta1, as
// the block's next sweep will find them.
func mixLiveCounts(blk *mixBlock, eta0, eta1 []float64, live []int) {
	m, k := blk.m, blk.k
	cc, cb := make([]float64, k), make([]float64, k)
	for r := 0; r < blk.rows; r++ {
		for j := 0; j < layout.Lanes; j++ {
			q := r*layout.Lanes + j
			beta, gamma, ok := m.Annealed(eta0[q], eta1[q])
			if !ok {
				continue
			}
			for i := 0; i < k; i++ {
				p := (r*k+i)*layout.Lanes + j
				cc[i], cb[i] = mixCoef(beta, gamma*m.hLik, blk.logw[p], blk.mu[p]-m.yBar)
			}
			live[len(m.liveComponents(cc, cb, nil))]++
		}
	}
}

// mixDirectEnergies computes W0 and W1 of a scalar state straight from the
// densities of the Mixture doc comment, sharing no code with the model.
func mixDirectEnergies(p MixtureParams, x []float64) (w0, w1 float64) {
	k := p.K
	w, mu, z := x[:k], x[k:2*k], x[2*k:]
	lgKa, _ := math.Lgamma(float64(k) * p.Alpha)
	lga, _ := math.Lgamma(p.Alpha)
	w0 = lgKa - float64(k)*lga
	logN := func(v, m, s float64) float64 {
		return -0.5*math.Log(2*math.Pi*s*s) - (v-m)*(v-m)/(2*s*s)
	}
	for i := 0; i < k; i++ {
		w0 += (p.Alpha-1)*math.Log(w[i]) + logN(mu[i], p.PriorMean, p.PriorSD)
	}
	lik := 0.0
	for n, y := range p.Data {
		i := int(z[n])
		w0 += math.Log(w[i])
		lik += logN(y, mu[i], p.Sigma)
	}
	return w0, w0 + lik
}

// TestMixtureEnergiesMatchDensities checks the energies of the initial
// state and of states after sweeps against mixDirectEnergies, to a relative
// 1e-12 (the two sum the same terms in different orders; the sums stay
// below 1e6 in magnitude, so rounding differences are near 1e-16 relative).
func TestMixtureEnergiesMatchDensities(t *testing.T) {
	for _, m := range []*Mixture{mixSmall(t), NewGalaxy()} {
		sc := m.Scalar()
		lane := kernel.NewStream(3, 0).Lane(0)
		states, w0, w1 := sc.Init(lane, 2)
		eta0, eta1 := []float64{1, 0.2}, []float64{0, 0.7}
		for sweep := 0; sweep < 4; sweep++ {
			for r, x := range states {
				d0, d1 := mixDirectEnergies(m.p, x)
				if math.Abs(d0-w0[r]) > 1e-12*math.Max(1, math.Abs(d0)) ||
					math.Abs(d1-w1[r]) > 1e-12*math.Max(1, math.Abs(d1)) {
					t.Fatalf("%s sweep %d row %d: energies (%v, %v), densities give (%v, %v)", m.Name(), sweep, r, w0[r], w1[r], d0, d1)
				}
			}
			w0, w1 = sc.Explore(lane, states, eta0, eta1, nil)
		}
	}
}

// TestMixtureInitIsPaperState checks the initial state of the appendix
// (weights 1/K, means 0, labels 0) in the batched block.
func TestMixtureInitIsPaperState(t *testing.T) {
	m := NewGalaxy()
	blk := m.NewBlock(BlockSpec{Rows: 2}).(*mixBlock)
	n := 2 * layout.Lanes
	out := Energies{W0: make([]float64, n), W1: make([]float64, n)}
	blk.Init(kernel.NewStream(1, 0), initRows(2), out)
	for i := range blk.w {
		if blk.w[i] != 1.0/6 || blk.mu[i] != 0 {
			t.Fatalf("w[%d], mu[%d] = %v, %v, want 1/6, 0", i, i, blk.w[i], blk.mu[i])
		}
	}
	for i, z := range blk.z {
		if z != 0 {
			t.Fatalf("label %d = %d, want 0", i, z)
		}
	}
	x := make([]float64, 12+82)
	for i := 0; i < 6; i++ {
		x[i] = 1.0 / 6
	}
	d0, d1 := mixDirectEnergies(m.p, x)
	obs := make([]float64, len(m.Observables()))
	for q := 0; q < n; q++ {
		blk.Observe(obs, q/layout.Lanes, q%layout.Lanes)
		if math.Abs(out.W0[q]-d0) > 1e-12*math.Abs(d0) || math.Abs(out.W1[q]-d1) > 1e-12*math.Abs(d1) || obs[0] != 0 {
			t.Fatalf("slot %d: energies (%v, %v, %v), want (%v, %v, 0)", q, out.W0[q], out.W1[q], obs[0], d0, d1)
		}
		for i := 0; i < 6; i++ {
			if obs[i] != 0 || obs[6+i] != 1.0/6 {
				t.Fatalf("slot %d: observed μ_%d, w_%d = %v, %v, want 0, 1/6", q, i, i, obs[i], obs[6+i])
			}
		}
	}
}

// TestNewMixtureModelRejectsBadParams checks that every bad parameter is
// reported with its value.
func TestNewMixtureModelRejectsBadParams(t *testing.T) {
	good := MixtureParams{K: 2, Sigma: 1, PriorMean: 0, PriorSD: 1, Alpha: 1, Data: []float64{1}}
	cases := []struct {
		edit func(*MixtureParams)
		want string
	}{
		{func(p *MixtureParams) { p.K = 0 }, "k must be between 1 and 256, got 0"},
		{func(p *MixtureParams) { p.K = 257 }, "got 257"},
		{func(p *MixtureParams) { p.Sigma = 0 }, "sigma must be positive and finite, got 0"},
		{func(p *MixtureParams) { p.Sigma = math.Inf(1) }, "sigma must be positive and finite, got +Inf"},
		{func(p *MixtureParams) { p.PriorMean = math.NaN() }, "prior mean must be finite, got NaN"},
		{func(p *MixtureParams) { p.PriorSD = -1 }, "prior sd must be positive and finite, got -1"},
		{func(p *MixtureParams) { p.Alpha = 0.5 }, "alpha must be at least 1 and finite, got 0.5"},
		{func(p *MixtureParams) { p.Data = nil }, "data must hold at least one observation, got 0"},
		{func(p *MixtureParams) { p.Data = []float64{1, math.Inf(-1)} }, "data[1] must be finite, got -Inf"},
	}
	for _, tc := range cases {
		p := good
		tc.edit(&p)
		_, err := NewMixtureModel(p)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want one containing %q", err, tc.want)
		}
	}
	m, err := NewMixtureModel(good)
	if err != nil || m.Name() != "mixture" || IsExact(m) {
		t.Fatalf("good params: %v, name %q", err, m.Name())
	}
}

// TestMixtureAnnealedProperness checks the properness rule of Mixture:
// β > 0 and β/τ² + min(γ, 0) N/σ² > 0. For mixSmall, 1/τ² = 1/4 and
// N/σ² = 5/0.64 = 7.8125, so with β = 1 the bound is γ > -0.032.
func TestMixtureAnnealedProperness(t *testing.T) {
	m := mixSmall(t)
	cases := []struct {
		eta0, eta1 float64
		ok         bool
	}{
		{1, 0, true}, {0, 1, true}, {0.5, 0.5, true}, {-0.5, 1, true}, {1.03, -0.03, true},
		{1.04, -0.04, false}, {0, 0, false}, {-1, 0.5, false}, {math.NaN(), 1, false}, {math.Inf(1), 0, false},
	}
	for _, tc := range cases {
		beta, gamma, ok := m.Annealed(tc.eta0, tc.eta1)
		if ok != tc.ok {
			t.Errorf("Annealed(%v, %v) ok = %v, want %v", tc.eta0, tc.eta1, ok, tc.ok)
		}
		if ok && (beta != tc.eta0+tc.eta1 || gamma != tc.eta1) {
			t.Errorf("Annealed(%v, %v) = (%v, %v)", tc.eta0, tc.eta1, beta, gamma)
		}
	}
}

package batch

import (
	"math"
	"testing"

	"github.com/ptbatch/ptbatch/models"
)

// bimodal is the target ½N(−a, σ²) + ½N(a, σ²) in one dimension with the
// reference N(0, 1), as an Unconstrained model (what the variational
// references need): W0(x) = −x²/2, Z0 = √(2π).
type bimodal struct {
	models.Model
	f models.Funcs
}

func (b bimodal) Funcs() models.Funcs { return b.f }
func (b bimodal) LogZ0() float64      { return 0.5 * math.Log(2*math.Pi) }

// newBimodal returns the bimodal target with modes at ±a of scale sigma,
// explored by random-walk Metropolis (which never crosses between the
// modes at the target on its own).
func newBimodal(t *testing.T, a, sigma float64) bimodal {
	t.Helper()
	logMix := func(x []float64) float64 {
		l, r := (x[0]+a)/sigma, (x[0]-a)/sigma
		hi := math.Max(-l*l/2, -r*r/2)
		return hi + math.Log(0.5*math.Exp(-l*l/2-hi)+0.5*math.Exp(-r*r/2-hi)) - math.Log(sigma)
	}
	f := models.Funcs{Dim: 1,
		LogReference:    func(x []float64) float64 { return -x[0] * x[0] / 2 },
		LogTarget:       logMix,
		SampleReference: func(r models.Rand, x []float64) { x[0] = r.Normal() },
	}
	m, err := models.FromFuncs(f, models.RandomWalk{})
	if err != nil {
		t.Fatal(err)
	}
	return bimodal{m, f}
}

// modeShare is a Statistic: per replicate, the kept target samples (the
// last KeepScans scans) whose coordinate is positive, and all of them.
type modeShare struct {
	pos, all map[int]int
}

func (s *modeShare) NewObserver(info BlockInfo) Observer { return &modeObserver{s: s, info: info} }

type modeObserver struct {
	s    *modeShare
	info BlockInfo
}

func (o *modeObserver) Iterate(v *View) {
	if v.Scan < o.info.FirstKeptScan() {
		return
	}
	x := make([]float64, 1)
	for j := 0; j < o.info.Replicates; j++ {
		v.ObserveTarget(x, j)
		b := o.info.FirstReplicate + j
		o.s.all[b]++
		if x[0] > 0 {
			o.s.pos[b]++
		}
	}
}

func (o *modeObserver) EndScan(*View) {}

// bimodalRun runs the bimodal target with model m (one worker, so that
// modeShare's maps are written by one goroutine) and returns the result
// and, per replicate, the share of kept target samples in the positive
// mode.
func bimodalRun(t *testing.T, m models.Model, chains, leg2 int) (*Result, []float64) {
	t.Helper()
	ms := &modeShare{pos: map[int]int{}, all: map[int]int{}}
	cfg := Config{Model: m, Chains: chains, VariationalLeg: leg2, Replicates: 8, Iterations: 4000, Scans: 200,
		KeepScans: 100, TuneSchedule: true, Knots: 1, Seed: 7, Workers: 1, Statistics: []Statistic{ms}}
	res := mustRun(t, cfg)
	share := make([]float64, cfg.Replicates)
	for b := range share {
		share[b] = float64(ms.pos[b]) / float64(ms.all[b])
	}
	return res, share
}

// TestStabilizedBimodal runs a target with two well-separated modes,
// ½N(−6, 0.5²) + ½N(6, 0.5²) from the reference N(0, 1), with a reference
// family that cannot fit it (one diagonal Gaussian), refitted after each
// of the first 100 of 200 scans of 20 iterations; the last 100 are kept.
//
// The stabilised run (20 chains, 8 of them on leg 2) visits both modes in
// every replicate. Each leg-1 tour brings a fresh draw of the symmetric
// reference N(0, 1) to the target, which ends in either mode with
// probability ½, so the share of kept target samples in the positive mode
// is a weighted mean of T such coin flips, T the tours during the kept
// scans: its standard error is ½·√(Σ w_i²) ≈ 1/√(2T) for tour lengths
// spread like exponential ones (Σ w_i² ≈ 2/T). T is taken as half the run's
// leg-1 round trips (the kept half of the scans; leg 2's tours, which add
// draws of the fitted Gaussian, are left out, which widens the bound), and
// the test is |share − ½| ≤ 4/√(2T) in every replicate, so that a
// replicate stuck in one mode (share 0 or 1) fails it.
//
// The variational-only run (20 chains on one leg) does not: at this seed
// the first fits, from the few states the target chain held in a scan of
// 20 iterations, put the Gaussian on one mode in some replicates, after
// which no state reaches the other, and their kept target samples all lie
// in one mode (share 0 or 1; five of eight replicates when this test was
// written). The test asserts that at least one replicate is stuck so.
func TestStabilizedBimodal(t *testing.T) {
	const fit = 100
	bm := newBimodal(t, 6, 0.5)
	stab, err := models.Stabilized(bm, models.RandomWalk{}, fit)
	if err != nil {
		t.Fatal(err)
	}
	vari, err := models.Variational(bm, models.RandomWalk{}, fit)
	if err != nil {
		t.Fatal(err)
	}
	rs, ss := bimodalRun(t, stab, 20, 8)
	for b, share := range ss {
		tours := float64(rs.Legs[b][0].RoundTrips) / 2
		bound := 4 / math.Sqrt(2*tours)
		if !(math.Abs(share-0.5) <= bound) || tours < 20 {
			t.Errorf("stabilized, replicate %d: %.3f of the kept target samples in the positive mode, want ½ ± %.3f (%v tours)", b, share, bound, tours)
		}
	}
	_, sv := bimodalRun(t, vari, 20, 0)
	stuck := 0
	for _, share := range sv {
		if share == 0 || share == 1 {
			stuck++
		}
	}
	t.Logf("shares in the positive mode: stabilized %.3f, variational %.3f (%d stuck)", ss, sv, stuck)
	if stuck == 0 {
		t.Errorf("no replicate of the variational-only run is stuck in one mode: %.3f; update the test's comment", sv)
	}
}

package batch

import (
	"math"
	"testing"

	"github.com/ptbatch/ptbatch/models"
	"github.com/ptbatch/ptbatch/tune"
)

// scanStatsRef is lane j's statistics of the scan ending as the block
// computed them before kernel.ScanSums, lane by lane: the rejections r_n,
// their sum, Σ r_n/(1-r_n) (+Inf when some r_n ≥ 1) and the SKL estimate
// of sklEstimateRef.
func scanStatsRef(b *block, j int, inv float64) (rej []float64, barrier, nab, skl float64) {
	full := false
	for n := 0; n < b.numChains-1; n++ {
		r := b.x.rej[n*lanes+j] * inv
		rej = append(rej, r)
		barrier += r
		full = full || r >= 1
		nab += r / (1 - r)
	}
	if full {
		nab = math.Inf(1)
	}
	return rej, barrier, nab, sklEstimateRef(b, j, inv)
}

// sklEstimateRef returns Σ_n (η(t_{n+1}) - η(t_n))·(E_{n+1}[W] - E_n[W]),
// the estimate of Σ_n SKL(π_{t_n}, π_{t_{n+1}}) (eq:bound) from the scan's
// means of the energies by chain, pair by pair with tune.SKLTerm.
func sklEstimateRef(b *block, j int, inv float64) float64 {
	skl := 0.0
	m0, m1 := b.moments.mean(j, inv) // chain n's means, n = 0 first
	e0, e1 := b.x.eta0[j], b.x.eta1[j]
	for n := 1; n < b.numChains; n++ {
		k := n*lanes + j
		p0, p1 := b.moments.mean(k, inv)
		f0, f1 := b.x.eta0[k], b.x.eta1[k]
		skl += tune.SKLTerm(e0, e1, f0, f1, m0, m1, p0, p1)
		m0, m1, e0, e1 = p0, p1, f0, f1
	}
	return skl
}

// TestScanStatsMatchLaneByLane checks the statistics endScan records from
// kernel.ScanSums against scanStatsRef, bit for bit, at every scan end of
// runs whose rejections reach 1 (a pair never swapped: a non-asymptotic
// barrier of +Inf) and of tuned runs on the Gaussian with two legs.
func TestScanStatsMatchLaneByLane(t *testing.T) {
	g1, _ := models.NewGaussian(1, -1, 1, 0.1, 0.1)
	far, _ := models.NewGaussian(1, -50, 50, 0.1, 0.1) // reference and target far apart: some pairs never swap
	cfgs := []Config{
		{Model: g1, Chains: 30, Replicates: 8, Iterations: 500, Scans: 5, Knots: 4, Seed: 1, TuneSchedule: true, TunePath: true, LearningRate: 0.2},
		{Model: far, Chains: 5, Replicates: 5, Iterations: 300, Scans: 3, Knots: 1, Seed: 2},
		{Model: walkGaussian(t), Chains: 12, VariationalLeg: 4, Replicates: 8, Iterations: 400, Scans: 4, Knots: 2, Seed: 3,
			TuneSchedule: true, TunePath: true, LearningRate: 0.2},
	}
	infs := 0
	for i, cfg := range cfgs {
		if err := cfg.Validate(); err != nil {
			t.Fatal(err)
		}
		perScan := cfg.Iterations / cfg.Scans
		b := newBlock(&cfg, 0, perScan)
		for s := 1; s <= cfg.Scans; s++ {
			for m := 0; m < perScan; m++ {
				b.iterate(cfg.Algorithm, s, (s-1)*perScan+m+1, m)
			}
			type ref struct {
				rej               []float64
				barrier, nab, skl float64
			}
			var want [lanes]ref
			for j := 0; j < cfg.Replicates; j++ {
				r := &want[j]
				r.rej, r.barrier, r.nab, r.skl = scanStatsRef(b, j, 1/float64(perScan))
			}
			b.endScan(&cfg, s, perScan)
			for j := 0; j < cfg.Replicates; j++ {
				got, w := b.hist[j][s-1], want[j]
				same := func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) }
				if !same(got.Barrier, w.barrier) || !same(got.NonAsymptoticBarrier, w.nab) || !same(got.SKL, w.skl) {
					t.Fatalf("config %d scan %d lane %d: barrier %v, %v, SKL %v; lane by lane %v, %v, %v", i, s, j,
						got.Barrier, got.NonAsymptoticBarrier, got.SKL, w.barrier, w.nab, w.skl)
				}
				for n, r := range w.rej {
					if !same(b.last[j][n], r) {
						t.Fatalf("config %d scan %d lane %d: rejection %d is %v, lane by lane %v", i, s, j, n, b.last[j][n], r)
					}
				}
				if math.IsInf(w.nab, 1) {
					infs++
				}
			}
		}
	}
	if infs == 0 {
		t.Error("no lane's non-asymptotic barrier was +Inf: the far-apart run did not reach the case")
	}
}

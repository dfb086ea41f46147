package batch

import (
	"math"

	"github.com/ptbatch/ptbatch/tune"
)

// endScan closes scan s (1-based) of M iterations for every lane: it
// records the scan's statistics, then, as alg:PT_tuning does, takes the
// path gradient step (on the samples' own schedule), updates the schedule
// (eq:equicrit) and recomputes the coefficients η(t_n).
func (b *block) endScan(cfg *Config, s, iters int) {
	c := b.numChains
	inv := 1 / float64(iters)
	for j := 0; j < lanes; j++ {
		last := &b.last[j]
		st := ScanStats{Scan: s, RoundTrips: b.trips[j]}
		for n := 0; n < c-1; n++ {
			r := b.rej[n*lanes+j] * inv
			last.rejection[n] = r
			st.Barrier += r
		}
		st.NonAsymptoticBarrier = tune.NonAsymptoticBarrier(last.rejection)
		st.MeanRejection = st.Barrier / float64(c-1)
		st.SKL = b.sklEstimate(j, inv)
		mean := b.sum1[j] * inv
		last.targetMean = b.shift[j] + mean
		if iters > 1 {
			last.tVar = (b.sum2[j] - float64(iters)*mean*mean) / float64(iters-1)
		} else {
			last.tVar = math.NaN()
		}
		last.tripsPerIteration = float64(b.tripsScan[j]) * inv
		b.hist[j] = append(b.hist[j], st)

		if cfg.TunePath {
			b.pathStep(cfg, j, iters)
		}
		if cfg.TuneSchedule {
			tune.UpdateSchedule(b.sched[j], b.sched[j], last.rejection)
		}
	}
	b.setEta()
	b.resetScan()
}

// sklEstimate returns Σ_n (η(t_{n+1}) - η(t_n))·(E_{n+1}[W] - E_n[W]), the
// estimate of Σ_n SKL(π_{t_n}, π_{t_{n+1}}) (eq:bound) from the scan's means
// of the energies by chain.
func (b *block) sklEstimate(j int, inv float64) float64 {
	skl := 0.0
	for n := 0; n+1 < b.numChains; n++ {
		i, k := n*lanes+j, (n+1)*lanes+j
		dW0 := (b.wShift0[k] + b.wSum0[k]*inv) - (b.wShift0[i] + b.wSum0[i]*inv)
		dW1 := (b.wShift1[k] + b.wSum1[k]*inv) - (b.wShift1[i] + b.wSum1[i]*inv)
		skl += (b.eta0[k]-b.eta0[i])*dW0 + (b.eta1[k]-b.eta1[i])*dW1
	}
	return skl
}

func (b *block) resetScan() {
	clear(b.rej)
	clear(b.wSum0)
	clear(b.wSum1)
	clear(b.wSq00)
	clear(b.wSq01)
	clear(b.wSq11)
	b.tripsScan = [lanes]int{}
	b.sum1 = [lanes]float64{}
	b.sum2 = [lanes]float64{}
}

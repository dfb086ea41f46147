package batch

import "github.com/ptbatch/ptbatch/kernel"

// energyMoments are the per-scan sums of every chain's energies after local
// exploration, shifted by the scan's first values to keep the sums well
// conditioned: the means give the SKL estimate (eq:bound), and with path
// tuning the sums of squares and cross products (block-form gradient) or
// the record of every iteration's energies (full-covariance gradient) give
// the path gradient.
type energyMoments struct {
	shift0, shift1   []float64 // by chain: the energies of the scan's first iteration
	sum0, sum1       []float64 // Σ_m (W_i - shift_i)
	sq00, sq01, sq11 []float64 // Σ_m products of the shifted energies (block gradient only)
	// record holds the energies for the full-covariance path gradient:
	// iteration m, column 2n+i (W_i at chain n), lane j at
	// (m*2C + 2n+i)*lanes + j.
	record []float64
}

// newEnergyMoments returns a block's zeroed energy moments for a run of
// cfg: the sums (and sums of squares) taken from sl, momentsFloats of
// them, and the record of recordRows iterations, when kept, allocated on
// its own, since it can be large.
func newEnergyMoments(cfg *Config, recordRows int, sl *slab) energyMoments {
	n := cfg.Chains * lanes
	e := energyMoments{
		shift0: sl.take(n),
		shift1: sl.take(n),
		sum0:   sl.take(n),
		sum1:   sl.take(n),
	}
	switch momentsForm(cfg) {
	case recordEnergies:
		e.record = make([]float64, recordRows*2*n)
	case sumSquares:
		e.sq00 = sl.take(n)
		e.sq01 = sl.take(n)
		e.sq11 = sl.take(n)
	}
	return e
}

// The energy moments a configuration keeps beyond the sums: none, the
// sums of squares and products (block-form gradient, automatic tuning),
// or the record of every iteration's energies (full-form gradient).
const (
	sumsOnly = iota
	sumSquares
	recordEnergies
)

// momentsForm returns which moments a run of cfg keeps.
func momentsForm(cfg *Config) int {
	switch {
	case !cfg.TunePath && cfg.Tuning != AutoTuning:
		return sumsOnly
	case cfg.Gradient == FullGradient && cfg.Tuning == PaperTuning:
		return recordEnergies
	}
	return sumSquares
}

// momentsFloats returns the room newEnergyMoments takes from its slab.
func momentsFloats(cfg *Config) int {
	rows := 4 // shift0, shift1, sum0, sum1
	if momentsForm(cfg) == sumSquares {
		rows += 3 // sq00, sq01, sq11
	}
	return rows * slabLen(cfg.Chains*lanes)
}

// add adds the chain-indexed energies w0, w1 of step mScan (0-based) of the
// scan.
func (e *energyMoments) add(w0, w1 []float64, mScan int) {
	if mScan == 0 {
		copy(e.shift0, w0)
		copy(e.shift1, w1)
	}
	// One lane kernel over all chains × lanes: each sum takes one IEEE
	// subtraction, product and addition per element, in the order of the
	// plain loop (asm.MomentsAddSqGeneric).
	if e.sq00 != nil {
		kernel.MomentsAddSq(e.sum0, e.sum1, e.sq00, e.sq01, e.sq11, w0, w1, e.shift0, e.shift1)
	} else {
		kernel.MomentsAdd(e.sum0, e.sum1, w0, w1, e.shift0, e.shift1)
	}
	if e.record == nil {
		return
	}
	c := len(w0) / lanes
	rec := e.record[mScan*2*c*lanes:]
	for n := 0; n < c; n++ {
		copy(rec[(2*n)*lanes:(2*n+1)*lanes], w0[n*lanes:(n+1)*lanes])
		copy(rec[(2*n+1)*lanes:(2*n+2)*lanes], w1[n*lanes:(n+1)*lanes])
	}
}

// mean returns the scan's mean of W0 and W1 at chain row offset i, from
// the shifted sums; inv is 1/M.
func (e *energyMoments) mean(i int, inv float64) (float64, float64) {
	return e.shift0[i] + e.sum0[i]*inv, e.shift1[i] + e.sum1[i]*inv
}

// reset clears the sums for the next scan.
func (e *energyMoments) reset() {
	clear(e.sum0)
	clear(e.sum1)
	clear(e.sq00)
	clear(e.sq01)
	clear(e.sq11)
}

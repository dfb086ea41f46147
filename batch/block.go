package batch

import (
	"time"

	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/layout"
	"github.com/ptbatch/ptbatch/models"
	"github.com/ptbatch/ptbatch/tune"
)

const lanes = layout.Lanes

// block is the whole state of layout.Lanes replicates: their states, the
// chain-indexed energies and coefficients, the swap and round-trip
// bookkeeping, and each replicate's tuning state. Rows of C chains are
// stored row-major, row n lane j at n*lanes+j.
type block struct {
	first     int // replicate index of lane 0
	numChains int
	indep     bool // the model draws exact independent samples
	rng       *kernel.Stream
	states    models.Block

	// By chain (numChains rows).
	eta0, eta1     []float64 // η(t_n) of the lane's current path and schedule
	w0, w1, firstX []float64 // energies and first coordinate of the state at chain n
	replica        []int32   // which replica (= slot) sits at chain n

	// By slot (numChains rows), used only when !indep.
	chainOf              []int32 // chain of slot s
	eta0s, eta1s         []float64
	w0s, w1s, firstSlots []float64

	// Communication.
	alpha  []float64 // numChains-1 rows
	rej    []float64 // numChains-1 rows: Σ_m (1-α_n) over the scan
	u      []float64 // swap uniforms, (numChains/2) rows
	coin   []float64 // one row, reversible only
	parity [lanes]int

	// Round trips, per replica (slot) and lane.
	leftZero   []bool // the replica has been at chain 0
	reachedTop []bool // … and has reached the last chain since
	trips      [lanes]int
	tripsScan  [lanes]int

	// Moments of the target chain's first coordinate over the scan,
	// shifted by the first value seen to keep the sums well conditioned.
	shift, sum1, sum2 [lanes]float64
	// Means of the energies by chain over the scan, shifted likewise, and
	// (with path tuning) their sums of squares and cross products, for the
	// block-form path gradient.
	wShift0, wShift1, wSum0, wSum1 []float64
	wSq00, wSq01, wSq11            []float64
	tmp0, tmp1, tmp2               []float64 // scratch rows for accumulateEnergies

	// Energies recorded for the full-covariance path gradient: iteration
	// m, column 2n+i (W_i at chain n), lane j at (m*2C + 2n+i)*lanes + j.
	record []float64

	// Per-lane tuning state.
	sched  [lanes][]float64
	path   [lanes]*tune.Spline
	work   [lanes]*tune.SKLWorkspace
	grad   []float64
	matrix []float64 // one replicate's recorded energies, M × 2C
	mean   []float64 // one replicate's E_n[W_i] at 2n+i
	cov    []float64 // … and Cov_n(W) at 3n, 3n+1, 3n+2

	hist [lanes][]ScanStats
	last [lanes]lastScan

	// Time spent in iterations and at the ends of scans.
	iterTime, tuneTime time.Duration
}

// lastScan keeps the statistics of the most recent scan of one replicate.
type lastScan struct {
	rejection         []float64
	targetMean, tVar  float64
	tripsPerIteration float64
}

// ScanStats are one replicate's statistics of one scan.
type ScanStats struct {
	Scan                 int     // 1-based
	RoundTrips           int     // cumulative, up to the end of this scan
	Barrier              float64 // Σ_n r_n, the estimate of Λ
	NonAsymptoticBarrier float64 // Σ_n r_n/(1-r_n) (eq:nonasympcb)
	SKL                  float64 // Σ_n SKL(π_{t_n}, π_{t_{n+1}}) estimate (eq:bound)
	MeanRejection        float64
}

func newBlock(cfg *Config, first, recordRows int) *block {
	c := cfg.Chains
	b := &block{
		first:      first,
		numChains:  c,
		indep:      cfg.Model.Independent(),
		rng:        kernel.NewStream(cfg.Seed, first),
		states:     cfg.Model.NewBlock(c),
		eta0:       layout.Float64s(c * lanes),
		eta1:       layout.Float64s(c * lanes),
		w0:         layout.Float64s(c * lanes),
		w1:         layout.Float64s(c * lanes),
		firstX:     layout.Float64s(c * lanes),
		replica:    make([]int32, c*lanes),
		alpha:      layout.Float64s((c - 1) * lanes),
		rej:        layout.Float64s((c - 1) * lanes),
		u:          layout.Float64s(c / 2 * lanes),
		coin:       layout.Float64s(lanes),
		leftZero:   make([]bool, c*lanes),
		reachedTop: make([]bool, c*lanes),
		wShift0:    make([]float64, c*lanes),
		wShift1:    make([]float64, c*lanes),
		wSum0:      make([]float64, c*lanes),
		wSum1:      make([]float64, c*lanes),
	}
	if !b.indep {
		b.chainOf = make([]int32, c*lanes)
		b.eta0s = layout.Float64s(c * lanes)
		b.eta1s = layout.Float64s(c * lanes)
		b.w0s = layout.Float64s(c * lanes)
		b.w1s = layout.Float64s(c * lanes)
		b.firstSlots = layout.Float64s(c * lanes)
	}
	for n := 0; n < c; n++ {
		for j := 0; j < lanes; j++ {
			b.replica[n*lanes+j] = int32(n)
			if !b.indep {
				b.chainOf[n*lanes+j] = int32(n)
			}
		}
	}
	for j := 0; j < lanes; j++ {
		b.leftZero[j] = true // replica 0 starts at chain 0
		b.sched[j] = tune.UniformSchedule(c)
		b.path[j] = tune.NewSpline(cfg.Knots)
		b.last[j].rejection = make([]float64, c-1)
	}
	if cfg.TunePath {
		if cfg.Gradient == FullGradient {
			b.record = make([]float64, recordRows*2*c*lanes)
			b.matrix = make([]float64, recordRows*2*c)
		} else {
			b.wSq00 = make([]float64, c*lanes)
			b.wSq01 = make([]float64, c*lanes)
			b.wSq11 = make([]float64, c*lanes)
			b.tmp0 = make([]float64, c*lanes)
			b.tmp1 = make([]float64, c*lanes)
			b.tmp2 = make([]float64, c*lanes)
			b.mean = make([]float64, 2*c)
			b.cov = make([]float64, 3*c)
		}
		b.grad = make([]float64, 2*(cfg.Knots-1))
		for j := range b.work {
			b.work[j] = new(tune.SKLWorkspace)
		}
	}
	b.setEta()
	if b.indep {
		b.states.Init(b.rng, models.Energies{W0: b.w0, W1: b.w1, First: b.firstX})
	} else {
		b.states.Init(b.rng, models.Energies{W0: b.w0s, W1: b.w1s, First: b.firstSlots})
		b.scatter()
	}
	return b
}

// setEta writes η(t_n) of every lane's path and schedule to the chain rows.
func (b *block) setEta() {
	for j := 0; j < lanes; j++ {
		for n, t := range b.sched[j] {
			b.eta0[n*lanes+j], b.eta1[n*lanes+j] = b.path[j].Eta(t)
		}
	}
}

// gather copies every slot's coefficients from the chain it sits at.
func (b *block) gather() {
	for i, n := range b.chainOf {
		k := int(n)*lanes + i%lanes
		b.eta0s[i], b.eta1s[i] = b.eta0[k], b.eta1[k]
	}
}

// scatter copies every slot's new energies to the chain it sits at.
func (b *block) scatter() {
	for i, n := range b.chainOf {
		k := int(n)*lanes + i%lanes
		b.w0[k], b.w1[k], b.firstX[k] = b.w0s[i], b.w1s[i], b.firstSlots[i]
	}
}

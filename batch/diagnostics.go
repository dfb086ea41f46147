package batch

import (
	"fmt"
	"math"
	"sync"

	"github.com/ptbatch/ptbatch/diag"
	"github.com/ptbatch/ptbatch/internal/wire"
)

// Diagnostics is a Statistic: it keeps the target chain's states of the
// kept scans (as Samples records them: the run's last Config.KeepScans, or
// FromScan on, every Thin-th iteration) in memory, per replicate and
// observable, and computes from them the multi-chain diagnostics of
// package diag with the replicates as the chains: rank-normalised split
// R-hat, bulk- and tail-ESS, the Monte Carlo standard error of the mean
// and the 5 %, 50 % and 95 % quantiles (Vehtari et al. 2021). Independent
// replicates are independent chains, so these check each replicate's
// exploration against the others' — what a per-replicate estimate (ESS)
// cannot see.
//
// It holds 8 bytes per kept state, replicate and observable: Observables
// limits the observables kept, Thin and MaxDraws the states. A Diagnostics
// observes one run.
type Diagnostics struct {
	// FromScan is the first scan whose states are kept; 0 means the
	// first of the kept scans (Config.KeepScans).
	FromScan int
	// Thin keeps iteration m when m is a multiple of Thin; 0 means 1.
	Thin int
	// Observables is the number of leading model observables kept; 0
	// means all.
	Observables int
	// MaxDraws bounds the memory: a replicate keeps at most 2·MaxDraws of
	// its states (KeepDraws: when it has 2·MaxDraws, every other one is
	// dropped and from then on every other state is kept), at least
	// MaxDraws once it has been given that many; 0 keeps them all.
	MaxDraws int

	once    sync.Once
	samples Samples
	draws   [][][]float64 // observable k, replicate b, kept state i
	thin    []thinner     // per replicate
}

// thinner decides which of a series' states a bounded store keeps: state
// i (0-based) while the stride is s when i is a multiple of s; when the
// store holds 2·max states, every other is dropped and s doubles, so that
// the states kept are always those whose index is a multiple of s.
type thinner struct {
	seen, stride int
}

// next reports whether the next state is kept.
func (t *thinner) next() bool {
	if t.stride == 0 {
		t.stride = 1
	}
	i := t.seen
	t.seen++
	return i%t.stride == 0
}

// full reports whether a store of n states must be halved (and doubles the
// stride if so).
func (t *thinner) full(n, max int) bool {
	if max <= 0 || n < 2*max {
		return false
	}
	t.stride *= 2
	return true
}

// halve keeps every other element of x, the first included.
func halve(x []float64) []float64 {
	for i := 0; 2*i < len(x); i++ {
		x[i] = x[2*i]
	}
	return x[:(len(x)+1)/2]
}

// KeepDraws returns the states of the series x that a Diagnostics with
// MaxDraws max keeps of one replicate given x in order (all of x when max
// is 0): ptbatch merge applies it to samples.csv.
func KeepDraws(x []float64, max int) []float64 {
	var t thinner
	var out []float64
	for _, v := range x {
		if !t.next() {
			continue
		}
		if out = append(out, v); t.full(len(out), max) {
			out = halve(out)
		}
	}
	return out
}

// NewObserver returns the recorder of one block.
func (d *Diagnostics) NewObserver(info BlockInfo) Observer {
	d.once.Do(func() { // field by field: a restored checkpoint may have set rows
		d.samples.FromScan, d.samples.Thin, d.samples.Write = d.FromScan, d.Thin, d.add
	})
	return d.samples.NewObserver(info)
}

// CollectScan keeps the scan's states.
func (d *Diagnostics) CollectScan(scan int) error { return d.samples.CollectScan(scan) }

// add keeps the state x of replicate b.
func (d *Diagnostics) add(b, _ int, x []float64) error {
	k := len(x)
	if d.Observables > 0 {
		k = min(k, d.Observables)
	}
	for len(d.draws) < k {
		d.draws = append(d.draws, nil)
	}
	for len(d.thin) <= b {
		d.thin = append(d.thin, thinner{})
	}
	if !d.thin[b].next() {
		return nil
	}
	for i, v := range x[:k] {
		for len(d.draws[i]) <= b {
			d.draws[i] = append(d.draws[i], nil)
		}
		d.draws[i][b] = append(d.draws[i][b], v)
	}
	if k > 0 && d.thin[b].full(len(d.draws[0][b]), d.MaxDraws) {
		for i := range d.draws {
			d.draws[i][b] = halve(d.draws[i][b])
		}
	}
	return nil
}

// Draws returns, per run-relative replicate, the kept states of
// observable k (nil when k is not kept or nothing is kept yet). The
// slices are the statistic's own: the caller must not modify them. Call
// it between Engine.Steps or after the run.
func (d *Diagnostics) Draws(k int) [][]float64 {
	if k < 0 || k >= len(d.draws) {
		return nil
	}
	return d.draws[k]
}

// Kept returns the number of observables kept so far.
func (d *Diagnostics) Kept() int { return len(d.draws) }

// Summaries returns, per kept observable, diag.Summarize of its draws
// with the replicates as the chains, and the error that kept it from
// being computed (diag.ErrTooFewChains with one replicate,
// diag.ErrTooFewDraws with fewer than diag.MinDraws kept states, …); the
// Summary is the zero value where the error is not nil.
func (d *Diagnostics) Summaries() ([]diag.Summary, []error) {
	sums, errs := make([]diag.Summary, len(d.draws)), make([]error, len(d.draws))
	for k, chains := range d.draws {
		sums[k], errs[k] = diag.Summarize(chains)
	}
	return sums, errs
}

// ErrorBars returns ErrorBars of observable k's draws.
func (d *Diagnostics) ErrorBars(k int) (perReplicate, between float64) {
	return ErrorBars(d.Draws(k))
}

// ErrorBars returns two standard errors of the mean over all replicates
// of one observable, chains holding each replicate's draws: perReplicate,
// from each replicate's own draws and batch-means ESS
// (EffectiveSampleSize), √(Σ_b s_b²/ESS_b)/R; and between, from the
// spread of the replicates' means alone, sd_b(x̄_b)/√R. When each
// replicate's ESS is right the two agree (up to the noise of an sd over R
// replicates); a per-replicate ESS overstated by a factor f makes
// perReplicate √f times too small. NaN with fewer than two replicates or
// too few draws for the batch means.
func ErrorBars(chains [][]float64) (perReplicate, between float64) {
	r := float64(len(chains))
	if len(chains) < 2 {
		return math.NaN(), math.NaN()
	}
	means := make([]float64, len(chains))
	var sum float64
	for b, c := range chains {
		var m BatchMeans
		for _, v := range c {
			m.Add(v)
		}
		means[b] = m.Mean()
		sum += m.Variance() / m.ESS()
	}
	_, between = MeanSE(means)
	return math.Sqrt(sum) / r, between
}

// describe returns the settings of a Diagnostics.
func (d *Diagnostics) describe() string {
	return fmt.Sprintf("FromScan=%d Thin=%d Observables=%d MaxDraws=%d", d.FromScan, d.Thin, d.Observables, d.MaxDraws)
}

var _ StatisticState = (*Diagnostics)(nil)

// MarshalBinary returns the kept states (the open scan's are in the
// observers' state).
func (d *Diagnostics) MarshalBinary() ([]byte, error) {
	var w wire.Writer
	w.String("diagnostics/1")
	w.Int(d.samples.rows)
	seen, stride := make([]int, len(d.thin)), make([]int, len(d.thin))
	for b, t := range d.thin {
		seen[b], stride[b] = t.seen, t.stride
	}
	w.Ints(seen)
	w.Ints(stride)
	w.Int(len(d.draws))
	for _, rows := range d.draws {
		rows2(&w, rows)
	}
	return w.Bytes(), nil
}

// UnmarshalBinary restores what MarshalBinary saved.
func (d *Diagnostics) UnmarshalBinary(data []byte) error {
	r := wire.NewReader(data)
	r.Expect("diagnostics/1")
	rows, seen, stride := r.Int(), r.Ints(), r.Ints()
	k := r.Int()
	if r.Err() == nil && (len(seen) != len(stride) || k < 0 || k > 1<<30) {
		r.Failf("batch: %d observables, %d and %d replicates", k, len(seen), len(stride))
	}
	var draws [][][]float64
	for i := 0; i < k && r.Err() == nil; i++ {
		draws = append(draws, readRows2(r))
	}
	if err := closeState(r, "diagnostics"); err != nil {
		return err
	}
	thin := make([]thinner, len(seen))
	for b := range thin {
		thin[b] = thinner{seen: seen[b], stride: stride[b]}
	}
	d.samples.rows, d.draws, d.thin = rows, draws, thin
	return nil
}

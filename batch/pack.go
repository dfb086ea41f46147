package batch

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"time"

	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/models"
	"github.com/ptbatch/ptbatch/tune"
)

// Packed is several runs of one model stepped together, their replicates
// packed into shared blocks of layout.Lanes lanes: the runs' replicates
// one after the other, run by run, so that only the last block may have
// padding lanes, where runs of their own would each pad their last block.
// Each lane is a replicate of one run, with that replicate's stream
// (kernel.NewStreamLanes), its run's algorithm, path, schedule tuning and
// learning rate, and its run's statistics: each run's Result is, but for
// the seconds (Elapsed, TuningFraction), the one its own run gives.
//
// The runs must agree on the model, chains, iterations, scans, kept
// scans and seed, use the paper's tuning (PaperTuning) with one leg and,
// when they tune the path, the block gradient; they may differ in
// replicates (and FirstReplicate), algorithm, knots, TunePath,
// TuneSchedule, learning rate and statistics. Workers and Pin are the
// first run's. A Packed has no checkpoint.
type Packed struct {
	e     *Engine
	where [][]laneRef // per run and replicate, its block and lane
}

// laneRef is where a replicate sits: block blk, lane lane.
type laneRef struct{ blk, lane int }

// laneUnit is a lane's replicate: run c's run-relative replicate r.
type laneUnit struct{ c, r int }

// packing is what a packed block's lanes hold: each lane's run's
// configuration (nil for a padding lane) and, per run in the block, its
// lanes and observers.
type packing struct {
	of     [lanes]*Config
	groups []*laneGroup
}

// laneGroup is the lanes of one run in a packed block, which are
// consecutive: its observers see them through view, as lanes 0 … of a
// block of the run's own whose first replicate is info.FirstReplicate
// (the lanes past info.Replicates show the group's first lane, and no
// observer reports them).
type laneGroup struct {
	info      BlockInfo
	lanes     [lanes]int // the block's lane of the view's lane j
	observers []Observer
	view      View
}

// iterate lets every run's observers see the iteration v is at.
func (p *packing) iterate(v *View) {
	for _, g := range p.groups {
		g.view.Iteration, g.view.Scan, g.view.Step = v.Iteration, v.Scan, v.Step
		for _, o := range g.observers {
			o.Iterate(&g.view)
		}
	}
}

// endScan lets every run's observers close the scan v is at.
func (p *packing) endScan(v *View) {
	for _, g := range p.groups {
		g.view.Iteration, g.view.Scan, g.view.Step = v.Iteration, v.Scan, v.Step
		for _, o := range g.observers {
			o.EndScan(&g.view)
		}
	}
}

// NewPacked validates every configuration (as New does), checks that the
// runs can be packed, and builds their blocks' initial state, each
// allocated by the worker that will own it.
func NewPacked(cfgs []Config) (*Packed, error) {
	if len(cfgs) == 0 {
		return nil, errors.New("batch: no runs to pack")
	}
	cfgs = append([]Config(nil), cfgs...)
	for i := range cfgs {
		c := &cfgs[i]
		if err := checkFits(c); err != nil {
			return nil, err
		}
		if err := c.Validate(); err != nil {
			return nil, err
		}
		c.Knots = max(c.Knots, 1)
		if err := checkPackable(&cfgs[0], c); err != nil {
			return nil, fmt.Errorf("batch: cannot pack run %d with run 0: %s", i, err)
		}
	}
	var units []laneUnit
	where := make([][]laneRef, len(cfgs))
	for c := range cfgs {
		for r := 0; r < cfgs[c].Replicates; r++ {
			where[c] = append(where[c], laneRef{len(units) / lanes, len(units) % lanes})
			units = append(units, laneUnit{c, r})
		}
	}
	base := &cfgs[0]
	e := &Engine{cfg: *base, perScan: base.Iterations / base.Scans, start: time.Now(), packed: cfgs}
	e.setWorkers((len(units) + lanes - 1) / lanes)
	err := e.parallel(func(lo, hi int) {
		for i := lo; i < hi; i++ {
			e.blocks[i] = newPackedBlock(cfgs, units[i*lanes:min((i+1)*lanes, len(units))], e.perScan)
		}
	})
	e.elapsed = time.Since(e.start)
	if err != nil {
		return nil, err
	}
	return &Packed{e: e, where: where}, nil
}

// checkPackable returns why run c cannot be packed with run base, or nil.
func checkPackable(base, c *Config) error {
	switch {
	case c.Tuning != PaperTuning:
		return errors.New("only the paper's tuning is packed, not the automatic tuner")
	case c.VariationalLeg != 0:
		return errors.New("a run with a second leg is not packed")
	case c.TunePath && c.Gradient == FullGradient:
		return errors.New("the full-covariance gradient is not packed")
	case !sameModel(base.Model, c.Model):
		return errors.New("the runs have different models")
	case c.Chains != base.Chains || c.Iterations != base.Iterations || c.Scans != base.Scans:
		return fmt.Errorf("chains, iterations or scans differ (%d, %d, %d against %d, %d, %d)",
			c.Chains, c.Iterations, c.Scans, base.Chains, base.Iterations, base.Scans)
	case c.KeepScansInEffect() != base.KeepScansInEffect():
		return fmt.Errorf("kept scans differ (%d against %d)", c.KeepScansInEffect(), base.KeepScansInEffect())
	case c.Seed != base.Seed:
		return fmt.Errorf("seeds differ (%d against %d)", c.Seed, base.Seed)
	}
	return nil
}

// sameModel reports whether a and b are the same model value (false for
// models that cannot be compared).
func sameModel(a, b models.Model) bool {
	t := reflect.TypeOf(a)
	return t == reflect.TypeOf(b) && t.Comparable() && a == b
}

// newPackedBlock allocates the packed block of the replicates units (at
// most layout.Lanes; the lanes past them are padding) of the runs cfgs,
// which agree on what checkPackable checks, and sets every state to the
// model's initial one.
func newPackedBlock(cfgs []Config, units []laneUnit, recordRows int) *block {
	base := &cfgs[0]
	c, n := base.Chains, len(units)
	info := BlockInfo{Replicates: n, Chains: c, Observables: models.NumObservables(base.Model),
		Scans: base.Scans, KeepScans: base.KeepScansInEffect()}
	// The allocations for every lane: the largest spline, and the
	// gradient's scratch if any lane tunes its path.
	alloc := Config{Chains: c, Knots: 1, Tuning: PaperTuning}
	pk := &packing{}
	var reps [lanes]int
	var algs [lanes]Algorithm
	for j := range reps {
		if j >= n { // padding: replicates past the last lane's, and its algorithm
			reps[j], algs[j] = reps[n-1]+j-n+1, algs[n-1]
			continue
		}
		cfg := &cfgs[units[j].c]
		pk.of[j], reps[j], algs[j] = cfg, cfg.FirstReplicate+units[j].r, cfg.Algorithm
		alloc.Knots = max(alloc.Knots, cfg.Knots)
		alloc.TunePath = alloc.TunePath || cfg.TunePath
		alloc.TuneSchedule = alloc.TuneSchedule || cfg.TuneSchedule
	}
	exact := models.IsExact(base.Model)
	sl := newSlab(exchangeFloats(c, exact) + momentsFloats(&alloc) + tunerFloats(&alloc) + lanes*slabLen(c-1))
	b := &block{
		info:      info,
		numChains: c,
		alg:       algs[0],
		pk:        pk,
		rng:       kernel.NewStreamLanes(base.Seed, &reps),
		states:    base.Model.NewBlock(models.BlockSpec{FirstReplicate: reps[0], Rows: c, Padding: lanes - n, LaneReplicates: &reps}),
		x:         newExchange(c, exact, &sl),
		moments:   newEnergyMoments(&alloc, recordRows, &sl),
		tuner:     newTuner(&alloc, recordRows, &sl, true, nil),
		trips:     newRoundTrips(info),
		target:    new(firstMoments),
	}
	for j := range n {
		b.tuner.path[j] = tune.NewSpline(pk.of[j].Knots)
		if algs[j] != b.alg {
			b.x.algs = &algs
		}
	}
	b.view.b = b
	b.observers = []Observer{b.trips, b.target}
	pk.groups = laneGroups(b, cfgs, units)
	b.start(base.Scans, &sl)
	return b
}

// laneGroups returns the groups of consecutive lanes of each run in block
// b of the replicates units, with their runs' observers.
func laneGroups(b *block, cfgs []Config, units []laneUnit) []*laneGroup {
	var groups []*laneGroup
	for lo := 0; lo < len(units); {
		hi := lo + 1
		for hi < len(units) && units[hi].c == units[lo].c {
			hi++
		}
		g := &laneGroup{info: b.info}
		g.info.FirstReplicate, g.info.Replicates = units[lo].r, hi-lo
		for j := range g.lanes {
			g.lanes[j] = lo
			if j < hi-lo {
				g.lanes[j] = lo + j
			}
		}
		g.view = View{b: b, g: g}
		for _, s := range cfgs[units[lo].c].Statistics {
			g.observers = append(g.observers, s.NewObserver(g.info))
		}
		groups = append(groups, g)
		lo = hi
	}
	return groups
}

// Blocks returns the number of blocks the packed runs share.
func (p *Packed) Blocks() int { return len(p.e.blocks) }

// Scans returns the number of scans completed.
func (p *Packed) Scans() int { return p.e.scans }

// Done reports whether every configured scan has run.
func (p *Packed) Done() bool { return p.e.Done() }

// Step runs the next scan of every run, as Engine.Step does, and then
// lets every run's ScanCollectors collect it, run by run.
func (p *Packed) Step(ctx context.Context) error { return p.e.Step(ctx) }

// Results returns each run's result so far, in the order of the
// configurations: what Engine.Result of the run alone returns, but for
// Elapsed and TuningFraction, which are those of all the packed runs.
func (p *Packed) Results() []*Result {
	out := make([]*Result, len(p.e.packed))
	for c := range out {
		out[c] = p.e.resultOf(&p.e.packed[c], func(b int) (*block, int) {
			r := p.where[c][b]
			return p.e.blocks[r.blk], r.lane
		})
	}
	return out
}

// RunPacked packs the runs cfgs (NewPacked) and runs them to their end,
// as Run does each: when ctx is cancelled they stop within one iteration
// and it returns the results of the scans completed, with Interrupted
// set. progress, if not nil, is called after every scan.
func RunPacked(ctx context.Context, cfgs []Config, progress func(Progress)) ([]*Result, error) {
	p, err := NewPacked(cfgs)
	if err != nil {
		return nil, err
	}
	if err := p.e.runScans(ctx, progress); err != nil {
		return nil, err
	}
	return p.Results(), nil
}

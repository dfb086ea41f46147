package models

import (
	"fmt"

	"github.com/ptbatch/ptbatch/internal/wire"
	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/layout"
)

// variationalBlock is the wrapped FromFuncs block with one variational
// lane per replicate; a fitted lane's Target reads the lane's Funcs.
type variationalBlock struct {
	v     *variationalModel
	fb    *funcsBlock
	lanes [layout.Lanes]*variationalLane
	chain []int32 // the chains of the last Explore, for errors at a refit
	// second is the first chain of the second leg (BlockSpec.SecondLeg),
	// 0 without one.
	second int32
	// frozen marks the lanes whose path and schedule the engine's
	// automatic tuner has fixed (FreezeLane): their references no longer
	// change.
	frozen [layout.Lanes]bool
}

// LaneFreezer is a Block with per-replicate adaptation that the engine
// stops when its automatic tuner (batch.AutoTuning) fixes a replicate's
// path and schedule: after each scan's end, FreezeLane(j) for every lane
// j whose tuning has stopped. Variational's blocks implement it, so that
// a replicate's reference is frozen with its path.
type LaneFreezer interface {
	Block
	FreezeLane(lane int)
}

// FreezeLane fixes lane lane's reference from now on.
func (b *variationalBlock) FreezeLane(lane int) { b.frozen[lane] = true }

// Init draws every row from the model's own reference.
func (b *variationalBlock) Init(rng *kernel.Stream, rows Rows, out Energies) {
	b.chain = append(b.chain[:0], rows.Chain...)
	b.fb.Init(rng, rows, out)
}

// Explore moves every row, then, in a scan that ends with a fit, adds
// every lane's target-chain states to its sums: those at the last chain,
// or with a second leg (BlockSpec.SecondLeg) those at both target chains.
// A Stabilized block first recomputes W0 of every row whose leg changed
// since the last call (ChangeLeg does it at once when the engine calls
// it), so that the explorers start from the energies of the row's leg.
func (b *variationalBlock) Explore(rng *kernel.Stream, rows Rows, out Energies) {
	if b.v.stabilized {
		for i, n := range rows.Chain {
			if (n >= b.second) != (b.chain[i] >= b.second) {
				b.relocate(i/layout.Lanes, i%layout.Lanes, n)
			}
		}
	}
	b.chain = append(b.chain[:0], rows.Chain...)
	b.fb.Explore(rng, rows, out)
	if b.fb.scans >= b.v.fitScans {
		return
	}
	top, low := int32(b.fb.rows-1), int32(b.fb.rows-1)
	if b.second > 0 {
		top, low = b.second, b.second-1
	}
	for i, n := range rows.Chain {
		if (n == top || n == low) && i%layout.Lanes < b.fb.real { // padding lanes stay put
			b.fb.load(i/layout.Lanes, i%layout.Lanes)
			b.lanes[i%layout.Lanes].add(b.fb.state)
		}
	}
}

// ChangeLeg records that the state in row row, lane lane is now at chain
// chain and returns its W0 under the reference of that chain's leg
// (LegChanger): the fitted one on a Stabilized block's second leg once
// the lane is fitted, the model's own otherwise.
func (b *variationalBlock) ChangeLeg(row, lane, chain int) float64 {
	i := row*layout.Lanes + lane
	if b.v.stabilized && (int32(chain) >= b.second) != (b.chain[i] >= b.second) {
		b.relocate(row, lane, int32(chain))
	}
	b.chain[i] = int32(chain)
	return b.fb.w[i][0]
}

// relocate recomputes W0 of row row, lane lane for chain n's leg.
func (b *variationalBlock) relocate(row, lane int, n int32) {
	t := b.fb.funcsAt(lane, n)
	t.chain = int(n)
	b.fb.load(row, lane)
	b.fb.w[row*layout.Lanes+lane][0] = t.call0(b.fb.state)
}

// Observe writes the first len(dst) coordinates of row row, lane lane.
func (b *variationalBlock) Observe(dst []float64, row, lane int) { b.fb.Observe(dst, row, lane) }

// EndScan adapts the explorers, then at the end of each of the first
// fitScans scans refits the reference of every lane not frozen
// (FreezeLane) and recomputes W0 of the lane's states under it.
func (b *variationalBlock) EndScan() {
	b.fb.EndScan()
	if b.fb.scans > b.v.fitScans {
		return
	}
	for j, l := range b.lanes[:b.fb.real] {
		if b.frozen[j] {
			l.clear()
		} else if l.fit(b.v.logZ0) {
			b.use(j)
		}
	}
}

// use makes lane j's Target read the lane's fitted reference and
// recomputes W0 of every row of the lane under it: for a Stabilized
// block, the rows on the second leg only (the first keeps the model's own
// reference).
func (b *variationalBlock) use(j int) {
	if b.v.stabilized {
		b.fb.secondF[j] = &b.lanes[j].f
	} else {
		b.fb.targets[j].f = &b.lanes[j].f
	}
	for r := 0; r < b.fb.rows; r++ {
		i := r*layout.Lanes + j
		if b.v.stabilized && b.chain[i] < b.second {
			continue
		}
		t := b.fb.funcsAt(j, b.chain[i])
		t.chain = int(b.chain[i])
		b.fb.load(r, j)
		b.fb.w[i][0] = t.call0(b.fb.state)
	}
}

const variationalStateTag = "variational-block/2"

// MarshalBinary saves the wrapped block and every lane's reference and
// open sums (models.BlockState).
func (b *variationalBlock) MarshalBinary() ([]byte, error) {
	inner, err := b.fb.MarshalBinary()
	if err != nil {
		return nil, err
	}
	var w wire.Writer
	w.String(variationalStateTag)
	w.Blob(inner)
	w.Int32s(b.chain)
	w.Bools(b.frozen[:])
	for _, l := range b.lanes {
		w.Bool(l.fitted)
		w.Int(l.n)
		for _, v := range [][]float64{l.m, l.s, l.shift, l.sum1, l.sum2} {
			w.Float64s(v)
		}
	}
	return w.Bytes(), nil
}

// UnmarshalBinary restores what MarshalBinary saved into a block of the
// same model and shape.
func (b *variationalBlock) UnmarshalBinary(data []byte) error {
	r := wire.NewReader(data)
	r.Expect(variationalStateTag)
	inner := r.Blob()
	chain := r.Int32s()
	var frozen [layout.Lanes]bool
	r.BoolsInto(frozen[:], "frozen lanes")
	lanes := b.lanes
	for j := range lanes {
		l := newVariationalLane(b.v, b.v.inner.f)
		l.fitted, l.n = r.Bool(), r.Int()
		for _, v := range [][]float64{l.m, l.s, l.shift, l.sum1, l.sum2} {
			r.Float64sInto(v, "variational lane")
		}
		lanes[j] = l
	}
	if err := r.Close(); err != nil {
		return fmt.Errorf("models: variational block state: %w", err)
	}
	if len(chain) != len(b.fb.w) {
		return fmt.Errorf("models: variational block state of %d rows×lanes, want %d", len(chain), len(b.fb.w))
	}
	if err := b.fb.UnmarshalBinary(inner); err != nil {
		return err
	}
	b.chain, b.lanes, b.frozen = chain, lanes, frozen
	for j, l := range b.lanes {
		switch {
		case l.fitted && b.v.stabilized:
			l.setNorm(b.v.logZ0)
			b.fb.secondF[j] = &l.f
		case l.fitted:
			l.setNorm(b.v.logZ0)
			b.fb.targets[j].f = &l.f
		}
	}
	return nil
}

var (
	_ Described  = (*variationalModel)(nil)
	_ BlockState = (*variationalBlock)(nil)
	_ LegChanger = (*variationalBlock)(nil)
)

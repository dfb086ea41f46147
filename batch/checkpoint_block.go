package batch

import (
	"fmt"
	"time"

	"github.com/ptbatch/ptbatch/internal/wire"
	"github.com/ptbatch/ptbatch/models"
)

const blockStateTag = "block/1"

// marshal returns the block's state for a checkpoint: its place in the
// run, its random streams, the model's states, the exchange, the scan's
// energy moments, the tuners, the per-scan statistics and every
// observer's state. Scratch that the next iteration overwrites before
// reading (swap acceptances and uniforms, gradient workspaces) is left out.
func (b *block) marshal() ([]byte, error) {
	var w wire.Writer
	w.String(blockStateTag)
	w.Int(b.info.FirstReplicate)
	w.Int(b.scans)
	w.Int(b.pos)
	w.Int(int(b.iterTime))
	w.Int(int(b.tuneTime))

	rng, err := b.rng.MarshalBinary()
	if err != nil {
		return nil, err
	}
	w.Blob(rng)
	ms, ok := b.states.(models.BlockState)
	if !ok {
		return nil, fmt.Errorf("the model's block (%T) is not a models.BlockState: its state cannot be saved in a checkpoint", b.states)
	}
	st, err := ms.MarshalBinary()
	if err != nil {
		return nil, err
	}
	w.Blob(st)

	x := &b.x
	for _, v := range [][]float64{x.eta0, x.eta1, x.w0, x.w1, x.eta0s, x.eta1s, x.w0s, x.w1s, x.rej} {
		w.Float64s(v)
	}
	w.Int32s(x.replica)
	w.Int32s(x.chainOf)
	w.Int32s(x.targetFrom[:])

	m := &b.moments
	for _, v := range [][]float64{m.shift0, m.shift1, m.sum0, m.sum1, m.sq00, m.sq01, m.sq11} {
		w.Float64s(v)
	}
	if m.record != nil {
		// The iterations of the open scan: the rest is overwritten before
		// the scan's end reads it.
		w.Float64s(m.record[:b.pos*2*len(m.sum0)])
	} else {
		w.Float64s(nil)
	}

	for j := 0; j < lanes; j++ {
		w.Float64s(b.tuner.sched[j])
		p, err := b.tuner.path[j].MarshalBinary()
		if err != nil {
			return nil, err
		}
		w.Blob(p)
		// The automatic tuner (AutoTuning), or nothing.
		var at []byte
		if a := b.tuner.auto[j]; a != nil {
			if at, err = a.MarshalBinary(); err != nil {
				return nil, err
			}
		}
		w.Blob(at)
	}

	for j := 0; j < lanes; j++ {
		w.Int(len(b.hist[j]))
		for _, s := range b.hist[j] {
			w.Int(s.Scan)
			w.Int(s.RoundTrips)
			for _, v := range []float64{s.Barrier, s.NonAsymptoticBarrier, s.SKL, s.MeanRejection, s.TargetMean, s.TargetVar} {
				w.Float64(v)
			}
		}
		w.Float64s(b.last[j])
		p := &b.prev[j]
		w.Float64s(p.rejection)
		w.Int(p.tripsScan)
		w.Float64s(p.schedule)
		w.Int(len(p.knots))
		for _, k := range p.knots {
			w.Float64(k[0])
			w.Float64(k[1])
		}
		w.Int(p.rounds)
		w.Int(p.used)
		w.Bool(p.frozen)
	}

	if b.trips.legs != nil {
		b.marshalLegs(&w)
	}

	w.Int(len(b.observers))
	for i, o := range b.observers {
		so, ok := o.(ObserverState)
		if !ok {
			return nil, fmt.Errorf("observer %d (%T) is not an ObserverState: its state cannot be saved in a checkpoint", i, o)
		}
		data, err := so.MarshalBinary()
		if err != nil {
			return nil, fmt.Errorf("observer %d (%T): %w", i, o, err)
		}
		w.Blob(data)
	}
	return w.Bytes(), nil
}

// unmarshal sets a new block of the same configuration to a state saved by
// marshal; iters is the number of iterations per scan.
func (b *block) unmarshal(cfg *Config, data []byte, iters int) error {
	r := wire.NewReader(data)
	r.Expect(blockStateTag)
	if first := r.Int(); r.Err() == nil && first != b.info.FirstReplicate {
		return fmt.Errorf("the state of the block of replicate %d, want %d", first, b.info.FirstReplicate)
	}
	scans, pos := r.Int(), r.Int()
	if r.Err() == nil && (scans < 0 || scans > cfg.Scans || pos < 0 || pos >= iters || (pos > 0 && scans == cfg.Scans)) {
		return fmt.Errorf("block at scan %d, iteration %d of a run of %d scans of %d", scans, pos, cfg.Scans, iters)
	}
	iterTime, tuneTime := r.Int(), r.Int()

	if rng := r.Blob(); r.Err() == nil {
		if err := b.rng.UnmarshalBinary(rng); err != nil {
			return err
		}
	}
	if st := r.Blob(); r.Err() == nil {
		ms, ok := b.states.(models.BlockState)
		if !ok {
			return fmt.Errorf("the model's block (%T) is not a models.BlockState", b.states)
		}
		if err := ms.UnmarshalBinary(st); err != nil {
			return err
		}
	}

	x := &b.x
	names := []string{"eta0", "eta1", "W0", "W1", "slot eta0", "slot eta1", "slot W0", "slot W1", "rejections"}
	for i, v := range [][]float64{x.eta0, x.eta1, x.w0, x.w1, x.eta0s, x.eta1s, x.w0s, x.w1s, x.rej} {
		r.Float64sInto(v, names[i])
	}
	r.Int32sInto(x.replica, "replicas")
	r.Int32sInto(x.chainOf, "chains of slots")
	r.Int32sInto(x.targetFrom[:], "target rows")
	x.epoch++ // the coefficients were just overwritten
	if r.Err() == nil {
		if err := x.check(); err != nil {
			return err
		}
	}

	m := &b.moments
	names = []string{"shift0", "shift1", "sum0", "sum1", "sq00", "sq01", "sq11"}
	for i, v := range [][]float64{m.shift0, m.shift1, m.sum0, m.sum1, m.sq00, m.sq01, m.sq11} {
		r.Float64sInto(v, names[i])
	}
	rec := r.Float64s()
	if r.Err() == nil {
		switch {
		case m.record == nil && len(rec) > 0:
			r.Failf("%d recorded energies without the full-covariance gradient", len(rec))
		case m.record != nil && len(rec) != pos*2*len(m.sum0):
			r.Failf("%d recorded energies at iteration %d, want %d", len(rec), pos, pos*2*len(m.sum0))
		default:
			copy(m.record, rec)
		}
	}

	for j := 0; j < lanes && r.Err() == nil; j++ {
		r.Float64sInto(b.tuner.sched[j], "schedule")
		if p := r.Blob(); r.Err() == nil {
			if err := b.tuner.path[j].UnmarshalBinary(p); err != nil {
				return err
			}
		}
		at := r.Blob()
		switch a := b.tuner.auto[j]; {
		case r.Err() != nil:
		case a == nil && len(at) > 0:
			r.Failf("an automatic tuner's state in a run without AutoTuning")
		case a != nil:
			if err := a.UnmarshalBinary(at); err != nil {
				return err
			}
		}
	}

	c := b.numChains
	for j := 0; j < lanes && r.Err() == nil; j++ {
		n := r.Int()
		if r.Err() == nil && (n < 0 || n > cfg.Scans) {
			r.Failf("%d scans of statistics, at most %d", n, cfg.Scans)
			break
		}
		hist := make([]ScanStats, n)
		for i := range hist {
			s := &hist[i]
			s.Scan, s.RoundTrips = r.Int(), r.Int()
			for _, v := range []*float64{&s.Barrier, &s.NonAsymptoticBarrier, &s.SKL, &s.MeanRejection, &s.TargetMean, &s.TargetVar} {
				*v = r.Float64()
			}
		}
		if r.Err() == nil && n != scans {
			r.Failf("lane %d has the statistics of %d scans, the block completed %d", j, n, scans)
		}
		b.hist[j] = hist
		r.Float64sInto(b.last[j], "last rejections")
		p := &b.prev[j]
		p.rejection = r.Float64s()
		p.tripsScan = r.Int()
		p.schedule = r.Float64s()
		nk := r.Int()
		if r.Err() == nil && (nk < 0 || nk > cfg.Knots+1) {
			r.Failf("%d knots of a %d-segment spline", nk, cfg.Knots)
			break
		}
		p.knots = nil
		for k := 0; k < nk; k++ {
			p.knots = append(p.knots, [2]float64{r.Float64(), r.Float64()})
		}
		p.rounds, p.used, p.frozen = r.Int(), r.Int(), r.Bool()
		if r.Err() == nil && scans > 0 && (len(p.rejection) != c-1 || len(p.schedule) != c) {
			r.Failf("lane %d's previous report has %d rejections and %d schedule points", j, len(p.rejection), len(p.schedule))
		}
	}

	if b.trips.legs != nil {
		b.unmarshalLegs(r, scans)
	}

	if n := r.Int(); r.Err() == nil && n != len(b.observers) {
		r.Failf("%d observers, want %d", n, len(b.observers))
	}
	for i, o := range b.observers {
		data := r.Blob()
		if r.Err() != nil {
			break
		}
		so, ok := o.(ObserverState)
		if !ok {
			return fmt.Errorf("observer %d (%T) is not an ObserverState", i, o)
		}
		if err := so.UnmarshalBinary(data); err != nil {
			return fmt.Errorf("observer %d (%T): %w", i, o, err)
		}
	}
	if err := r.Close(); err != nil {
		return err
	}
	b.scans, b.pos = scans, pos
	b.iterTime, b.tuneTime = time.Duration(iterTime), time.Duration(tuneTime)
	return nil
}

// marshalLegs appends, with two legs, every lane's leg counts by scan
// and the automatic tuner's pooled leg-2 rejections.
func (b *block) marshalLegs(w *wire.Writer) {
	for j := 0; j < lanes; j++ {
		w.Int(len(b.legHist[j]))
		for _, c := range b.legHist[j] {
			w.Ints(append(append(c.trips[:], c.restarts[:]...), c.scanTrips[:]...))
		}
		w.Float64s(b.tuner.legRound[j])
		w.Int(b.tuner.legIters[j])
	}
}

// unmarshalLegs reads what marshalLegs appended, for a block that
// completed scans scans.
func (b *block) unmarshalLegs(r *wire.Reader, scans int) {
	for j := 0; j < lanes && r.Err() == nil; j++ {
		n := r.Int()
		if r.Err() == nil && n != scans {
			r.Failf("lane %d has the leg counts of %d scans, the block completed %d", j, n, scans)
			return
		}
		b.legHist[j] = make([]legCounts, n)
		for i := range b.legHist[j] {
			v := make([]int, 6)
			r.IntsInto(v, "leg counts")
			c := &b.legHist[j][i]
			copy(c.trips[:], v[0:2])
			copy(c.restarts[:], v[2:4])
			copy(c.scanTrips[:], v[4:6])
		}
		if b.tuner.legRound[j] != nil {
			r.Float64sInto(b.tuner.legRound[j], "leg-2 rejections")
		} else if v := r.Float64s(); r.Err() == nil && len(v) > 0 {
			r.Failf("leg-2 rejections of a round without the automatic tuner")
		}
		b.tuner.legIters[j] = r.Int()
	}
}

// check reports an index process that is not a permutation of the chains
// in every lane, or slots that do not mirror it.
func (x *exchange) check() error {
	c := x.numChains
	seen := make([]bool, c)
	for j := 0; j < lanes; j++ {
		clear(seen)
		for n := 0; n < c; n++ {
			r := int(x.replica[n*lanes+j])
			if r < 0 || r >= c || seen[r] {
				return fmt.Errorf("lane %d: replica %d at chain %d is not a permutation", j, r, n)
			}
			seen[r] = true
			if !x.exact && int(x.chainOf[r*lanes+j]) != n {
				return fmt.Errorf("lane %d: slot %d is at chain %d, the index process says %d", j, r, x.chainOf[r*lanes+j], n)
			}
		}
		if t := int(x.targetFrom[j]); t < 0 || t >= c {
			return fmt.Errorf("lane %d: target row %d", j, t)
		}
	}
	return nil
}

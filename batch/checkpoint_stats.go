package batch

import (
	"fmt"
	"github.com/ptbatch/ptbatch/tune"

	"github.com/ptbatch/ptbatch/internal/wire"
)

// The checkpoint state of the engine's own observers and of every
// statistic of this package (StatisticState, ObserverState). Each form
// opens with a tag naming it; settings that NewObserver derives from the
// configuration are checked, not restored.

// Compile-time checks that every statistic and observer of this package
// can be checkpointed.
var (
	_ StatisticState = (*Samples)(nil)
	_ StatisticState = (*TargetMoments)(nil)
	_ StatisticState = (*LogZ)(nil)
	_ StatisticState = (*BarrierProfile)(nil)
	_ StatisticState = (*Restarts)(nil)
	_ StatisticState = (*IndexProcess)(nil)
	_ StatisticState = (*ESS)(nil)

	_ ObserverState = (*roundTrips)(nil)
	_ ObserverState = (*firstMoments)(nil)
	_ ObserverState = (*sampleObserver)(nil)
	_ ObserverState = (*momentObserver)(nil)
	_ ObserverState = (*logZObserver)(nil)
	_ ObserverState = (*profileObserver)(nil)
	_ ObserverState = (*restartObserver)(nil)
	_ ObserverState = (*indexObserver)(nil)
	_ ObserverState = (*essObserver)(nil)
)

// lanesInts and lanesFloats append per-lane arrays; readLanesInts and
// readLanesFloats read them back.
func lanesInts(w *wire.Writer, v *[lanes]int)           { w.Ints(v[:]) }
func lanesFloats(w *wire.Writer, v *[lanes]float64)     { w.Float64s(v[:]) }
func readLanesInts(r *wire.Reader, v *[lanes]int)       { r.IntsInto(v[:], "per-lane counts") }
func readLanesFloats(r *wire.Reader, v *[lanes]float64) { r.Float64sInto(v[:], "per-lane values") }

// rows2 appends a slice of slices; readRows2 reads it back.
func rows2(w *wire.Writer, x [][]float64) {
	w.Int(len(x))
	for _, v := range x {
		w.Float64s(v)
	}
}

func readRows2(r *wire.Reader) [][]float64 {
	n := r.Int()
	if r.Err() != nil || n < 0 || int64(n) > 1<<40 {
		r.Failf("batch: %d rows", n)
		return nil
	}
	var x [][]float64
	for i := 0; i < n && r.Err() == nil; i++ {
		x = append(x, r.Float64s())
	}
	return x
}

// expectInt reads an int and records an error unless it is want: a setting
// the configuration fixes.
func expectInt(r *wire.Reader, want int, what string) {
	if got := r.Int(); r.Err() == nil && got != want {
		r.Failf("batch: %s is %d in the checkpoint, %d now", what, got, want)
	}
}

// closeState returns the first error of r, naming the state read.
func closeState(r *wire.Reader, what string) error {
	if err := r.Close(); err != nil {
		return fmt.Errorf("%s state: %w", what, err)
	}
	return nil
}

// marshalCount is the state of a statistic that streams its output and
// keeps only the number of rows written: tag and the count.
func marshalCount(tag string, n int) []byte {
	var w wire.Writer
	w.String(tag)
	w.Int(n)
	return w.Bytes()
}

// unmarshalCount restores what marshalCount saved into *n, leaving *n as
// it was when data is not such a state.
func unmarshalCount(data []byte, tag, what string, n *int) error {
	r := wire.NewReader(data)
	r.Expect(tag)
	v := r.Int()
	if err := closeState(r, what); err != nil {
		return err
	}
	*n = v
	return nil
}

// MarshalBinary returns the round-trip counts and each replica's flags.
func (o *roundTrips) MarshalBinary() ([]byte, error) {
	var w wire.Writer
	w.String("round-trips/1")
	w.Bools(o.leftZero)
	w.Bools(o.reachedTop)
	lanesInts(&w, &o.total)
	lanesInts(&w, &o.scan)
	lanesInts(&w, &o.lastScan)
	if o.legs != nil {
		o.legs.marshal(&w)
	}
	return w.Bytes(), nil
}

// UnmarshalBinary restores what MarshalBinary saved.
func (o *roundTrips) UnmarshalBinary(data []byte) error {
	r := wire.NewReader(data)
	r.Expect("round-trips/1")
	r.BoolsInto(o.leftZero, "flags")
	r.BoolsInto(o.reachedTop, "flags")
	readLanesInts(r, &o.total)
	readLanesInts(r, &o.scan)
	readLanesInts(r, &o.lastScan)
	if o.legs != nil {
		o.legs.unmarshal(r)
	}
	return closeState(r, "round trips")
}

// MarshalBinary returns the open scan's sums and the last scan's moments.
func (t *firstMoments) MarshalBinary() ([]byte, error) {
	var w wire.Writer
	w.String("first-moments/1")
	for _, v := range []*[lanes]float64{&t.shift, &t.sum1, &t.sum2, &t.lastMean, &t.lastVar} {
		lanesFloats(&w, v)
	}
	return w.Bytes(), nil
}

// UnmarshalBinary restores what MarshalBinary saved.
func (t *firstMoments) UnmarshalBinary(data []byte) error {
	r := wire.NewReader(data)
	r.Expect("first-moments/1")
	for _, v := range []*[lanes]float64{&t.shift, &t.sum1, &t.sum2, &t.lastMean, &t.lastVar} {
		readLanesFloats(r, v)
	}
	return closeState(r, "first moments")
}

// describe returns the settings of a Samples.
func (s *Samples) describe() string { return fmt.Sprintf("FromScan=%d Thin=%d", s.FromScan, s.Thin) }

// MarshalBinary returns the number of rows written (Rows); the states of
// the open scan are in the observers' state.
func (s *Samples) MarshalBinary() ([]byte, error) { return marshalCount("samples/1", s.rows), nil }

// UnmarshalBinary restores what MarshalBinary saved.
func (s *Samples) UnmarshalBinary(data []byte) error {
	return unmarshalCount(data, "samples/1", "samples", &s.rows)
}

// MarshalBinary returns the block's kept states of the open scan.
func (o *sampleObserver) MarshalBinary() ([]byte, error) {
	var w wire.Writer
	w.String("sample-observer/1")
	w.Int(o.from)
	w.Int(o.thin)
	for j := range o.rows {
		w.Float64s(o.rows[j])
	}
	return w.Bytes(), nil
}

// UnmarshalBinary restores what MarshalBinary saved.
func (o *sampleObserver) UnmarshalBinary(data []byte) error {
	r := wire.NewReader(data)
	r.Expect("sample-observer/1")
	expectInt(r, o.from, "the first scan kept")
	expectInt(r, o.thin, "the thinning")
	var rows [lanes][]float64
	for j := range rows {
		rows[j] = r.Float64s()
		if r.Err() == nil && len(rows[j])%(o.info.Observables+1) != 0 {
			r.Failf("batch: %d values are not rows of %d", len(rows[j]), o.info.Observables+1)
		}
	}
	if err := closeState(r, "samples"); err != nil {
		return err
	}
	o.rows = rows
	return nil
}

// describe returns the settings of a TargetMoments: none.
func (s *TargetMoments) describe() string { return "" }

// MarshalBinary returns nothing but a tag: the moments are in the
// observers' state.
func (s *TargetMoments) MarshalBinary() ([]byte, error) {
	var w wire.Writer
	w.String("target-moments/1")
	return w.Bytes(), nil
}

// UnmarshalBinary checks the tag.
func (s *TargetMoments) UnmarshalBinary(data []byte) error {
	r := wire.NewReader(data)
	r.Expect("target-moments/1")
	return closeState(r, "target moments")
}

// MarshalBinary returns the open scan's sums and the kept scans' moments.
func (o *momentObserver) MarshalBinary() ([]byte, error) {
	var w wire.Writer
	w.String("moment-observer/1")
	w.Int(o.keepFrom)
	for _, v := range [][]float64{o.shift, o.sum1, o.sum2, o.mean, o.m2} {
		w.Float64s(v)
	}
	w.Float64(o.n)
	return w.Bytes(), nil
}

// UnmarshalBinary restores what MarshalBinary saved.
func (o *momentObserver) UnmarshalBinary(data []byte) error {
	r := wire.NewReader(data)
	r.Expect("moment-observer/1")
	expectInt(r, o.keepFrom, "the first kept scan")
	for _, v := range [][]float64{o.shift, o.sum1, o.sum2, o.mean, o.m2} {
		r.Float64sInto(v, "moments")
	}
	o.n = r.Float64()
	return closeState(r, "target moments")
}

// describe returns the settings of a LogZ.
func (s *LogZ) describe() string {
	if s.Path {
		return fmt.Sprintf("FromScan=%d Path", s.FromScan)
	}
	return fmt.Sprintf("FromScan=%d", s.FromScan)
}

// MarshalBinary returns the estimates collected from the last scan.
func (s *LogZ) MarshalBinary() ([]byte, error) {
	var w wire.Writer
	w.String(logZStateTag(s.Path, "logz/1", "logz/2"))
	w.Int(s.scan)
	w.Float64s(s.fwd)
	w.Float64s(s.rev)
	if s.Path {
		for _, x := range [][][]float64{s.pairs.fwd, s.pairs.rev, s.pairs.sched} {
			rows2(&w, x)
		}
	}
	return w.Bytes(), nil
}

// logZStateTag returns the tag of a log Z state: plain without Path (the
// layout of checkpoints written before Path existed), withPath with it,
// whose state adds the pairs' terms and schedules of the last scan, so
// that a run resumed at a scan's end has them as the uninterrupted run.
func logZStateTag(path bool, plain, withPath string) string {
	if path {
		return withPath
	}
	return plain
}

// UnmarshalBinary restores what MarshalBinary saved.
func (s *LogZ) UnmarshalBinary(data []byte) error {
	r := wire.NewReader(data)
	r.Expect(logZStateTag(s.Path, "logz/1", "logz/2"))
	scan, fwd, rev := r.Int(), r.Float64s(), r.Float64s()
	var pairs logZPairs
	if s.Path {
		pairs = logZPairs{fwd: readRows2(r), rev: readRows2(r), sched: readRows2(r)}
	}
	if err := closeState(r, "log Z"); err != nil {
		return err
	}
	s.scan, s.fwd, s.rev, s.pairs = scan, fwd, rev, pairs
	return nil
}

// MarshalBinary returns the open scan's log-weight sums and the last
// scan's estimates.
func (o *logZObserver) MarshalBinary() ([]byte, error) {
	var w wire.Writer
	w.String(logZStateTag(o.pairs != nil, "logz-observer/2", "logz-observer/3"))
	w.Int(o.from)
	for _, v := range [][]float64{o.fMax, o.fSum, o.rMax, o.rSum, o.d0, o.d1} {
		w.Float64s(v)
	}
	w.Ints(o.count[:])
	lanesFloats(&w, &o.fwd)
	lanesFloats(&w, &o.rev)
	if p := o.pairs; p != nil {
		w.Float64s(p.fwd)
		w.Float64s(p.rev)
		for j := range p.sched {
			w.Float64s(p.sched[j])
		}
	}
	return w.Bytes(), nil
}

// UnmarshalBinary restores what MarshalBinary saved.
func (o *logZObserver) UnmarshalBinary(data []byte) error {
	r := wire.NewReader(data)
	r.Expect(logZStateTag(o.pairs != nil, "logz-observer/2", "logz-observer/3"))
	expectInt(r, o.from, "the first scan accumulated")
	for _, v := range [][]float64{o.fMax, o.fSum, o.rMax, o.rSum, o.d0, o.d1} {
		r.Float64sInto(v, "log weights")
	}
	r.IntsInto(o.count[:], "iterations accumulated")
	readLanesFloats(r, &o.fwd)
	readLanesFloats(r, &o.rev)
	if p := o.pairs; p != nil {
		r.Float64sInto(p.fwd, "pair terms")
		r.Float64sInto(p.rev, "pair terms")
		for j := range p.sched {
			r.Float64sInto(p.sched[j], "pair schedules")
		}
	}
	return closeState(r, "log Z")
}

// describe returns the settings of a BarrierProfile.
func (s *BarrierProfile) describe() string { return fmt.Sprintf("Points=%d", s.Points) }

// MarshalBinary returns the profiles collected from the last scan.
func (s *BarrierProfile) MarshalBinary() ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.profiles()
	var w wire.Writer
	w.String("barrier-profile/1")
	w.Int(s.scan)
	w.Float64s(s.grid)
	for _, x := range [][][]float64{s.cum, s.loc, s.sched, s.rej} {
		rows2(&w, x)
	}
	return w.Bytes(), nil
}

// UnmarshalBinary restores what MarshalBinary saved.
func (s *BarrierProfile) UnmarshalBinary(data []byte) error {
	r := wire.NewReader(data)
	r.Expect("barrier-profile/1")
	scan, grid := r.Int(), r.Float64s()
	cum, loc, sched, rej := readRows2(r), readRows2(r), readRows2(r), readRows2(r)
	if err := closeState(r, "barrier profile"); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.scan, s.grid, s.cum, s.loc, s.sched, s.rej, s.stale = scan, grid, cum, loc, sched, rej, false
	return nil
}

// MarshalBinary returns the last scan's schedules, rejections and
// profiles of the block's replicates.
func (o *profileObserver) MarshalBinary() ([]byte, error) {
	var w wire.Writer
	w.String("profile-observer/2")
	w.Int(len(o.grid))
	for j := 0; j < o.info.Replicates; j++ {
		if o.stale[j] {
			tune.BarrierProfile(o.cum[j], o.loc[j], o.grid, o.sched[j], o.rej[j])
			o.stale[j] = false
		}
		for _, v := range [][]float64{o.sched[j], o.rej[j], o.cum[j], o.loc[j], o.rejSum[j]} {
			w.Float64s(v)
		}
		w.Int(o.iters[j])
	}
	return w.Bytes(), nil
}

// UnmarshalBinary restores what MarshalBinary saved.
func (o *profileObserver) UnmarshalBinary(data []byte) error {
	r := wire.NewReader(data)
	r.Expect("profile-observer/2")
	expectInt(r, len(o.grid), "the number of grid points")
	for j := 0; j < o.info.Replicates; j++ {
		for _, v := range [][]float64{o.sched[j], o.rej[j], o.cum[j], o.loc[j], o.rejSum[j]} {
			r.Float64sInto(v, "profile")
		}
		o.iters[j], o.stale[j] = r.Int(), false
	}
	return closeState(r, "barrier profile")
}

// describe returns the settings of a Restarts: none.
func (s *Restarts) describe() string { return "" }

// MarshalBinary returns the counts collected from the last scan.
func (s *Restarts) MarshalBinary() ([]byte, error) {
	var w wire.Writer
	w.String("restarts/1")
	w.Ints(s.counts)
	w.Ints(s.scanCount)
	w.Int(s.iters)
	w.Int(s.scanIters)
	return w.Bytes(), nil
}

// UnmarshalBinary restores what MarshalBinary saved.
func (s *Restarts) UnmarshalBinary(data []byte) error {
	r := wire.NewReader(data)
	r.Expect("restarts/1")
	counts, scanCount, iters, scanIters := r.Ints(), r.Ints(), r.Int(), r.Int()
	if err := closeState(r, "restarts"); err != nil {
		return err
	}
	s.counts, s.scanCount, s.iters, s.scanIters = counts, scanCount, iters, scanIters
	return nil
}

// MarshalBinary returns the block's counts and each replica's flag.
func (o *restartObserver) MarshalBinary() ([]byte, error) {
	var w wire.Writer
	w.String("restart-observer/1")
	w.Bools(o.fromZero)
	lanesInts(&w, &o.total)
	lanesInts(&w, &o.scan)
	lanesInts(&w, &o.lastScan)
	w.Int(o.iters)
	w.Int(o.scanIters)
	if o.legs != nil {
		o.legs.marshal(&w)
	}
	return w.Bytes(), nil
}

// UnmarshalBinary restores what MarshalBinary saved.
func (o *restartObserver) UnmarshalBinary(data []byte) error {
	r := wire.NewReader(data)
	r.Expect("restart-observer/1")
	r.BoolsInto(o.fromZero, "flags")
	readLanesInts(r, &o.total)
	readLanesInts(r, &o.scan)
	readLanesInts(r, &o.lastScan)
	o.iters, o.scanIters = r.Int(), r.Int()
	if o.legs != nil {
		o.legs.unmarshal(r)
	}
	return closeState(r, "restarts")
}

// describe returns the settings of an IndexProcess.
func (s *IndexProcess) describe() string {
	return fmt.Sprintf("Replicas=%v Thin=%d From=%d Window=%d", s.Replicas, s.Thin, s.From, s.Window)
}

// MarshalBinary returns the number of records written (Records); the
// records of the open scan are in the observers' state.
func (s *IndexProcess) MarshalBinary() ([]byte, error) {
	return marshalCount("index-process/1", s.records), nil
}

// UnmarshalBinary restores what MarshalBinary saved.
func (s *IndexProcess) UnmarshalBinary(data []byte) error {
	return unmarshalCount(data, "index-process/1", "index process", &s.records)
}

// MarshalBinary returns the block's records of the open scan.
func (o *indexObserver) MarshalBinary() ([]byte, error) {
	var w wire.Writer
	w.String("index-observer/1")
	w.Ints(o.replicas)
	for j := range o.iters {
		w.Ints(o.iters[j])
		w.Int32s(o.rows[j])
	}
	return w.Bytes(), nil
}

// UnmarshalBinary restores what MarshalBinary saved.
func (o *indexObserver) UnmarshalBinary(data []byte) error {
	r := wire.NewReader(data)
	r.Expect("index-observer/1")
	reps := r.Ints()
	if r.Err() == nil && fmt.Sprint(reps) != fmt.Sprint(o.replicas) {
		r.Failf("batch: replicas %v followed in the checkpoint, %v now", reps, o.replicas)
	}
	var iters [lanes][]int
	var rows [lanes][]int32
	for j := range iters {
		iters[j], rows[j] = r.Ints(), r.Int32s()
		if r.Err() == nil && len(rows[j]) != len(iters[j])*len(o.replicas) {
			r.Failf("batch: %d chains for %d records of %d replicas", len(rows[j]), len(iters[j]), len(o.replicas))
		}
	}
	if err := closeState(r, "index process"); err != nil {
		return err
	}
	o.iters, o.rows = iters, rows
	return nil
}

// describe returns the settings of an ESS.
func (s *ESS) describe() string {
	return fmt.Sprintf("FromScan=%d Observables=%d", s.FromScan, s.Observables)
}

// MarshalBinary returns the estimates collected from the last scan.
func (s *ESS) MarshalBinary() ([]byte, error) {
	var w wire.Writer
	w.String("ess/1")
	rows2(&w, s.values)
	w.Int(s.draws)
	return w.Bytes(), nil
}

// UnmarshalBinary restores what MarshalBinary saved.
func (s *ESS) UnmarshalBinary(data []byte) error {
	r := wire.NewReader(data)
	r.Expect("ess/1")
	values, draws := readRows2(r), r.Int()
	if err := closeState(r, "ESS"); err != nil {
		return err
	}
	s.values, s.draws = values, draws
	return nil
}

// MarshalBinary returns every series' batch means.
func (o *essObserver) MarshalBinary() ([]byte, error) {
	var w wire.Writer
	w.String("ess-observer/1")
	w.Int(o.from)
	w.Int(len(o.series))
	for i := range o.series {
		m := &o.series[i]
		w.Int(m.n)
		w.Float64(m.shift)
		w.Float64(m.sum)
		w.Float64(m.sumSq)
		w.Int(m.size)
		w.Float64(m.part)
		w.Int(m.partN)
		w.Float64s(m.batches)
		w.Float64(m.bSum)
		w.Float64(m.bSq)
	}
	return w.Bytes(), nil
}

// UnmarshalBinary restores what MarshalBinary saved.
func (o *essObserver) UnmarshalBinary(data []byte) error {
	r := wire.NewReader(data)
	r.Expect("ess-observer/1")
	expectInt(r, o.from, "the first scan counted")
	expectInt(r, len(o.series), "the number of series")
	series := make([]BatchMeans, len(o.series))
	for i := 0; i < len(series) && r.Err() == nil; i++ {
		m := &series[i]
		m.n, m.shift, m.sum, m.sumSq = r.Int(), r.Float64(), r.Float64(), r.Float64()
		m.size, m.part, m.partN = r.Int(), r.Float64(), r.Int()
		m.batches, m.bSum, m.bSq = r.Float64s(), r.Float64(), r.Float64()
		if r.Err() == nil && (m.n < 0 || m.partN < 0 || (m.n > 0 && (m.size < 1 || m.partN >= m.size || len(m.batches) >= 2*m.size))) {
			r.Failf("batch: batch means of %d draws in %d batches of %d and %d more", m.n, len(m.batches), m.size, m.partN)
		}
	}
	if err := closeState(r, "ESS"); err != nil {
		return err
	}
	o.series = series
	return nil
}

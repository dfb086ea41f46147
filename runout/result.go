package runout

import (
	"fmt"
	"reflect"

	"github.com/ptbatch/ptbatch/batch"
)

// mergeResults joins the Results of consecutive replicate ranges, in
// order: the per-replicate fields concatenated (joinPerReplicate),
// elapsed times summed, the tuning fraction their time-weighted mean,
// the configuration's range joined, and every other field checked equal
// (sameFields). TestMergeKnowsEveryResultField fails when batch.Result
// gains a field that is none of these.
func mergeResults(parts []*Record) (batch.Result, error) {
	out := parts[0].Result
	out.Elapsed = 0
	next := out.Config.FirstReplicate
	var tuning float64
	for _, p := range parts {
		if p.Result.Config.FirstReplicate != next {
			return out, fmt.Errorf("replicates %d and on missing (the next part starts at %d)", next, p.Result.Config.FirstReplicate)
		}
		next += p.Result.Config.Replicates
		tuning += p.Result.TuningFraction * p.Result.Elapsed.Seconds()
		out.Elapsed += p.Result.Elapsed
	}
	out.Config.Replicates = next - out.Config.FirstReplicate
	out.TuningFraction = 0
	if s := out.Elapsed.Seconds(); s > 0 {
		out.TuningFraction = tuning / s
	}
	if err := sameFields(parts, out.Config); err != nil {
		return out, err
	}
	return out, joinPerReplicate(&out, parts)
}

// sameFields checks that the parts agree in every field of batch.Result
// that is not per replicate or a timing, and in their configuration but
// for its replicate range and workers (the results do not depend on
// them).
func sameFields(parts []*Record, cfg batch.Config) error {
	a := &parts[0].Result
	for k, p := range parts {
		b := &p.Result
		for _, f := range []struct {
			name string
			x, y any
		}{{"Scans", a.Scans, b.Scans}, {"Iterations", a.Iterations, b.Iterations}, {"Interrupted", a.Interrupted, b.Interrupted},
			{"Observables", a.Observables, b.Observables}, {"KeptScans", a.KeptScans, b.KeptScans}} {
			if !reflect.DeepEqual(f.x, f.y) {
				return fmt.Errorf("the parts differ in Result.%s (%v and %v)", f.name, f.x, f.y)
			}
		}
		c := b.Config
		c.FirstReplicate, c.Replicates, c.Workers = cfg.FirstReplicate, cfg.Replicates, cfg.Workers
		if !reflect.DeepEqual(c, cfg) {
			return fmt.Errorf("part %d: its configuration differs from part 0's", k)
		}
	}
	return nil
}

// joiner concatenates one per-replicate field of the parts after another,
// keeping the first error.
type joiner struct {
	parts []*Record
	err   error
}

// joinField returns the concatenation of the field get of every part: each
// part has an entry per replicate, or every part has none (nil then).
func joinField[T any](j *joiner, name string, get func(*batch.Result) []T) []T {
	if j.err != nil {
		return nil
	}
	var out []T
	empty := len(get(&j.parts[0].Result)) == 0
	for k, p := range j.parts {
		v, n := get(&p.Result), p.Result.Config.Replicates
		if (empty && len(v) != 0) || (!empty && len(v) != n) {
			j.err = fmt.Errorf("part %d: Result.%s has %d entries for %d replicates", k, name, len(v), n)
			return nil
		}
		out = append(out, v...)
	}
	return out
}

// joinPerReplicate sets out's per-replicate fields to the parts'
// concatenated.
func joinPerReplicate(out *batch.Result, parts []*Record) error {
	j := &joiner{parts: parts}
	out.RoundTrips = joinField(j, "RoundTrips", func(r *batch.Result) []int { return r.RoundTrips })
	out.RoundTripRates = joinField(j, "RoundTripRates", func(r *batch.Result) []float64 { return r.RoundTripRates })
	out.Rejections = joinField(j, "Rejections", func(r *batch.Result) [][]float64 { return r.Rejections })
	out.Schedules = joinField(j, "Schedules", func(r *batch.Result) [][]float64 { return r.Schedules })
	out.Knots = joinField(j, "Knots", func(r *batch.Result) [][][2]float64 { return r.Knots })
	out.History = joinField(j, "History", func(r *batch.Result) [][]batch.ScanStats { return r.History })
	out.TuningRounds = joinField(j, "TuningRounds", func(r *batch.Result) []int { return r.TuningRounds })
	out.TuningIterations = joinField(j, "TuningIterations", func(r *batch.Result) []int { return r.TuningIterations })
	out.TuningFrozen = joinField(j, "TuningFrozen", func(r *batch.Result) []bool { return r.TuningFrozen })
	out.Legs = joinField(j, "Legs", func(r *batch.Result) [][2]batch.Leg { return r.Legs })
	return j.err
}

package runout

import (
	"fmt"
	"reflect"

	"github.com/ptbatch/ptbatch/batch"
)

// perReplicateFields are batch.Result's fields indexed by replicate,
// concatenated by a merge (empty in every part, or with an entry per
// replicate in every part); Elapsed and TuningFraction are timings;
// Config's replicate range is joined. Every other field must be equal in
// every part, so that a merge refuses a field it does not know how to
// join rather than drop it.
var perReplicateFields = map[string]bool{
	"RoundTrips": true, "RoundTripRates": true, "Rejections": true, "Schedules": true, "Knots": true, "History": true,
	"TuningRounds": true, "TuningIterations": true, "TuningFrozen": true,
}

// mergeResults joins the Results of consecutive replicate ranges, in
// order: per-replicate fields concatenated, elapsed times summed, the
// tuning fraction their time-weighted mean, the configuration's range
// joined, and every other field checked equal.
func mergeResults(parts []*Record) (batch.Result, error) {
	var out batch.Result
	out.Config = parts[0].Result.Config
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
	if s := out.Elapsed.Seconds(); s > 0 {
		out.TuningFraction = tuning / s
	}
	if err := joinFields(&out, parts); err != nil {
		return out, err
	}
	for k, p := range parts {
		c := p.Result.Config
		// Shards of one run may use other workers (the results do not
		// depend on them).
		c.FirstReplicate, c.Replicates, c.Workers = out.Config.FirstReplicate, out.Config.Replicates, out.Config.Workers
		if !reflect.DeepEqual(c, out.Config) {
			return out, fmt.Errorf("part %d: its configuration differs from part 0's", k)
		}
	}
	return out, nil
}

// joinFields sets out's fields but Config, Elapsed and TuningFraction
// from the parts: per-replicate fields concatenated, the others equal.
func joinFields(out *batch.Result, parts []*Record) error {
	dst := reflect.ValueOf(out).Elem()
	t := dst.Type()
	for i := 0; i < t.NumField(); i++ {
		name := t.Field(i).Name
		switch name {
		case "Config", "Elapsed", "TuningFraction":
			continue
		}
		f := dst.Field(i)
		for k, p := range parts {
			v := reflect.ValueOf(&p.Result).Elem().Field(i)
			switch {
			case perReplicateFields[name]:
				empty := reflect.ValueOf(&parts[0].Result).Elem().Field(i).Len() == 0
				if (empty && v.Len() != 0) || (!empty && v.Len() != p.Result.Config.Replicates) {
					return fmt.Errorf("part %d: Result.%s has %d entries for %d replicates", k, name, v.Len(), p.Result.Config.Replicates)
				}
				f.Set(reflect.AppendSlice(f, v))
			case k == 0:
				f.Set(v)
			case !reflect.DeepEqual(f.Interface(), v.Interface()):
				return fmt.Errorf("the parts differ in Result.%s (%v and %v)", name, f.Interface(), v.Interface())
			}
		}
	}
	return nil
}

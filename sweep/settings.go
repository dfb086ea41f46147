package sweep

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"strconv"
)

// Settings returns the Spec as the settings a manifest records and
// fingerprints (name → value), the names those of `ptbatch sweep`'s flags.
func (s *Spec) Settings() map[string]string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	return map[string]string{
		"dims": s.Given.Dims, "chains": s.Given.Chains, "knots": s.Given.Knots, "seeds": s.Given.Seeds,
		"replicates": strconv.Itoa(s.Replicates), "iterations": strconv.Itoa(s.Iterations), "scans": strconv.Itoa(s.Scans),
		"lr": f(s.LearningRate), "sigma": f(s.Sigma), "mu0": f(s.Mu0), "mu1": f(s.Mu1),
		"algorithm": s.Algorithm, "model": s.Model, "tuning": s.Tuning,
	}
}

// FromSettings returns the Spec whose Settings are m: the data a shard's
// manifest records (and fingerprints), from which a merge rebuilds the
// plan without the command line. It returns an error naming the first
// setting that is missing or not a value of its kind.
func FromSettings(m map[string]string) (*Spec, error) {
	s := &Spec{Model: m["model"], Algorithm: m["algorithm"], Tuning: m["tuning"],
		Given: Lists{Dims: m["dims"], Chains: m["chains"], Knots: m["knots"], Seeds: m["seeds"]}}
	var errs []error
	num := func(name string, p *int) { *p, errs = atoi(m, name, errs) }
	num("replicates", &s.Replicates)
	num("iterations", &s.Iterations)
	num("scans", &s.Scans)
	for _, f := range []struct {
		name string
		p    *float64
	}{{"lr", &s.LearningRate}, {"sigma", &s.Sigma}, {"mu0", &s.Mu0}, {"mu1", &s.Mu1}} {
		v, err := strconv.ParseFloat(m[f.name], 64)
		*f.p, errs = v, appendErr(errs, f.name, m, err)
	}
	var err error
	s.Dims, _, err = ParseInts(m["dims"], math.MinInt)
	errs = appendErr(errs, "dims", m, err)
	s.Knots, _, err = ParseInts(m["knots"], math.MinInt)
	errs = appendErr(errs, "knots", m, err)
	if m["chains"] != "auto" {
		s.Chains, _, err = ParseInts(m["chains"], math.MinInt)
		errs = appendErr(errs, "chains", m, err)
	}
	s.Seeds, err = ParseSeeds(m["seeds"])
	errs = appendErr(errs, "seeds", m, err)
	if s.Replicates < 1 {
		errs = append(errs, fmt.Errorf("replicates %q", m["replicates"]))
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("sweep: bad setting %v", errs[0])
	}
	return s, nil
}

// atoi parses setting name of m as an int.
func atoi(m map[string]string, name string, errs []error) (int, []error) {
	v, err := strconv.Atoi(m[name])
	return v, appendErr(errs, name, m, err)
}

// appendErr appends err, naming setting name and its value, when not nil.
func appendErr(errs []error, name string, m map[string]string, err error) []error {
	if err == nil {
		return errs
	}
	return append(errs, fmt.Errorf("%s %q", name, m[name]))
}

// FromConfig returns the Spec of a sweep's manifest's configuration
// (rundir.Manifest.Config): the JSON of its Settings, which the manifest
// records and fingerprints. It refuses a configuration that is not the
// Settings of a Spec.
func FromConfig(config []byte) (*Spec, error) {
	var set map[string]string
	if err := json.Unmarshal(config, &set); err != nil {
		return nil, fmt.Errorf("sweep: configuration: %w", err)
	}
	s, err := FromSettings(set)
	if err != nil {
		return nil, err
	}
	if !maps.Equal(s.Settings(), set) {
		return nil, errors.New("sweep: the configuration is not a sweep's settings")
	}
	return s, nil
}

package paper

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"strconv"
)

// Settings are a reproduction's settings as data.
type Settings struct {
	// Which is an experiment's name, "highdim" or "all".
	Which string
	// Replicates overrides every run's replicates when positive (the
	// paper's: 10 per experiment, 5 for highdim).
	Replicates int
	// Scale is the fraction of the paper's iterations to run, in (0, 1];
	// the scans are kept, each with at least one iteration.
	Scale float64
	Seed  uint64
	// HighDims are the dimensions of the high-dimensional experiment; nil
	// is the paper's (HighDimDims). They are not in Values: a program that
	// sets them sets them in its shards and its merge alike.
	HighDims []int
}

// Dims returns the dimensions of the high-dimensional experiment.
func (s Settings) Dims() []int {
	if s.HighDims == nil {
		return HighDimDims()
	}
	return s.HighDims
}

// Names lists the values of Settings.Which.
const Names = "gaussian|betabinomial|galaxy|mixture|highdim|all"

// ErrUnknown is returned by Todo for a Which that names no experiment.
var ErrUnknown = errors.New("paper: unknown experiment")

// Todo returns the experiments to run and whether the high-dimensional
// experiment runs too, or ErrUnknown.
func (s Settings) Todo() ([]Experiment, bool, error) {
	switch s.Which {
	case "all":
		return Experiments(), true, nil
	case "highdim":
		return nil, true, nil
	}
	for _, e := range Experiments() {
		if e.Name == s.Which {
			return []Experiment{e}, false, nil
		}
	}
	return nil, false, fmt.Errorf("%w %q: want %s", ErrUnknown, s.Which, Names)
}

// Scaled returns the iterations to run for the paper's budget of iters in
// scans: Scale of each scan's iterations, at least one.
func (s Settings) Scaled(iters, scans int) int {
	per := int(math.Round(float64(iters/scans) * s.Scale))
	return max(per, 1) * scans
}

// Reps returns the replicates of a run whose paper's number is def.
func (s Settings) Reps(def int) int {
	if s.Replicates > 0 {
		return s.Replicates
	}
	return def
}

// Values returns the settings as a manifest records and fingerprints them
// (the names those of `ptbatch reproduce`'s flags, arg0 the experiment).
func (s Settings) Values() map[string]string {
	return map[string]string{"replicates": strconv.Itoa(s.Replicates), "scale": strconv.FormatFloat(s.Scale, 'g', -1, 64),
		"seed": strconv.FormatUint(s.Seed, 10), "arg0": s.Which}
}

// FromSettings returns the Settings whose Values are m, the data a
// shard's manifest records, or an error naming the setting that is
// missing or bad.
func FromSettings(m map[string]string) (Settings, error) {
	s := Settings{Which: m["arg0"]}
	var err error
	if s.Replicates, err = strconv.Atoi(m["replicates"]); err != nil || s.Replicates < 0 {
		return s, fmt.Errorf("paper: bad setting replicates %q", m["replicates"])
	}
	if s.Scale, err = strconv.ParseFloat(m["scale"], 64); err != nil || !(s.Scale > 0) || s.Scale > 1 {
		return s, fmt.Errorf("paper: bad setting scale %q", m["scale"])
	}
	if s.Seed, err = strconv.ParseUint(m["seed"], 10, 64); err != nil {
		return s, fmt.Errorf("paper: bad setting seed %q", m["seed"])
	}
	if _, _, err := s.Todo(); err != nil {
		return s, err
	}
	return s, nil
}

// FromConfig returns the Settings of a reproduction's manifest's
// configuration (rundir.Manifest.Config): the JSON of its Values, which
// the manifest records and fingerprints. It refuses a configuration that
// is not the Values of Settings.
func FromConfig(config []byte) (Settings, error) {
	var set map[string]string
	if err := json.Unmarshal(config, &set); err != nil {
		return Settings{}, fmt.Errorf("paper: configuration: %w", err)
	}
	s, err := FromSettings(set)
	if err != nil {
		return s, err
	}
	if !maps.Equal(s.Values(), set) {
		return s, errors.New("paper: the configuration is not a reproduction's settings")
	}
	return s, nil
}

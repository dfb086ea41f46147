package study

import (
	"fmt"
	"path/filepath"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/models"
	"github.com/ptbatch/ptbatch/registry"
)

// Axis is one grid parameter of a run and its value, as the study names
// and prints them (a column of the cells and the summary).
type Axis struct {
	Name  string
	Value string
}

// Method is a run's settings apart from its model and seed: a label and
// the `ptbatch run` settings, with that command's defaults
// (batch.DefaultConfig) for zero fields.
type Method struct {
	Label string
	// Algorithm is "nrpt" (the default) or "reversible".
	Algorithm string
	// Tuning is "auto" or "paper"; "" is auto for nrpt and paper for
	// reversible, as for `ptbatch run`.
	Tuning string
	// Chains is the number of chains N+1; 0 is batch.DefaultChains.
	Chains int
	// Scans is the number of equal scans; 0 is batch.AutoScans of the
	// iterations with auto tuning, and 150 (the paper's) with paper tuning.
	Scans int
	// Knots is the number K of spline segments; 1 is the linear path and
	// 0 is batch.DefaultKnots with auto tuning, 1 with paper tuning.
	Knots int
	// LearningRate is the Adagrad rate of the knots with paper tuning; 0
	// is batch.DefaultLearningRate.
	LearningRate float64
	// TuneSchedule tunes the schedule after every scan (eq:equicrit); nil
	// is true for nrpt and false for reversible.
	TuneSchedule *bool
	// Gradient is "block" (the default) or "full".
	Gradient string
	// KeepScans is batch.Config.KeepScans.
	KeepScans int
	// Reference is "variational" for the variational reference
	// (models.WithReference, fitted over the tuning scans), "stabilized"
	// for the stabilised two-leg PT (models.WithStabilized, with half the
	// chains on the second leg, batch.Config.VariationalLeg); "" is the
	// model's own, `ptbatch run`'s --reference fixed. It is left out of
	// the plan's JSON when "", so that the plans of studies without it
	// keep their fingerprints.
	Reference string `json:",omitempty"`
	// Variational is the variational reference's family, "dense" for
	// models.VariationalDense; "" is the diagonal one (models.Variational),
	// left out of the plan's JSON.
	Variational string `json:",omitempty"`
	// Grid lists the method's grid parameters, for the cells' columns.
	Grid []Axis
}

// ModelSpec is a registered model with its parameters (those not given
// take the registry's defaults) and its grid parameters.
type ModelSpec struct {
	Name   string
	Values registry.Values
	// Texts are the model's text parameters (registry.Texts), as the study
	// file gives them: a relative file path stays relative to Dir, so that
	// the plan's JSON and fingerprint do not depend on the directory a
	// study is run from. It is left out of the plan's JSON when empty, so
	// that the plans of studies without it keep their fingerprints.
	Texts registry.Texts `json:",omitempty"`
	// Files holds the SHA-256 (hex) of the content of each file that
	// Texts names, by key, as Load read it: a plan's fingerprint changes
	// with its data, so that a resume or a merge refuses shards computed
	// on other data. It is left out of the plan's JSON when empty.
	Files map[string]string `json:",omitempty"`
	// Dir is the directory against which a relative path in Texts is
	// resolved (the study file's, for Load); "" is the working directory.
	// It is not in the plan's JSON.
	Dir  string `json:"-"`
	Grid []Axis
}

// Run is one configuration of a plan with its replicates.
type Run struct {
	Model      ModelSpec
	Method     Method
	Seed       uint64
	Iterations int
	Replicates int
}

// Plan is a study: its runs in order. Its units are the runs' replicates,
// run after run; a shard is a contiguous range of them.
type Plan struct {
	Name string
	Runs []Run
}

// NewPlan returns the plan of every model × method × seed, in that order
// (the seed varies fastest), each with iterations and replicates.
func NewPlan(name string, specs []ModelSpec, methods []Method, seeds []uint64, iterations, replicates int) Plan {
	p := Plan{Name: name}
	for _, m := range specs {
		for _, meth := range methods {
			for _, s := range seeds {
				p.Runs = append(p.Runs, Run{Model: m, Method: meth, Seed: s, Iterations: iterations, Replicates: replicates})
			}
		}
	}
	return p
}

// Units returns the number of run × replicate units of the plan.
func (p *Plan) Units() int {
	n := 0
	for _, r := range p.Runs {
		n += r.Replicates
	}
	return n
}

// Grid returns the run's grid parameters: its model's, then its method's.
func (r *Run) Grid() []Axis {
	return append(append([]Axis(nil), r.Model.Grid...), r.Method.Grid...)
}

// NewModel builds the run's model from the registry with the run's seed
// (from which the Beta-binomial and the mixture simulate their data).
func (r *Run) NewModel() (models.Model, error) {
	return r.Model.New(r.Seed)
}

// New builds the model from the registry (registry.NewWithTexts) with
// seed, its file paths resolved against s.Dir (Resolved).
func (s *ModelSpec) New(seed uint64) (models.Model, error) {
	return registry.NewWithTexts(s.Name, s.Values, s.Resolved(), seed)
}

// Resolved returns s.Texts with each file path (a key of fileKeys) that
// is relative and not empty joined to s.Dir.
func (s *ModelSpec) Resolved() registry.Texts {
	if len(s.Texts) == 0 {
		return nil
	}
	out := registry.Texts{}
	for k, v := range s.Texts {
		if fileKeys[k] && v != "" && !filepath.IsAbs(v) {
			v = filepath.Join(s.Dir, v)
		}
		out[k] = v
	}
	return out
}

// fileKeys are the text parameters that name a file (the logistic
// regression's and the mixture's data): a study file's relative path is
// relative to the study file's directory, not the working directory.
var fileKeys = map[string]bool{"data": true}

// Config returns the run's engine configuration for model m: the method's
// settings over batch.DefaultConfig, all the run's replicates. It returns
// the *batch.ConfigError of a bad setting, or an error naming a bad
// algorithm, tuning or gradient.
func (r *Run) Config(m models.Model) (batch.Config, error) {
	cfg, err := r.ConfigUnchecked(m)
	if err != nil {
		return cfg, err
	}
	return cfg, cfg.Validate()
}

// ConfigUnchecked is Config without batch.Config.Validate, for a caller
// that validates later (after a memory check, which must come before
// Validate asks a huge model for its observables). It returns an error
// only for a bad algorithm, tuning or gradient.
func (r *Run) ConfigUnchecked(m models.Model) (batch.Config, error) {
	meth := r.Method
	cfg := batch.DefaultConfig(m, r.Iterations)
	cfg.Seed, cfg.Replicates, cfg.KeepScans = r.Seed, r.Replicates, meth.KeepScans
	var err error
	if meth.Algorithm != "" {
		if cfg.Algorithm, err = batch.ParseAlgorithm(meth.Algorithm); err != nil {
			return cfg, fmt.Errorf("study: method %q: %w", meth.Label, err)
		}
	}
	tuning := meth.Tuning
	if tuning == "" {
		tuning = map[batch.Algorithm]string{batch.NRPT: "auto", batch.Reversible: "paper"}[cfg.Algorithm]
	}
	if cfg.Tuning, err = batch.ParseTuning(tuning); err != nil {
		return cfg, fmt.Errorf("study: method %q: %w", meth.Label, err)
	}
	if meth.Gradient == "full" {
		cfg.Gradient = batch.FullGradient
	} else if meth.Gradient != "" && meth.Gradient != "block" {
		return cfg, fmt.Errorf("study: method %q: unknown gradient %q (want block or full)", meth.Label, meth.Gradient)
	}
	cfg.Chains = orDefault(meth.Chains, batch.DefaultChains)
	cfg.LearningRate = orDefaultF(meth.LearningRate, batch.DefaultLearningRate)
	cfg.TuneSchedule = cfg.Algorithm == batch.NRPT
	if meth.TuneSchedule != nil {
		cfg.TuneSchedule = *meth.TuneSchedule
	}
	if cfg.Tuning == batch.PaperTuning {
		cfg.Scans, cfg.Knots = orDefault(meth.Scans, 150), orDefault(meth.Knots, 1)
	} else {
		cfg.Scans, cfg.Knots = orDefault(meth.Scans, cfg.Scans), orDefault(meth.Knots, batch.DefaultKnots)
	}
	cfg.TunePath = cfg.Knots >= 2
	if !cfg.TunePath {
		cfg.Knots = 1
	}
	return cfg, withReference(&cfg, meth)
}

// withReference wraps cfg.Model in the method's reference
// (models.WithReference), fitted over the tuning scans, cfg.Scans −
// cfg.KeepScansInEffect(), as `ptbatch run --reference` does. The
// stabilized reference (models.WithStabilized) puts half the chains,
// cfg.Chains/2, on its second leg (batch.Config.VariationalLeg), so that
// it runs at the cost of the other references' single leg. A model that
// is not models.Unconstrained is an error wrapping
// models.ErrNotUnconstrained.
func withReference(cfg *batch.Config, meth Method) error {
	if meth.Reference == "" {
		return nil
	}
	m, err := buildReference(meth, cfg.Model, cfg.Scans-cfg.KeepScansInEffect())
	if err != nil {
		return fmt.Errorf("study: method %q: %w", meth.Label, err)
	}
	cfg.Model = m
	if meth.Reference == "stabilized" {
		cfg.VariationalLeg = cfg.Chains / 2
	}
	return nil
}

// buildReference returns m with the method's reference and family,
// fitted over fitScans scans.
func buildReference(meth Method, m models.Model, fitScans int) (models.Model, error) {
	if meth.Reference == "stabilized" {
		return models.WithStabilized(meth.Variational, m, fitScans)
	}
	return models.WithVariational(meth.Reference, meth.Variational, m, fitScans)
}

// orDefault returns v, or def when v is 0.
func orDefault(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// orDefaultF returns v, or def when v is 0.
func orDefaultF(v, def float64) float64 {
	if v == 0 {
		return def
	}
	return v
}

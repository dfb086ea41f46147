package runout

import (
	"encoding/json"

	"github.com/ptbatch/ptbatch/batch"
)

// Settings are what shapes a run's files beyond its batch.Config, as
// data: the names summary.json reports, the thinning of samples.csv and
// the record of the index process. They travel in the Record, so that a
// merge writes the files of one run from its shards' records alone.
type Settings struct {
	Model    string // the model's name, as summary.json's config.model
	Path     string // the path family's name (config.path)
	Gradient string // the path gradient's name, reported when the path is tuned

	// Params are the model's parameters as summary.json's config shows
	// them, each already JSON-encoded ("dim": 4, "sigma0": 0.3, …).
	Params map[string]json.RawMessage

	Thin      int   // samples.csv keeps every Thin-th kept state
	MaxMemory int64 // the run's memory limit in bytes, reported when positive
	Workers   int   // the workers the run used (config.workers)

	// Record is "index" when the run records its index process (Index),
	// and IndexWindow the window asked for (0: the whole run).
	Record      string
	IndexWindow int
	Index       IndexSpec

	// ChainsAuto is summary.json's chains_auto, JSON-encoded, when the
	// number of chains was chosen by pilot runs; nil otherwise.
	ChainsAuto json.RawMessage

	// ExactLogZ is log(Z1/Z0) in closed form, NaN when there is none.
	ExactLogZ float64
	// ExactBarrier is the global barrier Λ of the linear path in closed
	// form, NaN when there is none (the JSON then has no barrier_exact).
	ExactBarrier float64
}

// IndexSpec is what the record of the index process keeps: the
// iterations from From on (a window of Window, 0 for all), every Thin-th,
// of the replicas Replicas (batch.IndexProcess).
type IndexSpec struct {
	Window, Thin, From int
	Replicas           []int
}

// NewIndexSpec returns the record of the last window iterations (0: all),
// every thin-th, of k replicas spread evenly over the chains they start
// at, round(i·(C-1)/(k-1)) for i = 0 … k-1 (replica 0 alone for k = 1,
// all for k = 0 or k ≥ C), for a run of cfg.
func NewIndexSpec(window, thin, k int, cfg *batch.Config) IndexSpec {
	s := IndexSpec{Window: window, Thin: thin, From: 1}
	if s.Window > 0 && s.Window < cfg.Iterations {
		s.From = cfg.Iterations - s.Window + 1
	}
	c := cfg.Chains
	if k == 0 || k > c {
		k = c
	}
	s.Replicas = make([]int, k)
	for i := range s.Replicas {
		if k > 1 {
			// Exact in integers: round(i(C-1)/(k-1)).
			s.Replicas[i] = (2*i*(c-1) + (k - 1)) / (2 * (k - 1))
		}
	}
	return s
}

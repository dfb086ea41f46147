package registry

import (
	"sync"

	"github.com/ptbatch/ptbatch/models"
)

// Preset is one of the paper's experiments: a registered model with its
// parameters and the run settings of the paper's appendix "Experimental
// details" (the paper's tuning: Scans equal scans, LearningRate for the
// spline knots).
type Preset struct {
	Name         string
	Title        string
	Model        string // a registered model's name
	Values       Values // its parameters; missing ones take their defaults
	Chains       int    // number of chains N+1
	Iterations   int
	Scans        int
	LearningRate float64
	Replicates   int
}

// NewModel builds the preset's model with seed.
func (p Preset) NewModel(seed uint64) (models.Model, error) {
	return New(p.Model, p.Values, seed)
}

var (
	presetMu    sync.RWMutex
	presetList  []Preset
	presetIndex = map[string]int{}
)

// RegisterPreset makes a preset available by its name. It panics if the
// name is empty or taken.
func RegisterPreset(p Preset) {
	if p.Name == "" {
		panic("registry: RegisterPreset needs a name")
	}
	presetMu.Lock()
	defer presetMu.Unlock()
	if _, dup := presetIndex[p.Name]; dup {
		panic("registry: RegisterPreset called twice for one preset name")
	}
	presetIndex[p.Name] = len(presetList)
	presetList = append(presetList, p)
}

// LookupPreset returns the preset registered as name.
func LookupPreset(name string) (Preset, bool) {
	presetMu.RLock()
	defer presetMu.RUnlock()
	i, ok := presetIndex[name]
	if !ok {
		return Preset{}, false
	}
	return presetList[i], true
}

// MustPreset returns the preset registered as name, and panics when there
// is none: for the built-in presets, whose names are constants.
func MustPreset(name string) Preset {
	p, ok := LookupPreset(name)
	if !ok {
		panic("registry: MustPreset of a name not registered")
	}
	return p
}

// Presets returns the registered presets in registration order.
func Presets() []Preset {
	presetMu.RLock()
	defer presetMu.RUnlock()
	return append([]Preset(nil), presetList...)
}

// The paper's experiments (§5 and the appendix "Experimental details"):
// its chains, iterations, scans, learning rate and 10 replicates.
func init() {
	RegisterPreset(Preset{Name: Gaussian, Title: "Gaussian N(-1, 0.01²) → N(1, 0.01²)", Model: Gaussian,
		Chains: 50, Iterations: 45000, Scans: 150, LearningRate: 0.2, Replicates: 10})
	RegisterPreset(Preset{Name: BetaBinomial, Title: "Beta-binomial, prior Beta(180, 840), posterior Beta(140180, 60840)",
		Model: BetaBinomial, Values: Values{"prior-a": 180, "prior-b": 840, "successes": 140000, "total-trials": 200000},
		Chains: 50, Iterations: 45000, Scans: 150, LearningRate: 0.2, Replicates: 10})
	RegisterPreset(Preset{Name: Galaxy, Title: "Galaxy mixture (6 components, 82 velocities)", Model: Galaxy,
		Chains: 35, Iterations: 50000, Scans: 500, LearningRate: 0.3, Replicates: 10})
	RegisterPreset(Preset{Name: Mixture, Title: "Two-component mixture (1000 points)", Model: Mixture,
		Chains: 35, Iterations: 25000, Scans: 50, LearningRate: 0.3, Replicates: 10})
}

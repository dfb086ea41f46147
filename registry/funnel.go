package registry

import (
	"fmt"

	"github.com/ptbatch/ptbatch/models"
)

// Funnel is the name of Neal's funnel (models.NewFunnel).
const Funnel = "funnel"

// ExplorerNames are the names of the built-in explorers, in the order of
// the funnel's explorer parameter values: random walk, slice sampler,
// MALA, autoMALA, HMC (its step adapted between scans) and autoHMC.
var ExplorerNames = []string{"rwm", "slice", "mala", "automala", "hmc", "autohmc"}

// NewExplorer returns the built-in explorer called name, with its
// defaults, and whether there is one.
func NewExplorer(name string) (models.Explorer, bool) {
	switch name {
	case "rwm":
		return models.RandomWalk{}, true
	case "slice":
		return models.SliceSampler{}, true
	case "mala":
		return models.MALA{}, true
	case "automala":
		return models.AutoMALA{}, true
	case "hmc":
		return models.HMC{}, true
	case "autohmc":
		return models.HMC{Auto: true}, true
	}
	return nil, false
}

// maxFunnelDim bounds the funnel's dimension: a state of 2^20 float64
// coordinates is 8 MiB per chain and replicate, beyond any run's memory.
const maxFunnelDim = 1 << 20

// funnelExplorer is the index of the default explorer, autoMALA.
const funnelExplorer = 3

var funnelParams = []Param{
	{"dim", Int, 10, 2, maxFunnelDim, "dimension D: v and D−1 x's"},
	{"scale", Float, 3, models.MinFunnelScale, models.MaxFunnelScale, fmt.Sprintf("the standard deviation S of v, in [%g, %g]", models.MinFunnelScale, models.MaxFunnelScale)},
	{"explorer", Int, funnelExplorer, 0, float64(len(ExplorerNames) - 1), "--model funnel: the local exploration, rwm, slice, mala, automala, hmc or autohmc (random walk, slice sampler, MALA, autoMALA, HMC with 10 leapfrog steps and its step adapted between scans, or chosen at every move by autoHMC)"},
}

func init() {
	Register(Model{Name: Funnel, Help: "Neal's funnel, v ~ N(0, S²) and x_i | v ~ N(0, e^v) for i < D; reference N(0, I); --dim D (default 10)",
		Params: funnelParams, New: newFunnel, Check: checkFunnel, Choices: map[string][]string{"explorer": ExplorerNames}})
}

// checkFunnel refuses a funnel of fewer than 2 coordinates or a scale
// beyond which e^{-v} overflows float64 (models.NewFunnel).
func checkFunnel(_, v Values) error {
	switch {
	case !(v["dim"] >= 2):
		return paramErrorf(Funnel, "dim", v, "the funnel needs at least 2 (v and one x)")
	case !(v["scale"] >= models.MinFunnelScale && v["scale"] <= models.MaxFunnelScale):
		return paramErrorf(Funnel, "scale", v, "must be in [%g, %g]: beyond, e^{-v} overflows float64", models.MinFunnelScale, models.MaxFunnelScale)
	}
	return nil
}

// newFunnel builds the funnel of dim, scale and explorer.
func newFunnel(v Values, _ uint64) (models.Model, error) {
	ex, _ := NewExplorer(ExplorerNames[int(v["explorer"])])
	m, err := models.NewFunnel(int(v["dim"]), v["scale"], ex)
	if err != nil {
		return nil, &ParamError{Model: Funnel, Why: err.Error()}
	}
	return m, nil
}

package registry

import "github.com/ptbatch/ptbatch/models"

// Ising is the name of the 2-D Ising model on the periodic lattice
// (models.NewIsing).
const Ising = "ising"

// isingParams are the Ising model's parameters. The default β is 0.44,
// just below the critical coupling ln(1 + √2)/2 = 0.4407 of the infinite
// lattice, where the model is hardest to sample.
var isingParams = []Param{
	{"size", Int, 16, models.MinIsingSize, models.MaxIsingSize, "side L of the periodic L × L lattice"},
	{"beta", Float, 0.44, -models.MaxIsingCoupling, models.MaxIsingCoupling, "inverse temperature β of the target (W1 = β·Σ s_i s_j + h·Σ s_i)"},
	{"field", Float, 0, -models.MaxIsingCoupling, models.MaxIsingCoupling, "external field h of the target"},
}

func init() {
	Register(Model{Name: Ising, Help: "2-D Ising model on the L × L torus: reference uniform spins, target exp(β·Σ s_i s_j + h·Σ s_i); checkerboard Metropolis; exact log Z (Kaufman) at zero field",
		Params: isingParams, New: newIsing})
}

// newIsing builds the Ising model of size, beta and field; the ranges are
// checked, so the constructor refuses nothing.
func newIsing(v Values, _ uint64) (models.Model, error) {
	m, err := models.NewIsing(int(v["size"]), v["beta"], v["field"])
	if err != nil {
		return nil, &ParamError{Model: Ising, Why: err.Error()}
	}
	return m, nil
}

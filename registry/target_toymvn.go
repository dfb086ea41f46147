package registry

import "github.com/ptbatch/ptbatch/models"

// ToyMVN is the name of Pigeons.jl's scaled-precision normal path
// (models.NewToyMVN).
const ToyMVN = "toymvn"

// maxToyDim bounds toymvn's dimension as the funnel's: 2^20 coordinates
// are 8 MiB per chain and replicate.
const maxToyDim = 1 << 20

var toyMVNParams = []Param{
	{"dim", Int, 10, 1, maxToyDim, "dimension d"},
	{"precision", Float, 10, models.MinToyPrecision, models.MaxToyPrecision, "target precision P: the target is N(0, I/P), the reference N(0, I)"},
}

func init() {
	Register(Model{Name: ToyMVN, Help: "Pigeons' toy_mvn: reference N(0, I), target N(0, I/P); every annealed density drawn exactly; exact log Z and Λ",
		Params: toyMVNParams, New: newToyMVN})
}

// newToyMVN builds toymvn of dim and precision.
func newToyMVN(v Values, _ uint64) (models.Model, error) {
	m, err := models.NewToyMVN(int(v["dim"]), v["precision"])
	if err != nil {
		return nil, &ParamError{Model: ToyMVN, Why: err.Error()}
	}
	return m, nil
}

package registry

import "github.com/ptbatch/ptbatch/models"

// Banana is the name of Haario et al.'s twisted Gaussian
// (models.NewBanana).
const Banana = "banana"

// maxBananaDim bounds the banana's dimension as the funnel's: 2^20
// coordinates are 8 MiB per chain and replicate.
const maxBananaDim = 1 << 20

var bananaParams = []Param{
	{"dim", Int, 2, 2, maxBananaDim, "dimension d: the twisted pair (x1, x2) and d−2 standard normals"},
	{"curvature", Float, 0.1, 0, models.MaxBananaCurvature, "twist b: x2 | x1 ~ N(−b(x1² − 100), 1), x1 ~ N(0, 100)"},
	{"explorer", Int, funnelExplorer, 0, float64(len(ExplorerNames) - 1), "the local exploration: rwm, slice, mala, automala, hmc or autohmc (0 to 5 by number)"},
}

func init() {
	Register(Model{Name: Banana, Help: "Haario et al.'s banana: N(0, diag(100, 1, …)) with x2 twisted by −b(x1² − 100); reference the untwisted Gaussian; gradients; exact marginals, log Z = 0",
		Params: bananaParams, New: newBanana, Choices: map[string][]string{"explorer": ExplorerNames}})
}

// newBanana builds the banana of dim, curvature and explorer.
func newBanana(v Values, _ uint64) (models.Model, error) {
	ex, _ := NewExplorer(ExplorerNames[int(v["explorer"])])
	m, err := models.NewBanana(int(v["dim"]), v["curvature"], ex)
	if err != nil {
		return nil, &ParamError{Model: Banana, Why: err.Error()}
	}
	return m, nil
}

package registry

import "github.com/ptbatch/ptbatch/models"

// CornerMix is the name of NRPT.jl's mixture of 2^d Gaussians at the
// corners of a cube (models.NewCornerMix).
const CornerMix = "cornermix"

// maxCornerDim bounds cornermix's dimension as the funnel's: 2^20
// coordinates are 8 MiB per chain and replicate.
const maxCornerDim = 1 << 20

var cornerMixParams = []Param{
	{"dim", Int, 4, 1, maxCornerDim, "dimension d: 2^d modes"},
	{"mu", Float, 2, 0, models.MaxCornerMu, "the corners are {−μ, +μ}^d"},
	{"sd", Float, 0.5, models.MinCornerSD, models.MaxCornerSD, "standard deviation of each component"},
	{"explorer", Int, funnelExplorer, 0, float64(len(ExplorerNames) - 1), "the local exploration: rwm, slice, mala, automala, hmc or autohmc (0 to 5 by number)"},
}

func init() {
	Register(Model{Name: CornerMix, Help: "NRPT.jl's 2^d Gaussians N(c, sd² I) at the corners c ∈ {±μ}^d; reference N(0, (μ²+sd²) I); gradients; exact log Z and orthant masses",
		Params: cornerMixParams, New: newCornerMix, Choices: map[string][]string{"explorer": ExplorerNames}})
}

// newCornerMix builds cornermix of dim, mu, sd and explorer.
func newCornerMix(v Values, _ uint64) (models.Model, error) {
	ex, _ := NewExplorer(ExplorerNames[int(v["explorer"])])
	m, err := models.NewCornerMix(int(v["dim"]), v["mu"], v["sd"], ex)
	if err != nil {
		return nil, &ParamError{Model: CornerMix, Why: err.Error()}
	}
	return m, nil
}

package registry

import "github.com/ptbatch/ptbatch/models"

// Unid is the name of Pigeons.jl's unidentifiable product
// (models.NewUnid).
const Unid = "unid"

// unidExplorer is the index of unid's default explorer, the slice
// sampler (Pigeons' default for it).
const unidExplorer = 1

var unidParams = []Param{
	{"n", Int, 100000, 1, models.MaxUnidTrials, "number of trials n"},
	{"y", Int, 50000, 0, models.MaxUnidTrials, "number of successes y (at most n)"},
	{"explorer", Int, unidExplorer, 0, float64(len(ExplorerNames) - 1), "the local exploration: rwm, slice, mala, automala, hmc or autohmc (0 to 5 by number)"},
}

func init() {
	Register(Model{Name: Unid, Help: "Pigeons' unidentifiable product: y ~ Binomial(n, p1·p2), p1, p2 ~ U(0, 1), sampled as logits; exact log Z(t)",
		Params: unidParams, New: newUnid, Choices: map[string][]string{"explorer": ExplorerNames}})
}

// newUnid builds unid of n, y and explorer.
func newUnid(v Values, _ uint64) (models.Model, error) {
	if v["y"] > v["n"] {
		return nil, paramErrorf(Unid, "y", v, "must be at most n")
	}
	ex, _ := NewExplorer(ExplorerNames[int(v["explorer"])])
	m, err := models.NewUnid(int64(v["n"]), int64(v["y"]), ex)
	if err != nil {
		return nil, &ParamError{Model: Unid, Why: err.Error()}
	}
	return m, nil
}

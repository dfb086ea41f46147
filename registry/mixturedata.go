package registry

import (
	"fmt"

	"github.com/ptbatch/ptbatch/models"
)

// MixtureData is the name of the 1-D Gaussian mixture on the user's own
// observations (a column of a CSV file), with the settings of the
// mixture's parameters; `ptbatch run --model mixture --data FILE.csv`
// builds it. Its defaults are the paper's mixture model's, so that without
// data it is the mixture model (1000 points simulated from the seed).
const MixtureData = "mixture-data"

var mixtureDataParams = []Param{
	{"data", String, 0, 0, 0, "CSV file with a header: the observations (default: 1000 points simulated from the seed)"},
	{"column", String, 0, 0, 0, "the observations' column (default: the file's only column)"},
	{"data-unit", Float, 1, 1e-300, 1e300, "the observations are the column's values divided by this (1000: km/s to thousands of km/s)"},
	{"components", Int, 2, 1, 256, "number of components K"},
	{"component-sd", Float, 10, 1e-100, 1e100, "standard deviation σ of every component"},
	{"prior-mean", Float, 150, -1e100, 1e100, "mean m of the N(m, τ²) prior on every component mean"},
	{"prior-mean-sd", Float, 1, 1e-100, 1e100, "standard deviation τ of the prior on every component mean"},
	{"dirichlet", Float, 1, 1, 1e100, "concentration α ≥ 1 of the Dir(α, …, α) prior on the weights"},
}

func init() {
	m := Model{Name: MixtureData, Help: "1-D Gaussian mixture on a CSV file's observations (or simulated from the seed), labels not marginalised",
		Params: mixtureDataParams, TextDefaults: Texts{"data": "", "column": ""}, NewText: newMixtureData}
	m.New = newWithDefaultTexts(&m)
	Register(m)
}

// newMixtureData reads the observations and builds the mixture. A bad file
// is returned as its *models.DataError.
func newMixtureData(v Values, t Texts, seed uint64) (models.Model, error) {
	y := models.MixtureData(seed)
	if t["data"] != "" {
		table, err := models.ReadTableFile(t["data"], 0)
		if err != nil {
			return nil, err
		}
		if y, err = models.Observations(table, t["column"], v["data-unit"]); err != nil {
			return nil, err
		}
	}
	m, err := models.NewMixtureModel(models.MixtureParams{Name: "mixture", K: int(v["components"]), Sigma: v["component-sd"],
		PriorMean: v["prior-mean"], PriorSD: v["prior-mean-sd"], Alpha: v["dirichlet"], Data: y})
	if err != nil {
		return nil, &ParamError{Model: MixtureData, Why: fmt.Sprint(err)}
	}
	return m, nil
}

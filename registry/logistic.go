package registry

import (
	"github.com/ptbatch/ptbatch/models"
)

// Logistic is the name of the Bayesian logistic regression on the user's
// data (models.NewLogistic).
const Logistic = "logistic"

// logisticExplorer is the index of the default explorer, MALA.
const logisticExplorer = 2

var logisticParams = []Param{
	{"data", String, 0, 0, 0, "CSV file with a header: the response column and the covariates"},
	{"response", String, 0, 0, 0, "name of the response column (values 0 or 1); every other column is a covariate"},
	{"no-intercept", Bool, 0, 0, 1, "leave out the intercept (a column of ones added before the covariates)"},
	{"prior-sd", Float, 5, 1e-100, 1e100, "prior standard deviation σ of every coefficient: β ~ N(0, σ² I)"},
	{"explorer", Int, logisticExplorer, 0, float64(len(ExplorerNames) - 1), "the local exploration: rwm, slice, mala, automala, hmc or autohmc (0 to 5 by number)"},
}

func init() {
	m := Model{Name: Logistic, Help: "Bayesian logistic regression on a CSV file: prior N(0, σ² I), batched with BLAS; gradients",
		Params: logisticParams, Choices: map[string][]string{"explorer": ExplorerNames},
		TextDefaults: Texts{"data": "", "response": "y"}, NewText: newLogistic}
	m.New = newWithDefaultTexts(&m)
	Register(m)
}

// newLogistic reads the data file and builds the regression. A bad file
// is returned as its *models.DataError, which names the file, the line
// and the column.
func newLogistic(v Values, t Texts, _ uint64) (models.Model, error) {
	if t["data"] == "" {
		return nil, &ParamError{Model: Logistic, Why: "needs data: a CSV file with a header (data)"}
	}
	table, err := models.ReadTableFile(t["data"], 0)
	if err != nil {
		return nil, err
	}
	d, err := models.NewLogisticData(table, t["response"], v["no-intercept"] == 0)
	if err != nil {
		return nil, err
	}
	ex, _ := NewExplorer(ExplorerNames[int(v["explorer"])])
	return models.NewLogistic(d, v["prior-sd"], ex)
}

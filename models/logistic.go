package models

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"strings"

	"github.com/ptbatch/ptbatch/internal/wire"
)

// LogisticData is the data of a Bayesian logistic regression
// y_i ~ Bernoulli(σ(x_iᵀβ)), σ(η) = 1/(1 + e^−η): the design matrix and
// the responses.
type LogisticData struct {
	// X is the n×p design matrix, row-major: observation i, covariate d at
	// X[i*p+d], the intercept's column of ones first when there is one.
	X []float64
	// Y holds the n responses, each 0 or 1.
	Y []float64
	// Names names the p coefficients: "intercept", then the covariates'
	// columns.
	Names []string
}

// NumRows returns the number of observations n.
func (d *LogisticData) NumRows() int { return len(d.Y) }

// NumCoefs returns the number of coefficients p.
func (d *LogisticData) NumCoefs() int { return len(d.Names) }

// NewLogisticData takes the column called response of t as the responses
// (each 0 or 1) and the other columns as covariates, after a column of
// ones named "intercept" when intercept is set. A missing response column
// or a response other than 0 or 1 is a *DataError.
func NewLogisticData(t *Table, response string, intercept bool) (*LogisticData, error) {
	rc := t.Column(response)
	if rc < 0 {
		return nil, &DataError{File: t.File, Line: 1, Why: fmt.Sprintf("no response column %q in the header (columns: %s)", response, strings.Join(t.Names, ", "))}
	}
	d := &LogisticData{}
	if intercept {
		d.Names = append(d.Names, "intercept")
	}
	for c, n := range t.Names {
		if c != rc {
			d.Names = append(d.Names, n)
		}
	}
	if intercept && t.Column("intercept") >= 0 {
		return nil, &DataError{File: t.File, Line: 1, Column: "intercept", Why: "a column is named intercept: rename it, or drop the added intercept"}
	}
	if len(d.Names) == 0 {
		return nil, &DataError{File: t.File, Line: 1, Why: "no covariates and no intercept: nothing to estimate"}
	}
	cols := len(t.Names)
	for i := 0; i < t.NumRows(); i++ {
		row := t.Rows[i*cols : (i+1)*cols]
		if y := row[rc]; y != 0 && y != 1 {
			return nil, t.Fault(i, rc, fmt.Sprintf("response %v is not 0 or 1", y))
		}
		d.Y = append(d.Y, row[rc])
		if intercept {
			d.X = append(d.X, 1)
		}
		for c, v := range row {
			if c != rc {
				d.X = append(d.X, v)
			}
		}
	}
	return d, nil
}

// ErrPriorSD is a prior standard deviation that is not positive and
// finite, or so small or large that 1/σ² leaves float64.
var ErrPriorSD = errors.New("models: the prior standard deviation must be in [1e-100, 1e100]")

// logisticModel is the logistic regression of NewLogistic: a FromBatch
// model with a name and a description of its own.
type logisticModel struct {
	*batchModel
	priorSD float64
	digest  uint64 // FNV-1a of the data
	data    *LogisticData
}

// NewLogistic returns the posterior of a Bayesian logistic regression on
// d with prior β ~ N(0, priorSD² I), explored by ex: the reference is the
// prior, the target the posterior. Its blocks evaluate every state at once
// (LogisticBatch): X·B for all states with gonum's Dgemm, the terms log(1
// + e^η) and σ(η) with kernel.LogitTerms.
func NewLogistic(d *LogisticData, priorSD float64, ex Explorer) (Model, error) {
	if !(priorSD >= 1e-100 && priorSD <= 1e100) {
		return nil, ErrPriorSD
	}
	m, err := FromBatch(LogisticBatch(d, priorSD), ex)
	if err != nil {
		return nil, err
	}
	return &logisticModel{batchModel: m.(*batchModel), priorSD: priorSD, digest: d.digest(), data: d}, nil
}

// digest returns the FNV-1a hash of the data's names and values.
func (d *LogisticData) digest() uint64 {
	var w wire.Writer
	w.Float64s(d.X)
	w.Float64s(d.Y)
	h := fnv.New64a()
	h.Write(w.Bytes())
	h.Write([]byte(strings.Join(d.Names, ",")))
	return h.Sum64()
}

// Name returns "logistic".
func (m *logisticModel) Name() string { return "logistic" }

// Description returns "logistic n=… coefs=… prior-sd=… data=… explorer=…",
// the data by its FNV-1a hash.
func (m *logisticModel) Description() string {
	return fmt.Sprintf("logistic n=%d coefs=%s prior-sd=%s data=%016x explorer=%s", m.b.Dim, strings.Join(m.Observables(), ","),
		fmtFloat(m.priorSD), m.digest, describeExplorer(m.ex))
}

// LogisticFuncs returns the same posterior as NewLogistic's one state at
// a time, written as a user would write it for FromFuncs: dot products and
// math.Log1p(math.Exp(η)) (η + log1p(e^−η) for η > 0, which does not
// overflow) per observation.
func LogisticFuncs(d *LogisticData, priorSD float64) Funcs {
	p, prec := d.NumCoefs(), 1/(priorSD*priorSD)
	logPrior := func(b []float64) float64 { return -prec * sumSquares(b) / 2 }
	eta := func(b []float64, i int) float64 {
		s := 0.0
		for k, v := range d.X[i*p : (i+1)*p] {
			s += v * b[k]
		}
		return s
	}
	return Funcs{
		Dim: p, Names: d.Names, LogReference: logPrior,
		LogTarget: func(b []float64) float64 {
			ll := logPrior(b)
			for i, y := range d.Y {
				e := eta(b, i)
				ll += y*e - softplusScalar(e)
			}
			return ll
		},
		SampleReference: func(r Rand, b []float64) {
			for k := range b {
				b[k] = priorSD * r.Normal()
			}
		},
		GradLogReference: func(b, g []float64) {
			for k, v := range b {
				g[k] = -prec * v
			}
		},
		GradLogTarget: func(b, g []float64) {
			for k, v := range b {
				g[k] = -prec * v
			}
			for i, y := range d.Y {
				r := y - 1/(1+math.Exp(-eta(b, i)))
				for k, x := range d.X[i*p : (i+1)*p] {
					g[k] += r * x
				}
			}
		},
	}
}

// softplusScalar returns log(1 + e^x) without overflow.
func softplusScalar(x float64) float64 {
	if x > 0 {
		return x + math.Log1p(math.Exp(-x))
	}
	return math.Log1p(math.Exp(x))
}

var _ Described = (*logisticModel)(nil)

package models_test

import (
	"math"

	"github.com/ptbatch/ptbatch/models"
)

// corrGauss is the 2-d target N(0, Σ) with standard deviations 1 and 2
// and correlation 0.8, Σ = [[1, 1.6], [1.6, 4]], precision Σ⁻¹ =
// [[4, −1.6], [−1.6, 1]]/(4 − 2.56), with reference N(0, I).
func corrGauss() models.Funcs {
	const det = 4 - 1.6*1.6
	p := [2][2]float64{{4 / det, -1.6 / det}, {-1.6 / det, 1 / det}}
	return models.Funcs{
		Dim:          2,
		LogReference: models.StdNormalLog,
		LogTarget: func(x []float64) float64 {
			return -0.5 * (p[0][0]*x[0]*x[0] + 2*p[0][1]*x[0]*x[1] + p[1][1]*x[1]*x[1])
		},
		SampleReference:  models.StdNormalDraw,
		GradLogReference: models.StdNormalGrad,
		GradLogTarget: func(x, g []float64) {
			g[0] = -(p[0][0]*x[0] + p[0][1]*x[1])
			g[1] = -(p[1][0]*x[0] + p[1][1]*x[1])
		},
	}
}

// annealedCov returns the covariance of the annealed corrGauss density
// exp(η0·W0 + η1·W1) = N(0, (η0·I + η1·Σ⁻¹)⁻¹), as its Cholesky factor.
func annealedChol(eta0, eta1 float64) [2][2]float64 {
	const det = 4 - 1.6*1.6
	a, b, d := eta0+eta1*4/det, -eta1*1.6/det, eta0+eta1*1/det // precision
	pdet := a*d - b*b
	c00, c01, c11 := d/pdet, -b/pdet, a/pdet // covariance
	l00 := math.Sqrt(c00)
	l10 := c01 / l00
	return [2][2]float64{{l00, 0}, {l10, math.Sqrt(c11 - l10*l10)}}
}

// funnel is Neal's funnel in dim coordinates: v ~ N(0, scale²),
// x_i | v ~ N(0, e^v), with reference N(0, I), written here apart from
// models.NewFunnel.
func funnel(dim int, scale float64) models.Funcs {
	return models.Funcs{
		Dim:          dim,
		LogReference: models.StdNormalLog,
		LogTarget: func(x []float64) float64 {
			v := x[0]
			s := -v * v / (2 * scale * scale)
			for _, xi := range x[1:] {
				s -= xi*xi*math.Exp(-v)/2 + v/2
			}
			return s
		},
		SampleReference:  models.StdNormalDraw,
		GradLogReference: models.StdNormalGrad,
		GradLogTarget: func(x, g []float64) {
			v := x[0]
			g[0] = -v / (scale * scale)
			for i, xi := range x[1:] {
				g[0] += xi*xi*math.Exp(-v)/2 - 0.5
				g[i+1] = -xi * math.Exp(-v)
			}
		},
	}
}

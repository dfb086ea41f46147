package models

// The standard normal N(0, I), in the dimension of the state x it is
// given: the usual reference of a Funcs model. Its three functions fit
// Funcs' LogReference, SampleReference and GradLogReference as they are,
// so that a model with this reference writes only its target:
//
//	models.Funcs{Dim: d, LogReference: models.StdNormalLog,
//		SampleReference: models.StdNormalDraw, GradLogReference: models.StdNormalGrad, …}

// StdNormalLog returns the log density of N(0, I) at x up to its
// constant, −|x|²/2.
func StdNormalLog(x []float64) float64 { return -0.5 * sumSquares(x) }

// StdNormalDraw overwrites x with a draw from N(0, I), one rng.Normal()
// per coordinate, in order.
func StdNormalDraw(rng Rand, x []float64) {
	for d := range x {
		x[d] = rng.Normal()
	}
}

// StdNormalGrad writes the gradient of StdNormalLog at x, −x, to grad.
func StdNormalGrad(x, grad []float64) {
	for d, v := range x {
		grad[d] = -v
	}
}

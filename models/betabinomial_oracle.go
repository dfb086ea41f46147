package models

// ExactLogZ returns log(Z1/Z0) = ln B(A+S, B+F) − ln B(A, B): with W0 =
// (A−1) ln p + (B−1) ln(1−p) and W1 = W0 + S ln p + F ln(1−p), Z0 =
// B(A, B) and Z1 = B(A+S, B+F), the log marginal likelihood of the data
// without the binomial coefficients.
func (m *BetaBinomial) ExactLogZ() float64 {
	return lnBeta(m.A+float64(m.Successes), m.B+float64(m.Failures)) - lnBeta(m.A, m.B)
}

var _ ExactLogZ = (*BetaBinomial)(nil)

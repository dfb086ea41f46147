package diag

import "math"

// splitRhat returns the R-hat of eqs. (1)–(4) of the chains given (already
// split into halves): with N draws per chain, B = N·(the sample variance
// of the chains' means), W = the mean of the chains' sample variances,
// var⁺ = (N−1)/N·W + B/N and R̂ = √(var⁺/W). ErrConstant if W is 0.
func splitRhat(chains [][]float64) (float64, error) {
	n := float64(len(chains[0]))
	means := make([]float64, len(chains))
	var w float64
	for m, c := range chains {
		mean, v := meanVar(c)
		means[m] = mean
		w += v / float64(len(chains))
	}
	if !(w > 0) {
		return 0, ErrConstant
	}
	_, vm := meanVar(means)
	b := n * vm
	return math.Sqrt(((n-1)/n*w + b/n) / w), nil
}

// meanVar returns the mean and the sample variance (divisor n−1) of x.
func meanVar(x []float64) (mean, variance float64) {
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	for _, v := range x {
		d := v - mean
		variance += d * d
	}
	return mean, variance / float64(len(x)-1)
}

// Rhat returns the R-hat of Section 4.2: the larger of the split R-hat of
// the rank-normalised draws (bulk) and of the rank-normalised folded draws
// |θ − median θ| (tail), chains given as M chains of N draws each.
func Rhat(chains [][]float64) (float64, error) {
	if err := check(chains); err != nil {
		return 0, err
	}
	bulk, err := splitRhat(rankNormal(split(chains)))
	if err != nil {
		return 0, err
	}
	tail, err := splitRhat(rankNormal(split(fold(chains))))
	if err != nil {
		return 0, err
	}
	return math.Max(bulk, tail), nil
}

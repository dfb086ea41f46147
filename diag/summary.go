package diag

import "math"

// Probabilities are the levels of Summary.Quantiles: 5 %, 50 % and 95 %.
var Probabilities = [3]float64{0.05, 0.5, 0.95}

// Summary holds the diagnostics of one scalar quantity over M chains (the
// replicates) of N draws each (see the package documentation).
type Summary struct {
	Chains, Draws int // M and N

	// Rhat is the larger of BulkRhat and TailRhat (Section 4.2): below
	// 1.01 the chains agree.
	Rhat, BulkRhat, TailRhat float64
	// ESSBulk is the effective sample size of the rank-normalised draws
	// (Section 4.1); ESSTail the smaller of those of the 5 % and 95 %
	// quantiles (Section 4.3). Both are over all M·N draws.
	ESSBulk, ESSTail float64
	// Mean and SD are the mean and standard deviation of all draws; MCSE
	// is the Monte Carlo standard error of Mean, SD/√ESS with the ESS of
	// the draws as they are (Section 3.2, not rank-normalised).
	Mean, SD, MCSE float64
	// Quantiles are the quantiles at Probabilities of all draws.
	Quantiles [3]float64
}

// Summarize returns the diagnostics of the chains, M ≥ MinChains chains of
// N ≥ MinDraws finite draws each; an error (ErrTooFewChains, ErrTooFewDraws,
// ErrUnequalChains, ErrNotFinite, ErrConstant) when they cannot be
// computed. chains is not modified.
func Summarize(chains [][]float64) (Summary, error) {
	if err := check(chains); err != nil {
		return Summary{}, err
	}
	s := Summary{Chains: len(chains), Draws: len(chains[0])}
	var err error
	halves := split(chains)
	if s.BulkRhat, err = splitRhat(rankNormal(halves)); err != nil {
		return Summary{}, err
	}
	if s.TailRhat, err = splitRhat(rankNormal(split(fold(chains)))); err != nil {
		return Summary{}, err
	}
	s.Rhat = math.Max(s.BulkRhat, s.TailRhat)
	if s.ESSBulk, err = ess(rankNormal(halves)); err != nil {
		return Summary{}, err
	}
	sorted := sortedCopy(pooled(chains))
	if s.ESSTail, err = tailESS(chains, sorted); err != nil {
		return Summary{}, err
	}
	for i, p := range Probabilities {
		s.Quantiles[i] = quantile(sorted, p)
	}
	var essMean float64
	if essMean, err = ess(halves); err != nil {
		return Summary{}, err
	}
	var v float64
	s.Mean, v = meanVar(sorted)
	s.SD = math.Sqrt(v)
	s.MCSE = s.SD / math.Sqrt(essMean)
	return s, nil
}

// tailESS returns the smaller of the ESS of I(θ ≤ q_0.05) and of
// I(θ ≤ q_0.95) over the half-chains (Section 4.3), sorted the pooled
// draws in order.
func tailESS(chains [][]float64, sorted []float64) (float64, error) {
	lo, err := ess(split(indicator(chains, quantile(sorted, 0.05))))
	if err != nil {
		return 0, err
	}
	hi, err := ess(split(indicator(chains, quantile(sorted, 0.95))))
	if err != nil {
		return 0, err
	}
	return math.Min(lo, hi), nil
}

// ESSBulk returns the bulk effective sample size of the chains (Summary).
func ESSBulk(chains [][]float64) (float64, error) {
	if err := check(chains); err != nil {
		return 0, err
	}
	return ess(rankNormal(split(chains)))
}

// ESSTail returns the tail effective sample size of the chains (Summary).
func ESSTail(chains [][]float64) (float64, error) {
	if err := check(chains); err != nil {
		return 0, err
	}
	return tailESS(chains, sortedCopy(pooled(chains)))
}

package diag

import "errors"

// The errors of Summarize and the functions it is made of: the input cannot
// give the diagnostics (never a NaN in their place).
var (
	// ErrTooFewChains: fewer than MinChains chains.
	ErrTooFewChains = errors.New("diag: too few chains (replicates): at least 2 are needed")
	// ErrTooFewDraws: fewer than MinDraws draws per chain.
	ErrTooFewDraws = errors.New("diag: too few draws per chain: at least 12 are needed")
	// ErrUnequalChains: the chains have different lengths.
	ErrUnequalChains = errors.New("diag: the chains have different numbers of draws")
	// ErrNotFinite: a draw is NaN or infinite.
	ErrNotFinite = errors.New("diag: a draw is NaN or infinite")
	// ErrConstant: every draw of a half-chain is the same, so the
	// within-chain variance is 0 and R-hat and the ESS are undefined (the
	// quantity may be constant by construction, or stuck).
	ErrConstant = errors.New("diag: the draws of a chain are all equal")
)

// MinChains is the least number of chains Summarize accepts: the
// diagnostics compare chains (replicates) with one another.
const MinChains = 2

// MinDraws is the least number of draws per chain Summarize accepts: each
// half-chain then has at least 6, enough for the first pair of
// autocorrelations of Geyer's sequence to be estimated.
const MinDraws = 12

// check returns the error, if any, that keeps chains from being summarised.
func check(chains [][]float64) error {
	if len(chains) < MinChains {
		return ErrTooFewChains
	}
	n := len(chains[0])
	for _, c := range chains {
		if len(c) != n {
			return ErrUnequalChains
		}
	}
	if n < MinDraws {
		return ErrTooFewDraws
	}
	for _, c := range chains {
		for _, x := range c {
			if x-x != 0 {
				return ErrNotFinite
			}
		}
	}
	return nil
}

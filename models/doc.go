// Package models holds the targets ptbatch samples: each gives a reference
// log density W0 and a target log density W1 (both unnormalised), and a
// local-exploration move for every annealed density
//
//	π(x) ∝ exp(η0·W0(x) + η1·W1(x))
//
// with per-lane coefficients (η0, η1), batched over the layout.Lanes
// replicates of a block (the exponential annealing family of §4 of Syed et
// al., ICML 2021, of which the linear path η(t) = (1-t, t) is one member).
// Every batched move is paired with a scalar reference implementation that
// tests use as an oracle.
package models

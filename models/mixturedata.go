package models

import (
	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/layout"
)

// Settings of the simulated data of the mixture-model experiment (appendix
// "Experimental details", Mixture model): MixtureDataSize points from
// 0.3·N(100, 10²) + 0.7·N(200, 10²).
const (
	MixtureDataSize = 1000
	mixDataWeight0  = 0.3
	mixDataMean0    = 100.0
	mixDataMean1    = 200.0
	mixDataSD       = 10.0
)

// MixtureData returns the MixtureDataSize observations simulated under
// seed from 0.3·N(100, 10²) + 0.7·N(200, 10²). They come from a stream of
// their own: the kernel.Stream lane of replicate 2⁶⁴-1 under seed (the
// replicate number uint64(-1), which no engine replicate uses), drawing
// first MixtureDataSize uniforms u_n (component 0 when u_n < 0.3), then
// MixtureDataSize normals z_n as kernel.Normals draws them, and
// y_n = mean of the component + 10 z_n.
func MixtureData(seed uint64) []float64 {
	rng := kernel.NewStream(seed, -layout.Lanes).Lane(layout.Lanes - 1)
	first := make([]bool, MixtureDataSize)
	for n := range first {
		first[n] = rng.Uniform() < mixDataWeight0
	}
	z := kernel.Normals(rng, MixtureDataSize)
	y := make([]float64, MixtureDataSize)
	for n := range y {
		mean := mixDataMean1
		if first[n] {
			mean = mixDataMean0
		}
		y[n] = mean + mixDataSD*z[n]
	}
	return y
}

// NewMixture returns the mixture model of the paper's experiments (appendix
// "Experimental details", Mixture model): the Mixture with K = 2 components
// N(μ_i, 10²), Dir(1, 1) weights and an N(150, 1) prior on both means, on
// the MixtureDataSize points MixtureData(seed), with the labels not
// marginalised: 2 + 2 + 1000 = 1004 latent variables. Its name is
// "mixture".
func NewMixture(seed uint64) *Mixture {
	m, err := NewMixtureModel(MixtureParams{
		Name: "mixture", K: 2, Sigma: 10, PriorMean: 150, PriorSD: 1, Alpha: 1,
		Data: MixtureData(seed),
	})
	if err != nil {
		panic("models: mixture parameters are invalid")
	}
	return m
}

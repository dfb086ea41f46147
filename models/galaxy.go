package models

// NewGalaxy returns the galaxy model of the paper's experiments (appendix
// "Experimental details", Galaxy data): the Mixture with K = 6 components
// N(μ_i, 1), Dir(1,…,1) weights and the deliberately misspecified N(150, 1)
// prior on every mean, on the 82 galaxy velocities of Roeder (1990) in
// thousands of km/s (9.172 … 34.279, the scale of the authors' code), with
// the labels not marginalised: 6 + 6 + 82 = 94 latent variables. Its name
// is "galaxy".
func NewGalaxy() *Mixture {
	m, err := NewMixtureModel(MixtureParams{
		Name: "galaxy", K: 6, Sigma: 1, PriorMean: 150, PriorSD: 1, Alpha: 1,
		Data: galaxyVelocities[:],
	})
	if err != nil {
		panic("models: galaxy parameters are invalid")
	}
	return m
}

package batch

import "context"

// PilotChains is the number of chains of the first pilot of
// ChooseDefaultChains; a pilot whose mean rejection exceeds one half is
// repeated with twice as many (ChooseChains).
const PilotChains = 32

// The pilots' iterations are a pilotShare-th of the run's, at least
// pilotMinIterations and at most all of them (PilotIterations).
const (
	pilotShare         = 10
	pilotMinIterations = 2000
)

// PilotIterations returns the iterations of each pilot of
// ChooseDefaultChains for a run of iterations: a tenth of them, at least
// 2000 and at most all of them.
func PilotIterations(iterations int) int {
	return min(iterations, max(iterations/pilotShare, pilotMinIterations))
}

// ChooseDefaultChains is ChooseChains with the pilots of `ptbatch run
// --chains auto`: PilotChains chains for the first pilot, and
// PilotIterations(cfg.Iterations) iterations each.
func ChooseDefaultChains(ctx context.Context, cfg Config) (ChainsChoice, error) {
	return ChooseChains(ctx, cfg, PilotChains, PilotIterations(cfg.Iterations))
}

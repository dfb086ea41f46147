package runout

import (
	"encoding/json"

	"github.com/ptbatch/ptbatch/batch"
)

// ChainsAutoJSON returns the JSON object chains_auto of a run whose
// chains were chosen by batch.ChooseChains: the choice, its barrier
// estimate (null when not finite), each pilot's size and barrier, and the
// pilots' cost in chain-iterations and seconds. Settings.ChainsAuto
// holds it.
func ChainsAutoJSON(c *batch.ChainsChoice) (json.RawMessage, error) {
	pilots := make([]map[string]any, len(c.Pilots))
	seconds := 0.0
	for i, p := range c.Pilots {
		pilots[i] = map[string]any{"chains": p.Chains, "iterations": p.Iterations, "replicates": p.Replicates, "barrier": Num(p.Barrier)}
		seconds += p.Elapsed.Seconds()
	}
	return json.Marshal(map[string]any{
		"chains":                 c.Chains,
		"barrier":                Num(c.Barrier),
		"pilots":                 pilots,
		"pilot_chain_iterations": c.ChainIterations(),
		"pilot_seconds":          seconds,
	})
}
